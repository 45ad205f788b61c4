// Round standing obstacles (docs/ORCA.md, step 0, OrcaParams::standing_detour): a preferred
// velocity that runs into standing non-cooperative neighbours turns to the nearer edge of
// the directions they block. The turn on the kernel; and a walker whose goal lies behind a
// row of standing players, which ORCA alone leaves pressed against the row, on every
// backend (cuda where a device is).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/orca/orca.cuh"
#include "kernels/scenarios/scenario_layout.h"
#include "kernels/world/all_home.h"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using orca::AgentState;
using orca::NeighborState;
using orca::detail::StandingDetour;

NeighborState Standing(Vec2 p, float radius = 0.3f) {
  NeighborState b{p, {0.f, 0.f}, {0.f, 0.f}, radius, 100, true};
  return b;
}

// The angle of v, rad.
float Heading(Vec2 v) { return std::atan2(v.y, v.x); }

TEST(StandingDetourTest, AWayIntoAStandingRowTurnsToItsNearerEnd) {
  const AgentState walker{{0.f, 0.f}, {1.f, 0.f}, {1.4f, 0.f}, 0.2f, 1.4f, 1};
  // A row of three discs across the way 1.5 m ahead, its middle 0.4 m to the left: the
  // right end is nearer.
  const std::vector<NeighborState> row = {Standing({1.5f, -0.2f}), Standing({1.5f, 0.4f}),
                                          Standing({1.5f, 1.0f})};
  const Vec2 turned = StandingDetour(walker, row.data(), 3);
  EXPECT_NEAR(Length(turned), 1.4f, 1e-5f);  // the speed kept
  // Past the lowest disc's cone: its centre's angle minus asin((0.3 + 0.2 + 0.05) / dist).
  const Vec2 d{1.5f, -0.2f};
  const float edge = Heading(d) - std::asin(0.55f / Length(d));
  EXPECT_NEAR(Heading(turned), edge, 1e-5f);
  // Mirrored, the left end is nearer.
  const std::vector<NeighborState> mirrored = {Standing({1.5f, 0.2f}), Standing({1.5f, -0.4f}),
                                               Standing({1.5f, -1.0f})};
  EXPECT_GT(Heading(StandingDetour(walker, mirrored.data(), 3)), 0.f);
  // A tie (the row centred on the way) turns right, as the passing side does.
  const std::vector<NeighborState> centred = {Standing({1.5f, -0.6f}), Standing({1.5f, 0.f}),
                                              Standing({1.5f, 0.6f})};
  EXPECT_LT(Heading(StandingDetour(walker, centred.data(), 3)), 0.f);
}

TEST(StandingDetourTest, OnlyStandingNonCooperativeNeighboursNearTheWayCount) {
  const AgentState walker{{0.f, 0.f}, {1.f, 0.f}, {1.4f, 0.f}, 0.2f, 1.4f, 1};
  NeighborState ahead = Standing({1.2f, 0.f});
  EXPECT_NE(StandingDetour(walker, &ahead, 1), walker.v_pref);
  NeighborState moving = ahead;  // a car that drives on is ORCA's to avoid
  moving.v = {0.f, 0.5f};
  EXPECT_EQ(StandingDetour(walker, &moving, 1), walker.v_pref);
  NeighborState cooperative = ahead;  // a walker who stands gives way itself
  cooperative.non_cooperative = false;
  EXPECT_EQ(StandingDetour(walker, &cooperative, 1), walker.v_pref);
  NeighborState demoted = ahead;  // a repair pass's stand-in for one that turned
  demoted.demoted = true;
  EXPECT_EQ(StandingDetour(walker, &demoted, 1), walker.v_pref);
  NeighborState far = Standing({3.f, 0.f});  // more than 2 m between the bodies
  EXPECT_EQ(StandingDetour(walker, &far, 1), walker.v_pref);
  NeighborState aside = Standing({1.2f, 1.5f});  // not in the way
  EXPECT_EQ(StandingDetour(walker, &aside, 1), walker.v_pref);
}

TEST(StandingDetourTest, AWalkerBoxedInKeepsItsWayAndASlowOneWalksRoundAtHalfItsMaxSpeed) {
  // Discs all round the front half: going round would mean turning back.
  const AgentState walker{{0.f, 0.f}, {0.f, 0.f}, {1.4f, 0.f}, 0.2f, 1.4f, 1};
  std::vector<NeighborState> ring;
  for (int k = -4; k <= 4; ++k) {
    const float a = 0.4f * static_cast<float>(k);
    ring.push_back(Standing({0.9f * std::cos(a), 0.9f * std::sin(a)}));
  }
  EXPECT_EQ(StandingDetour(walker, ring.data(), static_cast<int>(ring.size())), walker.v_pref);
  // Pressed against the row, the arrive behaviour asks for little more than the walker has.
  const AgentState pressed{{0.f, 0.f}, {0.f, 0.f}, {0.1f, 0.f}, 0.2f, 1.4f, 1};
  const NeighborState ahead = Standing({0.6f, 0.f});
  EXPECT_NEAR(Length(StandingDetour(pressed, &ahead, 1)), 0.7f, 1e-5f);
}

// A walker standing pressed against a row of five standing players (non-cooperative, 0.3 m
// bodies touching, 3 m long; 5 cm between the walker's body and the middle one's), as the
// town's walkers stood against waiting cars, its goal 4 m beyond the row: ticks until it is
// within 1 m of its goal (0: not within `limit`).
int TicksAroundTheRow(BackendKind backend, bool detour, int limit) {
  Snapshot s;
  s.dt = 0.1f;
  AgentSnapshot& a = s.agents;
  scenarios::layout::AddPedestrian(a, {-0.55f, 0.1f}, {4.f, 0.1f});
  for (int k = 0; k < 5; ++k) {
    const Vec2 p{0.f, -1.2f + 0.6f * static_cast<float>(k)};
    scenarios::layout::AddPedestrian(a, p, p);
  }
  a.flags.assign(a.size(), kSnapshotNonCooperative);
  a.flags[0] = 0;
  a.radius.assign(a.size(), 0.3f);
  a.radius[0] = 0.2f;
  a.vx.assign(a.size(), 0.f);
  a.vy.assign(a.size(), 0.f);
  WorldConfig config;
  config.orca.standing_detour = detour;
  return RunUntilAllHome(config, s, backend, limit).ticks;
}

class StandingDetourBackendTest : public testing::BackendParamTest {};

// ORCA alone slides the walker along the row at the little its pressed preference leaves
// (the passing side turns it 0.3 rad right); round the row's end it walks on.
TEST_P(StandingDetourBackendTest,
       AWalkerWalksRoundARowOfStandingPlayersInsteadOfPressingAgainstIt) {
  constexpr int kLimit = 600;
  const BackendKind backend = GetParam();
  const int without = TicksAroundTheRow(backend, false, kLimit);
  const int with = TicksAroundTheRow(backend, true, kLimit);
  std::printf(
      "[ figures  ] row of players on %s: the walker home after %d ticks round them, %d "
      "without the rule (0: not within %d)\n",
      std::string(BackendName(backend)).c_str(), with, without, kLimit);
  EXPECT_GT(with, 0);
  EXPECT_LT(with, 100);
  EXPECT_EQ(without, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, StandingDetourBackendTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference,
                                           BackendKind::kCuda),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
