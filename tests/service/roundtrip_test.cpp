// Every RPC through a real throngd on loopback, its answers equal to the engine's own
// World on the same input (same backend: cpu).
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/world/world.h"
#include "service/convert.h"
#include "tests/service/service_test_util.h"
#include "tests/service/throngd_process.h"

namespace throng::service::testing {
namespace {

class RoundTripTest : public SharedServerTest {
 protected:
  void TearDown() override {
    // Leave no world behind for the next test.
    v1::ListWorldsResponse list;
    ASSERT_TRUE(stub_->ListWorlds(Context().get(), {}, &list).ok());
    for (const auto& w : list.worlds()) {
      v1::DeleteWorldRequest del;
      del.set_world_id(w.world_id());
      v1::DeleteWorldResponse out;
      EXPECT_TRUE(stub_->DeleteWorld(Context().get(), del, &out).ok());
    }
  }
};

TEST_F(RoundTripTest, create_reports_the_world) {
  const auto scene = MakeTestScene(10, 2);
  v1::WorldInfo info;
  auto request = CreateRequest(scene.config, "crossing");
  ASSERT_TRUE(stub_->CreateWorld(Context().get(), request, &info).ok());
  EXPECT_EQ(info.world_id().rfind("w-", 0), 0u) << info.world_id();
  EXPECT_EQ(info.name(), "crossing");
  EXPECT_EQ(info.backend(), "cpu");
  EXPECT_EQ(info.splines(), 1u);
  EXPECT_EQ(info.obstacles(), 1u);
  EXPECT_FALSE(info.has_state());
}

TEST_F(RoundTripTest, step_equals_the_engine) {
  auto scene = MakeTestScene(40, 4);
  const std::string id = CreateWorld(*stub_, scene.config);
  World engine(scene.config, BackendKind::kCpu);
  for (int tick = 1; tick <= 6; ++tick) {
    scene.snapshot.tick = static_cast<uint64_t>(tick);
    TickOptions options;
    options.integrate = tick % 2 == 0;
    options.debug = tick == 3;
    v1::StepResponse got;
    const auto status =
        stub_->Step(Context().get(), StepRequest(id, scene.snapshot, options), &got);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(got.world_id(), id);
    EXPECT_EQ(got.tick(), static_cast<uint64_t>(tick));
    EXPECT_EQ(got.agents().vx_size(), 40);
    EXPECT_EQ(got.vehicles().steering_size(), 4);
    EXPECT_EQ(got.agents().x_size(), options.integrate ? 40 : 0);
    EXPECT_EQ(got.vehicles().target_x_size(), options.debug ? 4 : 0);
    EXPECT_EQ(got.vehicles().look_ahead_size(), options.debug ? 4 : 0);
    EXPECT_EQ(got.vehicles().tangent_z_size(), options.debug ? 4 : 0);
    if (options.debug) {
      // ALGORITHMS.md §1's debug values (issue 17): the lane point at `progress` lies
      // |cte| from the vehicle (flat lanes), the tangent is a unit vector, the look-ahead
      // is a distance, the angles are angles.
      const auto& v = got.vehicles();
      for (int i = 0; i < 4; ++i) {
        const float dx = scene.snapshot.vehicles.x[i] - v.progress_x(i);
        const float dy = scene.snapshot.vehicles.y[i] - v.progress_y(i);
        EXPECT_NEAR(std::hypot(dx, dy), std::fabs(v.cte(i)), 1e-2f) << i;
        EXPECT_NEAR(std::hypot(v.tangent_x(i), v.tangent_y(i), v.tangent_z(i)), 1.f, 1e-4f) << i;
        EXPECT_GT(v.look_ahead(i), 0.f) << i;
        EXPECT_LE(std::fabs(v.position_delta(i)), 3.1416f) << i;
        EXPECT_LE(std::fabs(v.heading_delta(i)), 3.1416f) << i;
      }
    }
    EXPECT_EQ(got.stats().backend(), "cpu");
    EXPECT_GT(got.stats().stage_seconds().total(), 0.0);
    EXPECT_TRUE(SameResponse(got, EngineStep(engine, scene.snapshot, options, id))) << tick;
  }
}

TEST_F(RoundTripTest, stream_answers_each_request_in_order_equal_to_the_engine) {
  auto scene = MakeTestScene(30, 3);
  const std::string id = CreateWorld(*stub_, scene.config);
  World engine(scene.config, BackendKind::kCpu);
  auto context = Context();
  auto stream = stub_->StreamSteps(context.get());
  TickOptions options;
  options.integrate = true;
  Snapshot snapshot = scene.snapshot;
  for (int tick = 1; tick <= 10; ++tick) {
    snapshot.tick = static_cast<uint64_t>(tick);
    ASSERT_TRUE(stream->Write(StepRequest(id, snapshot, options)));
    v1::StepResponse got;
    ASSERT_TRUE(stream->Read(&got));
    EXPECT_EQ(got.tick(), static_cast<uint64_t>(tick));
    EXPECT_TRUE(SameResponse(got, EngineStep(engine, snapshot, options, id))) << tick;
    snapshot = engine.state();  // a game loop feeds the moved state back
  }
  ASSERT_TRUE(stream->WritesDone());
  const auto status = stream->Finish();
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(RoundTripTest, advance_equals_the_engine) {
  auto scene = MakeTestScene(30, 3);
  const std::string id = CreateWorld(*stub_, scene.config);
  World engine(scene.config, BackendKind::kCpu);
  v1::StepResponse first;
  ASSERT_TRUE(stub_->Step(Context().get(), StepRequest(id, scene.snapshot), &first).ok());
  EngineStep(engine, scene.snapshot, {}, id);

  v1::AdvanceRequest request;
  request.set_world_id(id);
  request.set_ticks(25);
  request.set_dt(0.05f);
  v1::AdvanceResponse got;
  const auto status = stub_->Advance(Context().get(), request, &got);
  ASSERT_TRUE(status.ok()) << status.error_message();
  TickResult last;
  engine.Advance(25, 0.05f, &last);
  v1::StepResponse want;
  TickOptions integrate;
  integrate.integrate = true;
  ResultToProto(last, engine.state(), integrate, "cpu", &want);
  EXPECT_EQ(got.last().tick(), 26u);
  EXPECT_EQ(got.last().agents().x_size(), 30);
  EXPECT_TRUE(SameResponse(got.last(), want));
  v1::WorldTotals totals;
  TotalsToProto(engine.totals(), &totals);
  EXPECT_EQ(got.totals().ticks(), 26u);
  EXPECT_TRUE(SameMessage(got.totals(), totals));
}

TEST_F(RoundTripTest, get_world_returns_config_state_stats_and_totals) {
  auto scene = MakeTestScene(12, 2);
  WorldConfig config = scene.config;
  const std::string id = CreateWorld(*stub_, config);
  World engine(config, BackendKind::kCpu);
  TickOptions options;
  options.integrate = true;
  v1::StepResponse step;
  ASSERT_TRUE(stub_->Step(Context().get(), StepRequest(id, scene.snapshot, options), &step).ok());
  EngineStep(engine, scene.snapshot, options, id);

  v1::GetWorldRequest request;
  request.set_world_id(id);
  request.set_include_state(true);
  v1::GetWorldResponse got;
  ASSERT_TRUE(stub_->GetWorld(Context().get(), request, &got).ok());
  EXPECT_EQ(got.info().world_id(), id);
  EXPECT_TRUE(got.info().has_state());
  EXPECT_EQ(got.info().agents(), 12u);
  EXPECT_EQ(got.info().vehicles(), 2u);
  EXPECT_EQ(got.info().last_tick(), 1u);
  EXPECT_EQ(got.tick(), 1u);
  EXPECT_FLOAT_EQ(got.dt(), 0.1f);
  v1::AgentBatch agents;
  AgentsToProto(engine.state().agents, &agents);
  EXPECT_TRUE(SameMessage(got.agents(), agents));
  v1::VehicleBatch vehicles;
  VehiclesToProto(engine.state().vehicles, &vehicles);
  EXPECT_TRUE(SameMessage(got.vehicles(), vehicles));
  EXPECT_EQ(got.totals().ticks(), 1u);
  EXPECT_EQ(got.last_stats().agents(), 12u);
  // The effective configuration: what was given, every default filled in.
  EXPECT_EQ(got.config().name(), "test");
  EXPECT_EQ(got.config().backend(), v1::BACKEND_CPU);
  EXPECT_FLOAT_EQ(got.config().orca().time_horizon(), 4.f);
  EXPECT_FLOAT_EQ(got.config().orca().time_horizon_obst(), OrcaParams{}.time_horizon_obst);
  EXPECT_TRUE(got.config().orca().has_contact_margin_ratio());
  EXPECT_FLOAT_EQ(got.config().orca().contact_margin_ratio(), OrcaParams{}.contact_margin_ratio);
  EXPECT_FLOAT_EQ(got.config().defaults().agent_radius(), AgentDefaults{}.radius);
  EXPECT_EQ(got.config().splines(0).id(), kLaneId);

  request.set_include_state(false);
  ASSERT_TRUE(stub_->GetWorld(Context().get(), request, &got).ok());
  EXPECT_EQ(got.agents().id_size(), 0);
}

TEST_F(RoundTripTest, zero_config_fields_take_the_engine_defaults) {
  v1::CreateWorldRequest request;  // everything 0
  v1::WorldInfo info;
  ASSERT_TRUE(stub_->CreateWorld(Context().get(), request, &info).ok());
  v1::GetWorldRequest get;
  get.set_world_id(info.world_id());
  v1::GetWorldResponse got;
  ASSERT_TRUE(stub_->GetWorld(Context().get(), get, &got).ok());
  v1::WorldConfig want;
  ConfigToProto(WorldConfig{}, &want);
  want.set_backend(v1::BACKEND_CPU);  // the server's --backend
  EXPECT_TRUE(SameMessage(got.config(), want));
  EXPECT_FALSE(got.info().has_state());
}

TEST_F(RoundTripTest, list_and_delete) {
  const auto scene = MakeTestScene(5, 0);
  const std::string a = CreateWorld(*stub_, scene.config);
  const std::string b = CreateWorld(*stub_, scene.config);
  EXPECT_NE(a, b);
  v1::ListWorldsResponse list;
  ASSERT_TRUE(stub_->ListWorlds(Context().get(), {}, &list).ok());
  ASSERT_EQ(list.worlds_size(), 2);
  EXPECT_EQ(list.worlds(0).world_id(), a);
  EXPECT_EQ(list.worlds(1).world_id(), b);

  v1::DeleteWorldRequest del;
  del.set_world_id(a);
  v1::DeleteWorldResponse out;
  ASSERT_TRUE(stub_->DeleteWorld(Context().get(), del, &out).ok());
  EXPECT_EQ(stub_->DeleteWorld(Context().get(), del, &out).error_code(),
            grpc::StatusCode::NOT_FOUND);
  v1::StepResponse step;
  EXPECT_EQ(stub_->Step(Context().get(), StepRequest(a, scene.snapshot), &step).error_code(),
            grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(stub_->ListWorlds(Context().get(), {}, &list).ok());
  ASSERT_EQ(list.worlds_size(), 1);
  EXPECT_EQ(list.worlds(0).world_id(), b);
}

TEST_F(RoundTripTest, solve_equals_a_fresh_engine_world_and_keeps_nothing) {
  const auto scene = MakeTestScene(25, 3);
  v1::SolveRequest request;
  ConfigToProto(scene.config, request.mutable_config());
  request.mutable_config()->set_backend(v1::BACKEND_CPU);
  const auto step = StepRequest("", scene.snapshot, {});
  request.set_tick(step.tick());
  request.set_dt(step.dt());
  *request.mutable_agents() = step.agents();
  *request.mutable_vehicles() = step.vehicles();
  v1::StepResponse got;
  const auto status = stub_->Solve(Context().get(), request, &got);
  ASSERT_TRUE(status.ok()) << status.error_message();
  World engine(scene.config, BackendKind::kCpu);
  EXPECT_TRUE(SameResponse(got, EngineStep(engine, scene.snapshot, {}, "")));
  v1::ListWorldsResponse list;
  ASSERT_TRUE(stub_->ListWorlds(Context().get(), {}, &list).ok());
  EXPECT_EQ(list.worlds_size(), 0);
}

}  // namespace
}  // namespace throng::service::testing
