// ORCA's linear programs (kernels/orca/orca_lp.cuh) on hand-made lines, compiled for the host.
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

}  // namespace
}  // namespace throng::orca_kernel_test
