// "corridor" and "crossing": groups of pedestrians swapping places through a bottleneck
// (counter-flow) and across a four-way plaza (crossing flows). Sizes in docs/SCENARIOS.md.
#include <algorithm>
#include <cmath>

#include "kernels/scenarios/scenario_layout.h"

namespace throng::scenarios::detail {
namespace {

using layout::Box;
using layout::ColumnsFor;
using layout::kLatticeSpacing;
using layout::Wall;

// Gap between a group's first column and the mouth of its room or arm, and between its
// last column and the wall behind it, m.
constexpr float kFrontGap = 1.5f;
constexpr float kBackGap = 1.f;
constexpr float kWallThickness = 0.5f;  // m, the corridor's walls

// Lattice rows that fit across a passage `width` wide, keeping 1.25 m (less jitter) from
// its sides; at least one.
int RowsAcross(float width) {
  return std::max(1, static_cast<int>(std::floor((width - 1.5f) / kLatticeSpacing)));
}

// The crossing's plaza, as wide as each of its streets, m.
float CrossingPlaza(size_t size) { return std::max(6.f, 0.8f * std::sqrt(static_cast<float>(size))); }

// Lattice columns of each street's group.
int CrossingColumns(size_t size) { return ColumnsFor((size + 3) / 4, RowsAcross(CrossingPlaza(size))); }

}  // namespace

// A corridor along x between two long walls (thin boxes), W = max(4, 0.8 sqrt(size)) m
// wide (8 m at 100 people, 80 m at 10,000) and max(10, W) m long, open at both ends.
// Group A (the first half, ids 0 ..) waits left of it, as wide as the corridor, and goes
// right; group B the reverse. Everyone's straight line to the goal runs through the
// corridor, so no one needs a path planner, only avoidance.
Scenario MakeCorridor(size_t size, uint32_t seed) {
  Scenario s = layout::PedestrianScenario("corridor", size, seed);
  ScenarioRng rng(seed);
  const size_t group_a = (size + 1) / 2, group_b = size / 2;
  const float width = std::max(4.f, 0.8f * std::sqrt(static_cast<float>(size)));
  const float length = std::max(10.f, width);
  const int rows = RowsAcross(width);
  const int cols = ColumnsFor(group_a, rows);
  const float near = 0.5f * length + kFrontGap;
  const float hl = 0.5f * length, hw = 0.5f * width;

  s.config.obstacles.push_back(Box({-hl, hw}, {hl, hw + kWallThickness}));
  s.config.obstacles.push_back(Box({-hl, -hw - kWallThickness}, {hl, -hw}));
  layout::AddSwappingGroup(s.initial.agents, group_a, {-1.f, 0.f}, near, rows, cols, rng);
  layout::AddSwappingGroup(s.initial.agents, group_b, {1.f, 0.f}, near, rows, cols, rng);
  // Everyone walks the same distance: column c to column cols - 1 - c on the other side.
  s.suggested_ticks = layout::WalkTicks(2.f * near + static_cast<float>(cols - 1) * kLatticeSpacing,
                                        layout::kPedestrianSpeed, s.initial.dt);
  return s;
}

CrossingStreets CrossingStreetsFor(size_t size) {
  const float hp = 0.5f * CrossingPlaza(size);
  const float near = hp + kFrontGap;
  return {hp, near + static_cast<float>(CrossingColumns(size) - 1) * kLatticeSpacing + kBackGap};
}

// A square plaza P = max(6, 0.8 sqrt(size)) m wide (80 m at 10,000) with a street as wide
// on each side, between four corner buildings; each street ends in a wall just behind its
// group. A quarter of the crowd waits in each street (west, east, south, north, in id
// order) and crosses the plaza to the opposite street.
Scenario MakeCrossing(size_t size, uint32_t seed) {
  Scenario s = layout::PedestrianScenario("crossing", size, seed);
  ScenarioRng rng(seed);
  const float plaza = CrossingPlaza(size);
  const int rows = RowsAcross(plaza);
  const int cols = CrossingColumns(size);
  const float near = 0.5f * plaza + kFrontGap;
  const CrossingStreets streets = CrossingStreetsFor(size);
  const float end = streets.end;
  const float hp = streets.half_plaza;

  auto& obstacles = s.config.obstacles;
  obstacles.push_back(Box({hp, hp}, {end, end}));
  obstacles.push_back(Box({-end, hp}, {-hp, end}));
  obstacles.push_back(Box({-end, -end}, {-hp, -hp}));
  obstacles.push_back(Box({hp, -end}, {end, -hp}));
  obstacles.push_back(Wall({end, -hp}, {end, hp}));
  obstacles.push_back(Wall({-end, -hp}, {-end, hp}));
  obstacles.push_back(Wall({-hp, end}, {hp, end}));
  obstacles.push_back(Wall({-hp, -end}, {hp, -end}));

  const Vec2 outs[4] = {{-1.f, 0.f}, {1.f, 0.f}, {0.f, -1.f}, {0.f, 1.f}};
  for (size_t g = 0; g < 4; ++g) {
    const size_t count = size / 4 + (g < size % 4 ? 1 : 0);
    layout::AddSwappingGroup(s.initial.agents, count, outs[g], near, rows, cols, rng);
  }
  s.suggested_ticks = layout::WalkTicks(2.f * near + static_cast<float>(cols - 1) * kLatticeSpacing,
                                        layout::kPedestrianSpeed, s.initial.dt);
  return s;
}

}  // namespace throng::scenarios::detail
