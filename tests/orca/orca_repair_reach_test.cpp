// The repair passes find who re-solves from who turned (kernels/orca/orca_repair.cuh): the
// grid read around a turned agent must reach every agent whose list holds it, out to the
// edge of the neighbour query, on every parallel backend, as the reference's pass over
// every agent finds them.
#include <gtest/gtest.h>

#include <cstdint>

#include "kernels/backends/backend.h"
#include "kernels/orca/orca_types.h"
#include "tests/backends/backend_param.h"
#include "tests/orca/orca_scenes.h"

namespace throng {
namespace {

using testing::AppendAgent;

class RepairReachTest : public testing::BackendParamTest {};

// B, nearly unable to move, is pressed by a non-cooperative agent C and turns non-ok in
// pass 1. A walks toward B from `gap` metres away, ok in pass 1, and keeps B in its list,
// so the first repair pass re-solves A. The pair's reach (0.6 m + 1.55 m/s x 5 s) is
// capped at 5 m: a gap of 4.9 m puts B at the far edge of A's query. (No pair stands at a
// reach's very edge, where float and the reference's double may disagree.)
OrcaScene PressedNeighbourScene(float gap, bool crowd) {
  OrcaScene scene;
  scene.params.neighbor_dist = 5.f;
  scene.params.time_horizon = 5.f;
  scene.params.max_neighbors = 10;
  AgentColumns& a = scene.agents;
  AppendAgent(a, 0, {0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.3f, 1.5f);         // A
  AppendAgent(a, 1, {gap, 0.f}, {0.f, 0.f}, {0.f, 0.f}, 0.3f, 0.05f);        // B
  AppendAgent(a, 2, {gap, 0.5f}, {0.f, -1.f}, {0.f, -1.f}, 0.3f, 1.f);       // C
  a.flags[2] = kAgentNonCooperative;
  if (crowd) {
    // Nine walkers in a file beside A: the lists of A and of most walkers fill, so the
    // marking reads them only when B is no farther than their last slot.
    for (uint32_t k = 0; k < 9; ++k) {
      const float y = 1.2f + 0.7f * static_cast<float>(k);
      AppendAgent(a, 3 + k, {-0.5f, y}, {1.f, 0.f}, {1.f, 0.f}, 0.3f, 1.5f);
    }
  }
  return scene;
}

TEST_P(RepairReachTest, an_agent_that_keeps_a_turned_one_at_the_edge_of_its_query_re_solves) {
  const auto backend = CreateBackend(GetParam());
  const auto reference = CreateBackend(BackendKind::kReference);
  for (const float gap : {1.5f, 3.f, 4.9f}) {
    for (const bool crowd : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "gap " << gap << (crowd ? ", crowd" : ""));
      const OrcaScene scene = PressedNeighbourScene(gap, crowd);
      OrcaResult got, expected;
      backend->SolveOrca(scene.params, scene.agents, {}, &got);
      reference->SolveOrca(scene.params, scene.agents, {}, &expected);
      // The scene does what it is built for: B turned, A re-solved.
      ASSERT_NE(expected.status[1], static_cast<uint8_t>(SolveStatus::kOk));
      ASSERT_EQ(expected.status[0], static_cast<uint8_t>(SolveStatus::kOk));
      ASSERT_NE(expected.solve_flags[0] & kSolveRevalidated, 0);
      for (size_t i = 0; i < scene.agents.size(); ++i) {
        EXPECT_EQ(got.solve_flags[i], expected.solve_flags[i]) << "agent " << i;
        EXPECT_EQ(got.status[i], expected.status[i]) << "agent " << i;
        EXPECT_NEAR(got.vx[i], expected.vx[i], 1e-4f) << "agent " << i;
        EXPECT_NEAR(got.vy[i], expected.vy[i], 1e-4f) << "agent " << i;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, RepairReachTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
