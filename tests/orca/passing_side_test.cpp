// The passing side (docs/ORCA.md, step 0, OrcaParams::side_bias_fade): the side bias
// fades for a conflicting neighbour that lies to the agent's right of their closing path,
// so that offset pairs pass on their natural side. Unit cases on the kernel and the
// reference, and a counter-flow that jams without the fade and clears with it, on the cpu
// backend and the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "kernels/orca/orca.cuh"
#include "kernels/reference/orca_ref.h"
#include "kernels/reference/orca_ref_geometry.h"
#include "kernels/scenarios/scenario.h"
#include "kernels/scenarios/scenario_layout.h"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using orca::AgentState;
using orca::NeighborState;
using orca::detail::SideBiasShare;
using reference::SolveDiagnostics;
using reference::SolveOrca;

AgentState WalkingEast() { return {{0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, 2.f, 1}; }

NeighborState At(Vec2 p, Vec2 v_pref) { return {p, v_pref, v_pref, 0.5f, 2, false}; }

// Combined radius 1 m, fade 2: full reach 2 m for crossing neighbours, 0.5 m oncoming.
TEST(PassingSideTest, ShareFadesWithTheNeighboursOffsetToTheRight) {
  const AgentState a = WalkingEast();
  const Vec2 west{-1.f, 0.f}, north{0.f, 1.f};
  EXPECT_EQ(SideBiasShare(a, At({4.f, 0.f}, west), 2.f), 1.f);    // head-on
  EXPECT_EQ(SideBiasShare(a, At({4.f, 0.3f}, west), 2.f), 1.f);   // on the left
  EXPECT_EQ(SideBiasShare(a, At({4.f, -0.6f}, west), 2.f), 0.f);  // beyond 0.5 m right
  EXPECT_NEAR(SideBiasShare(a, At({4.f, -0.25f}, west), 2.f), 0.5f, 1e-6f);
  EXPECT_EQ(SideBiasShare(a, At({4.f, -0.6f}, {0.f, 0.f}), 2.f), 0.f);  // standing: oncoming
  // Crossing from the right (heading north): closing direction (1, -1) / sqrt 2; the
  // neighbour at (1, -2) lies 1/sqrt 2 m to the right of it (a share of 1 - 0.354 over
  // the full 2 m), the one at (2, -1) as far to its left (the whole share).
  EXPECT_NEAR(SideBiasShare(a, At({1.f, -2.f}, north), 2.f), 1.f - 0.5f / std::sqrt(2.f), 1e-6f);
  EXPECT_EQ(SideBiasShare(a, At({2.f, -1.f}, north), 2.f), 1.f);
  EXPECT_EQ(SideBiasShare(a, At({-3.f, 0.f}, west), 2.f), 0.f);       // behind: not closing
  EXPECT_EQ(SideBiasShare(a, At({2.f, 0.f}, {1.f, 0.f}), 2.f), 1.f);  // same wish
  EXPECT_EQ(SideBiasShare(a, At({4.f, -0.6f}, west), 0.f), 1.f);      // fade off
}

// The reference's share is written on its own: the same on a sweep of headings (every 5
// degrees, off the oncoming threshold by a hair) and offsets.
TEST(PassingSideTest, KernelAndReferenceAgreeOnTheShare) {
  const AgentState a = WalkingEast();
  reference::detail::AgentState self;
  self.pref_velocity = {1.0, 0.0};
  self.radius = 0.5;
  for (int degrees = 0; degrees < 360; degrees += 5) {
    // Off the thresholds by a hair, where float and double may round apart.
    const double heading = (degrees + 0.5) * 3.14159265358979 / 180.0;
    const Vec2 v{static_cast<float>(std::cos(heading)), static_cast<float>(std::sin(heading))};
    for (const Vec2 p : {Vec2{3.f, 0.2f}, Vec2{3.f, -0.4f}, Vec2{1.f, -2.f}, Vec2{2.f, 1.f}}) {
      reference::detail::AgentState other;
      other.position = {p.x, p.y};
      other.pref_velocity = {v.x, v.y};
      other.radius = 0.5;
      const float kernel = SideBiasShare(a, At(p, v), 2.f);
      EXPECT_NEAR(kernel, reference::detail::SideBiasShare(self, other, 2.0), 1e-5)
          << degrees << " degrees, at (" << p.x << ", " << p.y << ")";
    }
  }
}

// An oncoming neighbour offset to the right: the default solve aims at v_pref itself (no
// turn), as with side_bias 0, and the reference agrees; with the fade off both turn right.
TEST(PassingSideTest, AnOffsetOncomingPairPassesOnItsNaturalSide) {
  OrcaScene scene;
  scene.params.time_horizon = 2.f;
  scene.params.time_step = 0.25f;
  auto add = [&](uint32_t id, float x, float y, float v) {
    AgentColumns& a = scene.agents;
    a.Resize(a.size() + 1);
    const size_t i = a.size() - 1;
    a.id[i] = id;
    a.px[i] = x;
    a.py[i] = y;
    a.vx[i] = v;
    a.vy[i] = 0.f;
    a.radius[i] = 0.5f;
    a.max_speed[i] = 2.f;
    a.pref_vx[i] = v;
    a.pref_vy[i] = 0.f;
    a.flags[i] = 0;
  };
  add(0, 0.f, 0.f, 1.f);
  add(1, 4.f, -0.6f, -1.f);  // B is A's right, A is B's right: both pass on the left
  const NeighborState b = At({4.f, -0.6f}, {-1.f, 0.f});
  const AgentState a = WalkingEast();
  // The rule's precondition: A's v_pref breaks its line for B (contact within tau).
  const orca::Line line =
      orca::detail::AgentLine(a, b, 0.5f, 4.f, scene.params.contact_margin_ratio);
  ASSERT_GT(Det(line.direction, line.point - a.v_pref), 0.f);
  for (float fade : {2.f, 0.f}) {
    SCOPED_TRACE(fade);
    scene.params.side_bias_fade = fade;
    SolveDiagnostics diag;
    const OrcaResult ref = SolveOrca(scene, {}, &diag);
    const orca::SolveOutput kernel = orca::SolveAgent(a, &b, 1, orca::ObstacleView{}, scene.params);
    EXPECT_EQ(diag.target_biased[0], fade == 0.f);
    EXPECT_EQ(diag.target_biased[1], fade == 0.f);
    OrcaScene unbiased = scene;
    unbiased.params.side_bias = 0.f;
    const OrcaResult straight = SolveOrca(unbiased);
    if (fade > 0.f) {
      EXPECT_EQ(ref.vx[0], straight.vx[0]);
      EXPECT_EQ(ref.vy[0], straight.vy[0]);
      EXPECT_GT(ref.vy[0], 0.f);  // A steps left, away from B
    } else {
      // The turned target projects elsewhere on B's line.
      EXPECT_GT(std::hypot(ref.vx[0] - straight.vx[0], ref.vy[0] - straight.vy[0]), 1e-3f);
    }
    EXPECT_NEAR(kernel.velocity.x, ref.vx[0], 1e-4f);
    EXPECT_NEAR(kernel.velocity.y, ref.vy[0], 1e-4f);
  }
}

// Two groups of 100 meet head-on in the corridor (seed 1): with the whole bias for every
// conflict, people offset from each other are made to cross each other's path and some
// never get home within the suggested ticks; with the fade everyone does. Bodies 0.6 m
// wide: the scene library's people (0.4 m) get home either way, and this test needs the
// conflict.
size_t HomeAfterCorridor(BackendKind backend, float fade) {
  scenarios::Scenario s = scenarios::MakeScenario("corridor", 200, 1);
  scenarios::layout::SetPedestrianRadius(&s.config, 0.3f);
  s.config.orca.side_bias_fade = fade;
  // Headway speed and right of way (on by default since 2026-12-04) get the reference home
  // without the fade too; off, so that the fade is judged alone, as it was chosen.
  s.config.orca.headway_speed = false;
  s.config.orca.right_of_way = false;
  World world(s.config, backend);
  TickOptions options;
  options.integrate = true;
  TickResult r;
  world.Step(s.initial, options, &r);
  world.Advance(s.suggested_ticks - 1, s.initial.dt, &r);
  const AgentSnapshot& a = world.state().agents;
  size_t home = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    home += std::hypot(a.x[i] - a.goal_x[i], a.y[i] - a.goal_y[i]) <= 0.1f;
  }
  return home;
}

class PassingSideSceneTest : public ::testing::TestWithParam<BackendKind> {};

TEST_P(PassingSideSceneTest, CorridorClearsWithTheFadeAndJamsWithout) {
  EXPECT_EQ(HomeAfterCorridor(GetParam(), 2.f), 200u);
  EXPECT_LT(HomeAfterCorridor(GetParam(), 0.f), 200u);
}

INSTANTIATE_TEST_SUITE_P(Backends, PassingSideSceneTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
