// The squeeze step (docs/ORCA.md, step 5, OrcaParams::squeeze_step, off by default): an
// agent the jam step leaves standing or creeping, which gives way to two neighbours
// touching it from opposite sides, steps square to the line between them. The step on the
// kernel; the reference's is compared with it by the equivalence tests' random rules
// (tests/orca/orca_scenes.h). No small scene yet knots without it (docs/PERFORMANCE.md,
// "The squeeze step"), so it stays off.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/orca/orca.cuh"

namespace throng {
namespace {

using orca::AgentState;
using orca::Line;
using orca::NeighborState;
using orca::detail::SqueezeStep;

NeighborState GoesFirst(Vec2 p, uint32_t id) {
  NeighborState b{p, {0.f, 0.f}, {0.f, 0.f}, 2.f, id, true};
  b.demoted = true;
  b.goes_first = true;
  return b;
}

// A 2 m walker standing against a wall to its west (x = -2: the wall's line through
// standing still, as ORCA's line for a touching edge is), touching one that goes first
// above it and one below.
TEST(SqueezeStepTest, AWalkerBetweenTwoThatGoFirstStepsAwayFromTheWallSquareToThem) {
  const AgentState a{{0.f, 0.f}, {0.f, 0.f}, {-0.4f, 0.2f}, 2.f, 2.f, 1};
  const Line wall{{0.f, 0.f}, {0.f, -1.f}};  // allows vx >= 0
  std::vector<NeighborState> pressing = {GoesFirst({0.f, 4.07f}, 2), GoesFirst({0.f, -4.07f}, 3)};
  Vec2 v{9.f, 9.f};
  ASSERT_TRUE(SqueezeStep(a, pressing.data(), 2, &wall, 1, 0.25f, 0.01f, &v));
  EXPECT_NEAR(v.x, 0.2f, 1e-6f);  // east, away from the wall, at a tenth of 2 m/s
  EXPECT_NEAR(v.y, 0.f, 1e-6f);

  // Without the wall the left of the line from the first to the second comes first.
  ASSERT_TRUE(SqueezeStep(a, pressing.data(), 2, nullptr, 0, 0.25f, 0.01f, &v));
  EXPECT_NEAR(v.x, 0.2f, 1e-6f);

  // Not when one of them does not go first, is not touching, or both press from one side.
  std::vector<NeighborState> one_first = pressing;
  one_first[1].goes_first = false;
  EXPECT_FALSE(SqueezeStep(a, one_first.data(), 2, &wall, 1, 0.25f, 0.01f, &v));
  std::vector<NeighborState> apart = pressing;
  apart[1].p = {0.f, -4.5f};  // more than 1.05 radius sums away
  EXPECT_FALSE(SqueezeStep(a, apart.data(), 2, &wall, 1, 0.25f, 0.01f, &v));
  std::vector<NeighborState> one_side = {GoesFirst({0.f, 4.07f}, 2), GoesFirst({3.f, 2.8f}, 3)};
  EXPECT_FALSE(SqueezeStep(a, one_side.data(), 2, &wall, 1, 0.25f, 0.01f, &v));

  // Not into a body: a third neighbour where the step would go (it goes first too, so the
  // pairs with it press from one side or none).
  std::vector<NeighborState> boxed = pressing;
  boxed.push_back(GoesFirst({4.05f, 0.f}, 4));
  EXPECT_FALSE(SqueezeStep(a, boxed.data(), 3, &wall, 1, 0.25f, 0.01f, &v));
}

}  // namespace
}  // namespace throng
