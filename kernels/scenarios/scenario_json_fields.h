// The JSON field list of a Scenario, written once for both directions: the writer and the
// reader (scenario_json_write.cpp, scenario_json_read.cpp) are visitors walked over these
// functions, so a field cannot be saved under one name and loaded under another, or saved
// and never loaded. A field added to a struct of world_types.h belongs here.
//
// A visitor V provides, for a key and a reference to the value:
//   v(key, float|int|uint32_t|uint64_t|bool|std::string, Need)  a scalar
//   v.Enum(key, value, {{value, "name"}, ..})                      an enum, by name
//   v.Object(key, sub, Need)        a nested object, its fields by VisitFields(sub)
//   v.Array(key, vector, Need)      an array of objects, each by VisitFields(element)
//   v.Point(key, Vec3, Need)                    one [x, y, z]
//   v.Points(key, vector<Vec3>, Need)           an array of [x, y, z]
//   v.PointLists(key, vector<vector<Vec3>>)     an array of arrays of [x, y, z]
//   v.Column(key, vector<T>, Need)  an agent or vehicle column; empty when absent
// Need::kOptional fields keep their struct default when the key is absent.
#pragma once

#include "kernels/scenarios/scenario.h"

namespace throng::scenarios::json_fields {

enum class Need { kOptional, kRequired };
constexpr Need kOptional = Need::kOptional;
constexpr Need kRequired = Need::kRequired;

constexpr int kFormatVersion = 1;

template <class V>
void VisitFields(V& v, Frame& f) {
  v.Enum("up", f.up, {{UpAxis::kZ, "z"}, {UpAxis::kY, "y"}});
  v.Enum("handedness", f.handedness, {{Handedness::kRight, "right"}, {Handedness::kLeft, "left"}});
}

template <class V>
void VisitFields(V& v, SplineDesc& d) {
  v("id", d.id, kRequired);
  v.Points("points", d.points, kRequired);
  v("closed", d.closed, kOptional);
  v("speed_limit", d.speed_limit, kOptional);
}

template <class V>
void VisitFields(V& v, OrcaParams& p) {
  v("time_step", p.time_step, kOptional);
  v("time_horizon", p.time_horizon, kOptional);
  v("time_horizon_obst", p.time_horizon_obst, kOptional);
  v("neighbor_dist", p.neighbor_dist, kOptional);
  v("max_neighbors", p.max_neighbors, kOptional);
  v("side_bias", p.side_bias, kOptional);
  v("side_bias_fade", p.side_bias_fade, kOptional);
  v("follower_weight", p.follower_weight, kOptional);
  v("contact_margin_ratio", p.contact_margin_ratio, kOptional);
  v("shorten_horizon", p.shorten_horizon, kOptional);
  v("overlap_is_hard", p.overlap_is_hard, kOptional);
  v("revalidate", p.revalidate, kOptional);
  v("revalidate_passes", p.revalidate_passes, kOptional);
  v("revalidate_fallback", p.revalidate_fallback, kOptional);
  v("density_speed", p.density_speed, kOptional);
  v("headway_speed", p.headway_speed, kOptional);
  v("headway_time", p.headway_time, kOptional);
  v("headway_anticipation", p.headway_anticipation, kOptional);
  v("jam_step", p.jam_step, kOptional);
  v("jam_step_depth", p.jam_step_depth, kOptional);
  v("squeeze_step", p.squeeze_step, kOptional);
  v("right_of_way", p.right_of_way, kOptional);
  v("standing_detour", p.standing_detour, kOptional);
  v("corner_lines", p.corner_lines, kOptional);
  v("rvo2_fallback", p.rvo2_fallback, kOptional);
}

template <class V>
void VisitFields(V& v, FollowerParams& p) {
  v("look_ahead_base", p.look_ahead_base, kOptional);
  v("look_ahead_speed_factor", p.look_ahead_speed_factor, kOptional);
  v("heading_weight", p.heading_weight, kOptional);
  v("max_yaw_delta", p.max_yaw_delta, kOptional);
  v("crosstrack_gain", p.crosstrack_gain, kOptional);
  v("projection_window", p.projection_window, kOptional);
  v("max_lateral_accel", p.max_lateral_accel, kOptional);
  v("max_brake_decel", p.max_brake_decel, kOptional);
  v("speed_gain", p.speed_gain, kOptional);
  v("adaptive_look_ahead", p.adaptive_look_ahead, kOptional);
  v("curvature_feedforward", p.curvature_feedforward, kOptional);
  v("lag_compensation", p.lag_compensation, kOptional);
  v("wheelbase", p.wheelbase, kOptional);
  v("max_steer_angle", p.max_steer_angle, kOptional);
  v("steering_lag", p.steering_lag, kOptional);
  v("approach_curvature_share", p.approach_curvature_share, kOptional);
  v("control_period", p.control_period, kOptional);
  v("wheel_response_time", p.wheel_response_time, kOptional);
  v("peak_curvature_speed", p.peak_curvature_speed, kOptional);
}

template <class V>
void VisitFields(V& v, AgentDefaults& d) {
  v("radius", d.radius, kOptional);
  v("max_speed", d.max_speed, kOptional);
  v("max_accel", d.max_accel, kOptional);
  v("slowing_radius", d.slowing_radius, kOptional);
  v.Enum("behavior", d.behavior,
         {{AgentBehavior::kByColumns, "by_columns"},
          {AgentBehavior::kArrive, "arrive"},
          {AgentBehavior::kSeek, "seek"},
          {AgentBehavior::kFlee, "flee"},
          {AgentBehavior::kPreferredVelocity, "preferred_velocity"}});
}

template <class V>
void VisitFields(V& v, BicycleParams& b) {
  v("wheelbase", b.wheelbase, kOptional);
  v("max_steer_angle", b.max_steer_angle, kOptional);
  v("max_accel", b.max_accel, kOptional);
  v("max_brake", b.max_brake, kOptional);
  v("steering_time_constant", b.steering_time_constant, kOptional);
}

template <class V>
void VisitFields(V& v, VehicleDefaults& d) {
  v("length", d.length, kOptional);
  v("width", d.width, kOptional);
  v("max_speed", d.max_speed, kOptional);
  v.Object("bicycle", d.bicycle, kOptional);
}

template <class V>
void VisitFields(V& v, DetectionParams& d) {
  v("oscillation_window", d.oscillation_window, kOptional);
  v("oscillation_flips", d.oscillation_flips, kOptional);
  v("oscillation_min_lateral", d.oscillation_min_lateral, kOptional);
  v("stall_ticks", d.stall_ticks, kOptional);
  v("stall_min_progress", d.stall_min_progress, kOptional);
  v("stop_speed", d.stop_speed, kOptional);
  v("goal_tolerance", d.goal_tolerance, kOptional);
}

template <class V>
void VisitFields(V& v, PathCheckParams& p) {
  v("gap", p.gap, kOptional);
  v("reaction_time", p.reaction_time, kOptional);
  v("min_length", p.min_length, kOptional);
  v("lateral_margin", p.lateral_margin, kOptional);
}

template <class V>
void VisitFields(V& v, ForwardDefaults& d) {
  v.Enum("mode", d.mode, {{FanMode::kGround, "ground"}, {FanMode::kCone, "cone"}});
  v("probes", d.probes, kOptional);
  v("half_angle", d.half_angle, kOptional);
  v("probe_length", d.probe_length, kOptional);
  v("turn_speed", d.turn_speed, kOptional);
  v("radius", d.radius, kOptional);
}

template <class V>
void VisitFields(V& v, HeightRange& h) {
  v("bounded", h.bounded, kOptional);
  v("base", h.base, kOptional);
  v("top", h.top, kOptional);
}

template <class V>
void VisitFields(V& v, SphereObstacle& s) {
  v.Point("center", s.center, kRequired);
  v("radius", s.radius, kRequired);
}

template <class V>
void VisitFields(V& v, NavigationTarget& t) {
  v("id", t.id, kRequired);
  v.Points("shape", t.shape, kRequired);
  v.Points("region", t.region, kOptional);
}

template <class V>
void VisitFields(V& v, NavFieldParams& p) {
  v("cell", p.cell, kOptional);
  v("clearance", p.clearance, kOptional);
  v("wall_comfort", p.wall_comfort, kOptional);
  v("wall_cost", p.wall_cost, kOptional);
  v("margin", p.margin, kOptional);
  v("density_cost", p.density_cost, kOptional);
  v("reroute_every", p.reroute_every, kOptional);
  v("goal_cone", p.goal_cone, kOptional);
}

template <class V>
void VisitFields(V& v, WorldConfig& c) {
  v.Object("frame", c.frame, kOptional);
  v.Array("splines", c.splines, kOptional);
  v.PointLists("obstacles", c.obstacles, kOptional);
  v.Array("obstacle_heights", c.obstacle_heights, kOptional);
  v.Array("spheres", c.spheres, kOptional);
  v.Object("forward", c.forward, kOptional);
  v.Object("orca", c.orca, kOptional);
  v.Object("follower", c.follower, kOptional);
  v.Array("vehicle_profiles", c.vehicle_profiles, kOptional);
  v("world_speed_limit", c.world_speed_limit, kOptional);
  v.Object("agent_defaults", c.agent_defaults, kOptional);
  v.Object("vehicle_defaults", c.vehicle_defaults, kOptional);
  v.Object("detection", c.detection, kOptional);
  v.Object("path_check", c.path_check, kOptional);
  v("audit_every", c.audit_every, kOptional);
  v.Array("navigation_targets", c.navigation_targets, kOptional);
  v.Object("navigation", c.navigation, kOptional);
}

// Columns, by the column tables (kernels/world/column_tables.h) under their table names:
// the first counts the rows; every other present column must have as many values.
constexpr Need NeedOf(ColumnNeed need) {
  return need == ColumnNeed::kRequired ? kRequired : kOptional;
}

template <class V>
void VisitFields(V& v, AgentSnapshot& a) {
  VisitAgentColumns(a, [&](const ColumnInfo& c, auto& column) {
    v.Column(c.name, column, NeedOf(c.need));
  });
}

template <class V>
void VisitFields(V& v, VehicleSnapshot& s) {
  VisitVehicleColumns(s, [&](const ColumnInfo& c, auto& column) {
    v.Column(c.name, column, NeedOf(c.need));
  });
}

template <class V>
void VisitFields(V& v, ForwardSnapshot& f) {
  VisitForwardColumns(f, [&](const ColumnInfo& c, auto& column) {
    v.Column(c.name, column, NeedOf(c.need));
  });
}

// An absent "agents", "vehicles" or "forward" object means none.
template <class V>
void VisitFields(V& v, Snapshot& s) {
  v("tick", s.tick, kOptional);
  v("dt", s.dt, kRequired);
  v.Object("agents", s.agents, kOptional);
  v.Object("vehicles", s.vehicles, kOptional);
  v.Object("forward", s.forward, kOptional);
}

template <class V>
void VisitFields(V& v, Scenario& s) {
  int version = kFormatVersion;
  v("version", version, kOptional);
  v.Version(version);
  v("name", s.name, kRequired);
  v("size", s.size, kRequired);
  v("seed", s.seed, kRequired);
  v("suggested_ticks", s.suggested_ticks, kOptional);
  v.Object("config", s.config, kOptional);
  v.Object("initial", s.initial, kRequired);
}

}  // namespace throng::scenarios::json_fields
