// Scenes whose goals lie behind obstacles (issue 35): "u_trap" and "rimea_6". Everyone
// navigates (BEHAVIOR_NAVIGATE) to a polygon target and arrives on its own goal in it; a
// crowd walking straight at its goals would stay trapped or press into the corner.
// Layouts in docs/SCENARIOS.md.
#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include "kernels/scenarios/blocks.h"
#include "kernels/scenarios/scenario_layout.h"

namespace throng::scenarios::detail {
namespace {

constexpr float kWall = 0.3f;  // m, wall thickness

// Every agent navigates to `target`; the polygon around `goals` (grown by `margin`)
// becomes that target.
void NavigateAllTo(Scenario& s, uint32_t target, Vec2 lo, Vec2 hi) {
  s.config.navigation_targets.push_back(
      {target, {{lo.x, lo.y, 0.f}, {hi.x, lo.y, 0.f}, {hi.x, hi.y, 0.f}, {lo.x, hi.y, 0.f}}});
  AgentSnapshot& a = s.initial.agents;
  a.target.assign(a.size(), target);
  a.behavior.assign(a.size(), static_cast<uint8_t>(AgentBehavior::kNavigate));
}

// u_trap: people stand on a lattice inside a cup whose mouth faces +x; their goals lie on a
// mirrored lattice behind the cup's back wall, the first out (nearest the mouth) walking
// deepest.
constexpr float kTrapPitch = 1.2f;     // m between people in the cup (0.69 per m^2)
constexpr float kTrapClear = 1.f;      // m from the lattice to the cup's walls
constexpr float kTrapGoalGap = 4.f;    // m from the back wall to the nearest goal
constexpr float kTrapGoalPitch = 1.f;  // m between goals

}  // namespace

Scenario MakeUTrap(size_t size, uint32_t seed) {
  Scenario s = layout::PedestrianScenario("u_trap", size, seed);
  ScenarioRng rng(seed);
  const int rows = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<float>(size)))));
  const int cols = layout::ColumnsFor(size, rows);
  const float half = 0.5f * static_cast<float>(rows - 1) * kTrapPitch + kTrapClear;
  const float depth = static_cast<float>(cols - 1) * kTrapPitch + 2.f * kTrapClear;
  auto& walls = s.config.obstacles;
  walls.push_back(layout::Box({-kWall, -half - kWall}, {0.f, half + kWall}));  // back
  walls.push_back(layout::Box({0.f, half}, {depth, half + kWall}));            // upper side
  walls.push_back(layout::Box({0.f, -half - kWall}, {depth, -half}));          // lower side
  const float goal_half = 0.5f * static_cast<float>(rows - 1) * kTrapGoalPitch;
  for (size_t i = 0; i < size; ++i) {
    const int c = static_cast<int>(i / static_cast<size_t>(rows));
    const int r = static_cast<int>(i % static_cast<size_t>(rows));
    const Vec2 start{kTrapClear + static_cast<float>(c) * kTrapPitch,
                     static_cast<float>(r) * kTrapPitch - (half - kTrapClear)};
    const Vec2 goal{-kWall - kTrapGoalGap - static_cast<float>(c) * kTrapGoalPitch,
                    static_cast<float>(r) * kTrapGoalPitch - goal_half};
    layout::AddPedestrian(s.initial.agents, start + layout::Jitter(rng, 0.1f), goal);
  }
  const float goal_depth = static_cast<float>(cols - 1) * kTrapGoalPitch;
  NavigateAllTo(s, 1, {-kWall - kTrapGoalGap - goal_depth - 1.f, -goal_half - 1.f},
                {-kWall - kTrapGoalGap + 1.f, goal_half + 1.f});
  // Out of the mouth, round a side wall, along the back to the deepest goal.
  const float walk = depth + (half + 1.f) + 2.f * (depth + 1.f) + kTrapGoalGap + goal_depth;
  s.suggested_ticks = layout::WalkTicks(walk, layout::kPedestrianSpeed, s.initial.dt) +
                      static_cast<int>(std::ceil(static_cast<float>(size) / s.initial.dt / 2.f));
  return s;
}

namespace {

// rimea_6 (RiMEA test 6): a 2 m corridor along +x that turns left (+y) after kLegLength
// and opens after another kLegLength onto open ground; people start in its first part,
// three abreast, and their goals lie on a lattice on the open ground (in a dead end, anyone
// arriving after those standing on deeper goals could not pass them).
constexpr float kCorridor = 2.f;    // m, clear width
constexpr float kLegLength = 12.f;  // m, each leg (RiMEA's corridor)
constexpr int kAbreast = 3;
constexpr float kAlong = 0.85f;  // m between people along the corridor at the start
constexpr int kGoalsAbreast = 5;
constexpr float kGoalPitch = 1.2f;  // m: arrived people stand clear of each other
constexpr float kGoalGap = 2.f;     // m from the corridor's end to the first goals

}  // namespace

Scenario MakeRimea6(size_t size, uint32_t seed) {
  Scenario s = layout::PedestrianScenario("rimea_6", size, seed);
  ScenarioRng rng(seed);
  const int ranks = layout::ColumnsFor(size, kAbreast);
  const float start_length = static_cast<float>(ranks) * kAlong;
  // RiMEA's 20 people start in the first 6 m; a larger crowd lengthens the first leg so
  // that 6 m of corridor stay between it and the corner.
  const float leg1 = std::max(kLegLength, start_length + 6.f);
  const float leg2 = kCorridor + kLegLength;  // y of the second leg's open end
  const float across = kCorridor / static_cast<float>(kAbreast);
  auto& walls = s.config.obstacles;
  walls.push_back(layout::Box({-kWall, -kWall}, {0.f, kCorridor + kWall}));      // start
  walls.push_back(layout::Box({0.f, -kWall}, {leg1 + kCorridor + kWall, 0.f}));  // outer
  walls.push_back(layout::Box({leg1 + kCorridor, 0.f}, {leg1 + kCorridor + kWall, leg2}));
  walls.push_back(layout::Box({0.f, kCorridor}, {leg1, kCorridor + kWall}));  // inner
  walls.push_back(layout::Box({leg1 - kWall, kCorridor + kWall}, {leg1, leg2}));
  const float axis = leg1 + 0.5f * kCorridor;
  const float goal_half = 0.5f * static_cast<float>(kGoalsAbreast - 1) * kGoalPitch;
  const int goal_ranks = layout::ColumnsFor(size, kGoalsAbreast);
  for (size_t i = 0; i < size; ++i) {
    const int rank = static_cast<int>(i / kAbreast);  // 0 at the back
    const int file = static_cast<int>(i % kAbreast);
    const Vec2 start{0.5f * kAlong + static_cast<float>(rank) * kAlong,
                     (static_cast<float>(file) + 0.5f) * across};
    // The front (placed last) walks deepest.
    const Vec2 goal{axis - goal_half + static_cast<float>(i % kGoalsAbreast) * kGoalPitch,
                    leg2 + kGoalGap + static_cast<float>(i / kGoalsAbreast) * kGoalPitch};
    // Files 2/3 m apart: up to 2 cm each way keeps bodies and walls clear.
    layout::AddPedestrian(s.initial.agents, start + layout::Jitter(rng, 0.02f), goal);
  }
  const float goal_end = leg2 + kGoalGap + static_cast<float>(goal_ranks - 1) * kGoalPitch;
  NavigateAllTo(s, 1, {axis - goal_half - 1.f, leg2 + kGoalGap - 1.f},
                {axis + goal_half + 1.f, goal_end + 1.f});
  s.suggested_ticks = layout::WalkTicks(leg1 + goal_end, layout::kPedestrianSpeed, s.initial.dt) +
                      static_cast<int>(std::ceil(static_cast<float>(size) / s.initial.dt));
  return s;
}

// blocks_navigate: "blocks" with every agent navigating. Each tile has four targets, the
// 50 m squares round its corners, each with the tile as its region (200 m x 200 m and the
// 4 m margin at 0.5 m: 416 x 416 cells), so 10 x 10 tiles make 400 fields, 69 million
// cells in all. An
// agent navigates to its own tile's square round its goal and arrives on its goal there.
// Clearance is the agents' radius (2 m).
Scenario MakeBlocksNavigate(size_t size, uint32_t seed) {
  Scenario s = MakeBlocks(size, seed);
  s.name = "blocks_navigate";
  s.config.navigation.clearance = s.config.agent_defaults.radius;
  s.config.navigation.cell = 0.5f;
  const size_t tiles = (size + kBlocksTileAgents - 1) / kBlocksTileAgents;
  const auto tiles_x = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(tiles))));
  constexpr float kCorner = 75.f, kSquare = 25.f, kHalfTile = 0.5f * kBlocksTilePitch;
  for (size_t t = 0; t < tiles; ++t) {
    const Vec2 c{kBlocksTilePitch * static_cast<float>(t % tiles_x),
                 kBlocksTilePitch * static_cast<float>(t / tiles_x)};
    for (uint32_t q = 0; q < 4; ++q) {  // q: bit 0 the -x corners, bit 1 the -y ones
      const Vec2 m{c.x + ((q & 1) ? -kCorner : kCorner), c.y + ((q & 2) ? -kCorner : kCorner)};
      s.config.navigation_targets.push_back(
          {static_cast<uint32_t>(4 * t + q),
           {{m.x - kSquare, m.y - kSquare, 0.f},
            {m.x + kSquare, m.y - kSquare, 0.f},
            {m.x + kSquare, m.y + kSquare, 0.f},
            {m.x - kSquare, m.y + kSquare, 0.f}},
           {{c.x - kHalfTile, c.y - kHalfTile, 0.f}, {c.x + kHalfTile, c.y + kHalfTile, 0.f}}});
    }
  }
  AgentSnapshot& a = s.initial.agents;
  for (size_t i = 0; i < a.size(); ++i) {
    const float tx = std::round(a.x[i] / kBlocksTilePitch),
                ty = std::round(a.y[i] / kBlocksTilePitch);
    const auto t =
        static_cast<uint32_t>(ty) * static_cast<uint32_t>(tiles_x) + static_cast<uint32_t>(tx);
    const uint32_t q = (a.goal_x[i] < kBlocksTilePitch * tx ? 1u : 0u) +
                       (a.goal_y[i] < kBlocksTilePitch * ty ? 2u : 0u);
    a.target.push_back(4 * t + q);
  }
  a.behavior.assign(a.size(), static_cast<uint8_t>(AgentBehavior::kNavigate));
  return s;
}

// crossing_navigate: "crossing" with every agent navigating to the street its goal lies
// in. Target k (0 west, 1 east, 2 south, 3 north) is that street's floor from the plaza's
// edge to its end wall; an agent arrives on its own goal there. Walking straight, the four
// streams of 10,000 meet in a knot at the plaza's centre that sheds people only at its rim
// (docs/PERFORMANCE.md); navigating, a stalled agent is re-routed over the crowd's field
// (docs/NAVIGATION.md, "Re-routing") round the knot.
Scenario MakeCrossingNavigate(size_t size, uint32_t seed) {
  Scenario s = MakeCrossing(size, seed);
  s.name = "crossing_navigate";
  s.config.navigation.clearance = s.config.agent_defaults.radius;
  s.config.navigation.cell = 0.5f;
  const CrossingStreets streets = CrossingStreetsFor(size);
  const float hp = streets.half_plaza, end = streets.end;
  auto street = [](Vec2 lo, Vec2 hi) {
    return std::vector<Vec3>{{lo.x, lo.y, 0.f}, {hi.x, lo.y, 0.f}, {hi.x, hi.y, 0.f}, {lo.x, hi.y, 0.f}};
  };
  s.config.navigation_targets.push_back({0, street({-end, -hp}, {-hp, hp})});
  s.config.navigation_targets.push_back({1, street({hp, -hp}, {end, hp})});
  s.config.navigation_targets.push_back({2, street({-hp, -end}, {hp, -hp})});
  s.config.navigation_targets.push_back({3, street({-hp, hp}, {hp, end})});
  AgentSnapshot& a = s.initial.agents;
  a.target.resize(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const float gx = a.goal_x[i], gy = a.goal_y[i];
    a.target[i] = std::fabs(gx) > std::fabs(gy) ? (gx < 0.f ? 0u : 1u) : (gy < 0.f ? 2u : 3u);
  }
  a.behavior.assign(a.size(), static_cast<uint8_t>(AgentBehavior::kNavigate));
  return s;
}

}  // namespace throng::scenarios::detail
