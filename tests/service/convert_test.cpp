// The proto <-> engine conversion on its own (no server).
#include "service/convert.h"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "kernels/world/world_validate.h"
#include "tests/service/service_test_util.h"

namespace throng::service::testing {
namespace {

std::string InvalidArgument(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ConvertTest, config_round_trips) {
  WorldConfig config = MakeTestScene(3, 1).config;
  config.frame.up = UpAxis::kY;
  config.frame.handedness = Handedness::kLeft;
  config.follower.heading_weight = 0.4f;
  config.agent_defaults.radius = 0.4f;
  config.detection.stall_ticks = 80;
  config.world_speed_limit = 9.f;
  v1::WorldConfig proto;
  ConfigToProto(config, &proto);
  v1::WorldConfig again;
  ConfigToProto(ConfigFromProto(proto), &again);
  EXPECT_TRUE(SameMessage(again, proto));
  EXPECT_EQ(proto.up_axis(), v1::UP_AXIS_Y);
  EXPECT_EQ(proto.handedness(), v1::HANDEDNESS_LEFT);
  EXPECT_EQ(proto.defaults().stall_ticks(), 80u);
}

TEST(ConvertTest, zero_fields_take_engine_defaults) {
  const WorldConfig c = ConfigFromProto(v1::WorldConfig());
  const WorldConfig d;
  EXPECT_EQ(c.orca.time_horizon, d.orca.time_horizon);
  EXPECT_EQ(c.orca.max_neighbors, d.orca.max_neighbors);
  EXPECT_EQ(c.orca.contact_margin_ratio, d.orca.contact_margin_ratio);  // unset, not 0
  EXPECT_EQ(c.follower.max_yaw_delta, d.follower.max_yaw_delta);
  EXPECT_EQ(c.agent_defaults.max_speed, d.agent_defaults.max_speed);
  EXPECT_EQ(c.vehicle_defaults.length, d.vehicle_defaults.length);
  EXPECT_EQ(c.detection.oscillation_window, d.detection.oscillation_window);
}

// The follower's switches beyond ALGORITHMS.md §1 are proto3 optional: unset takes the
// default (on), an explicit 0 or false switches one off, and GetWorld reports that.
TEST(ConvertTest, follower_switches_unset_take_the_default_and_zero_switches_off) {
  const FollowerParams d;
  const WorldConfig unset = ConfigFromProto(v1::WorldConfig());
  EXPECT_EQ(unset.follower.wheel_response_time, d.wheel_response_time);
  EXPECT_TRUE(unset.follower.peak_curvature_speed);
  v1::WorldConfig off;
  off.mutable_follower()->set_wheel_response_time(0.f);
  off.mutable_follower()->set_peak_curvature_speed(false);
  const WorldConfig c = ConfigFromProto(off);
  EXPECT_EQ(c.follower.wheel_response_time, 0.f);
  EXPECT_FALSE(c.follower.peak_curvature_speed);
  v1::WorldConfig reported;
  ConfigToProto(c, &reported);
  ASSERT_TRUE(reported.follower().has_peak_curvature_speed());
  EXPECT_FALSE(reported.follower().peak_curvature_speed());
  EXPECT_EQ(reported.follower().wheel_response_time(), 0.f);
}

// Issue 17: every follower field is proto3 optional. A 0 that means something is kept
// (crosstrack_gain 0 is no CTE term, heading_weight 0 position only, speed factor 0 a
// fixed look-ahead), GetWorld reports it, and an unset field is the default.
TEST(ConvertTest, follower_zeros_mean_what_they_say) {
  v1::WorldConfig proto;
  auto* f = proto.mutable_follower();
  f->set_crosstrack_gain(0.f);
  f->set_heading_weight(0.f);
  f->set_look_ahead_speed_factor(0.f);
  f->set_look_ahead_base(0.f);
  f->set_adaptive_look_ahead(false);
  f->set_projection_window(2.5f);
  const WorldConfig c = ConfigFromProto(proto);
  EXPECT_EQ(c.follower.crosstrack_gain, 0.f);
  EXPECT_EQ(c.follower.heading_weight, 0.f);
  EXPECT_EQ(c.follower.look_ahead_speed_factor, 0.f);
  EXPECT_EQ(c.follower.look_ahead_base, 0.f);
  EXPECT_FALSE(c.follower.adaptive_look_ahead);
  EXPECT_EQ(c.follower.projection_window, 2.5f);
  const FollowerParams d;
  EXPECT_EQ(c.follower.max_yaw_delta, d.max_yaw_delta) << "unset: the default";
  v1::WorldConfig reported;
  ConfigToProto(c, &reported);
  ASSERT_TRUE(reported.follower().has_crosstrack_gain());
  EXPECT_EQ(reported.follower().crosstrack_gain(), 0.f);
  EXPECT_EQ(reported.follower().heading_weight(), 0.f);
  EXPECT_FALSE(reported.follower().adaptive_look_ahead());
  // An explicit 0 where 0 is not allowed is an error, not the default.
  v1::WorldConfig bad;
  bad.mutable_follower()->set_max_yaw_delta(0.f);
  EXPECT_NE(InvalidArgument([&] {
              ValidateWorldConfig(ConfigFromProto(bad));
            }).find("follower.max_yaw_delta"),
            std::string::npos);
}

// The bicycle that Advance integrates with, and whose geometry the follower is told:
// in the API (WorldConfig.bicycle), round-tripped, errors named by their API path.
TEST(ConvertTest, bicycle_parameters_reach_the_world_and_errors_name_the_api_field) {
  v1::WorldConfig proto;
  proto.mutable_bicycle()->set_wheelbase(3.5f);
  proto.mutable_bicycle()->set_steering_lag(0.f);
  const WorldConfig c = ConfigFromProto(proto);
  EXPECT_EQ(c.vehicle_defaults.bicycle.wheelbase, 3.5f);
  EXPECT_EQ(c.vehicle_defaults.bicycle.steering_time_constant, 0.f) << "0: no lag, not the default";
  EXPECT_EQ(c.vehicle_defaults.bicycle.max_steer_angle, BicycleParams{}.max_steer_angle);
  v1::WorldConfig reported;
  ConfigToProto(c, &reported);
  EXPECT_EQ(reported.bicycle().wheelbase(), 3.5f);
  ASSERT_TRUE(reported.bicycle().has_steering_lag());
  EXPECT_EQ(reported.bicycle().steering_lag(), 0.f);
  v1::WorldConfig bad;
  // The validation error as the API names it.
  auto api_error = [&] {
    return ConfigMessageToProto(
        InvalidArgument([&] { ValidateWorldConfig(ConfigFromProto(bad)); }));
  };
  bad.mutable_bicycle()->set_max_steer_angle(2.f);
  EXPECT_EQ(api_error().rfind("bicycle.max_steer_angle", 0), 0u) << api_error();
  // Denormal geometry would make the follower's steering NaN: refused like the follower's.
  bad.mutable_bicycle()->set_max_steer_angle(1e-30f);
  EXPECT_EQ(api_error().rfind("bicycle.max_steer_angle: must be within [0.001, 1.5)", 0), 0u)
      << api_error();
  bad.mutable_bicycle()->clear_max_steer_angle();
  bad.mutable_bicycle()->set_wheelbase(1e-30f);
  EXPECT_EQ(api_error().rfind("bicycle.wheelbase: must be within [0.001, 100]", 0), 0u)
      << api_error();
  bad.mutable_bicycle()->clear_wheelbase();
  bad.mutable_bicycle()->set_steering_lag(-1.f);
  EXPECT_EQ(api_error().rfind("bicycle.steering_lag", 0), 0u) << api_error();
}

TEST(ConvertTest, snapshot_round_trips_present_columns_only) {
  const auto scene = MakeTestScene(5, 2);
  const auto request = StepRequest("w-1", scene.snapshot);
  EXPECT_EQ(request.agents().radius_size(), 5);
  EXPECT_EQ(request.agents().vx_size(), 0);  // absent in the scene: absent on the wire
  Snapshot back;
  SnapshotFromProto(request.tick(), request.dt(), request.agents(), request.vehicles(), &back);
  v1::AgentBatch agents;
  AgentsToProto(back.agents, &agents);
  EXPECT_TRUE(SameMessage(agents, request.agents()));
  v1::VehicleBatch vehicles;
  VehiclesToProto(back.vehicles, &vehicles);
  EXPECT_TRUE(SameMessage(vehicles, request.vehicles()));
  EXPECT_EQ(back.tick, scene.snapshot.tick);
}

TEST(ConvertTest, column_lengths_are_named) {
  const auto request = StepRequest("w-1", MakeTestScene(5, 2).snapshot);
  Snapshot out;
  auto check = [&](const std::function<void(v1::StepRequest&)>& edit) {
    auto r = request;
    edit(r);
    return InvalidArgument(
        [&] { SnapshotFromProto(r.tick(), r.dt(), r.agents(), r.vehicles(), &out); });
  };
  EXPECT_EQ(check([](auto& r) { r.mutable_agents()->mutable_radius()->Truncate(3); }),
            "agents.radius: 3 values for 5 agents");
  EXPECT_EQ(check([](auto& r) { r.mutable_agents()->add_y(1.f); }),
            "agents.y: 6 values for 5 agents");
  EXPECT_EQ(check([](auto& r) { r.mutable_vehicles()->add_width(1.f); }),
            "vehicles.width: 1 value for 2 vehicles");
  EXPECT_EQ(check([](auto& r) { r.mutable_vehicles()->clear_yaw(); }),
            "vehicles.yaw: 0 values for 2 vehicles");
  EXPECT_EQ(check([](auto& r) {
              for (int i = 0; i < 5; ++i) r.mutable_agents()->add_flags(i == 2 ? 260 : 0);
            }).rfind("agents.flags[2]: 260", 0),
            0u);
}

// A profile overrides the fields it sets; the rest are the world's follower values (not
// the engine defaults), and GetWorld reports every field of every profile.
TEST(ConvertTest, vehicle_profiles_inherit_the_worlds_follower_and_report_every_value) {
  v1::WorldConfig p;
  p.mutable_follower()->set_max_brake_decel(4.f);
  p.mutable_follower()->set_heading_weight(0.5f);
  auto* truck = p.add_vehicle_profiles();
  truck->set_max_lateral_accel(1.5f);
  truck->set_crosstrack_gain(0.f);
  p.add_vehicle_profiles();  // all unset: the world's follower
  const WorldConfig c = ConfigFromProto(p);
  ASSERT_EQ(c.vehicle_profiles.size(), 2u);
  EXPECT_EQ(c.vehicle_profiles[0].max_lateral_accel, 1.5f);
  EXPECT_EQ(c.vehicle_profiles[0].crosstrack_gain, 0.f);
  EXPECT_EQ(c.vehicle_profiles[0].max_brake_decel, 4.f);
  EXPECT_EQ(c.vehicle_profiles[0].heading_weight, 0.5f);
  EXPECT_EQ(c.vehicle_profiles[1].heading_weight, 0.5f);
  EXPECT_EQ(c.vehicle_profiles[1].look_ahead_base, FollowerParams{}.look_ahead_base);
  v1::WorldConfig reported;
  ConfigToProto(c, &reported);
  ASSERT_EQ(reported.vehicle_profiles_size(), 2);
  EXPECT_TRUE(reported.vehicle_profiles(1).has_peak_curvature_speed());
  EXPECT_EQ(reported.vehicle_profiles(0).crosstrack_gain(), 0.f);
  EXPECT_EQ(reported.vehicle_profiles(0).max_brake_decel(), 4.f);
  // What GetWorld reports creates the same world.
  const WorldConfig again = ConfigFromProto(reported);
  v1::WorldConfig reported_again;
  ConfigToProto(again, &reported_again);
  EXPECT_TRUE(SameMessage(reported, reported_again));
}

TEST(ConvertTest, behaviors_and_profiles_travel_as_columns) {
  v1::WorldConfig p;
  p.mutable_defaults()->set_agent_behavior(v1::BEHAVIOR_SEEK);
  const WorldConfig c = ConfigFromProto(p);
  EXPECT_EQ(c.agent_defaults.behavior, AgentBehavior::kSeek);
  v1::WorldConfig reported;
  ConfigToProto(c, &reported);
  EXPECT_EQ(reported.defaults().agent_behavior(), v1::BEHAVIOR_SEEK);

  auto request = StepRequest("w-1", MakeTestScene(3, 2).snapshot);
  for (uint32_t b : {v1::BEHAVIOR_FLEE, v1::BEHAVIOR_BY_COLUMNS, v1::BEHAVIOR_ARRIVE}) {
    request.mutable_agents()->add_behavior(b);
  }
  request.mutable_vehicles()->add_profile(0);
  request.mutable_vehicles()->add_profile(1);
  Snapshot back;
  SnapshotFromProto(request.tick(), request.dt(), request.agents(), request.vehicles(), &back);
  EXPECT_EQ(back.agents.behavior, (std::vector<uint8_t>{3, 0, 1}));
  EXPECT_EQ(back.vehicles.profile, (std::vector<uint32_t>{0, 1}));
  v1::AgentBatch agents;
  AgentsToProto(back.agents, &agents);
  EXPECT_TRUE(SameMessage(agents, request.agents()));
  v1::VehicleBatch vehicles;
  VehiclesToProto(back.vehicles, &vehicles);
  EXPECT_TRUE(SameMessage(vehicles, request.vehicles()));
  // A value beyond the enum never reaches the engine's byte column.
  request.mutable_agents()->set_behavior(1, 256 + 2);
  EXPECT_EQ(InvalidArgument([&] {
              SnapshotFromProto(request.tick(), request.dt(), request.agents(), request.vehicles(),
                                &back);
            }).rfind("agents.behavior[1]: 258 is not a Behavior", 0),
            0u);
}

TEST(ConvertTest, contact_margin_ratio_zero_is_a_value_not_the_default) {
  v1::WorldConfig proto;
  proto.mutable_orca()->set_contact_margin_ratio(0.f);
  EXPECT_EQ(ConfigFromProto(proto).orca.contact_margin_ratio, 0.f);
  proto.mutable_orca()->set_contact_margin_ratio(0.2f);
  EXPECT_EQ(ConfigFromProto(proto).orca.contact_margin_ratio, 0.2f);
}

TEST(ConvertTest, config_errors_use_api_names) {
  EXPECT_EQ(ConfigMessageToProto("params.max_neighbors: 99 is outside [1, 64]"),
            "orca.max_neighbors: 99 is outside [1, 64]");
  EXPECT_EQ(ConfigMessageToProto("agent_defaults.radius: must be finite and > 0"),
            "defaults.agent_radius: must be finite and > 0");
  EXPECT_EQ(ConfigMessageToProto("vehicle_defaults.width: x"), "defaults.vehicle_width: x");
  EXPECT_EQ(ConfigMessageToProto("detection.stall_ticks: x"), "defaults.stall_ticks: x");
  EXPECT_EQ(ConfigMessageToProto("splines[2].points[5]: not finite"),
            "splines[2].points[5]: not finite");
  v1::WorldConfig bad;
  bad.mutable_orca()->set_max_neighbors(4'000'000'000u);
  EXPECT_EQ(InvalidArgument([&] { ConfigFromProto(bad); }).rfind("orca.max_neighbors", 0), 0u);
}

TEST(ConvertTest, backends) {
  EXPECT_EQ(BackendFromProto(v1::BACKEND_UNSPECIFIED, BackendKind::kReference),
            BackendKind::kReference);
  EXPECT_EQ(BackendFromProto(v1::BACKEND_CPU, BackendKind::kAuto), BackendKind::kCpu);
  EXPECT_EQ(InvalidArgument([] { BackendFromProto(9, BackendKind::kAuto); }).rfind("backend", 0),
            0u);
  for (auto kind :
       {BackendKind::kAuto, BackendKind::kCuda, BackendKind::kCpu, BackendKind::kReference}) {
    EXPECT_EQ(BackendFromProto(BackendToProto(kind), BackendKind::kAuto), kind);
  }
}

}  // namespace
}  // namespace throng::service::testing
