// Right of way (docs/ORCA.md, "Right of way", OrcaParams::right_of_way): of two agents standing
// nearly still against each other, one goes first and the other gives way to it. Who goes
// first, on the kernel; and RVO2's Blocks tile, where agents pressed against a block's face
// stand for good without the rule and all get home with it, on the cpu backend and the
// reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "kernels/orca/orca_right_of_way.cuh"
#include "kernels/scenarios/scenario.h"
#include "kernels/world/all_home.h"
#include "kernels/world/world.h"

namespace throng {
namespace {

using orca::AgentState;
using orca::GivesWayTo;
using orca::NeighborState;

AgentState Agent(Vec2 p, Vec2 v, Vec2 v_pref, uint32_t id) {
  return {p, v, v_pref, 0.3f, 1.4f, id};
}
NeighborState Seen(const AgentState& a) { return {a.p, a.v, a.v_pref, a.radius, a.id, false}; }
// Who of the two goes first, asked from both sides: the answers must agree.
int FirstOf(const AgentState& a, Vec2 a_want, const AgentState& b, Vec2 b_want) {
  const bool a_yields = GivesWayTo(a, a_want, Seen(b), b_want, b.max_speed);
  const bool b_yields = GivesWayTo(b, b_want, Seen(a), a_want, a.max_speed);
  EXPECT_FALSE(a_yields && b_yields) << "both give way";
  return a_yields ? 2 : b_yields ? 1 : 0;  // 0: neither (not a jam)
}

TEST(RightOfWayTest, TheOneTheWallsLeaveItsWayGoesFirstThenTheOneInFrontThenTheLowerId) {
  const Vec2 still{0.f, 0.f}, east{1.4f, 0.f};
  // At a door: one in front of the opening with its way free, one pressed against the
  // jamb (the walls leave it a slide along them, no progress east).
  const AgentState free_way = Agent({-0.8f, 0.f}, still, east, 9);
  const AgentState at_jamb = Agent({-0.45f, -0.6f}, still, east, 1);
  EXPECT_EQ(FirstOf(free_way, east, at_jamb, {0.f, 0.3f}), 1);
  // Both free: the one further along their way; side by side: the lower id.
  const AgentState behind = Agent({-1.3f, 0.1f}, still, east, 2);
  EXPECT_EQ(FirstOf(behind, east, free_way, east), 2);
  const AgentState beside = Agent({-0.8f, 0.6f}, still, east, 12);
  EXPECT_EQ(FirstOf(beside, east, free_way, east), 2);
  // Not a jam: one of them walks, or they stand apart.
  const AgentState walking = Agent({-1.3f, 0.1f}, {0.5f, 0.f}, east, 2);
  EXPECT_EQ(FirstOf(walking, east, free_way, east), 0);
  const AgentState apart = Agent({-1.6f, 0.f}, still, east, 2);
  EXPECT_EQ(FirstOf(apart, east, free_way, east), 0);
  // A neighbour the caller drives is avoided fully anyway; the rule leaves it alone.
  NeighborState player = Seen(behind);
  player.non_cooperative = true;
  EXPECT_FALSE(GivesWayTo(free_way, east, player, east, behind.max_speed));
}

// Two people creeping against each other at a door, modelled on a pair measured in the 1 m
// door of 2,000 (seed 2, tick 10,742; there the one in front crept at 0.073 m/s, a hair
// over the floor, here at 0.054): each moves at 0.04-0.06 m/s and, its behaviour limiting
// its acceleration, prefers only 0.13-0.17 m/s. That is over a fifth of the preferred
// speed, so without the floor neither counts as slow and neither gives way; under 5% of
// the max speed (0.07 m/s of 1.4) both are slow, and one goes first. Someone faster than
// both bounds (0.3 m/s, preferring 0.4) is not slow.
TEST(RightOfWayTest, TwoWhoCreepAgainstEachOtherAreSlowAndOneGoesFirst) {
  const AgentState at_jamb = Agent({-0.38f, -0.63f}, {0.03f, -0.03f}, {0.10f, 0.09f}, 525);
  const AgentState in_front = Agent({-0.56f, -0.27f}, {-0.02f, -0.05f}, {0.15f, 0.07f}, 959);
  ASSERT_GT(Length(at_jamb.v), orca::kRightOfWaySlowShare * Length(at_jamb.v_pref));
  ASSERT_GT(Length(in_front.v), orca::kRightOfWaySlowShare * Length(in_front.v_pref));
  EXPECT_TRUE(orca::SlowForRightOfWay(at_jamb.v, at_jamb.v_pref, at_jamb.max_speed));
  EXPECT_TRUE(orca::SlowForRightOfWay(in_front.v, in_front.v_pref, in_front.max_speed));
  // The one pressed against the jamb has less of its way (its walls' share, from the caller:
  // a slide along the wall) and gives way.
  EXPECT_EQ(FirstOf(in_front, in_front.v_pref, at_jamb, {0.f, 0.09f}), 1);
  // A walker that prefers little more than it has is not slow.
  const AgentState walking = Agent({-1.3f, 0.1f}, {0.3f, 0.f}, {0.4f, 0.f}, 2);
  EXPECT_FALSE(orca::SlowForRightOfWay(walking.v, walking.v_pref, walking.max_speed));
  EXPECT_EQ(FirstOf(walking, walking.v_pref, in_front, in_front.v_pref), 0);
}

// RVO2's Blocks tile (scenario "blocks", 100 agents of radius 2 m round four blocks): ticks
// until every agent is within 1 m of its goal, 0 if not within `limit`.
int TicksToAllHome(BackendKind backend, bool right_of_way, int limit) {
  scenarios::Scenario s = scenarios::MakeScenario("blocks", 100, 1);
  s.config.orca.right_of_way = right_of_way;
  // Headway speed, on by default since 2026-12-04, also takes this tile home (1,379 ticks
  // on cpu without right of way): off, so that the rule is judged on the jam it was made for.
  s.config.orca.headway_speed = false;
  return RunUntilAllHome(s.config, s.initial, backend, limit).ticks;
}

// Measured 2026-12-04: without the rule, on cpu, four agents stay pressed against a block's
// face in a counter-flow along it (96 of 100 home at tick 5,000, the scene's suggested
// run); with it all 100 are home at tick 1,043. The reference, in double, happens to slip
// out of that jam (all home at 963 without the rule, 951 with it), so only the cpu run
// must jam without the rule; both must get everyone home with it.
TEST(RightOfWayTest, BlocksTileJamsWithoutTheRuleAndEveryoneGetsHomeWithIt) {
  constexpr int kLimit = 5000;
  for (BackendKind backend : {BackendKind::kCpu, BackendKind::kReference}) {
    const int without = TicksToAllHome(backend, false, kLimit);
    const int with = TicksToAllHome(backend, true, kLimit);
    std::printf(
        "[ figures  ] Blocks tile on %s: all 100 home after %d ticks with right of way, %d "
        "without (0: not within %d)\n",
        std::string(BackendName(backend)).c_str(), with, without, kLimit);
    if (backend == BackendKind::kCpu) {
      EXPECT_EQ(without, 0);
    }
    EXPECT_GT(with, 0) << BackendName(backend);
    EXPECT_LT(with, 1500) << BackendName(backend);
  }
}

}  // namespace
}  // namespace throng
