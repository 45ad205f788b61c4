// Obstacles in the reference: no wall, square or non-convex polygon is ever entered.
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
    // The wall never forces an emergency. With the jam step (on by default) two of these
    // agents may touch, and a tick where they do is an emergency of theirs, not the wall's.
    if (!scene.params.jam_step) {
      EXPECT_EQ(r.status_count[2], 0u) << "step " << step;
    }
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

}  // namespace
}  // namespace throng::reference::orca_ref_test
