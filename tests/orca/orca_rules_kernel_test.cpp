// Throng's additions to the plain ORCA order in the kernel (docs/ORCA.md, "Solve and
// infeasibility"): side bias, contact margin, shorter horizons, overlap hardness.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/orca/obstacles.h"
#include "kernels/orca/orca.cuh"
#include "kernels/orca/orca_agent.cuh"
#include "kernels/orca/orca_lp.cuh"
#include "tests/orca/orca_kernel_fixtures.h"

namespace throng::orca_kernel_test {
namespace {

// ---------------------------------------------------------------------------------------
// Throng's additions to the plain order (docs/ORCA.md, "Solve and infeasibility").

// Head-on at tau = 2 with only the side preference on: v_pref (1, 0) breaks the agent
// line, so LP2 aims at v_pref turned right by 0.3 rad, (cos 0.3, -sin 0.3), which that
// line allows: it is the answer. It lies further right (more negative y) than the plain
// order's -sqrt(15)/16.
TEST(OrcaKernelTest, SideBiasAimsRightWhenPreferredVelocityBreaksAgentLine) {
  OrcaParams params = PlainParams(Params(2.f, 2.f, 0.25f));
  params.side_bias = 0.3f;
  const AgentState a = HeadOnA();
  const NeighborState b = HeadOnB();
  const Line line = orca::detail::AgentLine(a, b, 1.f / params.time_horizon, 1.f / params.time_step,
                                            params.contact_margin_ratio);
  const Vec2 target = TurnedRight(a.v_pref, 0.3f);
  ASSERT_GT(Violation(line, a.v_pref), 0.f);  // the rule's precondition
  ASSERT_LE(Violation(line, target), 0.f);
  const SolveOutput out = SolveAgent(a, &b, 1, kNoObstacles, params);
  EXPECT_EQ(out.status, SolveStatus::kOk);
  EXPECT_EQ(out.flags, 0);
  EXPECT_TRUE(out.feasible);
  EXPECT_NEAR(out.velocity.x, target.x, kTol);
  EXPECT_NEAR(out.velocity.y, target.y, kTol);
  EXPECT_LT(out.velocity.y, -std::sqrt(15.f) / 16.f - 0.05f);  // further right than plain
}

// Closer (2 m) and tau = 10: the turned target breaks the line too, and LP2 projects it
// onto the line, still right of where the plain order (projecting v_pref) ends.
TEST(OrcaKernelTest, SideBiasProjectsTurnedTargetOntoAgentLine) {
  OrcaParams params = PlainParams(Params(10.f, 10.f, 0.25f));
  const AgentState a = HeadOnA();
  const NeighborState b = Neighbor({2.f, 0.f}, {-1.f, 0.f}, 0.5f, 2);
  const SolveOutput plain = SolveAgent(a, &b, 1, kNoObstacles, params);
  params.side_bias = 0.3f;
  const Line line = orca::detail::AgentLine(a, b, 1.f / params.time_horizon, 1.f / params.time_step,
                                            params.contact_margin_ratio);
  const Vec2 target = TurnedRight(a.v_pref, 0.3f);
  ASSERT_GT(Violation(line, target), 0.f);
  const SolveOutput out = SolveAgent(a, &b, 1, kNoObstacles, params);
  EXPECT_EQ(out.status, SolveStatus::kOk);
  const Vec2 expected = ProjectOnLine(line, target);
  EXPECT_NEAR(out.velocity.x, expected.x, kTol);
  EXPECT_NEAR(out.velocity.y, expected.y, kTol);
  EXPECT_LT(out.velocity.y, 0.f);
  EXPECT_LT(out.velocity.y, plain.velocity.y - 0.01f);
  EXPECT_LE(Violation(line, out.velocity), kTol);
}

// Both agents of the head-on pair, full default parameters: each passes on its own right,
// A (heading +x) with a negative lateral component, B (heading -x) with a positive one.
TEST(OrcaKernelTest, HeadOnPairBothPassOnTheirRightWithDefaults) {
  const OrcaParams params = Params(2.f, 2.f, 0.25f);
  const AgentState a = HeadOnA();
  const AgentState b = Agent({4.f, 0.f}, {-1.f, 0.f}, {-1.f, 0.f}, 0.5f, 2.f, 2);
  const NeighborState a_seen = Neighbor(a.p, a.v, a.radius, a.id);
  const NeighborState b_seen = Neighbor(b.p, b.v, b.radius, b.id);
  const SolveOutput out_a = SolveAgent(a, &b_seen, 1, kNoObstacles, params);
  const SolveOutput out_b = SolveAgent(b, &a_seen, 1, kNoObstacles, params);
  ASSERT_EQ(out_a.status, SolveStatus::kOk);
  ASSERT_EQ(out_b.status, SolveStatus::kOk);
  EXPECT_LT(out_a.velocity.y, -0.1f);
  EXPECT_GT(out_b.velocity.y, 0.1f);
  // Mirror images of each other (point symmetry about the midpoint).
  EXPECT_NEAR(out_a.velocity.x, -out_b.velocity.x, kTol);
  EXPECT_NEAR(out_a.velocity.y, -out_b.velocity.y, kTol);
}

// Neighbours that do not conflict (alongside at the same speed, behind and falling back,
// ahead and pulling away) each build a line, but v_pref breaks none of them: with every
// addition on, the agent walks exactly at v_pref, not turned.
TEST(OrcaKernelTest, FreeWalkingWithNonConflictingNeighboursIsUnbiased) {
  const OrcaParams params = OrcaParams{};
  const AgentState a = Agent({0.f, 0.f}, {1.f, 0.f}, {1.f, 0.2f}, 0.5f, 1.5f, 1);
  const NeighborState nbs[] = {Neighbor({0.f, -3.f}, {1.f, 0.f}, 0.5f, 2),
                               Neighbor({-3.f, 0.f}, {0.5f, 0.f}, 0.5f, 3),
                               Neighbor({3.f, -0.5f}, {1.6f, 0.f}, 0.5f, 4, true)};
  for (const NeighborState& nb : nbs) {
    const Line line = orca::detail::AgentLine(a, nb, 1.f / params.time_horizon,
                                              1.f / params.time_step, params.contact_margin_ratio);
    ASSERT_LE(Violation(line, a.v_pref), 0.f);  // no conflict: the premise of the test
  }
  const SolveOutput out = SolveAgent(a, nbs, 3, kNoObstacles, params);
  EXPECT_EQ(out.status, SolveStatus::kOk);
  EXPECT_EQ(out.constraints, 3);
  EXPECT_EQ(out.flags, 0);
  EXPECT_EQ(out.velocity.x, a.v_pref.x);
  EXPECT_EQ(out.velocity.y, a.v_pref.y);
}

// The side preference reacts to agent lines only: a wall that v_pref runs into (the
// cut-off line vx <= 0.5) is met straight on, as in the plain order. A turned target
// (0.955, -0.296) would end at (0.5, -0.296).
TEST(OrcaKernelTest, SideBiasIgnoresObstacleLines) {
  const ObstacleVertices wall = Wall({1.f, -5.f}, {1.f, 5.f});
  const AgentState a = Agent({0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, 1.f, 1);
  const SolveOutput out = SolveAgent(a, nullptr, 0, ViewOf(wall), Params(2.f, 1.f, 0.25f));
  EXPECT_EQ(out.status, SolveStatus::kOk);
  EXPECT_EQ(out.constraints, 1);
  EXPECT_NEAR(out.velocity.x, 0.5f, kTol);
  EXPECT_NEAR(out.velocity.y, 0.f, kTol);
}

// The default margin is a share of the pair's size: 1.5 m agents 3.04 m apart are inside it
// (3 * 61/60 = 3.05 m), 0.3 m pedestrians 0.615 m apart are not (0.6 * 61/60 = 0.61 m). An
// absolute margin could not give both (5 cm would catch the pedestrians, 1.7 cm miss the
// large agents).
TEST(OrcaKernelTest, ContactMarginIsAShareOfTheRadiusSum) {
  const float ratio = OrcaParams{}.contact_margin_ratio;
  const AgentState big = Agent({0.f, 0.f}, {0.f, 0.f}, {0.f, 0.f}, 1.5f, 2.f, 1);
  EXPECT_TRUE(orca::Overlapping(big, Neighbor({3.04f, 0.f}, {0.f, 0.f}, 1.5f, 2), ratio));
  const AgentState walker = Agent({0.f, 0.f}, {0.f, 0.f}, {0.f, 0.f}, 0.3f, 1.4f, 3);
  EXPECT_FALSE(orca::Overlapping(walker, Neighbor({0.615f, 0.f}, {0.f, 0.f}, 0.3f, 4), ratio));
  EXPECT_FLOAT_EQ(orca::detail::CombinedRadius(0.3f, 0.3f, ratio), 0.61f);
}

// Centres 1.0005 m apart, radii 0.5 + 0.5: outside contact, but within (r_a + r_b)(1 + 1e-3).
TEST(OrcaKernelTest, ContactMarginWidensCombinedRadius) {
  const AgentState a = Agent({0.f, 0.f}, {0.f, 0.f}, {0.f, 0.f}, 0.5f, 1.f, 1);
  const NeighborState b = Neighbor({1.0005f, 0.f}, {0.f, 0.f}, 0.5f, 2);
  EXPECT_FALSE(orca::Overlapping(a, b, 0.f));
  EXPECT_TRUE(orca::Overlapping(a, b, 1e-3f));

  // Plain: no overlap, and standing still never closes the gap, so v = 0 is kept.
  const OrcaParams plain = PlainParams(Params(2.f, 2.f, 0.25f));
  const SolveOutput out_plain = SolveAgent(a, &b, 1, kNoObstacles, plain);
  EXPECT_EQ(out_plain.status, SolveStatus::kOk);
  EXPECT_EQ(out_plain.velocity.x, 0.f);
  EXPECT_EQ(out_plain.velocity.y, 0.f);

  // With the margin the collision branch applies: R = 1.001, leave the 0.0005 m of
  // overlap within one 0.25 s step, half each: vx <= -0.0005 / 0.25 / 2 = -0.001.
  OrcaParams margin = plain;
  margin.contact_margin_ratio = 1e-3f;
  const Line line = orca::detail::AgentLine(a, b, 1.f / margin.time_horizon, 1.f / margin.time_step,
                                            margin.contact_margin_ratio);
  EXPECT_NEAR(line.direction.x, 0.f, kTol);
  EXPECT_NEAR(line.direction.y, 1.f, kTol);
  EXPECT_NEAR(line.point.x, -0.001f, 1e-6f);
  const SolveOutput out = SolveAgent(a, &b, 1, kNoObstacles, margin);
  EXPECT_EQ(out.status, SolveStatus::kOk);
  EXPECT_NEAR(out.velocity.x, -0.001f, 1e-6f);
  EXPECT_NEAR(out.velocity.y, 0.f, 1e-6f);
}

// A slow agent (0.1 m/s) between two non-cooperative agents closing in from 2.2 m on
// each side at 1 m/s: standing still, contact comes at 1.2 s, and no velocity avoids it,
// so tau = 4 and tau = 2 are infeasible; tau = 1 is feasible (stand still).
struct Squeeze {
  AgentState a = Agent({0.f, 0.f}, {0.f, 0.f}, {0.f, 0.1f}, 0.5f, 0.1f, 1);
  NeighborState nbs[2];
  explicit Squeeze(float gap) {
    nbs[0] = Neighbor({1.f + gap, 0.f}, {-1.f, 0.f}, 0.5f, 2, true);
    nbs[1] = Neighbor({-1.f - gap, 0.f}, {1.f, 0.f}, 0.5f, 3, true);
  }
};

TEST(OrcaKernelTest, ShortenedHorizonFindsVelocityInfeasibleAtTau) {
  const Squeeze sq(1.2f);
  const OrcaParams params = Params(4.f, 4.f, 0.25f);
  const SolveOutput out = SolveAgent(sq.a, sq.nbs, 2, kNoObstacles, params);
  EXPECT_EQ(out.status, SolveStatus::kOk);
  EXPECT_EQ(out.flags, kSolveShortenedHorizon);
  EXPECT_TRUE(out.feasible);
  EXPECT_EQ(out.constraints, 2);
  ASSERT_TRUE(IsFinite(out.velocity));
  EXPECT_LE(Length(out.velocity), sq.a.max_speed + kTol);
  // Found at tau / 4 = 1 s: no contact (with the margin) within that horizon...
  const float r = orca::detail::CombinedRadius(0.5f, 0.5f, params.contact_margin_ratio);
  for (const NeighborState& nb : sq.nbs) {
    EXPECT_GE(MinDistance(sq.a.p, out.velocity, nb.p, nb.v, 1.f), r - 1e-4f);
  }
  // ...though there is within tau (why tau itself was infeasible).
  EXPECT_LT(MinDistance(sq.a.p, out.velocity, sq.nbs[0].p, sq.nbs[0].v, params.time_horizon), r);

  OrcaParams no_shorten = params;
  no_shorten.shorten_horizon = false;
  no_shorten.jam_step = false;  // step 5 has its own tests (orca_jam_step_test.cpp)
  const SolveOutput plain = SolveAgent(sq.a, sq.nbs, 2, kNoObstacles, no_shorten);
  EXPECT_NE(plain.status, SolveStatus::kOk);
  EXPECT_EQ(plain.status, SolveStatus::kEmergency);  // v = 0 breaks the hard lines
  EXPECT_EQ(plain.flags, 0);
  EXPECT_FALSE(plain.feasible);
}

// The horizons go tau / 2^k down to time_step and stop there. Contact (standing still,
// with the contact margin) after 0.28 s: feasible at 0.25 s, not at 0.3 s. With time_step
// 0.25 the last horizon (0.25) succeeds; with time_step 0.3 the walk is 2, 1, 0.5, 0.3 and
// fails.
TEST(OrcaKernelTest, ShortenedHorizonStopsAtTimeStep) {
  const Squeeze sq(0.28f + OrcaParams{}.contact_margin_ratio * 1.f);  // radius sum 1 m
  const SolveOutput at_quarter = SolveAgent(sq.a, sq.nbs, 2, kNoObstacles, Params(4.f, 4.f, 0.25f));
  EXPECT_EQ(at_quarter.status, SolveStatus::kOk);
  EXPECT_EQ(at_quarter.flags, kSolveShortenedHorizon);

  OrcaParams at_point_three = Params(4.f, 4.f, 0.3f);
  at_point_three.jam_step = false;  // step 5 has its own tests (orca_jam_step_test.cpp)
  const SolveOutput clamped = SolveAgent(sq.a, sq.nbs, 2, kNoObstacles, at_point_three);
  EXPECT_EQ(clamped.status, SolveStatus::kEmergency);
  EXPECT_EQ(clamped.flags, 0);
  EXPECT_FALSE(clamped.feasible);
}

// The squeeze of SafeStopWhenStandingStillBreaksNoHardLine: two overlapping cooperative
// neighbours demand vx >= 0.4 and vx <= -0.4. Plain: safe stop. With overlap_is_hard
// their collision-branch lines are hard and v = 0 breaks them: emergency (LP3).
TEST(OrcaKernelTest, OverlapIsHardTurnsOverlappingSqueezeIntoEmergency) {
  const AgentState a = Agent({0.f, 0.f}, {0.f, 0.f}, {1.f, 0.f}, 0.5f, 1.f, 1);
  const NeighborState nbs[] = {Neighbor({-0.8f, 0.f}, {0.f, 0.f}, 0.5f, 2),
                               Neighbor({0.8f, 0.f}, {0.f, 0.f}, 0.5f, 3),
                               Neighbor({0.f, 3.f}, {0.f, 0.f}, 0.5f, 4, true)};
  const OrcaParams plain = PlainParams(Params(2.f, 2.f, 0.25f));
  ASSERT_EQ(SolveAgent(a, nbs, 3, kNoObstacles, plain).status, SolveStatus::kSafeStop);

  OrcaParams hard = plain;
  hard.overlap_is_hard = true;
  const SolveOutput out = SolveAgent(a, nbs, 3, kNoObstacles, hard);
  EXPECT_EQ(out.status, SolveStatus::kEmergency);
  EXPECT_FALSE(out.feasible);
  ASSERT_TRUE(IsFinite(out.velocity));
  EXPECT_LE(Length(out.velocity), a.max_speed + kTol);
  float worst_at_result = -1e9f;
  for (const NeighborState& nb : nbs) {
    const Line line = orca::detail::AgentLine(a, nb, 1.f / hard.time_horizon, 1.f / hard.time_step,
                                              hard.contact_margin_ratio);
    worst_at_result = std::fmax(worst_at_result, Violation(line, out.velocity));
  }
  EXPECT_NEAR(worst_at_result, 0.4f, kTol);  // the squeeze's least possible violation

  // Every addition on: still an emergency (no horizon helps an overlap).
  EXPECT_EQ(SolveAgent(a, nbs, 3, kNoObstacles, Params(2.f, 2.f, 0.25f)).status,
            SolveStatus::kEmergency);
}

// overlap_is_hard hardens only collision-branch lines: cooperative neighbours closing in
// from afar (the 1.2 m squeeze, now cooperative) still allow a safe stop.
TEST(OrcaKernelTest, OverlapIsHardLeavesNonOverlappingLinesSoft) {
  Squeeze sq(1.2f);
  for (NeighborState& nb : sq.nbs) nb.non_cooperative = false;
  OrcaParams params = PlainParams(Params(4.f, 4.f, 0.25f));
  params.overlap_is_hard = true;
  const SolveOutput out = SolveAgent(sq.a, sq.nbs, 2, kNoObstacles, params);
  EXPECT_EQ(out.status, SolveStatus::kSafeStop);
  EXPECT_EQ(out.velocity.x, 0.f);
  EXPECT_EQ(out.velocity.y, 0.f);
}

// Infeasible at every horizon (two overlapping cooperative neighbours, vx >= 0.4 and
// vx <= -0.4). A non-cooperative agent 3 m away walks at the agent: standing still it
// arrives after 2 s, so v = 0 breaks its line at tau = 4 but not at time_step. The safe
// stop is judged on the full-tau lines: emergency. LP3 then runs on the last problem,
// the agent lines rebuilt at time_step.
TEST(OrcaKernelTest, ShortenedHorizonJudgesSafeStopAtTauAndRunsLp3OnLastHorizon) {
  OrcaParams params = PlainParams(Params(4.f, 4.f, 0.25f));
  params.shorten_horizon = true;
  const AgentState a = Agent({0.f, 0.f}, {0.f, 0.f}, {1.f, 0.f}, 0.5f, 1.f, 1);
  const NeighborState nbs[] = {Neighbor({-0.8f, 0.f}, {0.f, 0.f}, 0.5f, 2),
                               Neighbor({0.8f, 0.f}, {0.f, 0.f}, 0.5f, 3),
                               Neighbor({0.f, 3.f}, {0.f, -1.f}, 0.5f, 4, true)};
  auto lines_at = [&](float tau, Line* lines) {
    for (int k = 0; k < 3; ++k) {
      lines[k] = orca::detail::AgentLine(a, nbs[k], 1.f / tau, 1.f / params.time_step, 0.f);
    }
  };
  Line full[3], last[3];
  lines_at(params.time_horizon, full);
  lines_at(params.time_step, last);
  ASSERT_GT(Violation(full[2], {0.f, 0.f}), orca::detail::kHardLineSlack);
  ASSERT_LE(Violation(last[2], {0.f, 0.f}), 0.f);

  const SolveOutput out = SolveAgent(a, nbs, 3, kNoObstacles, params);
  EXPECT_EQ(out.status, SolveStatus::kEmergency);
  EXPECT_EQ(out.flags, 0);

  Vec2 expected, at_full;
  const int fail_last = orca::LinearProgram2(last, 3, a.max_speed, a.v_pref, false, &expected);
  ASSERT_LT(fail_last, 3);
  orca::LinearProgram3(last, 3, 0, fail_last, a.max_speed, &expected);
  const int fail_full = orca::LinearProgram2(full, 3, a.max_speed, a.v_pref, false, &at_full);
  orca::LinearProgram3(full, 3, 0, fail_full, a.max_speed, &at_full);
  ASSERT_GT(Length(expected - at_full), 0.01f);  // the two problems' answers differ
  EXPECT_NEAR(out.velocity.x, expected.x, kTol);
  EXPECT_NEAR(out.velocity.y, expected.y, kTol);
}

// feasible_only stops after the LP2 attempts: feasible = false, and neither the safe stop's
// v = 0 nor LP3's velocity.
TEST(OrcaKernelTest, FeasibleOnlyReportsInfeasibleWithoutFallback) {
  const OrcaParams params = PlainParams(Params(2.f, 2.f, 0.25f));
  const AgentState a = Agent({0.f, 0.f}, {0.f, 0.f}, {1.f, 0.f}, 0.5f, 1.f, 1);
  const NeighborState safe_nbs[] = {Neighbor({-0.8f, 0.f}, {0.f, 0.f}, 0.5f, 2),
                                    Neighbor({0.8f, 0.f}, {0.f, 0.f}, 0.5f, 3),
                                    Neighbor({0.f, 3.f}, {0.f, 0.f}, 0.5f, 4, true)};
  ASSERT_EQ(SolveAgent(a, safe_nbs, 3, kNoObstacles, params).status, SolveStatus::kSafeStop);
  const SolveOutput no_stop = SolveAgent(a, safe_nbs, 3, kNoObstacles, params, true);
  EXPECT_FALSE(no_stop.feasible);
  EXPECT_NE(no_stop.status, SolveStatus::kSafeStop);
  EXPECT_NE(no_stop.status, SolveStatus::kEmergency);
  EXPECT_EQ(no_stop.constraints, 3);
  EXPECT_FALSE(no_stop.velocity == (Vec2{0.f, 0.f}));

  const NeighborState emergency_nbs[] = {Neighbor({-0.8f, 0.f}, {0.f, 0.f}, 0.5f, 2),
                                         Neighbor({0.8f, 0.f}, {0.f, 0.f}, 0.5f, 3),
                                         Neighbor({0.f, 1.5f}, {0.f, -1.f}, 0.5f, 4, true)};
  const SolveOutput lp3 = SolveAgent(a, emergency_nbs, 3, kNoObstacles, params);
  ASSERT_EQ(lp3.status, SolveStatus::kEmergency);
  const SolveOutput no_lp3 = SolveAgent(a, emergency_nbs, 3, kNoObstacles, params, true);
  EXPECT_FALSE(no_lp3.feasible);
  EXPECT_NE(no_lp3.status, SolveStatus::kSafeStop);
  EXPECT_NE(no_lp3.status, SolveStatus::kEmergency);
  EXPECT_FALSE(no_lp3.velocity == lp3.velocity);

  // Also with shorter horizons on: they are tried (and fail) before giving up.
  OrcaParams all = Params(2.f, 2.f, 0.25f);
  const SolveOutput all_out = SolveAgent(a, emergency_nbs, 3, kNoObstacles, all, true);
  EXPECT_FALSE(all_out.feasible);
  EXPECT_EQ(all_out.flags, 0);
  EXPECT_NE(all_out.status, SolveStatus::kEmergency);
}

// When an LP2 succeeds, feasible_only changes nothing.
TEST(OrcaKernelTest, FeasibleOnlyMatchesNormalSolveWhenFeasible) {
  const OrcaParams params = Params(2.f, 2.f, 0.25f);
  const NeighborState b = HeadOnB();
  const SolveOutput normal = SolveAgent(HeadOnA(), &b, 1, kNoObstacles, params);
  const SolveOutput only = SolveAgent(HeadOnA(), &b, 1, kNoObstacles, params, true);
  ASSERT_EQ(normal.status, SolveStatus::kOk);
  EXPECT_TRUE(only.feasible);
  EXPECT_EQ(only.status, SolveStatus::kOk);
  EXPECT_EQ(only.flags, normal.flags);
  EXPECT_EQ(only.velocity.x, normal.velocity.x);
  EXPECT_EQ(only.velocity.y, normal.velocity.y);
}

}  // namespace
}  // namespace throng::orca_kernel_test
