// Checks shared by every columnar input (agents, vehicles, forward agents, spline queries):
// errors are std::invalid_argument naming the table, column and index.
#pragma once

#include <omp.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/input/column_bounds.h"
#include "kernels/input/column_rule.h"
#include "kernels/input/first_index.h"

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

// Values that must lie in [min, max], finite (a NaN is in no range).
struct ValueRange {
  const float* values;
  float min, max;
};

// Whether every one of the n values of every range's column lies in its range: one pass,
// one parallel region for all the columns (each column's own check wakes the cores once
// or twice, and under OMP_WAIT_POLICY=PASSIVE a wake-up costs tens of microseconds).
bool AllInRange(const ValueRange* ranges, size_t count, size_t n);

// Whether every value of every range lies in it and row_ok(i) holds for every row i < n:
// AllInRange and a check across a row's columns in the same region, each thread its own
// slice of every column (a loop per column that the compiler vectorises; row_ok is called
// once per row, and not at all where it is always true).
template <class RowOk>
bool AllInRangeAnd(const ValueRange* ranges, size_t count, size_t n, const RowOk& row_ok) {
  int all_in = 1;
#pragma omp parallel reduction(& : all_in) if (n >= kParallelCheckFrom)
  {
    const auto threads = static_cast<size_t>(omp_get_num_threads());
    const auto thread = static_cast<size_t>(omp_get_thread_num());
    const size_t begin = n * thread / threads, end = n * (thread + 1) / threads;
    for (size_t c = 0; c < count; ++c) {
      const float* values = ranges[c].values;
      const float lo = ranges[c].min, hi = ranges[c].max;
      int in = 1;
      for (size_t i = begin; i < end; ++i) in &= (values[i] >= lo) & (values[i] <= hi);
      all_in &= in;
    }
    int rows = 1;
    for (size_t i = begin; i < end && rows; ++i) rows = row_ok(i) ? 1 : 0;
    all_in &= rows;
  }
  return all_in != 0;
}

// The range a float column's rule allows, or false for a rule that reads no values (Id,
// ByHand).
bool RangeOfRule(const ColumnRule& rule, const float* values, ValueRange* range);

// What BoundsFromTable found: the names it gave bounds, the table's float columns, and
// those of them with a value rule.
struct TableBoundsCount {
  int found = 0, floats = 0, ruled = 0;
};

// For a table (`visit(f)` as below; its columns may be empty), the bounds each of the
// `count` named float columns' rule allows, into `bounds` in `names`' order: what a
// preparation's per-row checks read (docs/WORLD.md, "Where the checks run"). The counts let
// the caller insist that its list and the table agree, so that a column renamed or added in
// one place only cannot go unchecked.
template <class Visit>
TableBoundsCount BoundsFromTable(Visit visit, const char* const* names, int count,
                                 ColumnBounds* bounds) {
  TableBoundsCount n;
  visit([&](const ColumnInfo& column, const auto& values) {
    if constexpr (std::is_same_v<std::decay_t<decltype(values)>, std::vector<float>>) {
      ++n.floats;
      ValueRange range;
      if (!RangeOfRule(column.rule, nullptr, &range)) return;
      ++n.ruled;
      for (int k = 0; k < count; ++k) {
        if (std::string_view(names[k]) != column.name) continue;
        bounds[k] = {range.min, range.max};
        ++n.found;
      }
    }
  });
  return n;
}

// For a table (`visit(f)` as below): whether every column present (a required one always)
// has n values.
template <class Visit>
bool LengthsRight(size_t n, Visit visit) {
  bool lengths_right = true;
  visit([&](const ColumnInfo& column, const auto& values) {
    if (column.need == ColumnNeed::kOptional && values.empty()) return;
    lengths_right = lengths_right && values.size() == n;
  });
  return lengths_right;
}

// Whether the ids strictly increase, which makes them unique without a sort (callers
// usually number their agents in order).
bool IdsIncrease(const std::vector<uint32_t>& id);

// For a table, `visit(f)` calling f(ColumnInfo, column) for each column in the table's
// order: whether every column present (a required one always) has n values, and the value
// range of each present float column with a value rule, appended to `ranges`.
template <class Visit>
bool LengthsAndRanges(size_t n, Visit visit, std::vector<ValueRange>* ranges) {
  bool lengths_right = true;
  visit([&](const ColumnInfo& column, const auto& values) {
    if (column.need == ColumnNeed::kOptional && values.empty()) return;
    lengths_right = lengths_right && values.size() == n;
    if constexpr (std::is_same_v<std::decay_t<decltype(values)>, std::vector<float>>) {
      ValueRange range;
      if (RangeOfRule(column.rule, values.data(), &range)) ranges->push_back(range);
    }
  });
  return lengths_right;
}

// One column of a snapshot by its table row (kernels/world/column_tables.h): a required
// column, or an optional one that is present, has n values, and every value passes the
// row's rule (an Id column's uniqueness is RequireUniqueIds, a ByHand one's values its
// own check). Messages as the checks above give them.
void CheckColumn(const char* table, const ColumnInfo& column, const std::vector<float>& values,
                 size_t n);
template <class T>
void CheckColumn(const char* table, const ColumnInfo& column, const std::vector<T>& values,
                 size_t n) {
  if (column.need == ColumnNeed::kOptional && values.empty()) return;
  RequireLength(table, column.name, values.size(), n);
  if (column.rule.kind != ColumnRule::Kind::kId && column.rule.kind != ColumnRule::Kind::kByHand) {
    throw std::logic_error(std::string(table) + "." + column.name +
                           ": a value rule on a column that is not float");
  }
}

// CheckColumn over a whole table, `visit(f)` calling f(ColumnInfo, column) for each column
// in the table's order. The common case, every length right and every value within its
// rule, is one pass (AllInRange); otherwise the columns are walked again with CheckColumn,
// one by one, so the error names the same first offender as that walk alone.
template <class Visit>
void CheckColumns(const char* table, size_t n, Visit visit) {
  std::vector<ValueRange> ranges;
  const bool lengths_right = LengthsAndRanges(n, visit, &ranges);
  if (lengths_right && AllInRange(ranges.data(), ranges.size(), n)) {
    // Lengths and values pass; a value rule on a column that is not float is still a
    // mistake in the table.
    visit([&](const ColumnInfo& column, const auto& values) {
      if constexpr (!std::is_same_v<std::decay_t<decltype(values)>, std::vector<float>>) {
        CheckColumn(table, column, values, n);
      }
    });
    return;
  }
  visit([&](const ColumnInfo& column, const auto& values) { CheckColumn(table, column, values, n); });
}

}  // namespace throng
