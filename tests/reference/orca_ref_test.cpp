// The independent ORCA reference in the plain order: the worked examples of docs/ALGORITHMS.md
// §5, responsibility, statuses and coincident agents.
#include "kernels/reference/orca_ref.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <vector>

#include "tests/reference/orca_ref_fixtures.h"

namespace throng::reference::orca_ref_test {
namespace {

// ---------------------------------------------------------------------------------------
// docs/ALGORITHMS.md §5 worked examples.

TEST(OrcaReferenceTest, HorizonTwoSecondsCutsCurrentVelocity) {
  const OrcaScene scene = HeadOnPair(2.f);
  size_t obstacle_lines = 99;
  const std::vector<Line> lines = BuildLines(scene, 0, &obstacle_lines);
  EXPECT_EQ(obstacle_lines, 0u);
  ASSERT_EQ(lines.size(), 1u);
  // Contact at 1.5 s < tau: the current velocity (1, 0) is forbidden, by 0.25 m/s
  // (half of |u| = 2 * sin(asin(1/4)) = 0.5).
  EXPECT_NEAR(Violation(lines[0], {1.0, 0.0}), 0.25, 1e-12);

  const OrcaResult r = SolveOrca(scene);
  EXPECT_EQ(r.status[0], static_cast<uint8_t>(SolveStatus::kOk));
  // v + u/2 with u = (-1/8, -sqrt(15)/8): pass on the right.
  EXPECT_NEAR(r.vx[0], 1.0 - 1.0 / 16.0, 1e-6);
  EXPECT_NEAR(r.vy[0], -std::sqrt(15.0) / 16.0, 1e-6);
}

TEST(OrcaReferenceTest, HorizonOneSecondKeepsCurrentVelocity) {
  const OrcaScene scene = HeadOnPair(1.f);
  const std::vector<Line> lines = BuildLines(scene, 0, nullptr);
  ASSERT_EQ(lines.size(), 1u);  // a candidate (1 + 4 * 1 >= 4) but not binding
  EXPECT_LE(Violation(lines[0], {1.0, 0.0}), 0.0);

  const OrcaResult r = SolveOrca(scene);
  EXPECT_EQ(r.vx[0], 1.f);
  EXPECT_EQ(r.vy[0], 0.f);
  EXPECT_EQ(r.vx[1], -1.f);
  EXPECT_EQ(r.vy[1], 0.f);
}

// Distance d, radii sum 1, max speeds sum 4, tau 1: candidates iff d <= 5.
OrcaScene CandidatePair(float distance, float neighbor_dist) {
  OrcaScene scene;
  scene.params.time_horizon = 1.f;
  scene.params.neighbor_dist = neighbor_dist;
  AddAgent(&scene, {.id = 0});
  AddAgent(&scene, {.id = 1, .px = distance});
  return scene;
}

TEST(OrcaReferenceTest, ConservativeCandidateBoundaryIncluded) {
  OrcaResult r = SolveOrca(CandidatePair(5.f, 0.f));
  EXPECT_EQ(r.candidates[0], 1);
  EXPECT_EQ(r.candidates[1], 1);
  EXPECT_EQ(r.neighbors[0], 1);
  EXPECT_EQ(r.constraints[0], 1);

  r = SolveOrca(CandidatePair(5.01f, 0.f));
  EXPECT_EQ(r.candidates[0], 0);
  EXPECT_EQ(r.neighbors[0], 0);
  EXPECT_EQ(r.constraints[0], 0);
}

TEST(OrcaReferenceTest, NeighborDistCapsCandidates) {
  EXPECT_EQ(SolveOrca(CandidatePair(4.95f, 4.9f)).candidates[0], 0);
  EXPECT_EQ(SolveOrca(CandidatePair(4.9f, 4.9f)).candidates[0], 1);  // boundary included
  EXPECT_EQ(SolveOrca(CandidatePair(4.95f, 0.f)).candidates[0], 1);  // 0: no cap
}

TEST(OrcaReferenceTest, KeepsClosestNeighborsTiesBySmallerId) {
  OrcaScene scene;
  scene.params.max_neighbors = 3;
  AddAgent(&scene, {.id = 7});
  AddAgent(&scene, {.id = 40, .px = 2.f});
  AddAgent(&scene, {.id = 10, .py = 2.f});
  AddAgent(&scene, {.id = 30, .px = -2.f});
  AddAgent(&scene, {.id = 20, .py = -2.f});
  AddAgent(&scene, {.id = 99, .px = 1.5f});
  const AgentProblem problem = BuildProblem(scene, 0);
  EXPECT_EQ(problem.candidate_count, 5u);
  std::vector<uint32_t> kept;
  for (size_t j : problem.neighbors) kept.push_back(scene.agents.id[j]);
  EXPECT_EQ(kept, (std::vector<uint32_t>{99, 10, 20}));

  const OrcaResult r = SolveOrca(scene);
  EXPECT_EQ(r.candidates[0], 5);
  EXPECT_EQ(r.neighbors[0], 3);
  EXPECT_EQ(r.constraints[0], 3);
}

// ---------------------------------------------------------------------------------------
// Responsibility.

TEST(OrcaReferenceTest, CooperativePairSplitsTheChange) {
  const OrcaScene scene = HeadOnPair(2.f);
  const OrcaResult r = SolveOrca(scene);
  const double dax = r.vx[0] - 1.0, day = r.vy[0];
  const double dbx = r.vx[1] + 1.0, dby = r.vy[1];
  // |u| = 0.5; each takes half, in opposite directions.
  EXPECT_NEAR(std::hypot(dax, day), 0.25, 1e-6);
  EXPECT_NEAR(dax + dbx, 0.0, 1e-6);
  EXPECT_NEAR(day + dby, 0.0, 1e-6);
  EXPECT_EQ(StatusSum(r), 2u);
  EXPECT_EQ(r.status_count[0], 2u);
}

TEST(OrcaReferenceTest, NonCooperativeNeighborGetsFullResponsibility) {
  const OrcaScene scene = HeadOnPair(2.f, kAgentNonCooperative);
  const OrcaResult r = SolveOrca(scene);
  // A takes all of u = (-1/8, -sqrt(15)/8).
  EXPECT_NEAR(r.vx[0], 1.0 - 1.0 / 8.0, 1e-6);
  EXPECT_NEAR(r.vy[0], -std::sqrt(15.0) / 8.0, 1e-6);
  // B is not solved: input velocity, no counted work.
  EXPECT_EQ(r.vx[1], -1.f);
  EXPECT_EQ(r.vy[1], 0.f);
  EXPECT_EQ(r.status[1], static_cast<uint8_t>(SolveStatus::kOk));
  EXPECT_EQ(r.candidates[1], 0);
  EXPECT_EQ(r.neighbors[1], 0);
  EXPECT_EQ(r.constraints[1], 0);
  EXPECT_EQ(r.solve_flags[1], 0);
  EXPECT_EQ(r.candidates[0], 1);

  const AgentProblem problem = BuildProblem(scene, 0);
  ASSERT_EQ(problem.hard.size(), 1u);
  EXPECT_TRUE(problem.hard[0]);
}

// ---------------------------------------------------------------------------------------
// Statuses.

TEST(OrcaReferenceTest, HemmedInByCooperativeAgentsStopsSafely) {
  // Four cooperative agents 1.2 m away (0.2 m gap) walk at A from four sides: A's four
  // half-planes each demand a velocity component away from one of them; no velocity
  // satisfies all four, and with no hard line standing still is allowed (plain order).
  OrcaScene scene;
  MakePlain(&scene);
  scene.params.time_horizon = 2.f;
  AddAgent(&scene, {.id = 0, .pref_vx = 1.f});
  AddAgent(&scene, {.id = 1, .px = 1.2f, .vx = -1.f, .pref_vx = -1.f});
  AddAgent(&scene, {.id = 2, .px = -1.2f, .vx = 1.f, .pref_vx = 1.f});
  AddAgent(&scene, {.id = 3, .py = 1.2f, .vy = -1.f, .pref_vy = -1.f});
  AddAgent(&scene, {.id = 4, .py = -1.2f, .vy = 1.f, .pref_vy = 1.f});
  const OrcaResult r = SolveOrca(scene);
  EXPECT_EQ(r.status[0], static_cast<uint8_t>(SolveStatus::kSafeStop));
  EXPECT_EQ(r.vx[0], 0.f);
  EXPECT_EQ(r.vy[0], 0.f);
  EXPECT_EQ(r.constraints[0], 4);
  EXPECT_EQ(StatusSum(r), 5u);
  EXPECT_GE(r.status_count[1], 1u);
}

OrcaScene SqueezedBetweenNonCooperative() {
  // Two non-cooperative agents close in on A at 3 m/s from both sides; A's speed limit
  // is 1 m/s, so it can neither escape nor stand still safely (plain order).
  OrcaScene scene;
  MakePlain(&scene);
  scene.params.time_horizon = 2.f;
  AddAgent(&scene, {.id = 0, .max_speed = 1.f, .pref_vx = 1.f});
  AddAgent(&scene, {.id = 1, .px = -1.5f, .vx = 3.f, .flags = kAgentNonCooperative});
  AddAgent(&scene, {.id = 2, .px = 1.5f, .vx = -3.f, .flags = kAgentNonCooperative});
  return scene;
}

TEST(OrcaReferenceTest, SqueezedByNonCooperativeIsEmergency) {
  const OrcaScene scene = SqueezedBetweenNonCooperative();
  const AgentProblem problem = BuildProblem(scene, 0);
  ASSERT_EQ(problem.lines.size(), 2u);
  for (const Line& line : problem.lines) EXPECT_GT(Violation(line, {0.0, 0.0}), 1e-5);

  const OrcaResult r = SolveOrca(scene);
  EXPECT_EQ(r.status[0], static_cast<uint8_t>(SolveStatus::kEmergency));
  EXPECT_LE(std::hypot(r.vx[0], r.vy[0]), 1.0 + 1e-6);
  EXPECT_FALSE(std::isnan(r.vx[0]) || std::isnan(r.vy[0]));
  EXPECT_EQ(r.status_count[0], 2u);
  EXPECT_EQ(r.status_count[1], 0u);
  EXPECT_EQ(r.status_count[2], 1u);
  EXPECT_EQ(r.vx[1], 3.f);
  EXPECT_EQ(r.vx[2], -3.f);

  // The RVO2 baseline computes the same velocity but hides the failure.
  const OrcaResult plain = SolveOrca(scene, {.fallback = Fallback::kPlainRvo2});
  EXPECT_EQ(plain.status[0], static_cast<uint8_t>(SolveStatus::kOk));
  EXPECT_EQ(plain.status_count[0], 3u);
  EXPECT_EQ(plain.vx[0], r.vx[0]);
  EXPECT_EQ(plain.vy[0], r.vy[0]);
  EXPECT_EQ(plain.solve_flags[0], 0);
}

TEST(OrcaReferenceTest, Rvo2BaselineIgnoresTheConflictRules) {
  // With every rule on, the baseline still solves the plain problem (silent LP3).
  OrcaScene with_rules = SqueezedBetweenNonCooperative();
  with_rules.params = OrcaParams{};
  with_rules.params.time_horizon = 2.f;
  with_rules.params.side_bias = 0.5f;
  with_rules.params.contact_margin_ratio = 0.1f;
  const OrcaResult a = SolveOrca(with_rules, {.fallback = Fallback::kPlainRvo2});
  const OrcaResult b =
      SolveOrca(SqueezedBetweenNonCooperative(), {.fallback = Fallback::kPlainRvo2});
  EXPECT_EQ(a.vx, b.vx);
  EXPECT_EQ(a.vy, b.vy);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.solve_flags, std::vector<uint8_t>(3, 0));
  EXPECT_EQ(a.status_count[0], 3u);

  OrcaScene head_on = HeadOnPair(2.f);
  const OrcaResult plain_order = SolveOrca(head_on);
  head_on.params = OrcaParams{};  // defaults: side bias and margin on
  head_on.params.time_horizon = 2.f;
  const OrcaResult baseline = SolveOrca(head_on, {.fallback = Fallback::kPlainRvo2});
  EXPECT_EQ(baseline.vx, plain_order.vx);
  EXPECT_EQ(baseline.vy, plain_order.vy);
}

// ---------------------------------------------------------------------------------------
// Coincident agents.

TEST(OrcaReferenceTest, CoincidentAgentsSeparateAlongX) {
  OrcaScene scene;
  MakePlain(&scene);
  AddAgent(&scene, {.id = 5, .px = 1.f, .py = 1.f});
  AddAgent(&scene, {.id = 3, .px = 1.f, .py = 1.f});
  const OrcaResult r = SolveOrca(scene);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_FALSE(std::isnan(r.vx[i]) || std::isnan(r.vy[i]));
    EXPECT_EQ(r.status[i], static_cast<uint8_t>(SolveStatus::kOk));
    EXPECT_EQ(r.vy[i], 0.f);
  }
  // Line point v + 0.5 * (1 m / 0.25 s) * (-+1, 0): 2 m/s apart each, = max speed.
  EXPECT_FLOAT_EQ(r.vx[1], -2.f);  // id 3 < 5 goes -x
  EXPECT_FLOAT_EQ(r.vx[0], 2.f);
}

}  // namespace
}  // namespace throng::reference::orca_ref_test
