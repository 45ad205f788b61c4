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
// least 0.9 - 2 * 0.1 = 0.7 m apart, over the 0.4 m that two radii need.
constexpr float kBottleneckPitch = 0.9f;   // m
constexpr float kBottleneckJitter = 0.1f;  // m
constexpr float kWallHalfThickness = 0.15f;
constexpr float kFrontGap = 1.f;       // m from the door's line to the first column
constexpr float kRoomClearance = 1.f;  // m from the block to the room's other walls
// People leave at about 1.3-1.9 per metre of door per second (Seyfried et al.); the
// suggested run allows for 1 per metre per second.
constexpr float kSlowestFlow = 1.f;  // persons / (m s)
// Goals: a lattice on the open side, from kFirstGoal beyond the door, kGoalPitch apart
// (arrived people stand clear of each other and of those walking between them), twice as
// wide across as it is deep.
constexpr float kFirstGoal = 3.f;  // m
constexpr float kGoalPitch = 1.f;  // m
// The navigation target: the open side from kTargetStart (past the door wall's face and a
// body), kTargetMargin beyond the outermost goals.
constexpr float kTargetStart = 0.5f;  // m
constexpr float kTargetMargin = 2.f;  // m

}  // namespace

// A room whose right wall lies along the y axis (walls 0.3 m thick) with a door `door` m
// wide centred on the origin; `size` people wait in it in a block of ceil(sqrt(size)) rows
// across, filled column by column from 1 m before the door's wall, 1 m clear of the other
// walls. They leave into open ground, as in the laboratory: everyone navigates to one
// target, the open side, whose field leads through the door from anywhere in the room,
// and stops on a goal of its own there (below).
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
  // Goals on a lattice over the open side, kGoalPitch apart, rows_across wide and as deep
  // as it takes. The people nearest the door get the farthest goals, so that the first
  // out walk deepest and never stop in the way of those behind. (Earlier layouts: goals
  // fanned out beyond the door, walked at straight, trapped everyone pushed across the
  // door's axis against the wall on the wrong side of the door; goals in a strip no wider
  // than the door, walked at straight, let the crowd out only as fast as two lanes of
  // walkers merging just past the door carried them: 0.65 persons/(m s) at the 2 m door,
  // for plain ORCA as for Throng, against 1.2 with open ground. docs/PERFORMANCE.md.)
  const int rows_across =
      std::max(1, static_cast<int>(std::ceil(std::sqrt(2.f * static_cast<float>(size)))));
  const int deep = layout::ColumnsFor(size, rows_across);
  const float half_across = 0.5f * static_cast<float>(rows_across - 1) * kGoalPitch;
  std::vector<Vec2> slots;
  for (int c = 0; c < deep; ++c) {
    for (int r = 0; r < rows_across; ++r) {
      slots.push_back({kFirstGoal + static_cast<float>(c) * kGoalPitch,
                       static_cast<float>(r) * kGoalPitch - half_across});
    }
  }
  std::stable_sort(slots.begin(), slots.end(),
                   [](Vec2 a, Vec2 b) { return LengthSq(a) > LengthSq(b); });  // farthest first
  std::vector<size_t> by_distance(size);
  for (size_t i = 0; i < size; ++i) by_distance[i] = i;
  std::stable_sort(by_distance.begin(), by_distance.end(),
                   [&](size_t a, size_t b) { return LengthSq(starts[a]) < LengthSq(starts[b]); });
  std::vector<Vec2> goals(size);
  float longest = 0.f;
  for (size_t rank = 0; rank < size; ++rank) {
    const size_t i = by_distance[rank];
    goals[i] = slots[rank];
    // Through the door's centre: the walk is no shorter than that.
    longest = std::max(longest, Length(starts[i]) + Length(goals[i]));
  }
  for (size_t i = 0; i < size; ++i) layout::AddPedestrian(s.initial.agents, starts[i], goals[i]);
  const float far_x = kFirstGoal + static_cast<float>(deep - 1) * kGoalPitch + kTargetMargin;
  const float far_y = half_across + kTargetMargin;
  s.config.navigation_targets.push_back({1,
                                         {{kTargetStart, -far_y, 0.f},
                                          {far_x, -far_y, 0.f},
                                          {far_x, far_y, 0.f},
                                          {kTargetStart, far_y, 0.f}}});
  AgentSnapshot& a = s.initial.agents;
  a.target.assign(size, 1);
  a.behavior.assign(size, static_cast<uint8_t>(AgentBehavior::kNavigate));
  // The longest walk, then the whole crowd through the door at the slowest flow.
  s.suggested_ticks =
      layout::WalkTicks(longest, layout::kPedestrianSpeed, s.initial.dt) +
      static_cast<int>(std::ceil(static_cast<float>(size) / (kSlowestFlow * door) / s.initial.dt));
  return s;
}

}  // namespace detail
}  // namespace throng::scenarios
