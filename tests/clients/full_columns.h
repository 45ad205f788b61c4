// A snapshot with every column of the column tables (kernels/world/column_tables.h)
// filled, each with values of its own, and its columns by name: what the column-table tests
// send through every path a column travels (tests/clients/column_tables_test.cpp, and
// through throngd in client_e2e_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/world/world_types.h"

namespace throng::testing {

inline constexpr size_t kRows = 3;

using ColumnValues = std::vector<double>;  // any column's values, for comparing by name

template <class T>
ColumnValues AsDoubles(const std::vector<T>& values) {
  return ColumnValues(values.begin(), values.end());
}

// Every column a value of its own per row: table-ruled floats get small exact binary
// fractions (within every bound), ids count up, and the ByHand columns are left for
// FillByHand, which knows what their own checks accept.
template <class Batch, class Visit>
void FillByRule(Batch& batch, Visit visit) {
  int j = 0;
  visit(batch, [&](const ColumnInfo& c, auto& column) {
    using T = typename std::decay_t<decltype(column)>::value_type;
    column.clear();
    ++j;
    if (c.rule.kind == ColumnRule::Kind::kId) {
      for (size_t r = 0; r < kRows; ++r) column.push_back(static_cast<T>(1000 + r));
    } else if (c.rule.kind != ColumnRule::Kind::kByHand) {
      for (size_t r = 0; r < kRows; ++r) {
        column.push_back(static_cast<T>(0.5 + 0.03125 * j + 0.0078125 * static_cast<double>(r)));
      }
    }
  });
}

inline Snapshot FullSnapshot(const WorldConfig& config) {
  Snapshot s;
  s.tick = 7;
  s.dt = 0.125f;
  FillByRule(s.agents, [](auto& b, auto f) { VisitAgentColumns(b, f); });
  FillByRule(s.vehicles, [](auto& b, auto f) { VisitVehicleColumns(b, f); });
  FillByRule(s.forward, [](auto& b, auto f) { VisitForwardColumns(b, f); });
  // The ByHand columns, with values their checks accept.
  s.agents.flags = {0, static_cast<uint8_t>(kSnapshotNonCooperative), 0};
  s.agents.behavior = {static_cast<uint8_t>(AgentBehavior::kArrive),
                       static_cast<uint8_t>(AgentBehavior::kSeek),
                       static_cast<uint8_t>(AgentBehavior::kPreferredVelocity)};
  s.agents.target = {11, 12, 13};  // read only for navigating agents (none here)
  s.vehicles.spline_id.assign(kRows, config.splines.at(0).id);
  s.vehicles.profile = {0, 0, 0};
  s.forward.radius = {0.25f, 0.375f, 0.5f};
  s.forward.probes = {3, 5, 7};
  s.forward.half_angle = {0.5f, 1.f, 1.5f};
  s.forward.probe_length = {4.f, 5.f, 6.f};
  s.forward.turn_speed = {1.f, 2.f, 3.f};
  return s;
}

// name -> values of every column of a batch.
template <class Batch, class Visit>
std::map<std::string, ColumnValues> ColumnsOf(const Batch& batch, Visit visit) {
  std::map<std::string, ColumnValues> out;
  visit(batch, [&](const ColumnInfo& c, const auto& column) { out[c.name] = AsDoubles(column); });
  return out;
}

inline std::map<std::string, ColumnValues> AgentColumns(const AgentSnapshot& a) {
  return ColumnsOf(a, [](const auto& b, auto f) { VisitAgentColumns(b, f); });
}
inline std::map<std::string, ColumnValues> VehicleColumns(const VehicleSnapshot& v) {
  return ColumnsOf(v, [](const auto& b, auto f) { VisitVehicleColumns(b, f); });
}
inline std::map<std::string, ColumnValues> ForwardColumns(const ForwardSnapshot& f) {
  return ColumnsOf(f, [](const auto& b, auto g) { VisitForwardColumns(b, g); });
}

inline void ExpectSameColumns(const Snapshot& want, const Snapshot& got, const std::string& path) {
  EXPECT_EQ(AgentColumns(want.agents), AgentColumns(got.agents)) << path;
  EXPECT_EQ(VehicleColumns(want.vehicles), VehicleColumns(got.vehicles)) << path;
  EXPECT_EQ(ForwardColumns(want.forward), ForwardColumns(got.forward)) << path;
}

}  // namespace throng::testing
