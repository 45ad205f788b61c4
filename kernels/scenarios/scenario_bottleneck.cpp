// "bottleneck_1m" and "bottleneck_2m": a crowd leaving a waiting area through one door
// (issue 15's bottleneck, the laboratory set-up of Seyfried et al.). Layout in
// docs/SCENARIOS.md.
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/scenarios/scenario_layout.h"

namespace throng::scenarios {

float BottleneckDoor(std::string_view name) {
  if (name == "bottleneck_1m") return 1.f;
  if (name == "bottleneck_2m") return 2.f;
  return 0.f;
}

namespace detail {
namespace {

// Waiting people stand on a square lattice of this pitch (1.23 people per m^2, a packed
// waiting area), each moved by up to kBottleneckJitter on each axis: neighbours stay at
// least 0.9 - 2 * 0.1 = 0.7 m apart, over the 0.6 m that two radii need.
constexpr float kBottleneckPitch = 0.9f;   // m
constexpr float kBottleneckJitter = 0.1f;  // m
constexpr float kWallHalfThickness = 0.15f;
constexpr float kFrontGap = 1.f;       // m from the door's line to the first column
constexpr float kRoomClearance = 1.f;  // m from the block to the room's other walls
// People leave at about 1.3-1.9 per metre of door per second (Seyfried et al.); the
// suggested run allows for 1 per metre per second.
constexpr float kSlowestFlow = 1.f;  // persons / (m s)
// Goals: the first 2 m beyond the door, neighbours kGoalSpacing apart (over the 0.6 m two
// radii and the contact margin need, so that arrived people do not press on each other).
constexpr float kFirstGoal = 2.f;     // m
constexpr float kGoalSpacing = 0.7f;  // m

}  // namespace

// A room whose right wall lies along the y axis (walls 0.3 m thick) with a door `door` m
// wide centred on the origin; `size` people wait in it in a block of ceil(sqrt(size)) rows
// across, filled column by column from 1 m before the door's wall, 1 m clear of the other
// walls. The goals lie in a strip beyond the door (below), so that walking straight at
// one's goal leads through the door from anywhere in the room (no path planner needed).
Scenario MakeBottleneck(std::string_view name, float door, size_t size, uint32_t seed) {
  Scenario s = layout::PedestrianScenario(name, size, seed);
  ScenarioRng rng(seed);
  const int rows = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<float>(size)))));
  const int cols = layout::ColumnsFor(size, rows);
  const float half_block = 0.5f * static_cast<float>(rows - 1) * kBottleneckPitch;
  // A closed room around the block, 1 m clear of it, so the door is the only way out (an
  // open wall let the crowd pressed along it walk round its end).
  const float side = half_block + kRoomClearance;
  const float back = kFrontGap + static_cast<float>(cols - 1) * kBottleneckPitch + kRoomClearance;
  const float t = kWallHalfThickness;
  const float hd = 0.5f * door;
  auto& walls = s.config.obstacles;
  walls.push_back(layout::Box({-t, hd}, {t, side + 2.f * t}));    // door wall, upper part
  walls.push_back(layout::Box({-t, -side - 2.f * t}, {t, -hd}));  // door wall, lower part
  walls.push_back(layout::Box({-back - 2.f * t, side}, {-t, side + 2.f * t}));    // upper side
  walls.push_back(layout::Box({-back - 2.f * t, -side - 2.f * t}, {-t, -side}));  // lower side
  walls.push_back(layout::Box({-back - 2.f * t, -side}, {-back, side}));          // back wall
  std::vector<Vec2> starts;
  for (size_t i = 0; i < size; ++i) {
    const int c = static_cast<int>(i / static_cast<size_t>(rows));
    const int r = static_cast<int>(i % static_cast<size_t>(rows));
    const Vec2 lattice{-(kFrontGap + static_cast<float>(c) * kBottleneckPitch),
                       static_cast<float>(r) * kBottleneckPitch - half_block};
    starts.push_back(lattice + layout::Jitter(rng, kBottleneckJitter));
  }
  // Goals in a strip beyond the door no wider than the door's clear width, so that from
  // anywhere in the room the straight line to one's goal either runs through the door or
  // into the door's wall at a slant that slides a body along it towards the door. (Goals
  // fanned out beyond the door, a first layout, trapped everyone pushed across the
  // door's axis in the room: their goal lay behind the wall on the other side, and the
  // wall slid them away from the door for good.) Two lanes at +-lane_y, goals alternating
  // between them, kGoalSpacing apart; the nearest to the door get the farthest goals, so
  // that the first out walk deepest and never stop in the way of those behind.
  const float clear_half = std::max(0.f, hd - layout::kPedestrianRadius);
  const float lane_y = std::min(clear_half, 0.5f * kGoalSpacing);
  const float across = 2.f * lane_y;
  const float step = std::sqrt(
      std::max(0.25f * kGoalSpacing * kGoalSpacing, kGoalSpacing * kGoalSpacing - across * across));
  std::vector<size_t> by_distance(size);
  for (size_t i = 0; i < size; ++i) by_distance[i] = i;
  std::stable_sort(by_distance.begin(), by_distance.end(),
                   [&](size_t a, size_t b) { return LengthSq(starts[a]) < LengthSq(starts[b]); });
  std::vector<Vec2> goals(size);
  float longest = 0.f;
  for (size_t rank = 0; rank < size; ++rank) {
    const size_t k = size - 1 - rank;  // goal slot, 0 nearest the door
    const Vec2 goal{kFirstGoal + static_cast<float>(k) * step, (k % 2 == 0) ? lane_y : -lane_y};
    goals[by_distance[rank]] = goal;
    longest = std::max(longest, Length(goal - starts[by_distance[rank]]));
  }
  for (size_t i = 0; i < size; ++i) layout::AddPedestrian(s.initial.agents, starts[i], goals[i]);
  // The longest walk, then the whole crowd through the door at the slowest flow.
  s.suggested_ticks =
      layout::WalkTicks(longest, layout::kPedestrianSpeed, s.initial.dt) +
      static_cast<int>(std::ceil(static_cast<float>(size) / (kSlowestFlow * door) / s.initial.dt));
  return s;
}

}  // namespace detail
}  // namespace throng::scenarios
