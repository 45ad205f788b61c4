// The proto <-> engine conversion on its own (no server).
#include "proto/convert.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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
  config.navigation_targets = {{4, {{1.f, 2.f, 3.f}}},
                               {9, {{0.f, 0.f, 0.f}, {2.f, 0.f, 0.f}, {2.f, 0.f, 2.f}}}};
  config.navigation.cell = 0.5f;
  config.navigation.wall_cost = 0.f;
  v1::WorldConfig proto;
  ConfigToProto(config, &proto);
  v1::WorldConfig again;
  const WorldConfig back = ConfigFromProto(proto);
  ConfigToProto(back, &again);
  EXPECT_TRUE(SameMessage(again, proto));
  EXPECT_EQ(proto.up_axis(), v1::UP_AXIS_Y);
  EXPECT_EQ(proto.handedness(), v1::HANDEDNESS_LEFT);
  EXPECT_EQ(proto.defaults().stall_ticks(), 80u);
  ASSERT_EQ(back.navigation_targets.size(), 2u);
  EXPECT_EQ(back.navigation_targets[1].id, 9u);
  EXPECT_EQ(back.navigation_targets[1].shape.size(), 3u);
  EXPECT_EQ(back.navigation_targets[0].shape[0].z, 3.f);
  EXPECT_EQ(back.navigation.cell, 0.5f);
  EXPECT_EQ(back.navigation.wall_cost, 0.f);  // an explicit 0, not the default
  EXPECT_EQ(back.navigation.clearance, NavFieldParams{}.clearance);
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

// The crowd rules' switches are proto3 optional: unset takes the engine's default, a value
// set is used whichever it is, and GetWorld reports what is in use.
TEST(ConvertTest, orca_rule_switches_unset_take_the_default_and_a_value_set_holds) {
  const OrcaParams d;
  const WorldConfig unset = ConfigFromProto(v1::WorldConfig());
  EXPECT_EQ(unset.orca.right_of_way, d.right_of_way);
  EXPECT_EQ(unset.orca.jam_step, d.jam_step);
  EXPECT_EQ(unset.orca.headway_speed, d.headway_speed);
  EXPECT_EQ(unset.orca.standing_detour, d.standing_detour);
  EXPECT_EQ(unset.orca.corner_lines, d.corner_lines);
  EXPECT_EQ(unset.orca.squeeze_step, d.squeeze_step);
  for (const bool value : {false, true}) {
    v1::WorldConfig proto;
    proto.mutable_orca()->set_right_of_way(value);
    proto.mutable_orca()->set_headway_speed(value);
    proto.mutable_orca()->set_standing_detour(value);
    proto.mutable_orca()->set_corner_lines(value);
    proto.mutable_orca()->set_squeeze_step(value);
    const WorldConfig c = ConfigFromProto(proto);
    EXPECT_EQ(c.orca.right_of_way, value);
    EXPECT_EQ(c.orca.headway_speed, value);
    EXPECT_EQ(c.orca.standing_detour, value);
    EXPECT_EQ(c.orca.corner_lines, value);
    EXPECT_EQ(c.orca.squeeze_step, value);
    v1::WorldConfig reported;
    ConfigToProto(c, &reported);
    ASSERT_TRUE(reported.orca().has_right_of_way());
    EXPECT_EQ(reported.orca().right_of_way(), value);
    ASSERT_TRUE(reported.orca().has_headway_speed());
    EXPECT_EQ(reported.orca().headway_speed(), value);
    ASSERT_TRUE(reported.orca().has_standing_detour());
    EXPECT_EQ(reported.orca().standing_detour(), value);
    ASSERT_TRUE(reported.orca().has_corner_lines());
    EXPECT_EQ(reported.orca().corner_lines(), value);
    ASSERT_TRUE(reported.orca().has_squeeze_step());
    EXPECT_EQ(reported.orca().squeeze_step(), value);
  }
}

// The follower's switches beyond docs/ALGORITHMS.md §1 are proto3 optional: unset takes the
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

// The world's fan: unset takes ForwardDefaults, a value set is kept as given (turn_speed 0
// included: never turns), GetWorld reports every value, and that report makes the same
// world.
TEST(ConvertTest, forward_config_unset_takes_defaults_and_set_values_round_trip) {
  const ForwardDefaults d;
  const WorldConfig unset = ConfigFromProto(v1::WorldConfig());
  EXPECT_EQ(unset.forward.mode, FanMode::kGround);
  EXPECT_EQ(unset.forward.probes, d.probes);
  EXPECT_EQ(unset.forward.half_angle, d.half_angle);
  EXPECT_EQ(unset.forward.probe_length, d.probe_length);
  EXPECT_EQ(unset.forward.turn_speed, d.turn_speed);
  EXPECT_EQ(unset.forward.radius, d.radius);
  EXPECT_TRUE(unset.obstacle_heights.empty());
  EXPECT_TRUE(unset.spheres.empty());
  v1::WorldConfig reported_default;
  ConfigToProto(unset, &reported_default);
  ASSERT_TRUE(reported_default.forward().has_probes());
  EXPECT_EQ(reported_default.forward().probes(), 9u);
  ASSERT_TRUE(reported_default.forward().has_turn_speed());
  EXPECT_EQ(reported_default.forward().turn_speed(), 3.f);
  EXPECT_EQ(reported_default.forward().radius(), 0.5f);

  v1::WorldConfig p;
  auto* f = p.mutable_forward();
  f->set_mode(v1::FAN_MODE_CONE);
  f->set_probes(17);
  f->set_half_angle(0.7f);
  f->set_probe_length(25.f);
  f->set_turn_speed(0.f);
  f->set_radius(0.25f);
  const WorldConfig c = ConfigFromProto(p);
  EXPECT_EQ(c.forward.mode, FanMode::kCone);
  EXPECT_EQ(c.forward.probes, 17);
  EXPECT_EQ(c.forward.half_angle, 0.7f);
  EXPECT_EQ(c.forward.probe_length, 25.f);
  EXPECT_EQ(c.forward.turn_speed, 0.f) << "0 is a value: never turns";
  EXPECT_EQ(c.forward.radius, 0.25f);
  v1::WorldConfig reported;
  ConfigToProto(c, &reported);
  EXPECT_TRUE(SameMessage(reported.forward(), p.forward()));
  ASSERT_TRUE(reported.forward().has_turn_speed());
  v1::WorldConfig again;
  ConfigToProto(ConfigFromProto(reported), &again);
  EXPECT_TRUE(SameMessage(again, reported));
}

TEST(ConvertTest, forward_config_values_set_are_validated_as_given) {
  v1::WorldConfig p;
  p.mutable_forward()->set_mode(static_cast<v1::FanMode>(7));
  EXPECT_EQ(
      InvalidArgument([&] { ConfigFromProto(p); }).rfind("forward.mode: 7 is not a FanMode", 0),
      0u);
  p.mutable_forward()->set_mode(v1::FAN_MODE_GROUND);
  // The engine's messages already name the API's fields ("forward." on both sides).
  auto api_error = [&] {
    return ConfigMessageToProto(InvalidArgument([&] { ValidateWorldConfig(ConfigFromProto(p)); }));
  };
  p.mutable_forward()->set_probes(0);  // set: not the default
  EXPECT_EQ(api_error(), "forward.probes: must be within [1, 64]");
  // Beyond int: stays out of range, never wraps to something valid.
  p.mutable_forward()->set_probes(4'294'967'295u);
  EXPECT_EQ(api_error(), "forward.probes: must be within [1, 64]");
  p.mutable_forward()->set_probes(1u << 31);
  EXPECT_EQ(api_error(), "forward.probes: must be within [1, 64]");
  p.mutable_forward()->clear_probes();
  p.mutable_forward()->set_half_angle(0.f);
  EXPECT_EQ(api_error(), "forward.half_angle: must be within (0, pi]");
  p.mutable_forward()->set_half_angle(4.f);
  EXPECT_EQ(api_error(), "forward.half_angle: must be within (0, pi]");
  p.mutable_forward()->clear_half_angle();
  p.mutable_forward()->set_radius(0.f);
  EXPECT_EQ(api_error().rfind("forward.radius: must be within", 0), 0u) << api_error();
}

// Heights only for obstacles that have both; GetWorld reports them only there.
TEST(ConvertTest, obstacle_heights_and_spheres_round_trip) {
  v1::WorldConfig p;
  auto square = [](v1::Obstacle* o, float x) {
    for (auto [dx, dy] : {std::pair{0.f, 0.f}, {1.f, 0.f}, {1.f, 1.f}, {0.f, 1.f}}) {
      auto* v = o->add_vertices();
      v->set_x(x + dx);
      v->set_y(dy);
    }
  };
  square(p.add_obstacles(), 0.f);  // no range
  auto* prism = p.add_obstacles();
  square(prism, 5.f);
  prism->set_base(-1.5f);
  prism->set_top(3.f);
  auto* sphere = p.add_spheres();
  sphere->mutable_center()->set_x(1.f);
  sphere->mutable_center()->set_y(2.f);
  sphere->mutable_center()->set_z(3.f);
  sphere->set_radius(0.75f);
  const WorldConfig c = ConfigFromProto(p);
  ASSERT_EQ(c.obstacle_heights.size(), 2u);
  EXPECT_FALSE(c.obstacle_heights[0].bounded);
  EXPECT_TRUE(c.obstacle_heights[1].bounded);
  EXPECT_EQ(c.obstacle_heights[1].base, -1.5f);
  EXPECT_EQ(c.obstacle_heights[1].top, 3.f);
  ASSERT_EQ(c.spheres.size(), 1u);
  EXPECT_EQ(c.spheres[0].center.x, 1.f);
  EXPECT_EQ(c.spheres[0].center.y, 2.f);
  EXPECT_EQ(c.spheres[0].center.z, 3.f);
  EXPECT_EQ(c.spheres[0].radius, 0.75f);
  v1::WorldConfig reported;
  ConfigToProto(c, &reported);
  ASSERT_EQ(reported.obstacles_size(), 2);
  EXPECT_FALSE(reported.obstacles(0).has_base());
  EXPECT_FALSE(reported.obstacles(0).has_top());
  ASSERT_TRUE(reported.obstacles(1).has_base());
  EXPECT_EQ(reported.obstacles(1).base(), -1.5f);
  EXPECT_EQ(reported.obstacles(1).top(), 3.f);
  EXPECT_TRUE(SameMessage(reported.spheres(0), p.spheres(0)));
  v1::WorldConfig again;
  ConfigToProto(ConfigFromProto(reported), &again);
  EXPECT_TRUE(SameMessage(again, reported));
  // Without any range, no ranges at all (the engine's "empty").
  p.mutable_obstacles(1)->clear_base();
  p.mutable_obstacles(1)->clear_top();
  EXPECT_TRUE(ConfigFromProto(p).obstacle_heights.empty());
  // One without the other is refused here, naming the missing one.
  p.mutable_obstacles(1)->set_base(1.f);
  EXPECT_EQ(InvalidArgument([&] { ConfigFromProto(p); }),
            "obstacles[1].top: missing while base is given");
  p.mutable_obstacles(1)->clear_base();
  p.mutable_obstacles(0)->set_top(1.f);
  EXPECT_EQ(InvalidArgument([&] { ConfigFromProto(p); }),
            "obstacles[0].base: missing while top is given");
  // A top below its base is the engine's to refuse; its message is the API's path.
  p.mutable_obstacles(0)->set_base(2.f);
  EXPECT_EQ(ConfigMessageToProto(InvalidArgument([&] { ValidateWorldConfig(ConfigFromProto(p)); })),
            "obstacles[0].top: is below its base");
}

// A forward snapshot with every column, as the tests' scene builds it, plus the optional
// per-agent fan columns.
Snapshot ForwardScene() {
  TestScene scene = MakeTestScene(2, 1);
  AddForwardAgents(&scene, 3);
  ForwardSnapshot& f = scene.snapshot.forward;
  f.half_angle = {0.5f, 1.f, 3.f};
  f.probe_length = {4.f, 8.f, 12.f};
  f.turn_speed = {0.f, 1.f, 2.f};
  return scene.snapshot;
}

TEST(ConvertTest, forward_batch_round_trips_present_columns_only) {
  const Snapshot s = ForwardScene();
  const auto request = StepRequest("w-1", s);
  EXPECT_EQ(request.forward().id_size(), 3);
  EXPECT_EQ(request.forward().probes_size(), 3);
  Snapshot back;
  SnapshotFromProto(request.tick(), request.dt(), request.agents(), request.vehicles(),
                    request.forward(), &back);
  EXPECT_EQ(back.forward.id, s.forward.id);
  EXPECT_EQ(back.forward.x, s.forward.x);
  EXPECT_EQ(back.forward.forward_z, s.forward.forward_z);
  EXPECT_EQ(back.forward.speed, s.forward.speed);
  EXPECT_EQ(back.forward.goal_z, s.forward.goal_z);
  EXPECT_EQ(back.forward.probes, s.forward.probes);
  EXPECT_EQ(back.forward.turn_speed, s.forward.turn_speed);
  v1::ForwardBatch forward;
  ForwardToProto(back.forward, &forward);
  EXPECT_TRUE(SameMessage(forward, request.forward()));
  // Absent optional columns stay absent.
  Snapshot minimal = s;
  minimal.forward.z.clear();
  minimal.forward.forward_z.clear();
  minimal.forward.radius.clear();
  minimal.forward.goal_x.clear();
  minimal.forward.goal_y.clear();
  minimal.forward.goal_z.clear();
  minimal.forward.probes.clear();
  minimal.forward.half_angle.clear();
  minimal.forward.probe_length.clear();
  minimal.forward.turn_speed.clear();
  const auto small = StepRequest("w-1", minimal);
  EXPECT_EQ(small.forward().z_size(), 0);
  EXPECT_EQ(small.forward().probes_size(), 0);
  SnapshotFromProto(small.tick(), small.dt(), small.agents(), small.vehicles(), small.forward(),
                    &back);
  EXPECT_TRUE(back.forward.z.empty());
  EXPECT_TRUE(back.forward.probes.empty());
  EXPECT_EQ(back.forward.speed, s.forward.speed);
  // Without a forward batch the snapshot has no forward agents, whatever it held before.
  SnapshotFromProto(small.tick(), small.dt(), small.agents(), small.vehicles(), &back);
  EXPECT_EQ(back.forward.size(), 0u);
  EXPECT_TRUE(back.forward.speed.empty());
}

// The engine's probes column is uint32: a value beyond 64 (or beyond uint16) arrives as
// given, so the World refuses it rather than a truncated value passing.
TEST(ConvertTest, forward_probes_are_not_narrowed) {
  auto request = StepRequest("w-1", ForwardScene());
  request.mutable_forward()->set_probes(1, 65536 + 9);
  request.mutable_forward()->set_probes(2, 4'294'967'295u);
  Snapshot back;
  SnapshotFromProto(request.tick(), request.dt(), request.agents(), request.vehicles(),
                    request.forward(), &back);
  EXPECT_EQ(back.forward.probes, (std::vector<uint32_t>{5, 65545, 4'294'967'295u}));
}

TEST(ConvertTest, forward_column_lengths_are_named_before_anything_is_converted) {
  const auto request = StepRequest("w-1", ForwardScene());
  auto check = [&](const std::function<void(v1::StepRequest&)>& edit, Snapshot* out) {
    auto r = request;
    edit(r);
    return InvalidArgument(
        [&] { SnapshotFromProto(r.tick(), r.dt(), r.agents(), r.vehicles(), r.forward(), out); });
  };
  Snapshot out;
  EXPECT_EQ(check([](auto& r) { r.mutable_forward()->mutable_speed()->Truncate(2); }, &out),
            "forward.speed: 2 values for 3 forward agents");
  EXPECT_EQ(check([](auto& r) { r.mutable_forward()->clear_x(); }, &out),
            "forward.x: 0 values for 3 forward agents");
  EXPECT_EQ(check([](auto& r) { r.mutable_forward()->add_forward_y(0.f); }, &out),
            "forward.forward_y: 4 values for 3 forward agents");
  EXPECT_EQ(check([](auto& r) { r.mutable_forward()->clear_forward_x(); }, &out),
            "forward.forward_x: 0 values for 3 forward agents");
  EXPECT_EQ(check([](auto& r) { r.mutable_forward()->mutable_probes()->Truncate(1); }, &out),
            "forward.probes: 1 value for 3 forward agents");
  EXPECT_EQ(check([](auto& r) { r.mutable_forward()->mutable_goal_z()->Truncate(2); }, &out),
            "forward.goal_z: 2 values for 3 forward agents");
  EXPECT_EQ(check([](auto& r) { r.mutable_forward()->mutable_turn_speed()->Truncate(0); }, &out),
            "(no error)")
      << "an empty optional column is absent, not short";
  // A bad forward column converts nothing, pedestrians included.
  Snapshot kept;
  kept.tick = 99;
  kept.agents.id = {1};
  EXPECT_EQ(check([](auto& r) { r.mutable_forward()->add_radius(1.f); }, &kept),
            "forward.radius: 4 values for 3 forward agents");
  EXPECT_EQ(kept.tick, 99u);
  EXPECT_EQ(kept.agents.id, (std::vector<uint32_t>{1}));
  EXPECT_TRUE(kept.forward.id.empty());
}

TEST(ConvertTest, forward_results_and_stats_reach_the_response) {
  TickResult r;
  r.tick = 12;
  r.forward.move_x = {1.f, 0.f};
  r.forward.move_y = {0.f, 0.6f};
  r.forward.move_z = {0.f, 0.8f};
  r.forward.probe = {0, 300};
  r.forward.hit_distance = {std::numeric_limits<float>::infinity(), 2.5f};
  r.forward.all_blocked = {0, 1};
  r.stats.forward_agents = 2;
  r.stats.forward_blocked = 1;
  r.stats.forward_in_obstacles = 1;
  r.stats.stage_ms[static_cast<int>(Stage::kForward)] = 3.0;
  Snapshot state;
  state.forward.x = {1.f, 2.f};
  state.forward.y = {3.f, 4.f};
  state.forward.z = {5.f, 6.f};
  state.forward.forward_x = {1.f, 0.f};
  state.forward.forward_y = {0.f, 0.6f};
  state.forward.forward_z = {0.f, 0.8f};
  v1::StepResponse out;
  ResultToProto(r, state, TickOptions{}, "cpu", &out);
  const auto& f = out.forward();
  ASSERT_EQ(f.move_x_size(), 2);
  EXPECT_EQ(f.move_y(1), 0.6f);
  EXPECT_EQ(f.move_z(1), 0.8f);
  EXPECT_EQ(f.probe(1), 300u);
  EXPECT_TRUE(std::isinf(f.hit_distance(0)) && f.hit_distance(0) > 0);
  EXPECT_EQ(f.hit_distance(1), 2.5f);
  EXPECT_EQ(f.all_blocked(0), 0u);
  EXPECT_EQ(f.all_blocked(1), 1u);
  EXPECT_EQ(f.x_size(), 0) << "positions only with integrate";
  EXPECT_EQ(f.forward_z_size(), 0);
  EXPECT_EQ(out.stats().forward_agents(), 2u);
  EXPECT_EQ(out.stats().forward_blocked(), 1u);
  EXPECT_EQ(out.stats().forward_in_obstacles(), 1u);
  EXPECT_DOUBLE_EQ(out.stats().stage_seconds().forward(), 3e-3);
  TickOptions integrate;
  integrate.integrate = true;
  ResultToProto(r, state, integrate, "cpu", &out);
  ASSERT_EQ(out.forward().x_size(), 2);
  EXPECT_EQ(out.forward().x(1), 2.f);
  EXPECT_EQ(out.forward().y(0), 3.f);
  EXPECT_EQ(out.forward().z(1), 6.f);
  EXPECT_EQ(out.forward().forward_z(1), 0.8f);
  WorldTotals totals;
  totals.Add(r.stats);
  totals.Add(r.stats);
  v1::WorldTotals t;
  TotalsToProto(totals, &t);
  EXPECT_EQ(t.forward_in_obstacles(), 2u);
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
