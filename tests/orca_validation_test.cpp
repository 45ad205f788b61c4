// Bad ORCA input through the backend interface: a clear error naming the field and
// index, and nothing half-written.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "kernels/backend.h"
#include "tests/backend_param.h"
#include "tests/orca_scenes.h"

namespace throng {
namespace {

class OrcaValidationTest : public ::testing::TestWithParam<BackendKind> {
 protected:
  // Applies `corrupt` to a valid scene and expects an error whose message contains
  // `expected`, with the previous result left exactly as it was.
  void ExpectRejected(const std::function<void(OrcaScene&)>& corrupt, const std::string& expected) {
    auto backend = CreateBackend(GetParam());
    OrcaScene scene = testing::RandomOrcaScene(5, 50);
    backend->SetObstacles(scene.obstacles);
    OrcaResult result;
    backend->SolveOrca(scene.params, scene.agents, {}, &result);
    const std::vector<float> before = result.vx;
    corrupt(scene);
    try {
      backend->SolveOrca(scene.params, scene.agents, {}, &result);
      ADD_FAILURE() << "expected an error containing '" << expected << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
    EXPECT_EQ(result.vx, before) << "a rejected solve changed the result";
  }
};

TEST_P(OrcaValidationTest, rejects_bad_agent_columns_with_the_index) {
  ExpectRejected([](OrcaScene& s) { s.agents.radius[7] = 0.f; }, "agents.radius[7]");
  ExpectRejected([](OrcaScene& s) { s.agents.radius[3] = -1.f; }, "agents.radius[3]");
  ExpectRejected([](OrcaScene& s) { s.agents.px[12] = NAN; }, "agents.px[12]: not finite");
  ExpectRejected([](OrcaScene& s) { s.agents.vy[2] = INFINITY; }, "agents.vy[2]: not finite");
  ExpectRejected([](OrcaScene& s) { s.agents.pref_vx[9] = -INFINITY; }, "agents.pref_vx[9]");
  ExpectRejected([](OrcaScene& s) { s.agents.max_speed[4] = 0.f; }, "agents.max_speed[4]");
  ExpectRejected([](OrcaScene& s) { s.agents.max_speed[4] = 1e9f; }, "agents.max_speed[4]");
  ExpectRejected([](OrcaScene& s) { s.agents.id[20] = s.agents.id[5]; }, "agents.id[20]");
  ExpectRejected([](OrcaScene& s) { s.agents.py.pop_back(); },
                 "agents.py: has 49 values, expected 50");
  ExpectRejected([](OrcaScene& s) { s.agents.flags[1] = 0x80; }, "agents.flags[1]");
}

TEST_P(OrcaValidationTest, rejects_bad_parameters) {
  ExpectRejected([](OrcaScene& s) { s.params.time_horizon = 0.f; }, "params.time_horizon");
  ExpectRejected([](OrcaScene& s) { s.params.time_horizon_obst = -1.f; },
                 "params.time_horizon_obst");
  ExpectRejected([](OrcaScene& s) { s.params.time_step = NAN; }, "params.time_step");
  ExpectRejected([](OrcaScene& s) { s.params.max_neighbors = 0; }, "params.max_neighbors: 0");
  ExpectRejected([](OrcaScene& s) { s.params.max_neighbors = kMaxNeighborsLimit + 1; },
                 "params.max_neighbors");
  ExpectRejected([](OrcaScene& s) { s.params.revalidate_passes = 0; },
                 "params.revalidate_passes: 0");
  ExpectRejected([](OrcaScene& s) { s.params.revalidate_passes = kMaxRevalidatePasses + 1; },
                 "params.revalidate_passes");
  ExpectRejected([](OrcaScene& s) { s.params.neighbor_dist = -1.f; }, "params.neighbor_dist");
  ExpectRejected([](OrcaScene& s) { s.params.contact_margin_ratio = -0.1f; },
                 "params.contact_margin_ratio");
}

TEST_P(OrcaValidationTest, rejects_degenerate_obstacles_naming_the_vertex) {
  auto backend = CreateBackend(GetParam());
  try {
    backend->SetObstacles({{{{0, 0}, {1, 0}, {1, 1}}}, {{{5, 5}}}});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("obstacles[1]"), std::string::npos) << e.what();
  }
  try {
    backend->SetObstacles({{{{0, 0}, {1, 0}, {1, 0}, {0, 1}}}});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("obstacles[0].vertices[1]"), std::string::npos)
        << e.what();
  }
}

TEST_P(OrcaValidationTest, empty_snapshot_is_fine) {
  auto backend = CreateBackend(GetParam());
  backend->SetObstacles({});
  OrcaResult r;
  backend->SolveOrca(OrcaParams{}, AgentColumns{}, {}, &r);
  EXPECT_TRUE(r.vx.empty());
  EXPECT_EQ(r.status_count[0] + r.status_count[1] + r.status_count[2], 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, OrcaValidationTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
