// Obstacle polygons turned into vertex records (kernels/orca/obstacles.*).
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
}  // namespace throng::orca_kernel_test
