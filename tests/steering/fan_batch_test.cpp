// Cast-fan steering of forward-only agents through the backends: the parallel backends
// against the reference, behaviour, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>

#include "kernels/backends/backend.h"
#include "kernels/scenarios/flock.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using scenarios::Flock;
using scenarios::RandomFlock;

class FanBatchTest : public testing::BackendParamTest {};

// Same probe and the same blocked flag, hit distances within 1 mm, move directions
// within 1e-4; at most 0.1% of agents may differ (a probe grazing an obstacle's corner at
// exactly max_distance can go either way in float).
TEST_P(FanBatchTest, matches_the_reference_on_20000_random_agents) {
  const Flock flock = RandomFlock(23, 20000);
  auto parallel = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  parallel->SetObstacles(flock.obstacles);
  reference->SetObstacles(flock.obstacles);
  FanParams params;
  params.probes = 11;
  FanResults got, want;
  parallel->SteerForward(params, 0.1f, flock.agents, &got);
  reference->SteerForward(params, 0.1f, flock.agents, &want);
  size_t mismatches = 0, blocked = 0, turned = 0;
  for (size_t i = 0; i < flock.agents.size(); ++i) {
    ASSERT_TRUE(std::isfinite(got.move_x[i]) && std::isfinite(got.move_y[i])) << i;
    const bool both_free = std::isinf(got.hit_distance[i]) && std::isinf(want.hit_distance[i]);
    const bool hit_ok = both_free || std::fabs(got.hit_distance[i] - want.hit_distance[i]) <= 1e-3f;
    const float dm = std::hypot(got.move_x[i] - want.move_x[i], got.move_y[i] - want.move_y[i]);
    mismatches += got.probe[i] != want.probe[i] || got.all_blocked[i] != want.all_blocked[i] ||
                  !hit_ok || dm > 1e-4f;
    blocked += want.all_blocked[i];
    turned += want.probe[i] != 0;
  }
  std::printf(
      "[ figures  ] %s fan vs reference: 20000 agents (%zu turned away from straight "
      "ahead, %zu boxed in), mismatches %zu\n",
      std::string(BackendName(GetParam())).c_str(), turned, blocked, mismatches);
  EXPECT_GT(turned, 1000u);  // the scene must exercise the fan, not only free probes
  EXPECT_LE(mismatches, 20u);
}

TEST_P(FanBatchTest, turns_to_the_free_side_of_a_blocked_corridor) {
  auto backend = CreateBackend(GetParam());
  // Walking +x in a corridor 10 m wide; a block fills the right half ahead, so the free
  // side is the left (+y).
  backend->SetObstacles(
      {{{{0, 5}, {40, 5}}}, {{{40, -5}, {0, -5}}}, {{{8, -5}, {10, -5}, {10, 0.5f}, {8, 0.5f}}}});
  ForwardAgentColumns a;
  a.Resize(1);
  a.id[0] = 1;
  a.px[0] = 3.f;
  a.py[0] = -1.f;
  a.fx[0] = 1.f;
  a.fy[0] = 0.f;
  a.radius[0] = 0.5f;
  FanParams params;
  params.max_distance = 8.f;
  FanResults r;
  backend->SteerForward(params, 0.1f, a, &r);
  EXPECT_GT(r.chosen_y[0], 0.f) << "probe " << r.probe[0];
  EXPECT_GT(r.move_y[0], 0.f);
  EXPECT_FALSE(r.all_blocked[0]);
}

INSTANTIATE_TEST_SUITE_P(Backends, FanBatchTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         testing::BackendParamName);

class FanValidationTest : public ::testing::TestWithParam<BackendKind> {};

TEST_P(FanValidationTest, rejects_bad_fans_and_agents_naming_the_field) {
  auto backend = CreateBackend(GetParam());
  const Flock flock = RandomFlock(2, 10);
  backend->SetObstacles(flock.obstacles);
  auto expect = [&](const std::function<void(FanParams&, float&, ForwardAgentColumns&)>& corrupt,
                    const std::string& expected) {
    FanParams p;
    float dt = 0.1f;
    ForwardAgentColumns a = flock.agents;
    corrupt(p, dt, a);
    FanResults r;
    try {
      backend->SteerForward(p, dt, a, &r);
      ADD_FAILURE() << "expected an error containing " << expected;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  expect([](FanParams& p, float&, ForwardAgentColumns&) { p.fov = 0.f; }, "fan.fov");
  expect([](FanParams& p, float&, ForwardAgentColumns&) { p.fov = 3.5f; }, "fan.fov");
  expect([](FanParams& p, float&, ForwardAgentColumns&) { p.probes = 0; }, "fan.probes: 0");
  expect([](FanParams& p, float&, ForwardAgentColumns&) { p.max_distance = -1.f; },
         "fan.max_distance");
  expect([](FanParams&, float& dt, ForwardAgentColumns&) { dt = 0.f; }, "dt");
  expect([](FanParams&, float&, ForwardAgentColumns& a) { a.fx[3] = 0.f, a.fy[3] = 0.f; },
         "agents.fx[3]: zero-length forward direction");
  expect([](FanParams&, float&, ForwardAgentColumns& a) { a.py[6] = NAN; },
         "agents.py[6]: not finite");
  expect([](FanParams&, float&, ForwardAgentColumns& a) { a.radius[2] = 0.f; }, "agents.radius[2]");
}

INSTANTIATE_TEST_SUITE_P(Backends, FanValidationTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
