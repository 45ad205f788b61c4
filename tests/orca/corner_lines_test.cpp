// Corner lines (docs/ORCA.md, "Corner lines", OrcaParams::corner_lines): an agent beyond an
// edge's end, within its radius of the edge's line, sees the edge end-on, and the leg that
// runs back along the edge is the edge's own to line. RVO2 leaves it to the neighbouring
// edge, which sees the same corner and leaves it back. Checked on the kernel and on the
// reference by every velocity their lines allow near a block's four corners, and on every
// backend by a walker that slides round a corner (cuda where a device is).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/orca/obstacles.h"
#include "kernels/orca/orca.cuh"
#include "kernels/reference/orca_ref.h"
#include "kernels/scenarios/scenario_layout.h"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

// RVO2's Blocks: 2 m bodies, 5 s obstacle horizon, 0.25 s ticks; a 30 m block.
constexpr float kRadius = 2.f;
constexpr float kTauObst = 5.f;
constexpr float kDt = 0.25f;
constexpr Vec2 kLo{-30.f, -30.f};
constexpr Vec2 kHi{0.f, 0.f};
// A step that ends this far inside a body's reach of the block is a step into its face.
constexpr float kTolerance = 0.001f;  // m

// The distance from p to the block (0 inside).
float DistanceToBlock(Vec2 p) {
  const float dx = std::max({kLo.x - p.x, 0.f, p.x - kHi.x});
  const float dy = std::max({kLo.y - p.y, 0.f, p.y - kHi.y});
  return std::hypot(dx, dy);
}

// Positions within 0.6 m of touching the block, round each of its four corners (every
// side of a corner: end-on and face-on), clear of it.
std::vector<Vec2> PositionsRoundTheCorners(float step) {
  std::vector<Vec2> out;
  for (const Vec2 corner : {kLo, kHi, Vec2{kLo.x, kHi.y}, Vec2{kHi.x, kLo.y}}) {
    for (float dx = -3.f; dx <= 3.f; dx += step) {
      for (float dy = -3.f; dy <= 3.f; dy += step) {
        const Vec2 p = corner + Vec2{dx, dy};
        const float d = DistanceToBlock(p);
        if (d > kRadius && d < kRadius + 0.6f) out.push_back(p);
      }
    }
  }
  return out;
}

std::vector<Vec2> VelocityGrid(float extent, float step) {
  std::vector<Vec2> out;
  for (float x = -extent; x <= extent + 1e-4f; x += step) {
    for (float y = -extent; y <= extent + 1e-4f; y += step) out.push_back({x, y});
  }
  return out;
}

// Of every current velocity at every position: how many (position, current velocity,
// candidate velocity) triples have a candidate that the lines allow and that moves the
// body into the block within one tick. `lines_at` gives the obstacle lines as (point,
// direction) pairs; a velocity w is allowed when det(direction, point - w) <= 0.
template <class LinesAt>
int StepsIntoTheBlock(const std::vector<Vec2>& positions, const std::vector<Vec2>& currents,
                      const LinesAt& lines_at) {
  const std::vector<Vec2> candidates = VelocityGrid(kRadius, 0.25f);
  int into = 0;
  for (const Vec2 p : positions) {
    for (const Vec2 v : currents) {
      const std::vector<std::pair<Vec2, Vec2>> lines = lines_at(p, v);
      for (const Vec2 w : candidates) {
        if (DistanceToBlock(p + kDt * w) >= kRadius - kTolerance) continue;
        bool allowed = true;
        for (const auto& [point, direction] : lines) {
          allowed = allowed && Det(direction, point - w) <= 1e-6f;
        }
        into += allowed;
      }
    }
  }
  return into;
}

ObstacleVertices Block() {
  return BuildObstacleVertices({Polygon{{kHi, {kLo.x, kHi.y}, kLo, {kHi.x, kLo.y}}}});
}

// The kernel's obstacle lines for an agent at p moving at v, as (point, direction) pairs.
std::vector<std::pair<Vec2, Vec2>> KernelLines(const orca::ObstacleView& view,
                                               const OrcaParams& params, Vec2 p, Vec2 v) {
  const orca::AgentState agent{p, v, v, kRadius, 2.f, 0};
  orca::Line lines[kMaxObstacleLinesLimit];
  const int n = orca::ObstacleLines(agent, view, params, lines);
  std::vector<std::pair<Vec2, Vec2>> out;
  for (int k = 0; k < n; ++k) out.push_back({lines[k].point, lines[k].direction});
  return out;
}

int KernelStepsIntoTheBlock(bool corner_lines, float position_step) {
  const ObstacleVertices vertices = Block();
  const orca::ObstacleView view = ViewOf(vertices);
  OrcaParams params;
  params.time_horizon_obst = kTauObst;
  params.corner_lines = corner_lines;
  return StepsIntoTheBlock(PositionsRoundTheCorners(position_step), VelocityGrid(1.f, 0.25f),
                           [&](Vec2 p, Vec2 v) { return KernelLines(view, params, p, v); });
}

TEST(CornerLinesTest, NoVelocityTheKernelAllowsStepsIntoABlockAtItsCorners) {
  const int with = KernelStepsIntoTheBlock(true, 0.1f);
  const int without = KernelStepsIntoTheBlock(false, 0.1f);
  std::printf(
      "[ figures  ] kernel: %d allowed velocities step into the block at its corners, %d "
      "with RVO2's foreign legs\n",
      with, without);
  EXPECT_EQ(with, 0);
  EXPECT_GT(without, 0);  // what the rule mends
}

int ReferenceStepsIntoTheBlock(bool corner_lines, float position_step) {
  OrcaScene scene;
  scene.params.time_horizon_obst = kTauObst;
  scene.params.corner_lines = corner_lines;
  scene.obstacles = {Polygon{{kHi, {kLo.x, kHi.y}, kLo, {kHi.x, kLo.y}}}};
  scene.agents.Resize(1);
  scene.agents.id[0] = 0;
  scene.agents.radius[0] = kRadius;
  scene.agents.max_speed[0] = 2.f;
  scene.agents.flags[0] = 0;
  return StepsIntoTheBlock(
      PositionsRoundTheCorners(position_step), VelocityGrid(1.f, 0.5f), [&](Vec2 p, Vec2 v) {
        AgentColumns& a = scene.agents;
        a.px[0] = p.x;
        a.py[0] = p.y;
        a.vx[0] = a.pref_vx[0] = v.x;
        a.vy[0] = a.pref_vy[0] = v.y;
        size_t obstacle_lines = 0;
        const std::vector<reference::lp::Line> lines =
            reference::BuildLines(scene, 0, &obstacle_lines);
        std::vector<std::pair<Vec2, Vec2>> out;
        for (size_t k = 0; k < obstacle_lines; ++k) {
          const auto& l = lines[k];
          out.push_back({{static_cast<float>(l.point.x), static_cast<float>(l.point.y)},
                         {static_cast<float>(l.direction.x), static_cast<float>(l.direction.y)}});
        }
        return out;
      });
}

TEST(CornerLinesTest, NoVelocityTheReferenceAllowsStepsIntoABlockAtItsCorners) {
  const int with = ReferenceStepsIntoTheBlock(true, 0.1f);
  const int without = ReferenceStepsIntoTheBlock(false, 0.1f);
  std::printf(
      "[ figures  ] reference: %d allowed velocities step into the block at its corners, %d "
      "with RVO2's foreign legs\n",
      with, without);
  EXPECT_EQ(with, 0);
  EXPECT_GT(without, 0);
}

// A walker of RVO2's Blocks (2 m body, 2 m/s) beside a block's north-east corner, at
// (x, y), walking south at 0.4 m/s, its goal 40 m south-west: the deepest its body goes
// into the block over `ticks` ticks, m.
float DeepestIntoTheBlock(BackendKind backend, bool corner_lines, Vec2 start, int ticks) {
  Snapshot s;
  s.dt = kDt;
  AgentSnapshot& a = s.agents;
  scenarios::layout::AddPedestrian(a, start, {-15.f, -40.f});
  a.radius = {kRadius};
  a.max_speed = {2.f};
  a.vx = {0.f};
  a.vy = {-0.4f};
  WorldConfig config;
  config.orca.time_horizon_obst = kTauObst;
  config.orca.corner_lines = corner_lines;
  config.obstacles = {scenarios::layout::Box(kLo, kHi)};
  World world(config, backend);
  TickOptions integrate;
  integrate.integrate = true;
  TickResult r;
  world.Step(s, integrate, &r);
  float deepest = 0.f;
  for (int t = 0; t < ticks; ++t) {
    world.Advance(1, s.dt, &r);
    const AgentSnapshot& now = world.state().agents;
    deepest = std::max(deepest, kRadius - DistanceToBlock({now.x[0], now.y[0]}));
  }
  return deepest;
}

class CornerLinesBackendTest : public testing::BackendParamTest {};

// Starting beside the corner with its body touching the east face's line, the walker is
// within its radius of that line and beyond the face's end: RVO2's rule lines neither edge,
// and the body steps 4.9 cm into the face, where it then slides along.
TEST_P(CornerLinesBackendTest, AWalkerSlidingRoundABlocksCornerKeepsOffItsFace) {
  const BackendKind backend = GetParam();
  float deepest_without = 0.f;
  for (const float y : {0.05f, 0.1f, 0.15f}) {
    const float with = DeepestIntoTheBlock(backend, true, {2.f, y}, 80);
    const float without = DeepestIntoTheBlock(backend, false, {2.f, y}, 80);
    std::printf(
        "[ figures  ] %s, start (2, %.2f): deepest into the block %.4f m, %.4f m "
        "without the rule\n",
        std::string(BackendName(backend)).c_str(), y, with, without);
    EXPECT_LE(with, kTolerance) << y;
    deepest_without = std::max(deepest_without, without);
  }
  EXPECT_GT(deepest_without, 0.03f);
}

INSTANTIATE_TEST_SUITE_P(Backends, CornerLinesBackendTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference,
                                           BackendKind::kCuda),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
