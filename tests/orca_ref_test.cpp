// Tests of the independent ORCA reference (kernels/reference/orca_ref.*): its linear
// programs on hand-made lines, the worked examples of ALGORITHMS.md §5 (in the plain
// order), each rule of docs/ORCA.md "Solve and infeasibility", and whole-scene properties
// (statuses, obstacles, the antipodal circle, determinism).
#include "kernels/reference/orca_ref.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <vector>

namespace throng::reference {
namespace {

using lp::Det;
using lp::Line;
using lp::Vec2d;

struct AgentSpec {
  uint32_t id = 0;
  float px = 0.f, py = 0.f;
  float vx = 0.f, vy = 0.f;
  float radius = 0.5f;
  float max_speed = 2.f;
  float pref_vx = 0.f, pref_vy = 0.f;
  uint8_t flags = 0;
};

// AgentColumns::Resize is not needed: columns grow one value at a time.
void AddAgent(OrcaScene* scene, const AgentSpec& a) {
  AgentColumns& c = scene->agents;
  c.id.push_back(a.id);
  c.px.push_back(a.px);
  c.py.push_back(a.py);
  c.vx.push_back(a.vx);
  c.vy.push_back(a.vy);
  c.radius.push_back(a.radius);
  c.max_speed.push_back(a.max_speed);
  c.pref_vx.push_back(a.pref_vx);
  c.pref_vy.push_back(a.pref_vy);
  c.flags.push_back(a.flags);
}

// How far v lies outside the line (> 0: violated).
double Violation(const Line& line, Vec2d v) { return Det(line.direction, line.point - v); }

uint64_t StatusSum(const OrcaResult& r) {
  return r.status_count[0] + r.status_count[1] + r.status_count[2];
}

// ALGORITHMS.md §5's plain order: LP2, safe stop, LP3, and nothing else (docs/ORCA.md).
void MakePlain(OrcaScene* scene) {
  OrcaParams& p = scene->params;
  p.side_bias = 0.f;
  p.contact_margin_ratio = 0.f;
  p.shorten_horizon = false;
  p.overlap_is_hard = false;
  p.revalidate = false;
  p.revalidate_passes = 1;
  p.revalidate_fallback = false;
}

constexpr uint8_t Status(SolveStatus s) { return static_cast<uint8_t>(s); }

// The result's counters agree with its per-agent columns.
void ExpectCountsConsistent(const OrcaResult& r) {
  OrcaResult recount = r;
  recount.CountStatuses();
  for (int k = 0; k < kSolveStatusCount; ++k) EXPECT_EQ(r.status_count[k], recount.status_count[k]);
  EXPECT_EQ(r.shortened_horizon, recount.shortened_horizon);
  EXPECT_EQ(r.revalidated, recount.revalidated);
  EXPECT_EQ(r.revalidation_adopted, recount.revalidation_adopted);
  EXPECT_EQ(StatusSum(r), r.status.size());
  EXPECT_EQ(r.solve_flags.size(), r.status.size());
}

// ---------------------------------------------------------------------------------------
// Linear programs. A line with direction (1, 0) allows vy >= point.y; (-1, 0): vy <= point.y.

Line Above(double y) { return {{0.0, y}, {1.0, 0.0}}; }   // vy >= y
Line Below(double y) { return {{0.0, y}, {-1.0, 0.0}}; }  // vy <= y

TEST(OrcaLpTest, FeasibleOptimumIsKept) {
  const std::vector<Line> lines = {Above(-1.0), Below(1.0)};
  Vec2d result;
  EXPECT_EQ(lp::LinearProgram2(lines, 2.0, {0.5, 0.5}, false, &result), lines.size());
  EXPECT_EQ(result.x, 0.5);
  EXPECT_EQ(result.y, 0.5);
}

TEST(OrcaLpTest, ViolatedLineProjectsOptimumOntoIt) {
  const std::vector<Line> lines = {Above(-1.0)};
  Vec2d result;
  EXPECT_EQ(lp::LinearProgram2(lines, 2.0, {0.5, -1.5}, false, &result), 1u);
  EXPECT_DOUBLE_EQ(result.x, 0.5);
  EXPECT_DOUBLE_EQ(result.y, -1.0);
}

TEST(OrcaLpTest, OptimumClampedToSpeedDisc) {
  Vec2d result;
  EXPECT_EQ(lp::LinearProgram2({}, 1.0, {3.0, 4.0}, false, &result), 0u);
  EXPECT_DOUBLE_EQ(result.x, 0.6);
  EXPECT_DOUBLE_EQ(result.y, 0.8);

  // On a line, the feasible segment ends at the disc: vy >= 0.6, |v| <= 1, want (3, 4)
  // direction far away -> the segment's end closest to it is (0.8, 0.6).
  const std::vector<Line> lines = {Above(0.6)};
  EXPECT_EQ(lp::LinearProgram2(lines, 1.0, {30.0, -1.0}, false, &result), 1u);
  EXPECT_NEAR(result.x, 0.8, 1e-12);
  EXPECT_NEAR(result.y, 0.6, 1e-12);
}

TEST(OrcaLpTest, LineOutsideSpeedDiscFails) {
  const std::vector<Line> lines = {Above(2.0)};
  Vec2d result;
  EXPECT_EQ(lp::LinearProgram2(lines, 1.0, {0.0, 0.0}, false, &result), 0u);
  EXPECT_FALSE(lp::LinearProgram1(lines, 0, 1.0, {0.0, 0.0}, false, &result));
}

TEST(OrcaLpTest, ParallelLinesWithGap) {
  const std::vector<Line> lines = {Above(-1.0), Below(1.0)};
  Vec2d result;
  EXPECT_EQ(lp::LinearProgram2(lines, 5.0, {0.0, 3.0}, false, &result), lines.size());
  EXPECT_DOUBLE_EQ(result.x, 0.0);
  EXPECT_DOUBLE_EQ(result.y, 1.0);
}

TEST(OrcaLpTest, ParallelLinesWithoutGapFailAndLp3SplitsViolation) {
  // vy >= 1 and vy <= -3: empty. LP2 satisfies line 0 (result (0, 1)) and fails at 1.
  const std::vector<Line> lines = {Above(1.0), Below(-3.0)};
  Vec2d result;
  ASSERT_EQ(lp::LinearProgram2(lines, 5.0, {0.0, 0.0}, false, &result), 1u);
  EXPECT_DOUBLE_EQ(result.x, 0.0);
  EXPECT_DOUBLE_EQ(result.y, 1.0);

  // Minimum largest violation: the midline vy = -1, violating each line by 2. LP3 goes
  // furthest along line 1's inward normal (0, -1) on the bisector vy = -1 inside the
  // disc; the tie (normal orthogonal to the bisector) takes the left extreme,
  // x = -sqrt(5^2 - 1^2).
  lp::LinearProgram3(lines, 0, 1, 5.0, &result);
  EXPECT_DOUBLE_EQ(result.y, -1.0);
  EXPECT_DOUBLE_EQ(result.x, -std::sqrt(24.0));
  EXPECT_DOUBLE_EQ(Violation(lines[0], result), 2.0);
  EXPECT_DOUBLE_EQ(Violation(lines[1], result), 2.0);
}

TEST(OrcaLpTest, Lp3KeepsObstacleLinesHard) {
  // Obstacle line vy >= 1 is hard; the agent line vy <= -3 is soft: LP3 must stay on
  // vy >= 1 and get as low as possible there: vy = 1, violation 4.
  const std::vector<Line> lines = {Above(1.0), Below(-3.0)};
  Vec2d result;
  ASSERT_EQ(lp::LinearProgram2(lines, 5.0, {0.0, 0.0}, false, &result), 1u);
  lp::LinearProgram3(lines, 1, 1, 5.0, &result);
  EXPECT_LE(Violation(lines[0], result), 1e-12);
  EXPECT_NEAR(Violation(lines[1], result), 4.0, 1e-12);
}

TEST(OrcaLpTest, CornerOfTwoCrossingLines) {
  // vy >= 1 and vx >= 1 (direction (0, -1) allows vx >= x); optimum wanted at origin.
  const std::vector<Line> lines = {Above(1.0), {{1.0, 0.0}, {0.0, -1.0}}};
  Vec2d result;
  EXPECT_EQ(lp::LinearProgram2(lines, 5.0, {0.0, 0.0}, false, &result), 2u);
  EXPECT_DOUBLE_EQ(result.x, 1.0);
  EXPECT_DOUBLE_EQ(result.y, 1.0);
}

// ---------------------------------------------------------------------------------------
// ALGORITHMS.md §5 worked examples.

// Centres 4 m apart, radii 0.5, closing at 2 m/s (1 m/s each): contact after 1.5 s.
// Plain order (the worked examples are ALGORITHMS.md §5's); tests switch rules on.
OrcaScene HeadOnPair(float tau, uint8_t flags_b = 0) {
  OrcaScene scene;
  MakePlain(&scene);
  scene.params.time_horizon = tau;
  AddAgent(&scene, {.id = 0, .px = 0.f, .vx = 1.f, .pref_vx = 1.f});
  AddAgent(&scene, {.id = 1, .px = 4.f, .vx = -1.f, .pref_vx = -1.f, .flags = flags_b});
  return scene;
}

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

// ---------------------------------------------------------------------------------------
// Obstacles.

double DistSqToSegment(Vec2d a, Vec2d b, Vec2d c) {
  const Vec2d ab = b - a;
  const double t = std::clamp(lp::Dot(c - a, ab) / lp::Dot(ab, ab), 0.0, 1.0);
  const Vec2d d = c - (a + t * ab);
  return lp::Dot(d, d);
}

// Signed distance from c to a polygon's boundary (< 0 inside; a wall has no inside).
double SignedDistance(const Polygon& polygon, Vec2d c) {
  const size_t n = polygon.vertices.size();
  double best = 1e300;
  bool inside = false;  // crossing number: flips at each edge crossed by a ray to +x
  for (size_t k = 0; k < n; ++k) {
    const Vec2d a = {polygon.vertices[k].x, polygon.vertices[k].y};
    const Vec2d b = {polygon.vertices[(k + 1) % n].x, polygon.vertices[(k + 1) % n].y};
    best = std::min(best, DistSqToSegment(a, b, c));
    if ((a.y > c.y) != (b.y > c.y) && c.x < a.x + (c.y - a.y) * (b.x - a.x) / (b.y - a.y)) {
      inside = !inside;
    }
  }
  return inside && n > 2 ? -std::sqrt(best) : std::sqrt(best);
}

// Walks agents towards their goals for `steps` steps; returns the smallest clearance
// (distance to the obstacle minus radius) seen over all agents and steps.
double WalkPastObstacle(OrcaScene scene, const std::vector<Vec2d>& goals, int steps, float* max_x) {
  double min_clearance = 1e300;
  *max_x = -1e30f;
  AgentColumns& a = scene.agents;
  for (int step = 0; step < steps; ++step) {
    for (size_t i = 0; i < a.size(); ++i) {
      const Vec2d to_goal = goals[i] - Vec2d{a.px[i], a.py[i]};
      const double len = std::sqrt(lp::Dot(to_goal, to_goal));
      const double scale = len > a.max_speed[i] ? a.max_speed[i] / len : 0.0;
      a.pref_vx[i] = static_cast<float>(to_goal.x * scale);
      a.pref_vy[i] = static_cast<float>(to_goal.y * scale);
    }
    const OrcaResult r = StepScene(scene);
    EXPECT_EQ(r.status_count[2], 0u) << "step " << step;
    for (size_t i = 0; i < a.size(); ++i) {
      const double d = SignedDistance(scene.obstacles[0], {a.px[i], a.py[i]});
      min_clearance = std::min(min_clearance, d - a.radius[i]);
      *max_x = std::max(*max_x, a.px[i]);
    }
  }
  return min_clearance;
}

TEST(OrcaReferenceTest, WallIsNeverEntered) {
  OrcaScene scene;
  scene.params.time_horizon_obst = 2.f;
  scene.obstacles.push_back({{{5.f, -5.f}, {5.f, 5.f}}});
  AddAgent(&scene, {.id = 0, .max_speed = 1.5f});
  AddAgent(&scene, {.id = 1, .py = 3.f, .max_speed = 1.5f});
  AddAgent(&scene, {.id = 2, .px = 10.f, .py = -1.f, .max_speed = 1.5f});  // other side
  float max_x = 0.f;
  const double clearance =
      WalkPastObstacle(scene, {{10.0, 0.0}, {10.0, 3.0}, {0.0, -1.0}}, 200, &max_x);
  EXPECT_GE(clearance, -1e-3);
  EXPECT_LT(clearance, 0.1);  // they did press against the wall
}

TEST(OrcaReferenceTest, SquareIsNeverEntered) {
  OrcaScene scene;
  scene.params.time_horizon_obst = 2.f;
  scene.obstacles.push_back({{{4.f, -1.f}, {6.f, -1.f}, {6.f, 1.f}, {4.f, 1.f}}});
  AddAgent(&scene, {.id = 0, .max_speed = 1.5f});
  AddAgent(&scene, {.id = 1, .py = 0.4f, .max_speed = 1.5f});
  AddAgent(&scene, {.id = 2, .px = 0.f, .py = -3.f, .max_speed = 1.5f});
  float max_x = 0.f;
  const double clearance =
      WalkPastObstacle(scene, {{10.0, 0.0}, {10.0, 0.4}, {10.0, 3.0}}, 200, &max_x);
  EXPECT_GE(clearance, -1e-3);
  EXPECT_LT(clearance, 0.2);
  EXPECT_GT(max_x, 6.5f);  // at least one went around it
}

TEST(OrcaReferenceTest, NonConvexPolygonIsNeverEntered) {
  // An L whose reflex vertex (6, -1) faces the agents: they walk into the notch.
  OrcaScene scene;
  scene.params.time_horizon_obst = 2.f;
  scene.obstacles.push_back(
      {{{4.f, -3.f}, {8.f, -3.f}, {8.f, -1.f}, {6.f, -1.f}, {6.f, 3.f}, {4.f, 3.f}}});
  AddAgent(&scene, {.id = 0, .px = 12.f, .py = 0.f, .max_speed = 1.5f});
  AddAgent(&scene, {.id = 1, .px = 12.f, .py = 1.5f, .max_speed = 1.5f});
  AddAgent(&scene, {.id = 2, .px = 7.f, .py = 2.f, .max_speed = 1.5f});
  float max_x = 0.f;
  const double clearance =
      WalkPastObstacle(scene, {{0.0, -0.5}, {0.0, 1.5}, {5.0, -1.5}}, 200, &max_x);
  EXPECT_GE(clearance, -1e-3);
  EXPECT_LT(clearance, 0.2);
}

TEST(OrcaReferenceTest, OnlyOutwardFacingEdgesAreConsidered) {
  // Facing the square's left side only: one edge has the agent strictly on its right.
  OrcaScene scene;
  scene.params.time_horizon_obst = 10.f;
  scene.obstacles.push_back({{{4.f, -1.f}, {6.f, -1.f}, {6.f, 1.f}, {4.f, 1.f}}});
  AddAgent(&scene, {.id = 0, .vx = 0.5f, .pref_vx = 0.5f});
  size_t obstacle_lines = 0;
  const std::vector<Line> lines = BuildLines(scene, 0, &obstacle_lines);
  EXPECT_EQ(obstacle_lines, 1u);
  ASSERT_EQ(lines.size(), 1u);
  // The current velocity (0.5, 0) is nearest the cut-off: the line is vx <= (4 - 0.5) / 10.
  EXPECT_NEAR(lines[0].direction.x, 0.0, 1e-12);
  EXPECT_NEAR(lines[0].direction.y, 1.0, 1e-12);
  EXPECT_NEAR(Violation(lines[0], {0.35, 0.0}), 0.0, 1e-12);
  EXPECT_NEAR(Violation(lines[0], {0.5, 0.0}), 0.15, 1e-12);
}

// ---------------------------------------------------------------------------------------
// Antipodal circle.

struct CircleRun {
  int steps_to_goal = -1;           // -1: not all agents reached their goals
  int max_overlap_pairs = 0;        // most pairs overlapping after one step
  uint64_t overlap_pair_steps = 0;  // sum over steps of the pairs overlapping after it
  double max_overlap_depth = 0.0;   // deepest overlap seen, m
  // Pairs that overlap after a step although both agents' LP2 succeeded with each other
  // as neighbours: ORCA's guarantee says this never happens (counted when check_guarantee).
  int guarantee_violations = 0;
  uint64_t safe_stops = 0;
  uint64_t emergencies = 0;
  uint64_t shortened = 0, revalidated = 0, adopted = 0;
  OrcaScene final_scene;
};

struct CircleSetup {
  int agents = 50;
  double radius = 50.0;  // m, of the circle the agents start on
  bool plain = false;    // plain order instead of OrcaParams' defaults
  Fallback fallback = Fallback::kOrdered;
  bool check_guarantee = true;
};

// Radii 1.5, max speed 2; time step 0.25, neighbour distance 15, 10 neighbours, tau 10.
OrcaScene Circle(const CircleSetup& setup, std::vector<Vec2d>* goals) {
  OrcaScene scene;
  if (setup.plain) MakePlain(&scene);
  scene.params.time_step = 0.25f;
  scene.params.neighbor_dist = 15.f;
  scene.params.max_neighbors = 10;
  scene.params.time_horizon = 10.f;
  scene.params.time_horizon_obst = 10.f;
  for (int i = 0; i < setup.agents; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / setup.agents;
    const float x = static_cast<float>(setup.radius * std::cos(angle));
    const float y = static_cast<float>(setup.radius * std::sin(angle));
    AddAgent(&scene,
             {.id = static_cast<uint32_t>(i), .px = x, .py = y, .radius = 1.5f, .max_speed = 2.f});
    goals->push_back({-x, -y});
  }
  return scene;
}

// Preferred velocity: towards the goal at max speed, or exactly onto it within a step.
void SetPreferredVelocities(OrcaScene* scene, const std::vector<Vec2d>& goals) {
  AgentColumns& a = scene->agents;
  const double dt = scene->params.time_step;
  for (size_t i = 0; i < a.size(); ++i) {
    const Vec2d to_goal = goals[i] - Vec2d{a.px[i], a.py[i]};
    const double len = std::sqrt(lp::Dot(to_goal, to_goal));
    const double speed = a.max_speed[i];
    const double scale = len > speed * dt ? speed / len : 1.0 / dt;
    a.pref_vx[i] = static_cast<float>(to_goal.x * scale);
    a.pref_vy[i] = static_cast<float>(to_goal.y * scale);
  }
}

CircleRun RunCircle(int max_steps, const CircleSetup& setup) {
  std::vector<Vec2d> goals;
  CircleRun run;
  run.final_scene = Circle(setup, &goals);
  OrcaScene& scene = run.final_scene;
  const size_t n = scene.agents.size();
  const auto ok = static_cast<uint8_t>(SolveStatus::kOk);
  std::vector<std::vector<bool>> is_neighbor;
  for (int step = 0; step < max_steps; ++step) {
    SetPreferredVelocities(&scene, goals);
    // Which agents' LP2 succeeded, and who is whose neighbour, in this snapshot.
    OrcaResult ordered;
    if (setup.check_guarantee) {
      // The statuses of the problem the run solves (the baseline's is the plain one).
      OrcaScene check = scene;
      if (setup.fallback == Fallback::kPlainRvo2) MakePlain(&check);
      ordered = SolveOrca(check);
      is_neighbor.assign(n, std::vector<bool>(n, false));
      for (size_t i = 0; i < n; ++i) {
        for (size_t j : BuildProblem(scene, i).neighbors) is_neighbor[i][j] = true;
      }
    }

    const OrcaResult r = StepScene(scene, {.fallback = setup.fallback});
    run.safe_stops += r.status_count[static_cast<int>(SolveStatus::kSafeStop)];
    run.emergencies += r.status_count[static_cast<int>(SolveStatus::kEmergency)];
    run.shortened += r.shortened_horizon;
    run.revalidated += r.revalidated;
    run.adopted += r.revalidation_adopted;

    int overlaps = 0;
    const AgentColumns& a = scene.agents;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = i + 1; j < n; ++j) {
        const double dx = static_cast<double>(a.px[i]) - a.px[j];
        const double dy = static_cast<double>(a.py[i]) - a.py[j];
        const double sum = static_cast<double>(a.radius[i]) + a.radius[j];
        if (std::fabs(dx) >= sum || std::fabs(dy) >= sum) continue;
        const double depth = sum - std::sqrt(dx * dx + dy * dy);
        if (depth <= 1e-4) continue;
        ++overlaps;
        run.max_overlap_depth = std::max(run.max_overlap_depth, depth);
        if (setup.check_guarantee && ordered.status[i] == ok && ordered.status[j] == ok &&
            is_neighbor[i][j] && is_neighbor[j][i]) {
          ++run.guarantee_violations;
        }
      }
    }
    run.max_overlap_pairs = std::max(run.max_overlap_pairs, overlaps);
    run.overlap_pair_steps += static_cast<uint64_t>(overlaps);

    bool all_there = true;
    for (size_t i = 0; i < n; ++i) {
      const Vec2d off = Vec2d{a.px[i], a.py[i]} - goals[i];
      if (lp::Dot(off, off) > 0.1 * 0.1) all_there = false;
    }
    if (all_there) {
      run.steps_to_goal = step + 1;
      break;
    }
  }
  return run;
}

// Reported in --gtest_output=xml, to compare the float kernels' runs against.
void RecordCircle(const CircleRun& run) {
  ::testing::Test::RecordProperty("steps_to_goal", run.steps_to_goal);
  ::testing::Test::RecordProperty("max_overlap_pairs", run.max_overlap_pairs);
  ::testing::Test::RecordProperty("overlap_pair_steps", static_cast<int>(run.overlap_pair_steps));
  ::testing::Test::RecordProperty("max_overlap_depth_mm",
                                  static_cast<int>(run.max_overlap_depth * 1000.0));
  ::testing::Test::RecordProperty("safe_stops", static_cast<int>(run.safe_stops));
  ::testing::Test::RecordProperty("emergencies", static_cast<int>(run.emergencies));
}

// Measured (g++ 12, x86-64): the RVO2 baseline gets everyone home in 438 steps; at most
// 45 pairs overlap after one step, at most 0.472 m deep (of 3 m), all of it where an
// agent's program was infeasible and LP3 traded violations.
TEST(OrcaReferenceTest, AntipodalCircleRvo2BaselineReachesGoals) {
  const CircleRun run = RunCircle(600, {.fallback = Fallback::kPlainRvo2});
  EXPECT_GT(run.steps_to_goal, 200);  // 100 m at 2 m/s is 200 steps at least
  EXPECT_LT(run.steps_to_goal, 500);
  EXPECT_EQ(run.guarantee_violations, 0);
  EXPECT_LE(run.max_overlap_pairs, 45);
  EXPECT_LT(run.max_overlap_depth, 0.5);
  EXPECT_EQ(run.safe_stops + run.emergencies, 0u);  // the baseline hides its failures
  RecordCircle(run);
}

// The same crowd in the plain order (docs/ORCA.md's rules off): with only cooperative
// agents there are no hard lines, so every infeasible agent stops (never an emergency).
// Stopping breaks reciprocity (its neighbours still take only half), which costs overlaps
// of up to 0.432 m, and the pressed crowd at the centre stalls: after 600 steps it has not
// resolved. This pins the plain order's behaviour, the reason for the rules.
TEST(OrcaReferenceTest, AntipodalCirclePlainOrderStopsAndStalls) {
  const CircleRun run = RunCircle(600, {.plain = true});
  EXPECT_EQ(run.steps_to_goal, -1);
  EXPECT_EQ(run.emergencies, 0u);
  EXPECT_GT(run.safe_stops, 0u);
  EXPECT_EQ(run.guarantee_violations, 0);
  EXPECT_LE(run.max_overlap_pairs, 12);
  EXPECT_LT(run.max_overlap_depth, 0.45);
  EXPECT_EQ(run.shortened + run.revalidated, 0u);
  RecordCircle(run);
}

// docs/ORCA.md's defaults on a larger circle (N = 200 on a 200 m circle): everyone gets
// home, with a small fraction of the RVO2 baseline's contacts. Not zero: measured (g++ 12,
// x86-64) 1010 steps and 172 colliding pair-steps (> 0.1 mm; deepest 0.497 m), against
// the baseline's 1414 steps and 38848. Every new contact involves an agent that stopped
// or took an emergency velocity: an ok neighbour whose pass-2 LP2 failed keeps its pass-1
// velocity, which counted on that agent's half. The exact count is chaotic (a side bias of
// 0.29 or 0.31 rad gives other counts), so only the order of magnitude is pinned.
TEST(OrcaReferenceTest, AntipodalCircleDefaultsReachGoalsWithFewContacts) {
  constexpr int kAgents = 200;
  const CircleSetup setup = {
      .agents = kAgents, .radius = std::max(200.0, 0.8 * kAgents), .check_guarantee = false};
  const CircleRun run = RunCircle(2000, setup);
  CircleSetup baseline_setup = setup;
  baseline_setup.fallback = Fallback::kPlainRvo2;
  const CircleRun baseline = RunCircle(2000, baseline_setup);
  std::printf(
      "antipodal circle N=%d: defaults: %d steps, %llu colliding pair-steps "
      "(deepest %.4f m), safe stops %llu, emergencies %llu, shortened %llu, "
      "revalidated %llu (adopted %llu); RVO2 baseline: %d steps, %llu colliding "
      "pair-steps (deepest %.4f m)\n",
      kAgents, run.steps_to_goal, static_cast<unsigned long long>(run.overlap_pair_steps),
      run.max_overlap_depth, static_cast<unsigned long long>(run.safe_stops),
      static_cast<unsigned long long>(run.emergencies),
      static_cast<unsigned long long>(run.shortened),
      static_cast<unsigned long long>(run.revalidated),
      static_cast<unsigned long long>(run.adopted), baseline.steps_to_goal,
      static_cast<unsigned long long>(baseline.overlap_pair_steps), baseline.max_overlap_depth);
  EXPECT_GT(run.steps_to_goal, 800);  // 400 m at 2 m/s
  EXPECT_LT(run.steps_to_goal, 1200);
  EXPECT_GT(run.shortened, 0u);
  EXPECT_GT(run.revalidated, 0u);
  EXPECT_GT(baseline.steps_to_goal, 0);
  EXPECT_GT(baseline.overlap_pair_steps, 10000u);
  EXPECT_LT(run.overlap_pair_steps * 50, baseline.overlap_pair_steps);
  RecordCircle(run);
}

// ---------------------------------------------------------------------------------------
// Determinism.

template <typename T>
bool BitEqual(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(OrcaReferenceTest, RunsAreBitIdentical) {
  const CircleRun a = RunCircle(150, {});
  const CircleRun b = RunCircle(150, {});
  const AgentColumns& x = a.final_scene.agents;
  const AgentColumns& y = b.final_scene.agents;
  EXPECT_TRUE(BitEqual(x.px, y.px));
  EXPECT_TRUE(BitEqual(x.py, y.py));
  EXPECT_TRUE(BitEqual(x.vx, y.vx));
  EXPECT_TRUE(BitEqual(x.vy, y.vy));
}

TEST(OrcaReferenceTest, StorageOrderDoesNotChangeVelocities) {
  // Neighbours are ordered by (distance, id), never by storage index, so reversing the
  // columns must give each id bit-identical results.
  const CircleRun run = RunCircle(120, {});  // crowded, mid-crossing
  const OrcaScene& scene = run.final_scene;
  OrcaScene reversed = scene;
  AgentColumns& r = reversed.agents;
  auto reverse_all = [](auto&... columns) { (std::reverse(columns.begin(), columns.end()), ...); };
  reverse_all(r.id, r.px, r.py, r.vx, r.vy, r.radius, r.max_speed, r.pref_vx, r.pref_vy, r.flags);

  const OrcaResult forward = SolveOrca(scene);
  const OrcaResult backward = SolveOrca(reversed);
  const size_t n = scene.agents.size();
  for (size_t i = 0; i < n; ++i) {
    const size_t k = n - 1 - i;
    EXPECT_EQ(std::memcmp(&forward.vx[i], &backward.vx[k], sizeof(float)), 0) << i;
    EXPECT_EQ(std::memcmp(&forward.vy[i], &backward.vy[k], sizeof(float)), 0) << i;
    EXPECT_EQ(forward.status[i], backward.status[k]);
    EXPECT_EQ(forward.solve_flags[i], backward.solve_flags[k]);
    EXPECT_EQ(forward.neighbors[i], backward.neighbors[k]);
  }
  EXPECT_GT(*std::max_element(forward.neighbors.begin(), forward.neighbors.end()), 1);
}

}  // namespace
}  // namespace throng::reference
