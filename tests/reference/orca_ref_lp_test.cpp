// The reference's linear programs (kernels/reference/orca_ref.*) on hand-made lines.
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

}  // namespace
}  // namespace throng::reference::orca_ref_test
