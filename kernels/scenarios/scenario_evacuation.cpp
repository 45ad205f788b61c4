// "rimea_9" and "rimea_9_two_exits" (RiMEA test 9): a crowd leaves a large room through four
// 1 m exits, or through the two left open when two are closed; everyone navigates to the
// ground outside and finds the nearer open exit along the field. Layout in
// docs/SCENARIOS.md.
#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include "kernels/scenarios/scenario_layout.h"

namespace throng::scenarios {
namespace {

// RiMEA's room is 30 m x 20 m for 1,000 people (1.67 per m^2); a larger crowd gets a room
// as dense, scaled on both sides.
constexpr float kRoomWidth = 30.f;   // m, along x
constexpr float kRoomHeight = 20.f;  // m, along y
constexpr float kRoomPeople = 1000.f;
constexpr float kExit = 1.f;           // m, each exit's clear width
constexpr float kWall = 0.3f;          // m
constexpr float kPeopleMargin = 0.5f;  // m from the walls to the nearest centre
constexpr float kBandGap = 1.f;        // m from the walls' outer face to the target ground
constexpr float kBandWidth = 5.f;      // m

float RoomScale(size_t size) {
  return std::max(1.f, std::sqrt(static_cast<float>(size) / kRoomPeople));
}

bool IsEvacuation(std::string_view name) {
  return name == "rimea_9" || name == "rimea_9_two_exits";
}

}  // namespace

bool EvacuationRoom(const Scenario& s, Vec2* lo, Vec2* hi) {
  if (!IsEvacuation(s.name)) return false;
  const float k = RoomScale(s.size);
  *lo = {0.f, 0.f};
  *hi = {kRoomWidth * k, kRoomHeight * k};
  return true;
}

namespace detail {

// The room spans [0, W] x [0, H]. Exits are centred at a quarter and three quarters of
// each short wall (x = 0 and x = W); rimea_9_two_exits closes the two at x = W, so that
// everyone leaves by the left wall. People stand on a lattice filling the room, moved by
// up to 5 cm.
Scenario MakeEvacuation(std::string_view name, size_t size, uint32_t seed) {
  Scenario s = layout::PedestrianScenario(name, size, seed);
  ScenarioRng rng(seed);
  const bool right_open = name == "rimea_9";
  const float w = kRoomWidth * RoomScale(size);
  const float h = kRoomHeight * RoomScale(size);
  auto& walls = s.config.obstacles;
  walls.push_back(layout::Box({-kWall, -kWall}, {w + kWall, 0.f}));   // lower
  walls.push_back(layout::Box({-kWall, h}, {w + kWall, h + kWall}));  // upper
  const float exits[2] = {0.25f * h, 0.75f * h};
  auto short_wall = [&](float x0, float x1, bool open) {
    if (!open) {
      walls.push_back(layout::Box({x0, 0.f}, {x1, h}));
      return;
    }
    walls.push_back(layout::Box({x0, 0.f}, {x1, exits[0] - 0.5f * kExit}));
    walls.push_back(layout::Box({x0, exits[0] + 0.5f * kExit}, {x1, exits[1] - 0.5f * kExit}));
    walls.push_back(layout::Box({x0, exits[1] + 0.5f * kExit}, {x1, h}));
  };
  short_wall(-kWall, 0.f, true);
  short_wall(w, w + kWall, right_open);

  const float inner_w = w - 2.f * kPeopleMargin;
  const float inner_h = h - 2.f * kPeopleMargin;
  const float pitch = std::sqrt(inner_w * inner_h / static_cast<float>(size));
  const int cols = std::max(1, static_cast<int>(std::floor(inner_w / pitch)));
  const int rows = layout::ColumnsFor(size, cols);
  const float dx = inner_w / static_cast<float>(cols);
  const float dy = inner_h / static_cast<float>(rows);
  AgentSnapshot& a = s.initial.agents;
  for (size_t i = 0; i < size; ++i) {
    const int c = static_cast<int>(i % static_cast<size_t>(cols));
    const int r = static_cast<int>(i / static_cast<size_t>(cols));
    const Vec2 p = Vec2{kPeopleMargin + (static_cast<float>(c) + 0.5f) * dx,
                        kPeopleMargin + (static_cast<float>(r) + 0.5f) * dy} +
                   layout::Jitter(rng, 0.05f);
    a.id.push_back(static_cast<uint32_t>(i));
    a.x.push_back(p.x);
    a.y.push_back(p.y);
  }
  // The target: the ground outside the room, a U round its lower side from beyond one
  // short wall to beyond the other, kBandGap clear of the walls. No goals: whoever is out
  // of the room is taken off the world by the caller (EvacuationRoom), as evacuation
  // simulators do; left in the world, people stop where they reach the band.
  const float in = kWall + kBandGap;
  const float out = in + kBandWidth;
  s.config.navigation_targets.push_back({1,
                                         {{-out, h + kWall, 0.f},
                                          {-out, -out, 0.f},
                                          {w + out, -out, 0.f},
                                          {w + out, h + kWall, 0.f},
                                          {w + in, h + kWall, 0.f},
                                          {w + in, -in, 0.f},
                                          {-in, -in, 0.f},
                                          {-in, h + kWall, 0.f}}});
  a.target.assign(a.size(), 1);
  a.behavior.assign(a.size(), static_cast<uint8_t>(AgentBehavior::kNavigate));
  // Across the room, then everyone through the open exits at 0.5 people per second each
  // (a third of what real crowds manage).
  const int open_exits = right_open ? 4 : 2;
  s.suggested_ticks =
      layout::WalkTicks(w + h, layout::kPedestrianSpeed, s.initial.dt) +
      static_cast<int>(std::ceil(static_cast<float>(size) / (0.5f * open_exits) / s.initial.dt));
  return s;
}

}  // namespace detail
}  // namespace throng::scenarios
