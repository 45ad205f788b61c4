// Evacuations (issue 35): "rimea_9" and "rimea_9_two_exits" (RiMEA test 9), a crowd leaving
// a large room through four 1 m exits, or through the two left open when two are closed;
// "two_exits", a crowd beside one exit of a room with another at its far end. Everyone
// navigates to the ground outside and finds the nearer open exit along the field, or,
// re-routed, a freer one. Layouts in docs/SCENARIOS.md.
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
// two_exits: a 24 m x 12 m room for 200 people, who stand in its left 12 m (1.4 per m^2).
constexpr float kTwoExitsWidth = 24.f;
constexpr float kTwoExitsHeight = 12.f;
constexpr float kTwoExitsCrowd = 12.f;
constexpr float kTwoExitsPeople = 200.f;
constexpr float kExit = 1.f;           // m, each exit's clear width
constexpr float kWall = 0.3f;          // m
constexpr float kPeopleMargin = 0.5f;  // m from the walls to the nearest centre
// The target ground starts kBandGap beyond the walls: people left in the world stop where
// they reach it, and 1 m out they stood in the exits' way (the demo's two_exits clogged).
constexpr float kBandGap = 4.f;    // m from the walls' outer face to the target ground
constexpr float kBandWidth = 8.f;  // m

float Scale(size_t size, float people) {
  return std::max(1.f, std::sqrt(static_cast<float>(size) / people));
}

bool IsEvacuation(std::string_view name) {
  return name == "rimea_9" || name == "rimea_9_two_exits" || name == "two_exits";
}

// A room [0, w] x [0, h] with exits in its two short walls, and where its people stand.
struct Room {
  float w = 0.f, h = 0.f;
  std::vector<float> left_exits, right_exits;  // centres along y, in the walls x = 0 and x = w
  float crowd_w = 0.f;                         // people fill [0, crowd_w] x [0, h]
};

Room RoomOf(std::string_view name, size_t size) {
  Room r;
  if (name == "two_exits") {
    const float k = Scale(size, kTwoExitsPeople);
    r.w = kTwoExitsWidth * k;
    r.h = kTwoExitsHeight * k;
    r.left_exits = r.right_exits = {0.5f * r.h};
    r.crowd_w = kTwoExitsCrowd * k;
    return r;
  }
  const float k = Scale(size, kRoomPeople);
  r.w = kRoomWidth * k;
  r.h = kRoomHeight * k;
  r.left_exits = {0.25f * r.h, 0.75f * r.h};
  if (name == "rimea_9") r.right_exits = r.left_exits;
  r.crowd_w = r.w;
  return r;
}

}  // namespace

bool EvacuationRoom(const Scenario& s, Vec2* lo, Vec2* hi) {
  if (!IsEvacuation(s.name)) return false;
  const Room r = RoomOf(s.name, s.size);
  *lo = {0.f, 0.f};
  *hi = {r.w, r.h};
  return true;
}

namespace detail {

// rimea_9: a 30 m x 20 m room (for 1,000 people) with exits centred at a quarter and three
// quarters of each short wall (x = 0 and x = W); rimea_9_two_exits closes the two at x = W,
// so that everyone leaves by the left wall. People stand on a lattice filling the room.
// two_exits: a 24 m x 12 m room (for 200) with one exit in the middle of each short wall,
// its people in its left half: the left exit is the nearer for everyone. People are moved by
// up to 5 cm from their lattice.
Scenario MakeEvacuation(std::string_view name, size_t size, uint32_t seed) {
  Scenario s = layout::PedestrianScenario(name, size, seed);
  ScenarioRng rng(seed);
  const Room room = RoomOf(name, size);
  const float w = room.w, h = room.h;
  auto& walls = s.config.obstacles;
  walls.push_back(layout::Box({-kWall, -kWall}, {w + kWall, 0.f}));   // lower
  walls.push_back(layout::Box({-kWall, h}, {w + kWall, h + kWall}));  // upper
  auto short_wall = [&](float x0, float x1, const std::vector<float>& exits) {
    float from = 0.f;
    for (float y : exits) {
      walls.push_back(layout::Box({x0, from}, {x1, y - 0.5f * kExit}));
      from = y + 0.5f * kExit;
    }
    walls.push_back(layout::Box({x0, from}, {x1, h}));
  };
  short_wall(-kWall, 0.f, room.left_exits);
  short_wall(w, w + kWall, room.right_exits);

  const float inner_w = room.crowd_w - 2.f * kPeopleMargin;
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
  const size_t open_exits = room.left_exits.size() + room.right_exits.size();
  s.suggested_ticks =
      layout::WalkTicks(w + h, layout::kPedestrianSpeed, s.initial.dt) +
      static_cast<int>(std::ceil(static_cast<float>(size) /
                                 (0.5f * static_cast<float>(open_exits)) / s.initial.dt));
  return s;
}

}  // namespace detail
}  // namespace throng::scenarios
