// Tests of the per-agent ORCA kernel code (kernels/orca_lp.cuh, kernels/orca.cuh) compiled
// for the host, and of the obstacle vertex builder (kernels/obstacles.*).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/obstacles.h"
#include "kernels/orca.cuh"
#include "kernels/orca_agent.cuh"
#include "kernels/orca_lp.cuh"

namespace throng {
namespace {

using orca::AgentState;
using orca::Line;
using orca::NeighborState;
using orca::ObstacleView;
using orca::SolveAgent;
using orca::SolveOutput;

constexpr float kTol = 1e-5f;
const ObstacleView kNoObstacles = {};

// Half-planes by hand: "direction (1,0) through (0,c)" allows v.y >= c (left of +x).
Line AtLeastY(float c) { return {{0.f, c}, {1.f, 0.f}}; }
Line AtMostY(float c) { return {{0.f, c}, {-1.f, 0.f}}; }
Line AtLeastX(float c) { return {{c, 0.f}, {0.f, -1.f}}; }

// How far v is outside the line (<= 0 inside).
float Violation(const Line& line, Vec2 v) { return Det(line.direction, line.point - v); }

OrcaParams Params(float tau, float tau_obst, float time_step) {
  OrcaParams p;
  p.time_horizon = tau;
  p.time_horizon_obst = tau_obst;
  p.time_step = time_step;
  return p;
}

// ALGORITHMS.md §5's plain order (docs/ORCA.md, "Solve and infeasibility"): no side
// preference, no contact margin, no shorter horizons, no overlap hardness, no second pass,
// and infeasibility reported as safe_stop / emergency (not RVO2's silent fallback).
OrcaParams PlainParams(OrcaParams p = OrcaParams{}) {
  p.side_bias = 0.f;
  p.contact_margin_ratio = 0.f;
  p.shorten_horizon = false;
  p.overlap_is_hard = false;
  p.revalidate = false;
  p.revalidate_passes = 1;
  p.revalidate_fallback = false;
  p.rvo2_fallback = false;
  return p;
}

AgentState Agent(Vec2 p, Vec2 v, Vec2 v_pref, float radius, float max_speed, uint32_t id) {
  return {p, v, v_pref, radius, max_speed, id};
}

// A neighbour walking as it prefers (v_pref = v).
NeighborState Neighbor(Vec2 p, Vec2 v, float radius, uint32_t id, bool non_cooperative = false) {
  return {p, v, v, radius, id, non_cooperative};
}

bool IsFinite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

// ---------------------------------------------------------------------------------------
// Linear programs.

TEST(OrcaLpKernelTest, NoLinesKeepsPreferredInsideDisc) {
  Vec2 result;
  EXPECT_EQ(orca::LinearProgram2(nullptr, 0, 2.f, {0.3f, -0.4f}, false, &result), 0);
  EXPECT_FLOAT_EQ(result.x, 0.3f);
  EXPECT_FLOAT_EQ(result.y, -0.4f);
}

TEST(OrcaLpKernelTest, PreferredOutsideDiscIsClampedToDisc) {
  Vec2 result;
  EXPECT_EQ(orca::LinearProgram2(nullptr, 0, 1.f, {3.f, 4.f}, false, &result), 0);
  EXPECT_NEAR(result.x, 0.6f, kTol);
  EXPECT_NEAR(result.y, 0.8f, kTol);
}

TEST(OrcaLpKernelTest, SatisfiedLineKeepsPreferred) {
  const Line lines[] = {AtLeastY(-1.f)};
  Vec2 result;
  EXPECT_EQ(orca::LinearProgram2(lines, 1, 2.f, {0.5f, 0.f}, false, &result), 1);
  EXPECT_FLOAT_EQ(result.x, 0.5f);
  EXPECT_FLOAT_EQ(result.y, 0.f);
}

TEST(OrcaLpKernelTest, ViolatedLineProjectsPreferredOntoIt) {
  const Line lines[] = {AtLeastY(1.f)};
  Vec2 result;
  EXPECT_EQ(orca::LinearProgram2(lines, 1, 2.f, {0.5f, 0.f}, false, &result), 1);
  EXPECT_NEAR(result.x, 0.5f, kTol);
  EXPECT_NEAR(result.y, 1.f, kTol);
}

TEST(OrcaLpKernelTest, CrossingLinesMeetAtCorner) {
  const Line lines[] = {AtLeastX(1.f), AtLeastY(1.f)};
  Vec2 result;
  EXPECT_EQ(orca::LinearProgram2(lines, 2, 5.f, {0.f, 0.f}, false, &result), 2);
  EXPECT_NEAR(result.x, 1.f, kTol);
  EXPECT_NEAR(result.y, 1.f, kTol);
}

TEST(OrcaLpKernelTest, TouchingOppositeLinesLeaveTheLineItself) {
  const Line lines[] = {AtLeastY(1.f), AtMostY(1.f)};
  Vec2 result;
  EXPECT_EQ(orca::LinearProgram2(lines, 2, 2.f, {0.5f, 0.f}, false, &result), 2);
  EXPECT_NEAR(result.x, 0.5f, kTol);
  EXPECT_NEAR(result.y, 1.f, kTol);
}

TEST(OrcaLpKernelTest, ParallelLinesWithGapAreFeasible) {
  const Line lines[] = {AtLeastY(1.f), AtMostY(1.5f)};
  Vec2 result;
  EXPECT_EQ(orca::LinearProgram2(lines, 2, 5.f, {0.f, 3.f}, false, &result), 2);
  EXPECT_NEAR(result.x, 0.f, kTol);
  EXPECT_NEAR(result.y, 1.5f, kTol);
}

TEST(OrcaLpKernelTest, ParallelLinesWithoutGapFailAtSecondLine) {
  const Line lines[] = {AtLeastY(1.f), AtMostY(0.5f)};
  Vec2 result;
  EXPECT_EQ(orca::LinearProgram2(lines, 2, 5.f, {0.f, 0.f}, false, &result), 1);
  // The partial result is the optimum of the lines before the failing one.
  EXPECT_NEAR(result.x, 0.f, kTol);
  EXPECT_NEAR(result.y, 1.f, kTol);
}

TEST(OrcaLpKernelTest, DiscCutsAwayLine) {
  const Line lines[] = {AtLeastY(1.f)};
  Vec2 result;
  EXPECT_EQ(orca::LinearProgram2(lines, 1, 0.5f, {0.f, 0.f}, false, &result), 0);
  EXPECT_FLOAT_EQ(result.x, 0.f);
  EXPECT_FLOAT_EQ(result.y, 0.f);
}

// vy >= 1 and vy <= -1: the largest violation is smallest (1) on vy = 0. RVO2's LP3 walks
// along that bisector as far as its direction objective allows; with opt = (0,-1)
// perpendicular to it, the left extreme of the disc of radius 5: (-5, 0).
TEST(OrcaLpKernelTest, LinearProgram3MinimisesLargestViolation) {
  const Line lines[] = {AtLeastY(1.f), AtMostY(-1.f)};
  Vec2 result;
  const int fail = orca::LinearProgram2(lines, 2, 5.f, {0.f, 0.f}, false, &result);
  ASSERT_EQ(fail, 1);
  orca::LinearProgram3(lines, 2, 0, fail, 5.f, &result);
  EXPECT_NEAR(result.x, -5.f, kTol);
  EXPECT_NEAR(result.y, 0.f, kTol);
  EXPECT_NEAR(Violation(lines[0], result), 1.f, kTol);
  EXPECT_NEAR(Violation(lines[1], result), 1.f, kTol);
}

// Same contradiction behind a hard obstacle line vx >= 0: the left extreme is cut at vx = 0.
TEST(OrcaLpKernelTest, LinearProgram3KeepsObstacleLinesHard) {
  const Line lines[] = {AtLeastX(0.f), AtLeastY(1.f), AtMostY(-1.f)};
  Vec2 result;
  const int fail = orca::LinearProgram2(lines, 3, 5.f, {0.f, 0.f}, false, &result);
  ASSERT_EQ(fail, 2);
  orca::LinearProgram3(lines, 3, 1, fail, 5.f, &result);
  EXPECT_NEAR(result.x, 0.f, kTol);
  EXPECT_NEAR(result.y, 0.f, kTol);
  EXPECT_LE(Violation(lines[0], result), kTol);
}

// ---------------------------------------------------------------------------------------
// Agent lines and the solve (ALGORITHMS.md §5 worked example: centres 4 m apart, radii
// 0.5, closing at 2 m/s, contact after 1.5 s).

AgentState HeadOnA(float max_speed = 2.f) {
  return Agent({0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, max_speed, 1);
}
NeighborState HeadOnB(bool non_cooperative = false) {
  return Neighbor({4.f, 0.f}, {-1.f, 0.f}, 0.5f, 2, non_cooperative);
}

SolveOutput SolveHeadOn(const OrcaParams& params, bool b_non_cooperative, float max_speed = 2.f) {
  const NeighborState b = HeadOnB(b_non_cooperative);
  return SolveAgent(HeadOnA(max_speed), &b, 1, kNoObstacles, params);
}

// With tau = 2 the relative velocity (2,0) points at the cut-off centre (w = 0), so the
// projection is on the right leg: u = (-1/8, -sqrt(15)/8), |u| = 0.5, and A takes half.
TEST(OrcaKernelTest, HeadOnWithTau2ForcesChange) {
  const SolveOutput out = SolveHeadOn(PlainParams(Params(2.f, 2.f, 0.25f)), false);
  EXPECT_EQ(out.status, SolveStatus::kOk);
  EXPECT_EQ(out.constraints, 1);
  EXPECT_NEAR(out.velocity.x, 1.f - 1.f / 16.f, kTol);
  EXPECT_NEAR(out.velocity.y, -std::sqrt(15.f) / 16.f, kTol);
  EXPECT_GT(Length(out.velocity - Vec2{1.f, 0.f}), 0.2f);
}

TEST(OrcaKernelTest, HeadOnWithTau1KeepsVelocity) {
  const SolveOutput out = SolveHeadOn(Params(1.f, 1.f, 0.25f), false);
  EXPECT_EQ(out.status, SolveStatus::kOk);
  EXPECT_EQ(out.constraints, 1);
  EXPECT_FLOAT_EQ(out.velocity.x, 1.f);
  EXPECT_FLOAT_EQ(out.velocity.y, 0.f);
}

// Both agents solve; together their new velocities must not bring them closer than the
// sum of radii within tau (they end on the velocity obstacle's boundary).
TEST(OrcaKernelTest, HeadOnNewVelocitiesAvoidContactWithinTau) {
  const float tau = 2.f;
  const OrcaParams params = PlainParams(Params(tau, tau, 0.25f));
  const AgentState a = Agent({0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, 2.f, 1);
  const AgentState b = Agent({4.f, 0.f}, {-1.f, 0.f}, {-1.f, 0.f}, 0.5f, 2.f, 2);
  const NeighborState a_seen = Neighbor(a.p, a.v, a.radius, a.id);
  const NeighborState b_seen = Neighbor(b.p, b.v, b.radius, b.id);
  const Vec2 va = SolveAgent(a, &b_seen, 1, kNoObstacles, params).velocity;
  const Vec2 vb = SolveAgent(b, &a_seen, 1, kNoObstacles, params).velocity;
  float min_dist = 1e9f;
  for (int k = 0; k <= 2000; ++k) {
    const float t = tau * static_cast<float>(k) / 2000.f;
    min_dist = std::fmin(min_dist, Length((b.p + t * vb) - (a.p + t * va)));
  }
  EXPECT_GE(min_dist, 1.f - 1e-4f);
  EXPECT_LT(min_dist, 1.f + 1e-2f);  // and no more than needed: the new paths just touch
}

TEST(OrcaKernelTest, NonCooperativeNeighbourGetsFullResponsibility) {
  const OrcaParams params = PlainParams(Params(2.f, 2.f, 0.25f));
  const SolveOutput half = SolveHeadOn(params, false, 10.f);
  const SolveOutput full = SolveHeadOn(params, true, 10.f);
  EXPECT_NEAR(full.velocity.x, 1.f - 1.f / 8.f, kTol);
  EXPECT_NEAR(full.velocity.y, -std::sqrt(15.f) / 8.f, kTol);
  const float half_dev = Length(half.velocity - Vec2{1.f, 0.f});
  const float full_dev = Length(full.velocity - Vec2{1.f, 0.f});
  EXPECT_NEAR(half_dev, 0.25f, kTol);
  EXPECT_NEAR(full_dev, 0.5f, kTol);
}

TEST(OrcaKernelTest, CoincidentAgentsSeparateAlongXWithoutNaN) {
  const OrcaParams params = PlainParams(Params(2.f, 2.f, 1.f));
  const AgentState a = Agent({3.f, 3.f}, {0.f, 0.f}, {0.f, 0.f}, 0.5f, 1.f, 1);
  const AgentState b = Agent({3.f, 3.f}, {0.f, 0.f}, {0.f, 0.f}, 0.5f, 1.f, 2);
  const NeighborState a_seen = Neighbor(a.p, a.v, a.radius, a.id);
  const NeighborState b_seen = Neighbor(b.p, b.v, b.radius, b.id);
  const SolveOutput out_a = SolveAgent(a, &b_seen, 1, kNoObstacles, params);
  const SolveOutput out_b = SolveAgent(b, &a_seen, 1, kNoObstacles, params);
  // Combined radius 1 m to clear in one 1 s step, half each: |vx| >= 0.5.
  EXPECT_EQ(out_a.status, SolveStatus::kOk);
  EXPECT_EQ(out_b.status, SolveStatus::kOk);
  EXPECT_NEAR(out_a.velocity.x, -0.5f, kTol);
  EXPECT_NEAR(out_a.velocity.y, 0.f, kTol);
  EXPECT_NEAR(out_b.velocity.x, 0.5f, kTol);
  EXPECT_NEAR(out_b.velocity.y, 0.f, kTol);
}

TEST(OrcaKernelTest, CoincidentMovingAgentsFollowIdRuleNotVelocity) {
  const OrcaParams params = PlainParams(Params(2.f, 2.f, 0.25f));
  const AgentState a = Agent({1.f, -2.f}, {0.7f, 0.2f}, {1.f, 0.f}, 0.4f, 3.f, 9);
  // A different velocity would steer RVO2's collision branch along w; the rule ignores it.
  const NeighborState b = Neighbor(a.p, {0.1f, 0.5f}, 0.3f, 4);
  const SolveOutput out = SolveAgent(a, &b, 1, kNoObstacles, params);
  // id 9 > 4: this one goes to +x, by half of 0.7 m per 0.25 s: vx >= 0.7 + 1.4.
  EXPECT_EQ(out.status, SolveStatus::kOk);
  ASSERT_TRUE(IsFinite(out.velocity));
  EXPECT_NEAR(out.velocity.x, 2.1f, kTol);
  EXPECT_NEAR(out.velocity.y, 0.f, kTol);
}

// Two cooperative neighbours overlapping from both sides demand vx >= 0.4 and vx <= -0.4;
// a distant non-cooperative one only forbids vy > 1, which v = 0 satisfies.
TEST(OrcaKernelTest, SafeStopWhenStandingStillBreaksNoHardLine) {
  const AgentState a = Agent({0.f, 0.f}, {0.f, 0.f}, {1.f, 0.f}, 0.5f, 1.f, 1);
  const NeighborState nbs[] = {Neighbor({-0.8f, 0.f}, {0.f, 0.f}, 0.5f, 2),
                               Neighbor({0.8f, 0.f}, {0.f, 0.f}, 0.5f, 3),
                               Neighbor({0.f, 3.f}, {0.f, 0.f}, 0.5f, 4, true)};
  const SolveOutput out = SolveAgent(a, nbs, 3, kNoObstacles, PlainParams(Params(2.f, 2.f, 0.25f)));
  EXPECT_EQ(out.status, SolveStatus::kSafeStop);
  EXPECT_EQ(out.constraints, 3);
  EXPECT_EQ(out.velocity.x, 0.f);
  EXPECT_EQ(out.velocity.y, 0.f);
}

// Same squeeze, but the non-cooperative neighbour drives at the agent: standing still
// breaks its line, so LP3 must minimise the largest violation.
TEST(OrcaKernelTest, EmergencyWhenStandingStillBreaksHardLine) {
  const OrcaParams params = PlainParams(Params(2.f, 2.f, 0.25f));
  const AgentState a = Agent({0.f, 0.f}, {0.f, 0.f}, {1.f, 0.f}, 0.5f, 1.f, 1);
  const NeighborState nbs[] = {Neighbor({-0.8f, 0.f}, {0.f, 0.f}, 0.5f, 2),
                               Neighbor({0.8f, 0.f}, {0.f, 0.f}, 0.5f, 3),
                               Neighbor({0.f, 1.5f}, {0.f, -1.f}, 0.5f, 4, true)};
  const SolveOutput out = SolveAgent(a, nbs, 3, kNoObstacles, params);
  EXPECT_EQ(out.status, SolveStatus::kEmergency);
  EXPECT_EQ(out.constraints, 3);
  ASSERT_TRUE(IsFinite(out.velocity));
  EXPECT_LE(Length(out.velocity), a.max_speed + kTol);

  float worst_at_result = -1e9f;
  float worst_at_zero = -1e9f;
  for (const NeighborState& nb : nbs) {
    const Line line = orca::detail::AgentLine(a, nb, 1.f / params.time_horizon,
                                              1.f / params.time_step, params.contact_margin_ratio);
    worst_at_result = std::fmax(worst_at_result, Violation(line, out.velocity));
    worst_at_zero = std::fmax(worst_at_zero, Violation(line, {0.f, 0.f}));
  }
  EXPECT_GT(worst_at_zero, 0.f);
  EXPECT_LE(worst_at_result, worst_at_zero + kTol);
}

// ---------------------------------------------------------------------------------------
// Obstacles in the solve.

ObstacleVertices Wall(Vec2 from, Vec2 to, int copies = 1) {
  std::vector<Polygon> polygons(static_cast<size_t>(copies), Polygon{{from, to}});
  return BuildObstacleVertices(polygons);
}

// Wall at x = 1, agent radius 0.5, tau_obst 1: the cut-off line allows vx <= 0.5.
TEST(OrcaKernelTest, WallAheadLimitsVelocityToCutoffLine) {
  const ObstacleVertices wall = Wall({1.f, -5.f}, {1.f, 5.f});
  const AgentState a = Agent({0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, 1.f, 1);
  const SolveOutput out = SolveAgent(a, nullptr, 0, ViewOf(wall), Params(2.f, 1.f, 0.25f));
  EXPECT_EQ(out.status, SolveStatus::kOk);
  EXPECT_EQ(out.constraints, 1);
  EXPECT_NEAR(out.velocity.x, 0.5f, kTol);
  EXPECT_NEAR(out.velocity.y, 0.f, kTol);
}

TEST(OrcaKernelTest, WallOutOfRangeAddsNoLine) {
  const ObstacleVertices wall = Wall({1.f, -5.f}, {1.f, 5.f});
  // Range tau_obst * max_speed + radius = 1.5 m; the wall is 3 m away.
  const AgentState a = Agent({-2.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, 1.f, 1);
  const SolveOutput out = SolveAgent(a, nullptr, 0, ViewOf(wall), Params(2.f, 1.f, 0.25f));
  EXPECT_EQ(out.constraints, 0);
  EXPECT_FLOAT_EQ(out.velocity.x, 1.f);
}

TEST(OrcaKernelTest, DuplicateWallIsAlreadyCovered) {
  const ObstacleVertices walls = Wall({1.f, -5.f}, {1.f, 5.f}, 2);
  const AgentState a = Agent({0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, 1.f, 1);
  const SolveOutput out = SolveAgent(a, nullptr, 0, ViewOf(walls), Params(2.f, 1.f, 0.25f));
  EXPECT_EQ(out.constraints, 1);
  EXPECT_NEAR(out.velocity.x, 0.5f, kTol);
}

TEST(OrcaKernelTest, ObstacleEdgesOrderedByDistanceThenIndexAndCapped) {
  // Walls x = 1 + 0.01 * (79 - w) for w = 0..79: the farther ones come first in input.
  std::vector<Polygon> polygons;
  for (int w = 0; w < 80; ++w) {
    const float x = 1.f + 0.01f * static_cast<float>(79 - w);
    polygons.push_back(Polygon{{{x, -5.f}, {x, 5.f}}});
  }
  polygons.push_back(polygons.back());  // an exact tie with wall 79, later index
  const ObstacleVertices vs = BuildObstacleVertices(polygons);
  orca::detail::EdgeCandidate edges[kMaxObstacleLinesLimit];
  const int count = orca::detail::SelectObstacleEdges({0.f, 0.f}, 100.f, ViewOf(vs), edges);
  ASSERT_EQ(count, kMaxObstacleLinesLimit);
  // Only each wall's downward edge (index 2w + 1) has the agent strictly on its right.
  EXPECT_EQ(edges[0].index, 2 * 79 + 1);
  EXPECT_EQ(edges[1].index, 2 * 80 + 1);
  EXPECT_EQ(edges[2].index, 2 * 78 + 1);
  EXPECT_EQ(edges[count - 1].index, 2 * (79 - 62) + 1);
  for (int i = 1; i < count; ++i) EXPECT_LE(edges[i - 1].dist_sq, edges[i].dist_sq);
}

// Agent outside an L's reflex corner heading into it: finite result, lines from both edges.
TEST(OrcaKernelTest, ReflexCornerGivesFiniteVelocityAwayFromWalls) {
  const ObstacleVertices l_shape = BuildObstacleVertices(
      {Polygon{{{0.f, 0.f}, {2.f, 0.f}, {2.f, 1.f}, {1.f, 1.f}, {1.f, 2.f}, {0.f, 2.f}}}});
  const AgentState a = Agent({1.7f, 1.7f}, {-1.f, -1.f}, {-1.f, -1.f}, 0.3f, 1.5f, 1);
  const SolveOutput out = SolveAgent(a, nullptr, 0, ViewOf(l_shape), Params(2.f, 2.f, 0.25f));
  EXPECT_EQ(out.status, SolveStatus::kOk);
  EXPECT_EQ(out.constraints, 2);
  ASSERT_TRUE(IsFinite(out.velocity));
  // The walls are 0.7 m away on each axis; in tau_obst = 2 s the agent may close at most
  // (0.7 - 0.3) / 2 = 0.2 m/s toward each (the cut-off lines meet at the corner).
  EXPECT_NEAR(out.velocity.x, -0.2f, kTol);
  EXPECT_NEAR(out.velocity.y, -0.2f, kTol);
}

// ---------------------------------------------------------------------------------------
// Throng's additions to the plain order (docs/ORCA.md, "Solve and infeasibility").

// v_pref turned clockwise (to the agent's right) by `angle` rad.
Vec2 TurnedRight(Vec2 v, float angle) {
  const float c = std::cos(angle), s = std::sin(angle);
  return {c * v.x + s * v.y, -s * v.x + c * v.y};
}

// The point of `line` closest to `target` (LP2's answer for one violated line, inside the disc).
Vec2 ProjectOnLine(const Line& line, Vec2 target) {
  return line.point + Dot(line.direction, target - line.point) * line.direction;
}

// Smallest centre distance over t in [0, horizon] for two agents on straight paths.
float MinDistance(Vec2 pa, Vec2 va, Vec2 pb, Vec2 vb, float horizon) {
  float min_dist = 1e9f;
  for (int k = 0; k <= 4000; ++k) {
    const float t = horizon * static_cast<float>(k) / 4000.f;
    min_dist = std::fmin(min_dist, Length((pb + t * vb) - (pa + t * va)));
  }
  return min_dist;
}

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

  const SolveOutput clamped = SolveAgent(sq.a, sq.nbs, 2, kNoObstacles, Params(4.f, 4.f, 0.3f));
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

// ---------------------------------------------------------------------------------------
// Repair passes (OrcaRepairPassFunctor, then OrcaWriteResultsFunctor) on hand-built sorted
// agents and pass-1 results, sequenced as kernels/backends/orca_pipeline.cuh does.

struct PassTwoHarness {
  int max_neighbors;
  // Sorted agents.
  std::vector<float> px, py, vx, vy, radius, max_speed, pref_vx, pref_vy;
  std::vector<uint32_t> id, input_index;
  std::vector<uint8_t> flags;
  // Neighbour lists (sorted indices, stride max_neighbors) and counts.
  std::vector<uint32_t> lists;
  std::vector<uint16_t> kept, candidates, audit;
  // Pass-1 results, sorted order.
  std::vector<float> p1_vx, p1_vy;
  std::vector<uint8_t> p1_status, p1_flags;
  std::vector<uint16_t> p1_constraints;
  // Final results, input order.
  std::vector<float> o_vx, o_vy;
  std::vector<uint8_t> o_status, o_flags;
  std::vector<uint16_t> o_candidates, o_neighbors, o_constraints, o_audit;

  explicit PassTwoHarness(int k) : max_neighbors(k) {}

  // Adds sorted agent i = (current count); returns i.
  uint32_t Add(const AgentState& a, uint32_t input, std::vector<uint32_t> neighbour_list,
               Vec2 p1_velocity, SolveStatus p1, uint8_t p1_solve_flags = 0,
               uint8_t agent_flags = 0) {
    const uint32_t i = static_cast<uint32_t>(px.size());
    px.push_back(a.p.x);
    py.push_back(a.p.y);
    vx.push_back(a.v.x);
    vy.push_back(a.v.y);
    radius.push_back(a.radius);
    max_speed.push_back(a.max_speed);
    pref_vx.push_back(a.v_pref.x);
    pref_vy.push_back(a.v_pref.y);
    id.push_back(a.id);
    input_index.push_back(input);
    flags.push_back(agent_flags);
    neighbour_list.resize(static_cast<size_t>(max_neighbors), 0xdeadbeefu);
    lists.insert(lists.end(), neighbour_list.begin(), neighbour_list.end());
    const uint16_t n = static_cast<uint16_t>(std::count_if(
        neighbour_list.begin(), neighbour_list.end(), [](uint32_t j) { return j != 0xdeadbeefu; }));
    kept.push_back(n);
    candidates.push_back(static_cast<uint16_t>(n + 1));
    audit.push_back(kNotAudited);
    p1_vx.push_back(p1_velocity.x);
    p1_vy.push_back(p1_velocity.y);
    p1_status.push_back(static_cast<uint8_t>(p1));
    p1_flags.push_back(p1_solve_flags);
    p1_constraints.push_back(static_cast<uint16_t>(n + 5));
    return i;
  }

  NeighborState SeenFromSnapshot(uint32_t j) const {
    return Neighbor({px[j], py[j]}, {vx[j], vy[j]}, radius[j], id[j],
                    (flags[j] & kAgentNonCooperative) != 0);
  }

  void Run(const OrcaParams& params) {
    const size_t n = px.size();
    o_vx.assign(n, -99.f);
    o_vy.assign(n, -99.f);
    o_status.assign(n, 0xff);
    o_flags.assign(n, 0xff);
    o_candidates.assign(n, 0xffff);
    o_neighbors.assign(n, 0xffff);
    o_constraints.assign(n, 0xffff);
    o_audit.assign(n, 0);
    OrcaParams p = params;
    p.max_neighbors = max_neighbors;
    const SortedAgentsView agents{px.data(),      py.data(),          vx.data(),
                                  vy.data(),      radius.data(),      max_speed.data(),
                                  pref_vx.data(), pref_vy.data(),     id.data(),
                                  flags.data(),   input_index.data(), static_cast<uint32_t>(n)};
    // Two states, as the pipeline keeps them; state 0 starts as pass 1's results.
    std::vector<float> s_vx[2] = {p1_vx, p1_vx}, s_vy[2] = {p1_vy, p1_vy};
    std::vector<uint8_t> s_status[2] = {p1_status, p1_status}, s_flags[2] = {p1_flags, p1_flags};
    std::vector<uint8_t> s_turned[2] = {std::vector<uint8_t>(n), std::vector<uint8_t>(n)};
    std::vector<uint16_t> constraints = p1_constraints;
    for (size_t i = 0; i < n; ++i) {
      s_turned[0][i] = p1_status[i] != static_cast<uint8_t>(SolveStatus::kOk);
    }
    auto view = [&](int k) {
      return PassStateView{s_vx[k].data(),    s_vy[k].data(),     s_status[k].data(),
                           s_flags[k].data(), constraints.data(), s_turned[k].data()};
    };
    int last = 0;
    passes_run = 0;
    for (int pass = 0; pass < (p.revalidate ? p.revalidate_passes : 0); ++pass) {
      if (std::count(s_turned[last].begin(), s_turned[last].end(), 1) == 0) break;
      const OrcaRepairPassFunctor repair{
          agents, lists.data(), kept.data(), view(last), kNoObstacles, p, view(1 - last)};
      for (uint32_t i = 0; i < n; ++i) repair(i);
      last = 1 - last;
      ++passes_run;
    }
    const OrcaOutputView out{o_vx.data(),         o_vy.data(),        o_status.data(),
                             o_candidates.data(), o_neighbors.data(), o_constraints.data(),
                             o_flags.data(),      o_audit.data()};
    const OrcaWriteResultsFunctor write{agents,       kept.data(), candidates.data(),
                                        audit.data(), view(last),  out};
    for (uint32_t i = 0; i < n; ++i) write(i);
  }
  int passes_run = 0;
};

// A (sorted 0, input 2) walks +x at 1 m/s; B (sorted 1, input 0), 3 m ahead, crosses out
// of its way at 1 m/s (closest approach 2.1 m), so A's pass 1 is plainly v_pref. But B
// stopped in pass 1 (safe_stop): standing still it is in A's path. C (sorted 2, input 1)
// only sees A, which is ok. D (sorted 3, input 3), next to B, took an emergency velocity;
// B and D each see a neighbour that is not ok, but are not ok themselves. (A head-on B would not
// do: half of the deviation against B at -v equals all of it against B standing still, so pass 2
// would change nothing.)
struct PassTwoScene {
  OrcaParams params = OrcaParams{};
  AgentState a = Agent({0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, 2.f, 10);
  AgentState b = Agent({3.f, 0.f}, {0.f, 1.f}, {0.f, 1.f}, 0.5f, 2.f, 11);
  AgentState c = Agent({0.f, -6.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, 2.f, 12);
  AgentState d = Agent({3.f, 1.2f}, {0.f, -1.f}, {0.f, -1.f}, 0.5f, 2.f, 13);
  Vec2 a_pass1, c_pass1{0.7f, 0.1f};  // C's pass-1 velocity is not what a re-solve would give
  Vec2 d_pass1{0.2f, -0.1f};
  PassTwoHarness h{2};

  PassTwoScene() {
    const NeighborState b_seen = Neighbor(b.p, b.v, b.radius, b.id);
    const SolveOutput a1 = SolveAgent(a, &b_seen, 1, kNoObstacles, params);
    a_pass1 = a1.velocity;
    h.Add(a, 2, {1}, a_pass1, a1.status, a1.flags);
    h.Add(b, 0, {0, 3}, {0.f, 0.f}, SolveStatus::kSafeStop);
    h.Add(c, 1, {0}, c_pass1, SolveStatus::kOk);
    h.Add(d, 3, {1}, d_pass1, SolveStatus::kEmergency);
  }
};

TEST(OrcaPassTwoTest, AgentNextToStoppedNeighbourReSolvesAgainstItStandingStill) {
  PassTwoScene s;
  ASSERT_EQ(s.h.p1_status[0], static_cast<uint8_t>(SolveStatus::kOk));
  ASSERT_EQ(s.h.p1_flags[0], 0);
  ASSERT_EQ(s.a_pass1.x, s.a.v_pref.x);
  ASSERT_EQ(s.a_pass1.y, s.a.v_pref.y);
  s.h.Run(s.params);

  // A, written at input index 2.
  EXPECT_EQ(s.h.o_status[2], static_cast<uint8_t>(SolveStatus::kOk));
  EXPECT_EQ(s.h.o_flags[2], kSolveRevalidated | kSolveAdopted);
  const Vec2 va{s.h.o_vx[2], s.h.o_vy[2]};
  ASSERT_TRUE(IsFinite(va));
  EXPECT_GT(Length(va - s.a_pass1), 0.05f);  // changed
  // Full responsibility against B standing still: no contact within tau on its own.
  const float r =
      orca::detail::CombinedRadius(s.a.radius, s.b.radius, s.params.contact_margin_ratio);
  EXPECT_GE(MinDistance(s.a.p, va, s.b.p, {0.f, 0.f}, s.params.time_horizon), r - 1e-4f);
  // The pass-1 velocity relied on B taking half: it does not clear B standing still.
  EXPECT_LT(MinDistance(s.a.p, s.a_pass1, s.b.p, {0.f, 0.f}, s.params.time_horizon), r - 0.05f);
  // Exactly the feasible-only solve with B non-cooperative at its pass-1 velocity.
  const NeighborState b_stopped = Neighbor(s.b.p, {0.f, 0.f}, s.b.radius, s.b.id, true);
  const SolveOutput expected = SolveAgent(s.a, &b_stopped, 1, kNoObstacles, s.params, true);
  ASSERT_TRUE(expected.feasible);
  EXPECT_EQ(va.x, expected.velocity.x);
  EXPECT_EQ(va.y, expected.velocity.y);
  EXPECT_EQ(s.h.o_constraints[2], s.h.p1_constraints[0]);
  EXPECT_EQ(s.h.o_neighbors[2], 1);
  EXPECT_EQ(s.h.o_candidates[2], s.h.candidates[0]);
  EXPECT_EQ(s.h.o_audit[2], kNotAudited);
}

// Agents not ok in pass 1 keep their pass-1 result, even next to other agents not ok.
TEST(OrcaPassTwoTest, AgentsNotOkInPassOneKeepTheirResult) {
  PassTwoScene s;
  s.h.Run(s.params);
  // B, input 0.
  EXPECT_EQ(s.h.o_status[0], static_cast<uint8_t>(SolveStatus::kSafeStop));
  EXPECT_EQ(s.h.o_flags[0], 0);
  EXPECT_EQ(s.h.o_vx[0], 0.f);
  EXPECT_EQ(s.h.o_vy[0], 0.f);
  EXPECT_EQ(s.h.o_neighbors[0], 2);
  // D, input 3.
  EXPECT_EQ(s.h.o_status[3], static_cast<uint8_t>(SolveStatus::kEmergency));
  EXPECT_EQ(s.h.o_flags[3], 0);
  EXPECT_EQ(s.h.o_vx[3], s.d_pass1.x);
  EXPECT_EQ(s.h.o_vy[3], s.d_pass1.y);
}

TEST(OrcaPassTwoTest, AgentWhoseNeighboursWereAllOkIsUntouched) {
  PassTwoScene s;
  s.h.Run(s.params);
  // C, written at input index 1.
  EXPECT_EQ(s.h.o_status[1], static_cast<uint8_t>(SolveStatus::kOk));
  EXPECT_EQ(s.h.o_flags[1], 0);
  EXPECT_EQ(s.h.o_vx[1], s.c_pass1.x);
  EXPECT_EQ(s.h.o_vy[1], s.c_pass1.y);
  EXPECT_EQ(s.h.o_constraints[1], s.h.p1_constraints[2]);
  EXPECT_EQ(s.h.o_neighbors[1], 1);
}

TEST(OrcaPassTwoTest, RevalidateOffCopiesPassOne) {
  PassTwoScene s;
  OrcaParams params = s.params;
  params.revalidate = false;
  s.h.Run(params);
  EXPECT_EQ(s.h.o_flags[2], 0);
  EXPECT_EQ(s.h.o_vx[2], s.a_pass1.x);
  EXPECT_EQ(s.h.o_vy[2], s.a_pass1.y);
  EXPECT_EQ(s.h.o_status[2], static_cast<uint8_t>(SolveStatus::kOk));
}

// A overlaps B by 0.1 m (+ margin). Taking half, leaving within one 0.25 s step needs
// ~0.2 m/s, which A's 0.3 m/s allows (pass 1 ok); with B in emergency and standing still,
// A alone needs ~0.4 m/s at every horizon: no LP2 succeeds.
struct InfeasibleReSolve {
  OrcaParams params = OrcaParams{};
  AgentState a = Agent({0.f, 0.f}, {0.f, 0.f}, {-1.f, 0.f}, 0.5f, 0.3f, 1);
  AgentState b = Agent({0.9f, 0.f}, {0.f, 0.f}, {1.f, 0.f}, 0.5f, 0.3f, 2);
  SolveOutput a1;
  PassTwoHarness h{1};
  void Run() {
    const NeighborState b_seen = Neighbor(b.p, b.v, b.radius, b.id);
    a1 = SolveAgent(a, &b_seen, 1, kNoObstacles, params);
    ASSERT_EQ(a1.status, SolveStatus::kOk);
    h.Add(a, 1, {1}, a1.velocity, a1.status, a1.flags);
    h.Add(b, 0, {0}, {0.f, 0.f}, SolveStatus::kEmergency);
    h.Run(params);
    EXPECT_EQ(h.o_status[0], static_cast<uint8_t>(SolveStatus::kEmergency));
    EXPECT_EQ(h.o_flags[0], 0);
  }
};

// Without revalidate_fallback (the single second pass before it): the pass-1 velocity,
// which relied on B taking half, stays.
TEST(OrcaPassTwoTest, InfeasibleReSolveKeepsPassOneVelocityWithoutFallback) {
  InfeasibleReSolve s;
  s.params.revalidate_fallback = false;
  s.Run();
  EXPECT_EQ(s.h.o_status[1], static_cast<uint8_t>(SolveStatus::kOk));
  EXPECT_EQ(s.h.o_flags[1], s.a1.flags | kSolveRevalidated);
  EXPECT_EQ(s.h.o_vx[1], s.a1.velocity.x);
  EXPECT_EQ(s.h.o_vy[1], s.a1.velocity.y);
}

// With revalidate_fallback (default): A falls back as pass 1 would against B standing
// still with full responsibility. Overlapping B, stopping is unsafe: emergency, exactly
// the full solve's velocity, and reported as such (its neighbours no longer count on it).
TEST(OrcaPassTwoTest, InfeasibleReSolveFallsBackToEmergency) {
  InfeasibleReSolve s;
  s.Run();
  const NeighborState b_stopped = Neighbor(s.b.p, {0.f, 0.f}, s.b.radius, s.b.id, true);
  const SolveOutput expected = SolveAgent(s.a, &b_stopped, 1, kNoObstacles, s.params);
  ASSERT_EQ(expected.status, SolveStatus::kEmergency);
  EXPECT_EQ(s.h.o_status[1], static_cast<uint8_t>(SolveStatus::kEmergency));
  EXPECT_EQ(s.h.o_flags[1], kSolveRevalidated);
  EXPECT_EQ(s.h.o_vx[1], expected.velocity.x);
  EXPECT_EQ(s.h.o_vy[1], expected.velocity.y);
}

// A chain (radius 1.5, the random scene's agents): C (sorted 2) stopped in pass 1, 0.15 m
// in front of B (sorted 0); D (sorted 3) closes on B from behind at 2 m/s, 0.15 m away. B
// was ok in pass 1 (C taking half); against C standing still it cannot leave D room at any
// horizon, so B safe-stops in the first repair pass (v = 0 meets its hard lines: C, not
// overlapping). A (sorted 1) walks at B and sees only B: its pass-1 velocity relied on B
// taking half. Only a second repair pass lets A learn that B stopped.
struct ChainScene {
  OrcaParams params = OrcaParams{};
  AgentState b = Agent({0.f, 0.f}, {0.f, 0.f}, {1.f, 0.f}, 1.5f, 2.f, 20);
  AgentState a = Agent({0.f, 3.2f}, {0.f, -1.f}, {0.f, -1.f}, 1.5f, 2.f, 21);
  AgentState c = Agent({3.15f, 0.f}, {0.f, 0.f}, {-1.f, 0.f}, 1.5f, 2.f, 22);
  AgentState d = Agent({-3.15f, 0.f}, {2.f, 0.f}, {2.f, 0.f}, 1.5f, 2.f, 23);
  SolveOutput a1;
  PassTwoHarness h{2};
  void Run() {
    const NeighborState b_seen = Neighbor(b.p, b.v, b.radius, b.id);
    a1 = SolveAgent(a, &b_seen, 1, kNoObstacles, params);
    ASSERT_EQ(a1.status, SolveStatus::kOk);
    h.Add(b, 0, {2, 3}, {0.5f, 0.f}, SolveStatus::kOk);
    h.Add(a, 1, {0}, a1.velocity, a1.status, a1.flags);
    h.Add(c, 2, {0}, {0.f, 0.f}, SolveStatus::kSafeStop);
    h.Add(d, 3, {0}, {2.f, 0.f}, SolveStatus::kOk);
    h.Run(params);
  }
};

TEST(OrcaPassTwoTest, FailedReSolveStopsAndItsNeighbourReSolvesInTheNextPass) {
  ChainScene s;
  s.Run();
  EXPECT_EQ(s.h.passes_run, 2);  // after pass 1 C had turned, after the first repair B
  EXPECT_EQ(s.h.o_status[0], static_cast<uint8_t>(SolveStatus::kSafeStop));
  EXPECT_EQ(s.h.o_flags[0], kSolveRevalidated);
  EXPECT_EQ(s.h.o_vx[0], 0.f);
  EXPECT_EQ(s.h.o_vy[0], 0.f);
  // A re-solved in the second repair pass, against B standing still, full responsibility.
  const NeighborState b_stopped = Neighbor(s.b.p, {0.f, 0.f}, s.b.radius, s.b.id, true);
  const SolveOutput expected = SolveAgent(s.a, &b_stopped, 1, kNoObstacles, s.params, true);
  ASSERT_TRUE(expected.feasible);
  EXPECT_EQ(s.h.o_status[1], static_cast<uint8_t>(SolveStatus::kOk));
  EXPECT_EQ(s.h.o_flags[1] & (kSolveRevalidated | kSolveAdopted),
            kSolveRevalidated | kSolveAdopted);
  EXPECT_EQ(s.h.o_vx[1], expected.velocity.x);
  EXPECT_EQ(s.h.o_vy[1], expected.velocity.y);
  const float r = s.a.radius + s.b.radius;
  EXPECT_GE(MinDistance(s.a.p, {s.h.o_vx[1], s.h.o_vy[1]}, s.b.p, {0.f, 0.f}, s.params.time_step),
            r);
}

// With a single repair pass, A never hears that B stopped and keeps its pass-1 velocity,
// which walks into B standing still within the step.
TEST(OrcaPassTwoTest, OneRepairPassLeavesTheSecondLinkOfTheChain) {
  ChainScene s;
  s.params.revalidate_passes = 1;
  s.Run();
  EXPECT_EQ(s.h.passes_run, 1);
  EXPECT_EQ(s.h.o_status[0], static_cast<uint8_t>(SolveStatus::kSafeStop));
  EXPECT_EQ(s.h.o_flags[1], s.a1.flags);
  EXPECT_EQ(s.h.o_vx[1], s.a1.velocity.x);
  EXPECT_EQ(s.h.o_vy[1], s.a1.velocity.y);
  const float r = s.a.radius + s.b.radius;
  EXPECT_LT(MinDistance(s.a.p, s.a1.velocity, s.b.p, {0.f, 0.f}, s.params.time_horizon), r);
}

// ---------------------------------------------------------------------------------------
// Obstacle vertex construction.

template <class F>
std::string ThrownMessage(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "<no std::invalid_argument>";
}

TEST(ObstacleVerticesTest, SquareIsAllConvexWithCyclicLinks) {
  const ObstacleVertices vs =
      BuildObstacleVertices({Polygon{{{0.f, 0.f}, {1.f, 0.f}, {1.f, 1.f}, {0.f, 1.f}}}});
  ASSERT_EQ(vs.size(), 4u);
  EXPECT_EQ(vs.convex, (std::vector<uint8_t>{1, 1, 1, 1}));
  EXPECT_EQ(vs.next, (std::vector<int32_t>{1, 2, 3, 0}));
  EXPECT_EQ(vs.prev, (std::vector<int32_t>{3, 0, 1, 2}));
  EXPECT_FLOAT_EQ(vs.unit_dir[0].x, 1.f);
  EXPECT_FLOAT_EQ(vs.unit_dir[1].y, 1.f);
  EXPECT_FLOAT_EQ(vs.unit_dir[2].x, -1.f);
  EXPECT_FLOAT_EQ(vs.unit_dir[3].y, -1.f);
}

TEST(ObstacleVerticesTest, LShapeHasOneReflexVertex) {
  const ObstacleVertices vs = BuildObstacleVertices(
      {Polygon{{{0.f, 0.f}, {2.f, 0.f}, {2.f, 1.f}, {1.f, 1.f}, {1.f, 2.f}, {0.f, 2.f}}}});
  EXPECT_EQ(vs.convex, (std::vector<uint8_t>{1, 1, 1, 0, 1, 1}));
}

TEST(ObstacleVerticesTest, TwoVertexWallIsConvexBothWays) {
  const ObstacleVertices vs = BuildObstacleVertices({Polygon{{{0.f, 0.f}, {0.f, 3.f}}}});
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_EQ(vs.convex, (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(vs.next, (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(vs.prev, (std::vector<int32_t>{1, 0}));
  EXPECT_FLOAT_EQ(vs.unit_dir[0].y, 1.f);
  EXPECT_FLOAT_EQ(vs.unit_dir[1].y, -1.f);
}

TEST(ObstacleVerticesTest, PolygonsAreIndexedGloballyInInputOrder) {
  const ObstacleVertices vs = BuildObstacleVertices(
      {Polygon{{{0.f, 0.f}, {1.f, 0.f}}}, Polygon{{{5.f, 0.f}, {6.f, 0.f}, {6.f, 1.f}}}});
  ASSERT_EQ(vs.size(), 5u);
  EXPECT_EQ(vs.next, (std::vector<int32_t>{1, 0, 3, 4, 2}));
  EXPECT_EQ(vs.prev, (std::vector<int32_t>{1, 0, 4, 2, 3}));
  EXPECT_FLOAT_EQ(vs.point[2].x, 5.f);
}

TEST(ObstacleVerticesTest, ViewOfExposesTheColumns) {
  const ObstacleVertices vs =
      BuildObstacleVertices({Polygon{{{0.f, 0.f}, {1.f, 0.f}, {1.f, 1.f}}}});
  const ObstacleView view = ViewOf(vs);
  EXPECT_EQ(view.count, 3);
  EXPECT_EQ(view.point, vs.point.data());
  EXPECT_EQ(view.unit_dir, vs.unit_dir.data());
  EXPECT_EQ(view.convex, vs.convex.data());
  EXPECT_EQ(view.next, vs.next.data());
  EXPECT_EQ(view.prev, vs.prev.data());
}

TEST(ObstacleVerticesTest, RejectsPolygonWithFewerThanTwoVertices) {
  const std::string msg = ThrownMessage([] {
    BuildObstacleVertices({Polygon{{{0.f, 0.f}, {1.f, 0.f}}}, Polygon{{{2.f, 2.f}}}});
  });
  EXPECT_NE(msg.find("obstacles[1]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("2 vertices"), std::string::npos) << msg;
}

TEST(ObstacleVerticesTest, RejectsNonFiniteCoordinate) {
  const std::string msg = ThrownMessage([] {
    BuildObstacleVertices({Polygon{{{0.f, 0.f}, {1.f, 0.f}, {NAN, 1.f}}}});
  });
  EXPECT_NE(msg.find("obstacles[0].vertices[2]: non-finite"), std::string::npos) << msg;
}

TEST(ObstacleVerticesTest, RejectsZeroLengthEdge) {
  const std::string msg = ThrownMessage([] {
    BuildObstacleVertices({Polygon{{{0.f, 0.f}, {1.f, 0.f}}}, Polygon{{{0.f, 0.f}, {1.f, 0.f}}},
                           Polygon{{{0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, {0.f, 1.f}}}});
  });
  EXPECT_NE(msg.find("obstacles[2].vertices[1]: zero-length edge to the next vertex"),
            std::string::npos)
      << msg;
}

TEST(ObstacleVerticesTest, RejectsZeroLengthClosingEdge) {
  const std::string msg = ThrownMessage([] {
    BuildObstacleVertices({Polygon{{{0.f, 0.f}, {1.f, 0.f}, {1.f, 1.f}, {0.f, 0.f}}}});
  });
  EXPECT_NE(msg.find("obstacles[0].vertices[3]: zero-length edge"), std::string::npos) << msg;
}

}  // namespace
}  // namespace throng
