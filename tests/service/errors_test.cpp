// Bad input through the wire: each gets its status code and a message naming the field
// (and index), and the world is exactly as it was before.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "kernels/backends/backend.h"
#include "proto/convert.h"
#include "tests/service/service_test_util.h"
#include "tests/service/throngd_process.h"

namespace throng::service::testing {
namespace {

using grpc::StatusCode;

class ErrorsTest : public SharedServerTest {
 protected:
  // The world each test starts from (stepped once, at tick 5).
  virtual TestScene Scene() { return MakeTestScene(6, 2); }

  void SetUp() override {
    SharedServerTest::SetUp();
    if (HasFatalFailure()) return;
    scene_ = Scene();
    id_ = CreateWorld(*stub_, scene_.config);
    scene_.snapshot.tick = 5;
    v1::StepResponse out;
    ASSERT_TRUE(stub_->Step(Context().get(), StepRequest(id_, scene_.snapshot), &out).ok());
    before_ = State();
  }
  void TearDown() override {
    v1::DeleteWorldRequest del;
    del.set_world_id(id_);
    v1::DeleteWorldResponse out;
    stub_->DeleteWorld(Context().get(), del, &out);
  }

  v1::GetWorldResponse State() {
    v1::GetWorldRequest get;
    get.set_world_id(id_);
    get.set_include_state(true);
    v1::GetWorldResponse state;
    EXPECT_TRUE(stub_->GetWorld(Context().get(), get, &state).ok());
    state.mutable_last_stats()->clear_stage_seconds();
    return state;
  }

  // A good next tick, changed by `edit`; expects `code` and `field` in the message, and
  // the world unchanged.
  void ExpectRejected(const std::function<void(v1::StepRequest&)>& edit, StatusCode code,
                      const std::string& field) {
    Snapshot next = scene_.snapshot;
    next.tick = 6;
    auto request = StepRequest(id_, next);
    edit(request);
    v1::StepResponse out;
    const auto status = stub_->Step(Context().get(), request, &out);
    EXPECT_EQ(status.error_code(), code) << status.error_message();
    EXPECT_NE(status.error_message().find(field), std::string::npos)
        << "\"" << status.error_message() << "\" does not name " << field;
    EXPECT_TRUE(SameMessage(State(), before_));
  }

  TestScene scene_;
  std::string id_;
  v1::GetWorldResponse before_;
};

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// The same world with forward agents (4 of them, stepped once at tick 5).
class ForwardErrorsTest : public ErrorsTest {
 protected:
  TestScene Scene() override {
    TestScene scene = MakeTestScene(6, 2);
    AddForwardAgents(&scene, 4);
    return scene;
  }
};

TEST_F(ForwardErrorsTest, the_world_has_forward_agents_to_lose) {
  EXPECT_EQ(before_.forward().id_size(), 4);
  EXPECT_EQ(before_.info().forward_agents(), 4u);
}

TEST_F(ForwardErrorsTest, zero_forward_direction) {
  ExpectRejected(
      [](auto& r) {
        r.mutable_forward()->set_forward_x(1, 0.f);
        r.mutable_forward()->set_forward_y(1, 0.f);
        r.mutable_forward()->set_forward_z(1, 0.f);
      },
      StatusCode::INVALID_ARGUMENT, "forward.forward_x[1]: zero-length forward direction");
}

TEST_F(ForwardErrorsTest, non_finite_forward) {
  ExpectRejected([](auto& r) { r.mutable_forward()->set_forward_y(2, kNaN); },
                 StatusCode::INVALID_ARGUMENT, "forward.forward_y[2]: not finite");
  ExpectRejected(
      [](auto& r) {
        r.mutable_forward()->set_forward_x(0, std::numeric_limits<float>::infinity());
      },
      StatusCode::INVALID_ARGUMENT, "forward.forward_x[0]: not finite");
  ExpectRejected([](auto& r) { r.mutable_forward()->set_x(3, kNaN); }, StatusCode::INVALID_ARGUMENT,
                 "forward.x[3]: not finite");
}

TEST_F(ForwardErrorsTest, speed_not_positive) {
  ExpectRejected([](auto& r) { r.mutable_forward()->set_speed(1, 0.f); },
                 StatusCode::INVALID_ARGUMENT, "forward.speed[1]: must be at least 0.001 m/s");
  ExpectRejected([](auto& r) { r.mutable_forward()->set_speed(3, -2.f); },
                 StatusCode::INVALID_ARGUMENT, "forward.speed[3]: must be at least 0.001 m/s");
}

TEST_F(ForwardErrorsTest, radius_not_positive) {
  ExpectRejected([](auto& r) { r.mutable_forward()->set_radius(0, 0.f); },
                 StatusCode::INVALID_ARGUMENT, "forward.radius[0]: must be within [0.001, 100] m");
  ExpectRejected([](auto& r) { r.mutable_forward()->set_radius(2, -0.5f); },
                 StatusCode::INVALID_ARGUMENT, "forward.radius[2]: must be within");
}

TEST_F(ForwardErrorsTest, probes_out_of_range) {
  ExpectRejected([](auto& r) { r.mutable_forward()->set_probes(2, 0); },
                 StatusCode::INVALID_ARGUMENT, "forward.probes[2]: must be within [1, 64]");
  ExpectRejected([](auto& r) { r.mutable_forward()->set_probes(1, 65); },
                 StatusCode::INVALID_ARGUMENT, "forward.probes[1]: must be within [1, 64]");
  // 65536 + 9 would be 9 as a uint16: it must still be refused.
  ExpectRejected([](auto& r) { r.mutable_forward()->set_probes(3, 65536 + 9); },
                 StatusCode::INVALID_ARGUMENT, "forward.probes[3]: must be within [1, 64]");
}

TEST_F(ForwardErrorsTest, half_angle_out_of_range) {
  auto column = [](v1::StepRequest& r, int at, float value) {
    for (int i = 0; i < r.forward().id_size(); ++i) r.mutable_forward()->add_half_angle(1.f);
    r.mutable_forward()->set_half_angle(at, value);
  };
  ExpectRejected([&](auto& r) { column(r, 1, 0.f); }, StatusCode::INVALID_ARGUMENT,
                 "forward.half_angle[1]: must be within (0, pi]");
  ExpectRejected([&](auto& r) { column(r, 2, 4.f); }, StatusCode::INVALID_ARGUMENT,
                 "forward.half_angle[2]: must be within (0, pi]");
}

TEST_F(ForwardErrorsTest, forward_column_length_mismatch) {
  ExpectRejected([](auto& r) { r.mutable_forward()->mutable_speed()->Truncate(2); },
                 StatusCode::INVALID_ARGUMENT, "forward.speed: 2 values for 4 forward agents");
  ExpectRejected([](auto& r) { r.mutable_forward()->add_turn_speed(1.f); },
                 StatusCode::INVALID_ARGUMENT, "forward.turn_speed: 1 value for 4 forward agents");
}

TEST_F(ForwardErrorsTest, duplicate_forward_id) {
  ExpectRejected([](auto& r) { r.mutable_forward()->set_id(3, r.forward().id(0)); },
                 StatusCode::INVALID_ARGUMENT, "forward.id[3]");
}

TEST_F(ForwardErrorsTest, goal_x_without_goal_y) {
  ExpectRejected([](auto& r) { r.mutable_forward()->clear_goal_y(); }, StatusCode::INVALID_ARGUMENT,
                 "forward.goal_y: missing while goal_x is given");
}

TEST_F(ErrorsTest, nan_position) {
  ExpectRejected([](auto& r) { r.mutable_agents()->set_x(2, kNaN); }, StatusCode::INVALID_ARGUMENT,
                 "agents.x[2]");
}

TEST_F(ErrorsTest, infinite_vehicle_yaw) {
  ExpectRejected(
      [](auto& r) { r.mutable_vehicles()->set_yaw(1, std::numeric_limits<float>::infinity()); },
      StatusCode::INVALID_ARGUMENT, "vehicles.yaw[1]");
}

TEST_F(ErrorsTest, negative_radius) {
  ExpectRejected([](auto& r) { r.mutable_agents()->set_radius(3, -0.5f); },
                 StatusCode::INVALID_ARGUMENT, "agents.radius[3]");
}

TEST_F(ErrorsTest, optional_column_length_mismatch) {
  ExpectRejected([](auto& r) { r.mutable_agents()->mutable_radius()->Truncate(3); },
                 StatusCode::INVALID_ARGUMENT, "agents.radius: 3 values for 6 agents");
}

TEST_F(ErrorsTest, required_column_missing) {
  ExpectRejected([](auto& r) { r.mutable_vehicles()->clear_spline_id(); },
                 StatusCode::INVALID_ARGUMENT, "vehicles.spline_id: 0 values for 2 vehicles");
}

TEST_F(ErrorsTest, duplicate_id) {
  ExpectRejected([](auto& r) { r.mutable_agents()->set_id(4, r.agents().id(1)); },
                 StatusCode::INVALID_ARGUMENT, "agents.id[4]");
}

TEST_F(ErrorsTest, unknown_spline_id) {
  ExpectRejected([](auto& r) { r.mutable_vehicles()->set_spline_id(1, 99); },
                 StatusCode::INVALID_ARGUMENT, "vehicles.spline_id[1]");
}

TEST_F(ErrorsTest, negative_vehicle_speed) {
  ExpectRejected([](auto& r) { r.mutable_vehicles()->set_speed(0, -1.f); },
                 StatusCode::INVALID_ARGUMENT, "vehicles.speed[0]");
}

TEST_F(ErrorsTest, unknown_flag_bits) {
  ExpectRejected(
      [](auto& r) {
        for (int i = 0; i < r.agents().id_size(); ++i) r.mutable_agents()->add_flags(0);
        r.mutable_agents()->set_flags(5, 64);
      },
      StatusCode::INVALID_ARGUMENT, "agents.flags[5]");
}

// A behavior column of `behavior` for every agent.
void SetBehaviors(v1::StepRequest& r, uint32_t behavior) {
  r.mutable_agents()->clear_behavior();
  for (int i = 0; i < r.agents().id_size(); ++i) r.mutable_agents()->add_behavior(behavior);
}

TEST_F(ErrorsTest, unknown_behavior) {
  ExpectRejected(
      [](auto& r) {
        SetBehaviors(r, v1::BEHAVIOR_SEEK);
        r.mutable_agents()->set_behavior(4, 9);
      },
      StatusCode::INVALID_ARGUMENT, "agents.behavior[4]: 9 is not a Behavior");
}

TEST_F(ErrorsTest, seek_and_flee_need_goals) {
  ExpectRejected(
      [](auto& r) {
        SetBehaviors(r, v1::BEHAVIOR_PREFERRED_VELOCITY);
        r.mutable_agents()->set_behavior(2, v1::BEHAVIOR_FLEE);
        r.mutable_agents()->clear_goal_x();
        r.mutable_agents()->clear_goal_y();
      },
      StatusCode::INVALID_ARGUMENT, "agents.behavior[2]: flee needs the goal columns");
}

TEST_F(ErrorsTest, behavior_contradicting_its_flag) {
  ExpectRejected(
      [](auto& r) {
        SetBehaviors(r, v1::BEHAVIOR_ARRIVE);
        for (int i = 0; i < r.agents().id_size(); ++i) r.mutable_agents()->add_flags(0);
        r.mutable_agents()->set_flags(3, v1::AGENT_FLAG_USES_PREFERRED_VELOCITY);
      },
      StatusCode::INVALID_ARGUMENT, "agents.flags[3]: \"uses preferred velocity\" contradicts");
}

TEST_F(ErrorsTest, unknown_vehicle_profile) {
  ExpectRejected(
      [](auto& r) {
        r.mutable_vehicles()->add_profile(0);
        r.mutable_vehicles()->add_profile(1);
      },
      StatusCode::INVALID_ARGUMENT, "vehicles.profile[1]: 1 but the world has 0 profiles");
  ExpectRejected([](auto& r) { r.mutable_vehicles()->add_profile(0); },
                 StatusCode::INVALID_ARGUMENT, "vehicles.profile: 1 value for 2 vehicles");
}

TEST_F(ErrorsTest, tick_going_backwards) {
  ExpectRejected([](auto& r) { r.set_tick(4); }, StatusCode::INVALID_ARGUMENT, "tick");
}

TEST_F(ErrorsTest, tick_repeated) {
  ExpectRejected([](auto& r) { r.set_tick(5); }, StatusCode::INVALID_ARGUMENT, "tick");
}

TEST_F(ErrorsTest, zero_dt) {
  ExpectRejected([](auto& r) { r.set_dt(0.f); }, StatusCode::INVALID_ARGUMENT, "dt");
}

TEST_F(ErrorsTest, unknown_world) {
  ExpectRejected([](auto& r) { r.set_world_id("w-999999"); }, StatusCode::NOT_FOUND, "world_id");
}

TEST_F(ErrorsTest, empty_world_id) {
  ExpectRejected([](auto& r) { r.clear_world_id(); }, StatusCode::INVALID_ARGUMENT, "world_id");
}

TEST_F(ErrorsTest, bad_request_ends_a_stream_and_earlier_ticks_stand) {
  auto context = Context();
  auto stream = stub_->StreamSteps(context.get());
  Snapshot next = scene_.snapshot;
  next.tick = 6;
  ASSERT_TRUE(stream->Write(StepRequest(id_, next)));
  v1::StepResponse out;
  ASSERT_TRUE(stream->Read(&out));
  next.tick = 7;
  auto bad = StepRequest(id_, next);
  bad.mutable_agents()->set_radius(0, 0.f);
  stream->Write(bad);
  EXPECT_FALSE(stream->Read(&out));
  const auto status = stream->Finish();
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("agents.radius[0]"), std::string::npos)
      << status.error_message();
  EXPECT_EQ(State().tick(), 6u);
}

TEST_F(ErrorsTest, advance_errors) {
  v1::AdvanceRequest request;
  request.set_world_id(id_);
  request.set_ticks(0);
  request.set_dt(0.1f);
  v1::AdvanceResponse out;
  auto status = stub_->Advance(Context().get(), request, &out);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("ticks"), std::string::npos);
  request.set_ticks(3);
  request.set_dt(-1.f);
  status = stub_->Advance(Context().get(), request, &out);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("dt"), std::string::npos);
  EXPECT_TRUE(SameMessage(State(), before_));

  // A world that has never been stepped has no state to advance from.
  const std::string fresh = CreateWorld(*stub_, scene_.config);
  request.set_world_id(fresh);
  request.set_dt(0.1f);
  status = stub_->Advance(Context().get(), request, &out);
  EXPECT_EQ(status.error_code(), StatusCode::FAILED_PRECONDITION) << status.error_message();
  v1::DeleteWorldRequest del;
  del.set_world_id(fresh);
  v1::DeleteWorldResponse gone;
  EXPECT_TRUE(stub_->DeleteWorld(Context().get(), del, &gone).ok());
}

// CreateWorld with one bad field: the code, the field as WorldConfig spells it, no world.
void ExpectCreateRejected(v1::Simulation::Stub& stub,
                          const std::function<void(v1::WorldConfig&)>& edit, StatusCode code,
                          const std::string& field) {
  auto request = CreateRequest(MakeTestScene(3, 0).config);
  edit(*request.mutable_config());
  v1::WorldInfo info;
  v1::ListWorldsResponse before, after;
  ASSERT_TRUE(stub.ListWorlds(Context().get(), {}, &before).ok());
  const auto status = stub.CreateWorld(Context().get(), request, &info);
  EXPECT_EQ(status.error_code(), code) << status.error_message();
  EXPECT_NE(status.error_message().find(field), std::string::npos)
      << "\"" << status.error_message() << "\" does not name " << field;
  ASSERT_TRUE(stub.ListWorlds(Context().get(), {}, &after).ok());
  EXPECT_EQ(after.worlds_size(), before.worlds_size());
}

TEST_F(ErrorsTest, bad_world_configs) {
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_splines(0)->mutable_points(1)->set_y(kNaN); },
      StatusCode::INVALID_ARGUMENT, "splines[0].points[1]");
  ExpectCreateRejected(
      *stub_, [](auto& c) { *c.add_splines() = c.splines(0); }, StatusCode::INVALID_ARGUMENT,
      "splines[1].id");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_orca()->set_max_neighbors(100); },
      StatusCode::INVALID_ARGUMENT, "orca.max_neighbors");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_orca()->set_contact_margin_ratio(-0.1f); },
      StatusCode::INVALID_ARGUMENT, "orca.contact_margin_ratio");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_orca()->set_contact_margin_ratio(kNaN); },
      StatusCode::INVALID_ARGUMENT, "orca.contact_margin_ratio");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_defaults()->set_agent_radius(-1.f); },
      StatusCode::INVALID_ARGUMENT, "defaults.agent_radius");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_defaults()->set_oscillation_window(99); },
      StatusCode::INVALID_ARGUMENT, "defaults.oscillation_window");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_obstacles(0)->mutable_vertices()->DeleteSubrange(1, 3); },
      StatusCode::INVALID_ARGUMENT, "obstacles[0]");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.set_up_axis(static_cast<v1::UpAxis>(5)); },
      StatusCode::INVALID_ARGUMENT, "up_axis");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.set_backend(static_cast<v1::Backend>(42)); },
      StatusCode::INVALID_ARGUMENT, "backend");
  ExpectCreateRejected(
      *stub_,
      [](auto& c) { c.mutable_defaults()->set_agent_behavior(static_cast<v1::Behavior>(7)); },
      StatusCode::INVALID_ARGUMENT, "defaults.agent_behavior: 7 is not a Behavior");
  ExpectCreateRejected(
      *stub_,
      [](auto& c) {
        c.add_vehicle_profiles();
        c.add_vehicle_profiles()->set_heading_weight(2.f);
      },
      StatusCode::INVALID_ARGUMENT, "vehicle_profiles[1].heading_weight");
  ExpectCreateRejected(
      *stub_,
      [](auto& c) {
        for (int k = 0; k < 1025; ++k) c.add_vehicle_profiles();
      },
      StatusCode::RESOURCE_EXHAUSTED, "vehicle_profiles: 1025 profiles");
  // Forward agents' configuration: named by the API's path.
  ExpectCreateRejected(
      *stub_,
      [](auto& c) {
        c.mutable_obstacles(0)->set_base(5.f);
        c.mutable_obstacles(0)->set_top(2.f);
      },
      StatusCode::INVALID_ARGUMENT, "obstacles[0].top: is below its base");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_obstacles(0)->set_base(1.f); }, StatusCode::INVALID_ARGUMENT,
      "obstacles[0].top: missing while base is given");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_obstacles(0)->set_top(1.f); }, StatusCode::INVALID_ARGUMENT,
      "obstacles[0].base: missing while top is given");
  ExpectCreateRejected(
      *stub_,
      [](auto& c) {
        c.mutable_obstacles(0)->set_base(kNaN);
        c.mutable_obstacles(0)->set_top(1.f);
      },
      StatusCode::INVALID_ARGUMENT, "obstacles[0].base: must be finite");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.add_spheres()->set_radius(0.f); }, StatusCode::INVALID_ARGUMENT,
      "spheres[0].radius: must be > 0");
  ExpectCreateRejected(
      *stub_,
      [](auto& c) {
        c.add_spheres()->set_radius(1.f);
        c.add_spheres()->set_radius(-2.f);
      },
      StatusCode::INVALID_ARGUMENT, "spheres[1].radius: must be > 0");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_forward()->set_mode(static_cast<v1::FanMode>(7)); },
      StatusCode::INVALID_ARGUMENT, "forward.mode: 7 is not a FanMode");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_forward()->set_probes(65); }, StatusCode::INVALID_ARGUMENT,
      "forward.probes: must be within [1, 64]");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_forward()->set_half_angle(0.f); },
      StatusCode::INVALID_ARGUMENT, "forward.half_angle: must be within (0, pi]");
  ExpectCreateRejected(
      *stub_, [](auto& c) { c.mutable_forward()->set_turn_speed(-1.f); },
      StatusCode::INVALID_ARGUMENT, "forward.turn_speed: must be within [0, 1000] 1/s");
  if (!CudaDeviceAvailable()) {
    ExpectCreateRejected(
        *stub_, [](auto& c) { c.set_backend(v1::BACKEND_CUDA); }, StatusCode::FAILED_PRECONDITION,
        "cuda");
  }
}

}  // namespace
}  // namespace throng::service::testing
