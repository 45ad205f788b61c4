// Every RPC through a real throngd on loopback, its answers equal to the engine's own
// World on the same input (same backend: cpu).
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/world/world.h"
#include "proto/convert.h"
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
      // docs/ALGORITHMS.md §1's debug values (issue 17): the lane point at `progress` lies
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

// A world for forward agents: a prism, a wall at every height, two spheres, every fan
// setting given.
WorldConfig ForwardWorld() {
  WorldConfig c = MakeTestScene(0, 0).config;
  c.obstacles.push_back({{30, 30, 0}, {32, 30, 0}, {32, 32, 0}, {30, 32, 0}});
  c.obstacles.push_back({{-30, 50, 0}, {-30, 55, 0}});
  c.obstacle_heights = {HeightRange{}, HeightRange{true, 0.5f, 6.f}, HeightRange{}};
  c.spheres = {SphereObstacle{{0, 60, 3}, 2.f}, SphereObstacle{{-10, 70, 1}, 0.5f}};
  c.forward.mode = FanMode::kCone;
  c.forward.probes = 13;
  c.forward.half_angle = 0.9f;
  c.forward.probe_length = 12.f;
  c.forward.turn_speed = 0.f;
  c.forward.radius = 0.6f;
  return c;
}

TEST_F(RoundTripTest, forward_config_round_trips_through_create_and_get) {
  const WorldConfig config = ForwardWorld();
  v1::WorldInfo info;
  ASSERT_TRUE(stub_->CreateWorld(Context().get(), CreateRequest(config, "fan"), &info).ok());
  EXPECT_EQ(info.obstacles(), 3u);
  EXPECT_EQ(info.spheres(), 2u);
  EXPECT_EQ(info.forward_agents(), 0u);
  v1::GetWorldRequest get;
  get.set_world_id(info.world_id());
  v1::GetWorldResponse got;
  ASSERT_TRUE(stub_->GetWorld(Context().get(), get, &got).ok());
  const auto& f = got.config().forward();
  EXPECT_EQ(f.mode(), v1::FAN_MODE_CONE);
  EXPECT_EQ(f.probes(), 13u);
  EXPECT_FLOAT_EQ(f.half_angle(), 0.9f);
  EXPECT_FLOAT_EQ(f.probe_length(), 12.f);
  ASSERT_TRUE(f.has_turn_speed());
  EXPECT_EQ(f.turn_speed(), 0.f);
  EXPECT_FLOAT_EQ(f.radius(), 0.6f);
  ASSERT_EQ(got.config().obstacles_size(), 3);
  EXPECT_FALSE(got.config().obstacles(0).has_base());
  EXPECT_FALSE(got.config().obstacles(2).has_top());
  ASSERT_TRUE(got.config().obstacles(1).has_base() && got.config().obstacles(1).has_top());
  EXPECT_EQ(got.config().obstacles(1).base(), 0.5f);
  EXPECT_EQ(got.config().obstacles(1).top(), 6.f);
  ASSERT_EQ(got.config().spheres_size(), 2);
  EXPECT_EQ(got.config().spheres(0).center().y(), 60.f);
  EXPECT_EQ(got.config().spheres(0).center().z(), 3.f);
  EXPECT_EQ(got.config().spheres(1).radius(), 0.5f);
  v1::WorldConfig want;
  ConfigToProto(config, &want);
  want.set_name("fan");
  want.set_backend(v1::BACKEND_CPU);
  EXPECT_TRUE(SameMessage(got.config(), want));
  // What GetWorld reports makes the same world.
  v1::CreateWorldRequest again;
  *again.mutable_config() = got.config();
  v1::WorldInfo info2;
  ASSERT_TRUE(stub_->CreateWorld(Context().get(), again, &info2).ok());
  get.set_world_id(info2.world_id());
  v1::GetWorldResponse got2;
  ASSERT_TRUE(stub_->GetWorld(Context().get(), get, &got2).ok());
  EXPECT_TRUE(SameMessage(got2.config(), got.config()));

  // Unset fan settings are reported as the defaults in use.
  v1::CreateWorldRequest bare;
  ASSERT_TRUE(stub_->CreateWorld(Context().get(), bare, &info2).ok());
  get.set_world_id(info2.world_id());
  ASSERT_TRUE(stub_->GetWorld(Context().get(), get, &got2).ok());
  EXPECT_EQ(got2.config().forward().mode(), v1::FAN_MODE_GROUND);
  EXPECT_EQ(got2.config().forward().probes(), 9u);
  EXPECT_FLOAT_EQ(got2.config().forward().turn_speed(), 3.f);
  EXPECT_EQ(got2.config().spheres_size(), 0);
}

TEST_F(RoundTripTest, forward_agents_step_integrate_advance_and_come_back) {
  auto scene = MakeTestScene(8, 2);
  AddForwardAgents(&scene, 5);
  const int n = 5;
  const std::string id = CreateWorld(*stub_, scene.config);
  World engine(scene.config, BackendKind::kCpu);

  // Without integration: one result per agent, in order, no positions.
  v1::StepResponse got;
  ASSERT_TRUE(stub_->Step(Context().get(), StepRequest(id, scene.snapshot), &got).ok());
  ASSERT_EQ(got.forward().move_x_size(), n);
  EXPECT_EQ(got.forward().probe_size(), n);
  EXPECT_EQ(got.forward().hit_distance_size(), n);
  EXPECT_EQ(got.forward().all_blocked_size(), n);
  EXPECT_EQ(got.forward().x_size(), 0);
  EXPECT_EQ(got.stats().forward_agents(), 5u);
  EXPECT_TRUE(SameResponse(got, EngineStep(engine, scene.snapshot, {}, id)));

  // Integrated: each moved speed * dt along its move direction.
  TickOptions integrate;
  integrate.integrate = true;
  scene.snapshot.tick = 2;
  ASSERT_TRUE(stub_->Step(Context().get(), StepRequest(id, scene.snapshot, integrate), &got).ok());
  EXPECT_TRUE(SameResponse(got, EngineStep(engine, scene.snapshot, integrate, id)));
  const auto& f = got.forward();
  const ForwardSnapshot& s = scene.snapshot.forward;
  ASSERT_EQ(f.x_size(), n);
  ASSERT_EQ(f.forward_z_size(), n);
  for (int i = 0; i < n; ++i) {
    const float step = s.speed[i] * scene.snapshot.dt;
    EXPECT_NEAR(std::hypot(f.move_x(i), f.move_y(i), f.move_z(i)), 1.f, 1e-5f) << i;
    EXPECT_NEAR(f.x(i), s.x[i] + step * f.move_x(i), 1e-5f) << i;
    EXPECT_NEAR(f.y(i), s.y[i] + step * f.move_y(i), 1e-5f) << i;
    EXPECT_NEAR(f.z(i), s.z[i] + step * f.move_z(i), 1e-5f) << i;
    EXPECT_GT(f.x(i), s.x[i] + 0.9f * step) << "open space ahead: mostly straight on, " << i;
  }

  // Advance moves them further, like the engine.
  v1::AdvanceRequest advance;
  advance.set_world_id(id);
  advance.set_ticks(10);
  advance.set_dt(0.1f);
  v1::AdvanceResponse moved;
  ASSERT_TRUE(stub_->Advance(Context().get(), advance, &moved).ok());
  TickResult last;
  engine.Advance(10, 0.1f, &last);
  v1::StepResponse want;
  ResultToProto(last, engine.state(), integrate, "cpu", &want);
  EXPECT_TRUE(SameResponse(moved.last(), want));
  const auto& m = moved.last().forward();
  ASSERT_EQ(m.x_size(), n);
  for (int i = 0; i < n; ++i) {
    const float path = 10 * s.speed[i] * 0.1f;
    const float dist = std::hypot(m.x(i) - f.x(i), m.y(i) - f.y(i), m.z(i) - f.z(i));
    EXPECT_LE(dist, path * (1 + 1e-4f)) << i;
    EXPECT_GT(dist, 0.9f * path) << i;
  }
  EXPECT_EQ(moved.totals().forward_in_obstacles(), 0u);

  // GetWorld with its state: the forward batch as the engine holds it.
  v1::GetWorldRequest get;
  get.set_world_id(id);
  get.set_include_state(true);
  v1::GetWorldResponse world;
  ASSERT_TRUE(stub_->GetWorld(Context().get(), get, &world).ok());
  EXPECT_EQ(world.info().forward_agents(), 5u);
  v1::ForwardBatch state;
  ForwardToProto(engine.state().forward, &state);
  EXPECT_TRUE(SameMessage(world.forward(), state));
  ASSERT_EQ(world.forward().id_size(), n);
  EXPECT_EQ(world.forward().id(4), s.id[4]);
  EXPECT_EQ(world.forward().x(2), m.x(2));
  EXPECT_EQ(world.forward().forward_y(3), m.forward_y(3));
  EXPECT_EQ(world.forward().probes(1), s.probes[1]);
  get.set_include_state(false);
  ASSERT_TRUE(stub_->GetWorld(Context().get(), get, &world).ok());
  EXPECT_EQ(world.forward().id_size(), 0);
}

TEST_F(RoundTripTest, forward_agents_stream_and_solve) {
  auto scene = MakeTestScene(6, 1);
  AddForwardAgents(&scene, 3);
  scene.config = ForwardWorld();  // a cone fan, spheres and a prism (none in the way)
  const std::string id = CreateWorld(*stub_, scene.config);
  World engine(scene.config, BackendKind::kCpu);
  auto context = Context();
  auto stream = stub_->StreamSteps(context.get());
  TickOptions options;
  options.integrate = true;
  Snapshot snapshot = scene.snapshot;
  snapshot.vehicles = {};
  for (int tick = 1; tick <= 5; ++tick) {
    snapshot.tick = static_cast<uint64_t>(tick);
    ASSERT_TRUE(stream->Write(StepRequest(id, snapshot, options)));
    v1::StepResponse got;
    ASSERT_TRUE(stream->Read(&got));
    EXPECT_EQ(got.forward().x_size(), 3);
    EXPECT_TRUE(SameResponse(got, EngineStep(engine, snapshot, options, id))) << tick;
    snapshot = engine.state();
  }
  ASSERT_TRUE(stream->WritesDone());
  EXPECT_TRUE(stream->Finish().ok());

  v1::SolveRequest request;
  ConfigToProto(scene.config, request.mutable_config());
  request.mutable_config()->set_backend(v1::BACKEND_CPU);
  scene.snapshot.vehicles = {};
  const auto step = StepRequest("", scene.snapshot, {});
  request.set_tick(step.tick());
  request.set_dt(step.dt());
  *request.mutable_agents() = step.agents();
  *request.mutable_forward() = step.forward();
  v1::StepResponse got;
  const auto status = stub_->Solve(Context().get(), request, &got);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(got.forward().move_x_size(), 3);
  World fresh(scene.config, BackendKind::kCpu);
  EXPECT_TRUE(SameResponse(got, EngineStep(fresh, scene.snapshot, {}, "")));
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
  // docs/SERVICE.md: ids are never reused within a process, a deleted world's neither (a
  // caller still holding it gets NOT_FOUND, not another caller's world).
  const std::string c = CreateWorld(*stub_, scene.config);
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
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
