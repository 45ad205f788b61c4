// Followers behind (docs/ORCA.md, "Neighbours ahead", OrcaParams::follower_weight): when
// more candidates than max_neighbors are in reach, a candidate behind the agent that walks
// its way is ordered as if farther, so that a full list keeps more of the people ahead. The
// ordering distance on the kernel, and the kept lists of every backend against the
// reference's, which is written on its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/orca/orca_agent.cuh"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

TEST(FollowersBehindTest, OnlyAFollowerBehindIsOrderedFarther) {
  const Vec2 east{1.f, 0.f};
  const float w = 1.f;
  // Straight behind, walking east: 4 m^2 counts as 4 * (1 + 1 * 1).
  EXPECT_FLOAT_EQ(OrderDistSq(4.f, {-2.f, 0.f}, east, {1.3f, 0.f}, w), 8.f);
  // Behind at 60 degrees off the agent's back (cos 0.5): 4 * (1 + 1 * 0.5).
  EXPECT_NEAR(OrderDistSq(4.f, {-1.f, 1.7320508f}, east, {1.f, 0.f}, w), 6.f, 1e-5f);
  EXPECT_NEAR(OrderDistSq(4.f, {-1.f, 1.7320508f}, east, {1.f, 0.f}, 3.f), 10.f, 1e-5f);
  EXPECT_EQ(OrderDistSq(4.f, {2.f, 0.f}, east, {1.f, 0.f}, w), 4.f);    // ahead
  EXPECT_EQ(OrderDistSq(4.f, {0.f, 2.f}, east, {1.f, 0.f}, w), 4.f);    // beside
  EXPECT_EQ(OrderDistSq(4.f, {-2.f, 0.f}, east, {-1.f, 0.f}, w), 4.f);  // behind, oncoming
  EXPECT_EQ(OrderDistSq(4.f, {-2.f, 0.f}, east, {0.f, 1.f}, w), 4.f);   // behind, crossing
  EXPECT_EQ(OrderDistSq(4.f, {-2.f, 0.f}, east, {0.f, 0.f}, w), 4.f);   // behind, standing
  // Within 45 degrees of the agent's way: followed; beyond it: not.
  EXPECT_GT(OrderDistSq(4.f, {-2.f, 0.f}, east, {1.f, 0.9f}, w), 4.f);
  EXPECT_EQ(OrderDistSq(4.f, {-2.f, 0.f}, east, {1.f, 1.1f}, w), 4.f);
  EXPECT_EQ(OrderDistSq(4.f, {-2.f, 0.f}, {0.f, 0.f}, {1.f, 0.f}, w), 4.f);  // agent stands
}

// A walker in a file of twenty walking east, ten ahead of it and ten behind, 0.5 m apart,
// and one coming the other way just behind its shoulder (0.54 m). The nearest ten: five
// ahead, four behind and the oncoming one. A follower d behind counts as d sqrt(1 + w).
struct FileScene {
  AgentColumns agents;
  OrcaParams params;
};

FileScene File(float follower_weight) {
  FileScene f;
  AgentColumns& a = f.agents;
  auto add = [&](float x, float y, float pref_x, uint32_t id) {
    a.px.push_back(x);
    a.py.push_back(y);
    a.vx.push_back(pref_x);
    a.vy.push_back(0.f);
    a.pref_vx.push_back(pref_x);
    a.pref_vy.push_back(0.f);
    a.radius.push_back(0.2f);
    a.max_speed.push_back(1.3f);
    a.id.push_back(id);
    a.flags.push_back(0);
  };
  add(0.f, 0.f, 1.f, 0);  // the walker
  for (uint32_t k = 1; k <= 10; ++k) {
    add(0.5f * static_cast<float>(k), 0.01f * static_cast<float>(k), 1.f, k);         // ahead
    add(-0.5f * static_cast<float>(k), 0.01f * static_cast<float>(k), 1.f, 100 + k);  // behind
  }
  add(-0.3f, 0.45f, -1.f, 200);  // oncoming, just behind its left shoulder
  f.params.max_neighbors = 10;
  f.params.follower_weight = follower_weight;
  f.params.time_step = 0.1f;
  return f;
}

std::vector<uint32_t> KeptOfTheWalker(Backend& backend, const FileScene& f) {
  backend.SetObstacles({});
  OrcaRunOptions run;
  run.record_kept = true;
  OrcaResult r;
  backend.SolveOrca(f.params, f.agents, run, &r);
  const auto k = static_cast<size_t>(f.params.max_neighbors);
  std::vector<uint32_t> kept(r.kept_ids.begin(), r.kept_ids.begin() + k);  // agent 0's
  std::sort(kept.begin(), kept.end());
  return kept;
}

class FollowersBehindBackendTest : public testing::BackendParamTest {};

TEST_P(FollowersBehindBackendTest, AFullListKeepsThePeopleAheadAsTheReferenceDoes) {
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  // Off: the nearest ten.
  const std::vector<uint32_t> nearest = KeptOfTheWalker(*backend, File(0.f));
  EXPECT_EQ(nearest, (std::vector<uint32_t>{1, 2, 3, 4, 5, 101, 102, 103, 104, 200}));
  EXPECT_EQ(nearest, KeptOfTheWalker(*reference, File(0.f)));
  // w = 2: the followers at 0.87, 1.73 and 2.60 m; the sixth ahead (3.0 m) is kept before
  // the fourth follower (3.46 m). w = 6: at 1.32 and 2.65 m; the seventh ahead (3.5 m)
  // before the third follower (3.97 m). The oncoming one stays at 0.54 m in both.
  const std::vector<uint32_t> two = KeptOfTheWalker(*backend, File(2.f));
  EXPECT_EQ(two, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 101, 102, 103, 200}));
  EXPECT_EQ(two, KeptOfTheWalker(*reference, File(2.f)));
  const std::vector<uint32_t> six = KeptOfTheWalker(*backend, File(6.f));
  EXPECT_EQ(six, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 101, 102, 200}));
  EXPECT_EQ(six, KeptOfTheWalker(*reference, File(6.f)));
}

INSTANTIATE_TEST_SUITE_P(Backends, FollowersBehindBackendTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
