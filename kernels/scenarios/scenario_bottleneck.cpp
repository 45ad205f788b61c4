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

}  // namespace

// A room whose right wall lies along the y axis (walls 0.3 m thick) with a door `door` m
// wide centred on the origin; `size` people wait in it in a block of ceil(sqrt(size)) rows
// across, filled column by column from 1 m before the door's wall, 1 m clear of the other
// walls. Each goal lies on the line from the start through the door's centre, so every
// straight path runs through the door (no path planner needed), and the crowd fans out
// into the open beyond it.
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
  float farthest = 0.f;
  for (size_t i = 0; i < size; ++i) {
    const int c = static_cast<int>(i / static_cast<size_t>(rows));
    const int r = static_cast<int>(i % static_cast<size_t>(rows));
    const Vec2 lattice{-(kFrontGap + static_cast<float>(c) * kBottleneckPitch),
                       static_cast<float>(r) * kBottleneckPitch - half_block};
    starts.push_back(lattice + layout::Jitter(rng, kBottleneckJitter));
    farthest = std::max(farthest, Length(starts.back()));
  }
  for (const Vec2 start : starts) {
    // Through the door's centre and on, to 2 R - |start| from it (R: the farthest start):
    // the first out walk deepest and never stop in the way of those behind, and goals are
    // at least as far apart as the starts (the radial spacing is kept, the angular one
    // stretched by (2 R - |start|) / |start| >= 1). Everyone walks 2 R.
    const float d = Length(start);
    layout::AddPedestrian(s.initial.agents, start, start * (-(2.f * farthest - d) / d));
  }
  // Everyone's walk, then the whole crowd through the door at the slowest flow.
  s.suggested_ticks =
      layout::WalkTicks(2.f * farthest, layout::kPedestrianSpeed, s.initial.dt) +
      static_cast<int>(std::ceil(static_cast<float>(size) / (kSlowestFlow * door) / s.initial.dt));
  return s;
}

}  // namespace detail
}  // namespace throng::scenarios
