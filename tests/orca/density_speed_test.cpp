// Density-aware preferred speed (docs/ORCA.md, step 0, OrcaParams::density_speed): the
// preferred velocity is scaled by Weidmann's fundamental diagram at the density sampled
// ahead of the agent. The estimate on a lattice, someone alone keeping its speed, and the
// kernel against the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/periodic_corridor.h"
#include "kernels/orca/orca.cuh"
#include "kernels/reference/orca_ref.h"
#include "kernels/scenarios/scenario_layout.h"
#include "tests/backends/backend_param.h"
#include "tests/orca/orca_scenes.h"

namespace throng {
namespace {

using orca::AgentState;
using orca::NeighborState;
using orca::detail::DensityAhead;
using orca::detail::DensitySpeedShare;

// Weidmann's speed at rho over his free speed 1.34 m/s.
double WeidmannShare(double rho) { return 1 - std::exp(-1.913 * (1 / rho - 1 / 5.4)); }

// The `count` nearest points of a hexagonal lattice of density rho around the origin (which
// is a lattice point itself, the agent's).
std::vector<NeighborState> Lattice(float rho, size_t count = 10) {
  const float d = std::sqrt(2.f / (std::sqrt(3.f) * rho));
  std::vector<NeighborState> all;
  for (int r = -4; r <= 4; ++r) {
    for (int c = -4; c <= 4; ++c) {
      const Vec2 p{(c + 0.5f * (r & 1)) * d, r * d * std::sqrt(3.f) / 2};
      if (r == 0 && c == 0) continue;
      all.push_back({p, {1.f, 0.f}, {1.f, 0.f}, 0.25f, static_cast<uint32_t>(all.size() + 2),
                     false});
    }
  }
  std::sort(all.begin(), all.end(),
            [](const NeighborState& a, const NeighborState& b) { return LengthSq(a.p) < LengthSq(b.p); });
  all.resize(count);
  return all;
}

TEST(DensitySpeedTest, LatticeDensityIsReadWithinAQuarterUpToTwoAndAHalf) {
  const AgentState a{{0.f, 0.f}, {1.f, 0.f}, {1.3f, 0.f}, 0.25f, 2.f, 1};
  for (float rho : {1.f, 1.5f, 2.f, 2.5f}) {
    const std::vector<NeighborState> nbs = Lattice(rho);
    const float read = DensityAhead(a, nbs.data(), static_cast<int>(nbs.size()));
    std::printf("[ figures  ] lattice of %.1f /m^2 read as %.3f\n", rho, read);
    EXPECT_NEAR(read, rho, 0.25f * rho) << "rho " << rho;
    EXPECT_NEAR(DensitySpeedShare(read), WeidmannShare(read), 1e-5) << "rho " << rho;
  }
}

TEST(DensitySpeedTest, SomeoneAloneKeepsItsSpeedAndAPackedCrowdCreeps) {
  const AgentState a{{0.f, 0.f}, {1.f, 0.f}, {1.3f, 0.f}, 0.25f, 2.f, 1};
  EXPECT_GT(DensitySpeedShare(DensityAhead(a, nullptr, 0)), 0.999f);
  EXPECT_EQ(DensitySpeedShare(0.f), 1.f);  // no direction
  EXPECT_EQ(DensitySpeedShare(9.f), 0.1f);  // beyond Weidmann's 5.4 /m^2: the floor
}

// The reference computes the same share on its own: one agent in the first ring of a
// lattice of 2 /m^2 of people standing, with bodies and a horizon so small that the solve
// is ok at the scaled preference; the kernel and the reference agree on that speed.
TEST(DensitySpeedTest, KernelAndReferenceSlowAnAgentAlike) {
  OrcaScene scene;
  scene.params.density_speed = true;
  scene.params.jam_step = false;
  scene.params.side_bias = 0.f;
  scene.params.time_horizon = 0.1f;
  scene.params.time_step = 0.1f;
  // The first ring only (six at the same distance; the next ring's order would be a tie).
  scene.params.max_neighbors = 6;
  const std::vector<NeighborState> nbs = Lattice(2.f, 6);
  // Small bodies, so that nothing constrains a slow walk; the neighbours fast, so that the
  // 0.1 s horizon keeps the ring.
  testing::AppendAgent(scene.agents, 1, {0.f, 0.f}, {0.f, 0.f}, {1.3f, 0.f}, 0.05f, 2.f);
  for (const NeighborState& nb : nbs) {
    testing::AppendAgent(scene.agents, nb.id, nb.p, {0.f, 0.f}, {0.f, 0.f}, 0.05f, 10.f);
  }
  const OrcaResult ref = reference::SolveOrca(scene);
  std::vector<NeighborState> seen = nbs;
  for (NeighborState& nb : seen) {
    nb.v = nb.v_pref = {0.f, 0.f};
    nb.radius = 0.05f;
  }
  const AgentState a{{0.f, 0.f}, {0.f, 0.f}, {1.3f, 0.f}, 0.05f, 2.f, 1};
  const orca::SolveOutput kernel =
      orca::SolveAgent(a, seen.data(), static_cast<int>(seen.size()), orca::ObstacleView{},
                       scene.params);
  ASSERT_EQ(ref.status[0], static_cast<uint8_t>(SolveStatus::kOk));
  ASSERT_EQ(kernel.status, SolveStatus::kOk);
  EXPECT_NEAR(kernel.velocity.x, ref.vx[0], 1e-4f);
  EXPECT_NEAR(kernel.velocity.y, ref.vy[0], 1e-4f);
  const float share = DensitySpeedShare(DensityAhead(a, seen.data(), static_cast<int>(seen.size())));
  EXPECT_LT(share, 0.8f);  // the first ring alone reads about 1.3 /m^2
  EXPECT_NEAR(ref.vx[0], 1.3f * share, 1e-3f);
  scene.params.density_speed = false;
  EXPECT_NEAR(reference::SolveOrca(scene).vx[0], 1.3f, 1e-4f);
}

// The two-way periodic corridor of throng-bench-flow --fundamental (bench/periodic_corridor.h)
// at 3 people per m^2, bodies of 0.2 m, directions mixed person by person: it freezes
// without the rule and keeps walking with it. Measured 2026-12-04 with 8 repair passes:
// cpu 399 of 450 ticks frozen without (0.03 m/s), none with (0.39 m/s, Weidmann 0.37); the
// reference 450 and none (0.40 m/s). (At 2.5 per m^2, the density until the passes went
// from 4 to 8, the reference froze for only 139 ticks without the rule.)
class DensitySpeedSceneTest : public ::testing::TestWithParam<BackendKind> {};

bench::CorridorFigures TwoWayCorridor(BackendKind backend, bool density_speed) {
  WorldConfig config = scenarios::layout::PedestrianConfig();
  config.orca.density_speed = density_speed;
  // Headway speed and right of way (on by default since 2026-12-04) keep this corridor
  // walking by themselves; off, so that the rule is judged against the solve without them.
  config.orca.headway_speed = false;
  config.orca.right_of_way = false;
  bench::CorridorSetup setup;
  setup.density = 3.0;
  setup.two_way = true;
  setup.radius = 0.2f;
  return bench::RunPeriodicCorridor(setup, config, backend);
}

TEST_P(DensitySpeedSceneTest, TwoWayCorridorKeepsWalkingWithTheRuleAndFreezesWithout) {
  const bench::CorridorFigures with = TwoWayCorridor(GetParam(), true);
  const bench::CorridorFigures without = TwoWayCorridor(GetParam(), false);
  std::printf("[ figures  ] two-way corridor, 3 /m^2: %.3f m/s with the rule (%d frozen "
              "ticks, %llu deep pair-ticks), %.3f m/s without (%d frozen)\n",
              with.speed, with.frozen_ticks, static_cast<unsigned long long>(with.deep_overlaps),
              without.speed, without.frozen_ticks);
  EXPECT_EQ(with.frozen_ticks, 0);
  EXPECT_GT(with.speed, 0.25);
  EXPECT_GT(without.frozen_ticks, 200);
  EXPECT_EQ(with.deep_overlaps, 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, DensitySpeedSceneTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
