// One agent's ORCA solve (kernels/orca/orca.cuh) in the plain order: agent lines, statuses,
// and obstacles in the solve.
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
// Agent lines and the solve (docs/ALGORITHMS.md §5 worked example: centres 4 m apart, radii
// 0.5, closing at 2 m/s, contact after 1.5 s).

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

}  // namespace
}  // namespace throng::orca_kernel_test
