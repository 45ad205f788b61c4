// Checks shared by every columnar input (agents, vehicles, forward agents, spline queries):
// errors are std::invalid_argument naming the table, column and index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace throng {

using FloatColumn = std::pair<const char*, const std::vector<float>*>;

// "agents.px: has 9 values, expected 10"
void RequireLength(const char* table, const char* column, size_t size, size_t n);

// Every column has n values and every value is finite ("agents.px[12]: not finite").
void RequireFiniteColumns(const char* table, std::initializer_list<FloatColumn> columns, size_t n);

// Every column has n values and every value v is finite with |v| <= bound
// ("agents.y[1]: 3.4e+38 m is beyond the limit of 2e+06 m"). One pass: the check costs
// no more than the finite check alone.
void RequireBoundedColumns(const char* table, std::initializer_list<FloatColumn> columns, size_t n,
                           float bound, const char* unit);

// No id twice; the message names both places ("agents.id[7]: 31 repeats agents.id[2]").
void RequireUniqueIds(const char* table, const std::vector<uint32_t>& ids);

// "agents.radius[3]"
std::string ColumnAt(const char* table, const char* column, size_t i);

// Optional columns that only make sense together: both absent or both present
// ("agents.goal_y: missing while goal_x is given").
void RequireTogether(const char* table, const char* first, const std::vector<float>& a,
                     const char* second, const std::vector<float>& b);

}  // namespace throng
