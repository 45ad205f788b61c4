// Each rule of docs/ORCA.md "Solve and infeasibility" in the reference, from the plain order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <vector>

#include "kernels/reference/orca_ref.h"
#include "tests/reference/orca_ref_fixtures.h"

namespace throng::reference::orca_ref_test {
namespace {

// ---------------------------------------------------------------------------------------
// docs/ORCA.md "Solve and infeasibility": each rule on its own, from the plain order.

// Rule 0. Head-on, v_pref breaks the agent line: both targets turn right by side_bias,
// and here the turned targets are feasible, so they are the velocities.
TEST(OrcaRulesTest, SideBiasTurnsAConflictingTargetRight) {
  OrcaScene scene = HeadOnPair(2.f);
  ASSERT_GT(Violation(BuildLines(scene, 0, nullptr)[0], {1.0, 0.0}), 0.0);
  const OrcaResult plain = SolveOrca(scene);
  scene.params.side_bias = 0.3f;
  SolveDiagnostics diag;
  const OrcaResult r = SolveOrca(scene, {}, &diag);
  const double c = std::cos(static_cast<double>(0.3f));
  const double s = std::sin(static_cast<double>(0.3f));
  EXPECT_TRUE(diag.target_biased[0]);
  EXPECT_TRUE(diag.target_biased[1]);
  EXPECT_EQ(r.vx[0], static_cast<float>(c));  // agent 0 heads +x: its right is -y
  EXPECT_EQ(r.vy[0], static_cast<float>(-s));
  EXPECT_EQ(r.vx[1], static_cast<float>(-c));  // agent 1 heads -x: its right is +y
  EXPECT_EQ(r.vy[1], static_cast<float>(s));
  // Plain ORCA also passes on the right here, but less decidedly.
  EXPECT_LT(r.vy[0], plain.vy[0]);
  EXPECT_GT(r.vy[1], plain.vy[1]);
  EXPECT_EQ(r.status_count[0], 2u);
  EXPECT_EQ(r.solve_flags, std::vector<uint8_t>(2, 0));
}

// Rule 0. No agent line broken by v_pref: the target is v_pref itself.
TEST(OrcaRulesTest, SideBiasLeavesFreeWalkingStraight) {
  {  // alone, with every default rule on
    OrcaScene scene;
    AddAgent(&scene, {.id = 0, .vx = 1.f, .pref_vx = 1.5f, .pref_vy = 0.5f});
    SolveDiagnostics diag;
    const OrcaResult r = SolveOrca(scene, {}, &diag);
    EXPECT_FALSE(diag.target_biased[0]);
    EXPECT_EQ(r.vx[0], 1.5f);
    EXPECT_EQ(r.vy[0], 0.5f);
    EXPECT_EQ(r.solve_flags[0], 0);
  }
  {  // a neighbour whose line v_pref keeps (tau 1: contact would come after 1.5 s)
    OrcaScene scene = HeadOnPair(1.f);
    scene.params.side_bias = 0.3f;
    scene.params.contact_margin_ratio = 1e-3f;
    ASSERT_LE(Violation(BuildLines(scene, 0, nullptr)[0], {1.0, 0.0}), 0.0);
    SolveDiagnostics diag;
    const OrcaResult r = SolveOrca(scene, {}, &diag);
    EXPECT_FALSE(diag.target_biased[0]);
    EXPECT_EQ(r.vx[0], 1.f);
    EXPECT_EQ(r.vy[0], 0.f);
    EXPECT_EQ(r.vx[1], -1.f);
    EXPECT_EQ(r.vy[1], 0.f);
  }
  {  // only an obstacle line is broken: obstacle lines do not turn the target
    OrcaScene scene;
    MakePlain(&scene);
    scene.params.time_horizon_obst = 2.f;
    scene.obstacles.push_back({{{2.f, -5.f}, {2.f, 5.f}}});
    AddAgent(&scene, {.id = 0, .vx = 1.f, .pref_vx = 1.f, .pref_vy = 0.2f});
    size_t obstacle_lines = 0;
    const std::vector<Line> lines = BuildLines(scene, 0, &obstacle_lines);
    ASSERT_EQ(obstacle_lines, 1u);
    ASSERT_GT(Violation(lines[0], {1.0, 0.2}), 0.0);
    const OrcaResult plain = SolveOrca(scene);
    scene.params.side_bias = 0.3f;
    SolveDiagnostics diag;
    const OrcaResult r = SolveOrca(scene, {}, &diag);
    EXPECT_FALSE(diag.target_biased[0]);
    EXPECT_EQ(r.vx[0], plain.vx[0]);
    EXPECT_EQ(r.vy[0], plain.vy[0]);
  }
}

// Rule 1. The margin widens every agent line's combined radius, collision branch included.
TEST(OrcaRulesTest, ContactMarginWidensTheVelocityObstacle) {
  OrcaScene scene = HeadOnPair(2.f);
  const OrcaResult r0 = SolveOrca(scene);
  scene.params.contact_margin_ratio = 0.1f;
  const OrcaResult r1 = SolveOrca(scene);
  EXPECT_LT(r0.vy[0], 0.f);
  EXPECT_LT(r1.vy[0], r0.vy[0]);  // both pass on the right, the margin more widely

  // 0.5 mm apart: overlapping (collision branch) only with a 1 mm margin.
  OrcaScene touching;
  MakePlain(&touching);
  AddAgent(&touching, {.id = 0});
  AddAgent(&touching, {.id = 1, .px = 1.0005f});
  EXPECT_FALSE(BuildProblem(touching, 0).overlapping[0]);
  touching.params.contact_margin_ratio = 1e-3f;
  EXPECT_TRUE(BuildProblem(touching, 0).overlapping[0]);
}

// The reference applies the margin as a share of the radius sum too (see the kernel's
// ContactMarginIsAShareOfTheRadiusSum): 1.5 m agents 3.04 m apart take the collision
// branch, 0.3 m pedestrians 0.615 m apart do not.
TEST(OrcaRulesTest, ContactMarginIsAShareOfTheRadiusSum) {
  OrcaScene big;
  AddAgent(&big, {.id = 0, .radius = 1.5f});
  AddAgent(&big, {.id = 1, .px = 3.04f, .radius = 1.5f});
  EXPECT_TRUE(BuildProblem(big, 0).overlapping[0]);
  OrcaScene walkers;
  AddAgent(&walkers, {.id = 0, .radius = 0.3f});
  AddAgent(&walkers, {.id = 1, .px = 0.615f, .radius = 0.3f});
  EXPECT_FALSE(BuildProblem(walkers, 0).overlapping[0]);
}

// Agent 0 at the origin, four cooperative agents `distance` away on the axes walking at it
// at 1 m/s; radii 0.5, tau 2; plain order.
OrcaScene FourSidedSqueeze(float distance) {
  OrcaScene scene;
  MakePlain(&scene);
  scene.params.time_horizon = 2.f;
  AddAgent(&scene, {.id = 0, .pref_vx = 1.f});
  AddAgent(&scene, {.id = 1, .px = distance, .vx = -1.f, .pref_vx = -1.f});
  AddAgent(&scene, {.id = 2, .px = -distance, .vx = 1.f, .pref_vx = 1.f});
  AddAgent(&scene, {.id = 3, .py = distance, .vy = -1.f, .pref_vy = -1.f});
  AddAgent(&scene, {.id = 4, .py = -distance, .vy = 1.f, .pref_vy = 1.f});
  return scene;
}

// Smallest centre distance over [0, t_max] of two discs moving at constant velocities.
double MinDistance(Vec2d rel_pos, Vec2d rel_vel, double t_max) {
  const double vv = lp::Dot(rel_vel, rel_vel);
  const double t = vv > 0.0 ? std::clamp(-lp::Dot(rel_pos, rel_vel) / vv, 0.0, t_max) : 0.0;
  const Vec2d d = rel_pos + t * rel_vel;
  return std::sqrt(lp::Dot(d, d));
}

Vec2d Position(const OrcaScene& scene, size_t i) {
  return {scene.agents.px[i], scene.agents.py[i]};
}
Vec2d Velocity(const OrcaResult& r, size_t i) { return {r.vx[i], r.vy[i]}; }

// Rule 2. 0.6 m gaps, closing at 1 m/s from both sides of each axis: taking half, agent 0
// must move away from both sides at tau = 2 and tau = 1 (infeasible); at tau = 0.5 it
// need not.
TEST(OrcaRulesTest, ShortenedHorizonIsOkWithFlag) {
  OrcaScene scene = FourSidedSqueeze(1.6f);
  EXPECT_EQ(SolveOrca(scene).status[0], Status(SolveStatus::kSafeStop));
  scene.params.shorten_horizon = true;
  SolveDiagnostics diag;
  const OrcaResult r = SolveOrca(scene, {}, &diag);
  EXPECT_EQ(r.status[0], Status(SolveStatus::kOk));
  EXPECT_EQ(r.solve_flags[0], kSolveShortenedHorizon);
  EXPECT_DOUBLE_EQ(diag.horizon[0], 0.5);
  for (size_t i = 1; i < 5; ++i) {
    EXPECT_EQ(r.status[i], Status(SolveStatus::kOk));
    EXPECT_EQ(r.solve_flags[i], 0) << i;
    EXPECT_DOUBLE_EQ(diag.horizon[i], 2.0);
    // Both took (at least) their half at a horizon >= 0.5 s: no contact within 0.5 s.
    const Vec2d rel_pos = Position(scene, i) - Position(scene, 0);
    EXPECT_GE(MinDistance(rel_pos, Velocity(r, i) - Velocity(r, 0), 0.5), 1.0 - 1e-6) << i;
  }
  EXPECT_EQ(r.shortened_horizon, 1u);
  EXPECT_EQ(diag.lp2_solves, 5u);
  EXPECT_EQ(diag.shortened_lp2_solves, 2u);  // tau 1 fails, tau 0.5 succeeds
  EXPECT_EQ(r.constraints[0], 4);            // same lines, same count
  ExpectCountsConsistent(r);
}

// Rule 2, the end of the sequence: tau_k halves down to exactly time_step, then step 3.
TEST(OrcaRulesTest, ShortenedHorizonsEndAtTimeStep) {
  OrcaScene scene = FourSidedSqueeze(1.2f);  // 0.2 m gaps: infeasible even at 0.25 s
  scene.params.shorten_horizon = true;
  SolveDiagnostics diag;
  OrcaResult r = SolveOrca(scene, {}, &diag);
  EXPECT_EQ(r.status[0], Status(SolveStatus::kSafeStop));
  EXPECT_EQ(r.solve_flags[0], 0);
  EXPECT_DOUBLE_EQ(diag.horizon[0], 0.25);  // 2 -> 1, 0.5, 0.25
  EXPECT_EQ(r.vx[0], 0.f);
  EXPECT_EQ(r.vy[0], 0.f);

  // tau = 10, time_step = 0.25: 5, 2.5, 1.25, 0.625, 0.3125, then 0.25 (clamped).
  scene.params.time_horizon = 10.f;
  diag = {};
  r = SolveOrca(scene, {}, &diag);
  EXPECT_EQ(r.status[0], Status(SolveStatus::kSafeStop));
  EXPECT_DOUBLE_EQ(diag.horizon[0], 0.25);
  const uint64_t shortened_tau10 = diag.shortened_lp2_solves;
  EXPECT_GE(shortened_tau10, 6u);

  // tau = time_step: nothing shorter to try.
  scene.params.time_horizon = 0.25f;
  diag = {};
  r = SolveOrca(scene, {}, &diag);
  EXPECT_EQ(diag.shortened_lp2_solves, 0u);
  EXPECT_EQ(r.shortened_horizon, 0u);
}

// Hemmed in as FourSidedSqueeze(1.2), but the agent already overlaps the neighbour on its
// right.
OrcaScene HemmedInOverlapping() {
  OrcaScene scene = FourSidedSqueeze(1.2f);
  scene.agents.px[1] = 0.9f;
  return scene;
}

// Rule 3. Standing still while overlapping is not safe with overlap_is_hard.
TEST(OrcaRulesTest, OverlapIsHardTurnsSafeStopIntoEmergency) {
  OrcaScene scene = HemmedInOverlapping();
  const AgentProblem problem = BuildProblem(scene, 0);
  ASSERT_EQ(problem.overlapping.size(), 4u);
  EXPECT_TRUE(problem.overlapping[0]);  // agent 1, 0.9 m < 1 m
  EXPECT_FALSE(problem.overlapping[1]);
  EXPECT_FALSE(problem.hard[0]);  // cooperative

  EXPECT_EQ(SolveOrca(scene).status[0], Status(SolveStatus::kSafeStop));
  scene.params.overlap_is_hard = true;
  SolveDiagnostics diag;
  const OrcaResult r = SolveOrca(scene, {}, &diag);
  EXPECT_EQ(r.status[0], Status(SolveStatus::kEmergency));
  EXPECT_LT(r.vx[0], 0.f);  // LP3 moves it away from the overlapped neighbour
  EXPECT_EQ(r.solve_flags[0], 0);
  EXPECT_EQ(r.status_count[2], 1u);
  ExpectCountsConsistent(r);

  // Without an overlap there is no collision-branch line: hemmed in, it still stops.
  OrcaScene apart = FourSidedSqueeze(1.2f);
  apart.params.overlap_is_hard = true;
  EXPECT_EQ(SolveOrca(apart).status[0], Status(SolveStatus::kSafeStop));
}

// Pass 2. Agent 0 is hemmed in and stops (pass 1); its neighbours assumed it takes half.
// Re-validating, they avoid a standing agent 0 on their own for tau, and adopt that.
TEST(OrcaRulesTest, RevalidationAdoptsFeasibleVelocityAgainstStopper) {
  OrcaScene scene = FourSidedSqueeze(1.2f);
  const OrcaResult plain = SolveOrca(scene);
  ASSERT_EQ(plain.status[0], Status(SolveStatus::kSafeStop));
  // Without re-validation, agent 1 would hit the standing agent 0 within tau.
  EXPECT_LT(MinDistance({1.2, 0.0}, Velocity(plain, 1), 2.0), 1.0 - 1e-3);
  EXPECT_EQ(plain.revalidated, 0u);

  scene.params.revalidate = true;
  SolveDiagnostics diag;
  const OrcaResult r = SolveOrca(scene, {}, &diag);
  // The stopper is not ok in pass 1: it keeps its pass-1 result.
  EXPECT_EQ(r.status[0], Status(SolveStatus::kSafeStop));
  EXPECT_EQ(r.vx[0], 0.f);
  EXPECT_EQ(r.vy[0], 0.f);
  EXPECT_EQ(r.solve_flags[0], 0);
  for (size_t i = 1; i < 5; ++i) {
    EXPECT_EQ(r.status[i], Status(SolveStatus::kOk)) << i;
    EXPECT_EQ(r.solve_flags[i], kSolveRevalidated | kSolveAdopted) << i;
    const Vec2d rel_pos = Position(scene, i) - Position(scene, 0);
    EXPECT_GE(MinDistance(rel_pos, Velocity(r, i), 2.0), 1.0 - 1e-6) << i;
  }
  EXPECT_EQ(r.revalidated, 4u);
  EXPECT_EQ(r.revalidation_adopted, 4u);
  EXPECT_EQ(diag.pass_two_lp2_solves, 4u);
  EXPECT_EQ(r.constraints, plain.constraints);
  ExpectCountsConsistent(r);
}

// Pass 2. B (id 0) overlaps A (id 1) by 0.75 m; A moves away at 2 m/s in the snapshot but
// would need 2.5 m/s to take its half, so A stops (pass 1). B's pass-1 half is vx <= -0.5;
// against a standing A taking all, B needs vx <= -3.
OrcaScene OverlapWithStopper(float b_max_speed) {
  OrcaScene scene;
  MakePlain(&scene);
  scene.params.revalidate = true;
  AddAgent(&scene, {.id = 0, .max_speed = b_max_speed});
  AddAgent(&scene, {.id = 1, .px = 0.25f, .vx = 2.f, .max_speed = 2.f, .pref_vx = 2.f});
  return scene;
}

TEST(OrcaRulesTest, RevalidationKeepsPassOneWhenInfeasible) {
  const OrcaResult r = SolveOrca(OverlapWithStopper(1.f));
  EXPECT_EQ(r.status[1], Status(SolveStatus::kSafeStop));
  EXPECT_EQ(r.status[0], Status(SolveStatus::kOk));
  EXPECT_EQ(r.solve_flags[0], kSolveRevalidated);  // re-solved, not adopted
  EXPECT_NEAR(r.vx[0], -0.5f, 1e-6f);              // pass 1's velocity
  EXPECT_NEAR(r.vy[0], 0.f, 1e-6f);
  EXPECT_EQ(r.revalidated, 1u);
  EXPECT_EQ(r.revalidation_adopted, 0u);
  ExpectCountsConsistent(r);

  // Fast enough to separate alone within a step: pass 2's velocity is adopted.
  const OrcaResult fast = SolveOrca(OverlapWithStopper(4.f));
  EXPECT_EQ(fast.status[0], Status(SolveStatus::kOk));
  EXPECT_EQ(fast.solve_flags[0], kSolveRevalidated | kSolveAdopted);
  EXPECT_NEAR(fast.vx[0], -3.f, 1e-6f);
  EXPECT_EQ(fast.revalidation_adopted, 1u);

  // Without pass 2 the pass-1 velocity stands, unflagged.
  OrcaScene off = OverlapWithStopper(1.f);
  off.params.revalidate = false;
  const OrcaResult p1 = SolveOrca(off);
  EXPECT_EQ(p1.vx[0], r.vx[0]);
  EXPECT_EQ(p1.vy[0], r.vy[0]);
  EXPECT_EQ(p1.solve_flags[0], 0);
}

// Repair passes, revalidate_fallback: B's re-solve against A standing still fails (it would
// need 3 m/s); overlapping A, B cannot stop safely either, so it reports an emergency with
// LP3's velocity (as far from A as its 1 m/s allows) instead of keeping its half (-0.5).
TEST(OrcaRulesTest, FailedRevalidationFallsBackToEmergency) {
  OrcaScene scene = OverlapWithStopper(1.f);
  scene.params.revalidate_fallback = true;
  const OrcaResult r = SolveOrca(scene);
  EXPECT_EQ(r.status[1], Status(SolveStatus::kSafeStop));
  EXPECT_EQ(r.status[0], Status(SolveStatus::kEmergency));
  EXPECT_EQ(r.solve_flags[0], kSolveRevalidated);  // re-solved, not adopted
  EXPECT_NEAR(r.vx[0], -1.f, 1e-6f);
  EXPECT_NEAR(r.vy[0], 0.f, 1e-6f);
  EXPECT_EQ(r.revalidated, 1u);
  EXPECT_EQ(r.revalidation_adopted, 0u);
  ExpectCountsConsistent(r);
}

// A queue in a corridor (walls 0.1 m from everyone's side: no way round), plain order plus
// the repair rules, tau 2, two neighbours each. Agent 0 at the origin is closed on at 1 m/s
// from both sides with 0.2 m gaps (agents 4 and 1) and stops (pass 1); so does agent 1,
// caught between 0 and agent 2 walking behind it. Agent 2 counted on 1 taking half;
// against 1 standing still it must stop, while agent 3 right behind needs it to keep
// going: it fails and stops (first repair). Agent 3 sees 2 and 1 only: it learns of 1 in
// the first repair and of 2 in the second.
OrcaScene Queue(int passes) {
  OrcaScene scene;
  MakePlain(&scene);
  scene.params.time_horizon = 2.f;
  scene.params.max_neighbors = 2;
  scene.params.revalidate = true;
  scene.params.revalidate_fallback = true;
  scene.params.revalidate_passes = passes;
  AddAgent(&scene, {.id = 0, .pref_vx = 1.f});
  for (uint32_t k = 1; k <= 3; ++k) {
    AddAgent(&scene, {.id = k, .px = 1.2f * k, .vx = -1.f, .pref_vx = -1.f});
  }
  AddAgent(&scene, {.id = 4, .px = -1.2f, .vx = 1.f, .pref_vx = 1.f});
  scene.obstacles.push_back({{{-20.f, 0.6f}, {20.f, 0.6f}}});
  scene.obstacles.push_back({{{20.f, -0.6f}, {-20.f, -0.6f}}});
  return scene;
}

// Smallest centre distance over all pairs after one step.
double ClosestPairAfterStep(OrcaScene scene, OrcaResult* r) {
  *r = StepScene(scene);
  double closest = 1e9;
  const AgentColumns& a = scene.agents;
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t j = i + 1; j < a.size(); ++j) {
      closest = std::min(closest, std::hypot(static_cast<double>(a.px[i]) - a.px[j],
                                             static_cast<double>(a.py[i]) - a.py[j]));
    }
  }
  return closest;
}

TEST(OrcaRulesTest, RepairPassesFollowAChainOfStops) {
  const OrcaScene scene = Queue(4);
  OrcaResult r;
  EXPECT_GE(ClosestPairAfterStep(scene, &r), 1.0);
  for (size_t i : {0, 1}) {
    EXPECT_EQ(r.status[i], Status(SolveStatus::kSafeStop)) << i;
    EXPECT_EQ(r.solve_flags[i], 0) << i;
  }
  EXPECT_EQ(r.status[2], Status(SolveStatus::kSafeStop));
  EXPECT_EQ(r.solve_flags[2], kSolveRevalidated);
  EXPECT_EQ(r.vx[2], 0.f);
  EXPECT_EQ(r.status[3], Status(SolveStatus::kOk));
  EXPECT_EQ(r.solve_flags[3], kSolveRevalidated | kSolveAdopted);
  // Clear of 2 standing still over the whole horizon, on its own.
  const Vec2d rel = Position(scene, 3) - Position(scene, 2);
  EXPECT_GE(MinDistance(rel, Velocity(r, 3), 2.0), 1.0 - 1e-6);
  ExpectCountsConsistent(r);

  // One repair pass: 3 never hears that 2 stopped and keeps a velocity that relies on 2
  // taking half.
  OrcaResult one;
  ClosestPairAfterStep(Queue(1), &one);
  EXPECT_EQ(one.status[2], Status(SolveStatus::kSafeStop));
  EXPECT_EQ(one.solve_flags[3], kSolveRevalidated | kSolveAdopted);
  EXPECT_LT(MinDistance(rel, Velocity(one, 3), 2.0), 1.0 - 0.1);

  // Without the fallback (the single second pass before it): 2 keeps its pass-1 velocity
  // and walks into 1 standing still within the step.
  OrcaScene keep = Queue(4);
  keep.params.revalidate_fallback = false;
  OrcaResult kept;
  EXPECT_LT(ClosestPairAfterStep(keep, &kept), 1.0);
  EXPECT_EQ(kept.status[2], Status(SolveStatus::kOk));
  EXPECT_EQ(kept.solve_flags[2], kSolveRevalidated);
  EXPECT_EQ(kept.vx[2], -1.f);
}

// Pass 2 runs steps 0-2: its success may come from a shorter horizon, and then the
// adopted velocity carries that flag too (the flags describe the velocity reported).
// FourSidedSqueeze(1.2) with a non-cooperative agent 5 behind agent 1 (found by search):
// agent 0 stops at every horizon; agent 4's pass 1 and pass 2 both succeed at tau / 2.
TEST(OrcaRulesTest, RevalidationAtAShorterHorizonKeepsBothFlags) {
  OrcaScene scene = FourSidedSqueeze(1.2f);
  scene.params.shorten_horizon = true;
  AddAgent(&scene,
           {.id = 5, .px = 2.7f, .vx = -0.5f, .pref_vx = -0.5f, .flags = kAgentNonCooperative});
  SolveDiagnostics diag;
  const OrcaResult p1 = SolveOrca(scene, {}, &diag);
  EXPECT_EQ(p1.status[0], Status(SolveStatus::kSafeStop));
  EXPECT_EQ(p1.solve_flags[4], kSolveShortenedHorizon);

  scene.params.revalidate = true;
  const OrcaResult r = SolveOrca(scene, {}, &diag);
  EXPECT_EQ(r.status[4], Status(SolveStatus::kOk));
  EXPECT_EQ(r.solve_flags[4], kSolveShortenedHorizon | kSolveRevalidated | kSolveAdopted);
  EXPECT_DOUBLE_EQ(diag.horizon[4], 1.0);
  // Feasible against the standing agent 0 within that horizon (1 s).
  EXPECT_GE(MinDistance(Position(scene, 4) - Position(scene, 0), Velocity(r, 4), 1.0), 1.0 - 1e-6);
  for (size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(r.solve_flags[i], kSolveRevalidated | kSolveAdopted) << i;
  }
  EXPECT_EQ(r.solve_flags[5], 0);
  EXPECT_EQ(r.shortened_horizon, 1u);
  EXPECT_EQ(r.revalidated, 4u);
  EXPECT_EQ(r.revalidation_adopted, 4u);
  ExpectCountsConsistent(r);
}

TEST(OrcaRulesTest, NonCooperativeAgentsHaveNoFlags) {
  OrcaScene scene = FourSidedSqueeze(1.2f);
  scene.params = OrcaParams{};  // every rule on
  scene.params.time_horizon = 2.f;
  scene.agents.flags[2] = kAgentNonCooperative;
  const OrcaResult r = SolveOrca(scene);
  EXPECT_EQ(r.solve_flags[2], 0);
  EXPECT_EQ(r.status[2], Status(SolveStatus::kOk));
  EXPECT_EQ(r.vx[2], 1.f);
  EXPECT_EQ(r.vy[2], 0.f);
  ExpectCountsConsistent(r);
}

}  // namespace
}  // namespace throng::reference::orca_ref_test
