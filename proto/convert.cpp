#include "proto/convert.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/input/input_limits.h"

namespace throng::service {
namespace {

using google::protobuf::RepeatedField;

float Or(float value, float fallback) { return value != 0.f ? value : fallback; }
// A proto3 optional field: the value when set (0 included), else the default.
template <class T>
T Given(bool has, T value, T fallback) {
  return has ? value : fallback;
}

// 0 takes the fallback; a value too large for the engine's int is named.
int OrInt(uint32_t value, int fallback, const char* path) {
  if (value == 0) return fallback;
  if (value > static_cast<uint32_t>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument(std::string(path) + ": " + std::to_string(value) + " is too large");
  }
  return static_cast<int>(value);
}

Vec3 FromPoint(const v1::Point3& p) { return {p.x(), p.y(), p.z()}; }
void ToPoint(Vec3 v, v1::Point3* p) {
  p->set_x(v.x);
  p->set_y(v.y);
  p->set_z(v.z);
}

// A column of `n` values, or none when `optional`.
template <typename T>
void CheckLength(const RepeatedField<T>& column, size_t n, bool optional, const char* table,
                 const char* name, const char* things) {
  const auto size = static_cast<size_t>(column.size());
  if (size == n || (optional && size == 0)) return;
  throw std::invalid_argument(std::string(table) + "." + name + ": " + std::to_string(size) +
                              (size == 1 ? " value for " : " values for ") + std::to_string(n) +
                              " " + things);
}

template <typename T, typename P>
void Take(const RepeatedField<P>& in, std::vector<T>* out) {
  out->assign(in.begin(), in.end());
}

// Always `n` values: the column, or zeros where it is absent.
template <typename P, typename T>
void Put(const std::vector<T>& in, size_t n, RepeatedField<P>* out) {
  out->Resize(static_cast<int>(n), P{});
  if (in.size() == n) std::copy(in.begin(), in.end(), out->mutable_data());
}

// Only a present column.
template <typename P, typename T>
void PutPresent(const std::vector<T>& in, RepeatedField<P>* out) {
  out->Clear();
  out->Add(in.begin(), in.end());
}

// proto3 optional: a value set means what it says (0 included), unset takes `base`'s.
FollowerParams FollowerFromProto(const v1::FollowerConfig& f, const FollowerParams& base) {
  FollowerParams c = base;
  if (f.has_look_ahead_base()) c.look_ahead_base = f.look_ahead_base();
  if (f.has_look_ahead_speed_factor()) c.look_ahead_speed_factor = f.look_ahead_speed_factor();
  if (f.has_heading_weight()) c.heading_weight = f.heading_weight();
  if (f.has_max_yaw_delta()) c.max_yaw_delta = f.max_yaw_delta();
  if (f.has_crosstrack_gain()) c.crosstrack_gain = f.crosstrack_gain();
  if (f.has_max_lateral_accel()) c.max_lateral_accel = f.max_lateral_accel();
  if (f.has_max_brake_decel()) c.max_brake_decel = f.max_brake_decel();
  if (f.has_speed_gain()) c.speed_gain = f.speed_gain();
  if (f.has_projection_window()) c.projection_window = f.projection_window();
  if (f.has_adaptive_look_ahead()) c.adaptive_look_ahead = f.adaptive_look_ahead();
  if (f.has_curvature_feedforward()) c.curvature_feedforward = f.curvature_feedforward();
  if (f.has_lag_compensation()) c.lag_compensation = f.lag_compensation();
  if (f.has_approach_curvature_share()) c.approach_curvature_share = f.approach_curvature_share();
  if (f.has_wheel_response_time()) c.wheel_response_time = f.wheel_response_time();
  if (f.has_peak_curvature_speed()) c.peak_curvature_speed = f.peak_curvature_speed();
  return c;
}

// Every field set: GetWorld reports the values in use.
void FollowerToProto(const FollowerParams& c, v1::FollowerConfig* f) {
  f->set_look_ahead_base(c.look_ahead_base);
  f->set_look_ahead_speed_factor(c.look_ahead_speed_factor);
  f->set_heading_weight(c.heading_weight);
  f->set_max_yaw_delta(c.max_yaw_delta);
  f->set_crosstrack_gain(c.crosstrack_gain);
  f->set_max_lateral_accel(c.max_lateral_accel);
  f->set_max_brake_decel(c.max_brake_decel);
  f->set_speed_gain(c.speed_gain);
  f->set_projection_window(c.projection_window);
  f->set_adaptive_look_ahead(c.adaptive_look_ahead);
  f->set_curvature_feedforward(c.curvature_feedforward);
  f->set_lag_compensation(c.lag_compensation);
  f->set_approach_curvature_share(c.approach_curvature_share);
  f->set_wheel_response_time(c.wheel_response_time);
  f->set_peak_curvature_speed(c.peak_curvature_speed);
}

// An obstacle's height range: none unless base and top are both set (the engine checks
// the values).
HeightRange HeightsFromProto(const v1::Obstacle& o, int k) {
  if (o.has_base() != o.has_top()) {
    throw std::invalid_argument(
        "obstacles[" + std::to_string(k) + "]" +
        (o.has_base() ? ".top: missing while base is given" : ".base: missing while top is given"));
  }
  HeightRange h;
  h.bounded = o.has_base();
  if (h.bounded) {
    h.base = o.base();
    h.top = o.top();
  }
  return h;
}

ForwardDefaults ForwardFromProto(const v1::ForwardConfig& f) {
  if (f.mode() != v1::FAN_MODE_GROUND && f.mode() != v1::FAN_MODE_CONE) {
    throw std::invalid_argument("forward.mode: " + std::to_string(f.mode()) +
                                " is not a FanMode (0 ground, 1 cone)");
  }
  const ForwardDefaults d;
  ForwardDefaults c;
  c.mode = f.mode() == v1::FAN_MODE_CONE ? FanMode::kCone : FanMode::kGround;
  // A value beyond int stays out of range (the engine's check names it), never wraps.
  constexpr auto kIntMax = static_cast<uint32_t>(std::numeric_limits<int>::max());
  c.probes = f.has_probes() ? static_cast<int>(std::min(f.probes(), kIntMax)) : d.probes;
  c.half_angle = Given(f.has_half_angle(), f.half_angle(), d.half_angle);
  c.probe_length = Given(f.has_probe_length(), f.probe_length(), d.probe_length);
  c.turn_speed = Given(f.has_turn_speed(), f.turn_speed(), d.turn_speed);
  c.radius = Given(f.has_radius(), f.radius(), d.radius);
  return c;
}

void ForwardConfigToProto(const ForwardDefaults& c, v1::ForwardConfig* f) {
  f->set_mode(c.mode == FanMode::kCone ? v1::FAN_MODE_CONE : v1::FAN_MODE_GROUND);
  f->set_probes(static_cast<uint32_t>(c.probes));
  f->set_half_angle(c.half_angle);
  f->set_probe_length(c.probe_length);
  f->set_turn_speed(c.turn_speed);
  f->set_radius(c.radius);
}

constexpr uint32_t kKnownAgentFlags =
    v1::AGENT_FLAG_NON_COOPERATIVE | v1::AGENT_FLAG_USES_PREFERRED_VELOCITY;

}  // namespace

WorldConfig ConfigFromProto(const v1::WorldConfig& p) {
  WorldConfig c;
  if (p.up_axis() != v1::UP_AXIS_Z && p.up_axis() != v1::UP_AXIS_Y) {
    throw std::invalid_argument("up_axis: " + std::to_string(p.up_axis()) +
                                " is not an UpAxis (0 Z, 1 Y)");
  }
  if (p.handedness() != v1::HANDEDNESS_RIGHT && p.handedness() != v1::HANDEDNESS_LEFT) {
    throw std::invalid_argument("handedness: " + std::to_string(p.handedness()) +
                                " is not a Handedness (0 right, 1 left)");
  }
  c.frame.up = p.up_axis() == v1::UP_AXIS_Y ? UpAxis::kY : UpAxis::kZ;
  c.frame.handedness =
      p.handedness() == v1::HANDEDNESS_LEFT ? Handedness::kLeft : Handedness::kRight;

  c.splines.resize(p.splines_size());
  for (int i = 0; i < p.splines_size(); ++i) {
    const auto& s = p.splines(i);
    auto& d = c.splines[i];
    d.id = s.id();
    d.closed = s.closed();
    d.speed_limit = s.speed_limit();
    d.points.reserve(s.points_size());
    for (const auto& pt : s.points()) d.points.push_back(FromPoint(pt));
  }
  c.obstacles.resize(p.obstacles_size());
  for (int i = 0; i < p.obstacles_size(); ++i) {
    for (const auto& v : p.obstacles(i).vertices()) c.obstacles[i].push_back(FromPoint(v));
  }
  // One range per obstacle as soon as one has a range (the rest: none), else none at all.
  for (int i = 0; i < p.obstacles_size(); ++i) {
    const HeightRange h = HeightsFromProto(p.obstacles(i), i);
    if (!h.bounded) continue;
    c.obstacle_heights.resize(c.obstacles.size());
    c.obstacle_heights[i] = h;
  }
  c.spheres.resize(p.spheres_size());
  for (int i = 0; i < p.spheres_size(); ++i) {
    c.spheres[i].center = FromPoint(p.spheres(i).center());
    c.spheres[i].radius = p.spheres(i).radius();
  }
  c.forward = ForwardFromProto(p.forward());
  c.navigation_targets.resize(p.navigation_targets_size());
  for (int i = 0; i < p.navigation_targets_size(); ++i) {
    c.navigation_targets[i].id = p.navigation_targets(i).id();
    for (const auto& q : p.navigation_targets(i).shape()) {
      c.navigation_targets[i].shape.push_back(FromPoint(q));
    }
    for (const auto& q : p.navigation_targets(i).region()) {
      c.navigation_targets[i].region.push_back(FromPoint(q));
    }
  }
  const v1::NavigationConfig& nav = p.navigation();
  if (nav.has_cell()) c.navigation.cell = nav.cell();
  if (nav.has_clearance()) c.navigation.clearance = nav.clearance();
  if (nav.has_wall_comfort()) c.navigation.wall_comfort = nav.wall_comfort();
  if (nav.has_wall_cost()) c.navigation.wall_cost = nav.wall_cost();
  if (nav.has_margin()) c.navigation.margin = nav.margin();
  if (nav.has_density_cost()) c.navigation.density_cost = nav.density_cost();
  if (nav.has_reroute_every()) c.navigation.reroute_every = nav.reroute_every();
  if (nav.has_goal_cone()) c.navigation.goal_cone = nav.goal_cone();

  const OrcaParams orca;
  c.orca.time_horizon = Or(p.orca().time_horizon(), orca.time_horizon);
  c.orca.time_horizon_obst = Or(p.orca().time_horizon_obst(), orca.time_horizon_obst);
  c.orca.neighbor_dist = Or(p.orca().neighbor_dist(), orca.neighbor_dist);
  c.orca.max_neighbors = OrInt(p.orca().max_neighbors(), orca.max_neighbors, "orca.max_neighbors");
  if (p.orca().has_contact_margin_ratio())
    c.orca.contact_margin_ratio = p.orca().contact_margin_ratio();
  if (p.orca().has_jam_step()) c.orca.jam_step = p.orca().jam_step();
  if (p.orca().has_density_speed()) c.orca.density_speed = p.orca().density_speed();
  if (p.orca().has_right_of_way()) c.orca.right_of_way = p.orca().right_of_way();
  if (p.orca().has_headway_speed()) c.orca.headway_speed = p.orca().headway_speed();
  if (p.orca().has_standing_detour()) c.orca.standing_detour = p.orca().standing_detour();
  if (p.orca().has_corner_lines()) c.orca.corner_lines = p.orca().corner_lines();
  if (p.orca().has_squeeze_step()) c.orca.squeeze_step = p.orca().squeeze_step();

  c.follower = FollowerFromProto(p.follower(), FollowerParams{});
  if (p.vehicle_profiles_size() > static_cast<int>(kMaxVehicleProfiles)) {
    throw LimitExceeded("vehicle_profiles: " + std::to_string(p.vehicle_profiles_size()) +
                        " profiles, more than the limit of " + std::to_string(kMaxVehicleProfiles));
  }
  for (const auto& profile : p.vehicle_profiles()) {
    c.vehicle_profiles.push_back(FollowerFromProto(profile, c.follower));
  }

  const BicycleParams bike;
  const auto& b = p.bicycle();
  BicycleParams& cb = c.vehicle_defaults.bicycle;
  cb.wheelbase = Given(b.has_wheelbase(), b.wheelbase(), bike.wheelbase);
  cb.max_steer_angle = Given(b.has_max_steer_angle(), b.max_steer_angle(), bike.max_steer_angle);
  cb.max_accel = Given(b.has_max_accel(), b.max_accel(), bike.max_accel);
  cb.max_brake = Given(b.has_max_brake(), b.max_brake(), bike.max_brake);
  cb.steering_time_constant =
      Given(b.has_steering_lag(), b.steering_lag(), bike.steering_time_constant);

  const auto& d = p.defaults();
  const AgentDefaults ad;
  c.agent_defaults.radius = Or(d.agent_radius(), ad.radius);
  c.agent_defaults.max_speed = Or(d.agent_max_speed(), ad.max_speed);
  c.agent_defaults.max_accel = Or(d.agent_max_accel(), ad.max_accel);
  c.agent_defaults.slowing_radius = Or(d.agent_slowing_radius(), ad.slowing_radius);
  const VehicleDefaults vd;
  c.vehicle_defaults.length = Or(d.vehicle_length(), vd.length);
  c.vehicle_defaults.width = Or(d.vehicle_width(), vd.width);
  c.vehicle_defaults.max_speed = Or(d.vehicle_max_speed(), vd.max_speed);
  const DetectionParams det;
  c.detection.oscillation_window =
      OrInt(d.oscillation_window(), det.oscillation_window, "defaults.oscillation_window");
  c.detection.oscillation_flips =
      OrInt(d.oscillation_flips(), det.oscillation_flips, "defaults.oscillation_flips");
  c.detection.stall_ticks = OrInt(d.stall_ticks(), det.stall_ticks, "defaults.stall_ticks");
  c.detection.stall_min_progress = Or(d.stall_min_progress(), det.stall_min_progress);
  if (d.agent_behavior() < 0 || d.agent_behavior() >= static_cast<int>(kAgentBehaviorCount)) {
    throw std::invalid_argument("defaults.agent_behavior: " + std::to_string(d.agent_behavior()) +
                                " is not a Behavior (0 by columns, 1 arrive, 2 seek, 3 flee, 4 "
                                "preferred velocity, 5 navigate)");
  }
  c.agent_defaults.behavior = static_cast<AgentBehavior>(d.agent_behavior());

  c.world_speed_limit = p.world_speed_limit();
  c.audit_every = p.audit_every();
  return c;
}

void ConfigToProto(const WorldConfig& c, v1::WorldConfig* p) {
  p->set_up_axis(c.frame.up == UpAxis::kY ? v1::UP_AXIS_Y : v1::UP_AXIS_Z);
  p->set_handedness(c.frame.handedness == Handedness::kLeft ? v1::HANDEDNESS_LEFT
                                                            : v1::HANDEDNESS_RIGHT);
  p->clear_splines();
  for (const auto& d : c.splines) {
    auto* s = p->add_splines();
    s->set_id(d.id);
    s->set_closed(d.closed);
    s->set_speed_limit(d.speed_limit);
    for (Vec3 v : d.points) ToPoint(v, s->add_points());
  }
  p->clear_obstacles();
  for (size_t k = 0; k < c.obstacles.size(); ++k) {
    auto* o = p->add_obstacles();
    for (Vec3 v : c.obstacles[k]) ToPoint(v, o->add_vertices());
    // Heights only where the obstacle has a range.
    if (k < c.obstacle_heights.size() && c.obstacle_heights[k].bounded) {
      o->set_base(c.obstacle_heights[k].base);
      o->set_top(c.obstacle_heights[k].top);
    }
  }
  p->clear_spheres();
  for (const SphereObstacle& sphere : c.spheres) {
    auto* s = p->add_spheres();
    ToPoint(sphere.center, s->mutable_center());
    s->set_radius(sphere.radius);
  }
  ForwardConfigToProto(c.forward, p->mutable_forward());
  p->clear_navigation_targets();
  for (const NavigationTarget& g : c.navigation_targets) {
    auto* t = p->add_navigation_targets();
    t->set_id(g.id);
    for (Vec3 q : g.shape) ToPoint(q, t->add_shape());
    for (Vec3 q : g.region) ToPoint(q, t->add_region());
  }
  auto* nav = p->mutable_navigation();
  nav->set_cell(c.navigation.cell);
  nav->set_clearance(c.navigation.clearance);
  nav->set_wall_comfort(c.navigation.wall_comfort);
  nav->set_wall_cost(c.navigation.wall_cost);
  nav->set_margin(c.navigation.margin);
  nav->set_density_cost(c.navigation.density_cost);
  nav->set_goal_cone(c.navigation.goal_cone);
  nav->set_reroute_every(c.navigation.reroute_every);
  auto* orca = p->mutable_orca();
  orca->set_time_horizon(c.orca.time_horizon);
  orca->set_time_horizon_obst(c.orca.time_horizon_obst);
  orca->set_neighbor_dist(c.orca.neighbor_dist);
  orca->set_contact_margin_ratio(c.orca.contact_margin_ratio);
  orca->set_jam_step(c.orca.jam_step);
  orca->set_density_speed(c.orca.density_speed);
  orca->set_right_of_way(c.orca.right_of_way);
  orca->set_headway_speed(c.orca.headway_speed);
  orca->set_standing_detour(c.orca.standing_detour);
  orca->set_corner_lines(c.orca.corner_lines);
  orca->set_squeeze_step(c.orca.squeeze_step);
  orca->set_max_neighbors(static_cast<uint32_t>(c.orca.max_neighbors));
  FollowerToProto(c.follower, p->mutable_follower());
  p->clear_vehicle_profiles();
  for (const FollowerParams& profile : c.vehicle_profiles) {
    FollowerToProto(profile, p->add_vehicle_profiles());
  }
  auto* d = p->mutable_defaults();
  d->set_agent_radius(c.agent_defaults.radius);
  d->set_agent_max_speed(c.agent_defaults.max_speed);
  d->set_agent_max_accel(c.agent_defaults.max_accel);
  d->set_agent_slowing_radius(c.agent_defaults.slowing_radius);
  d->set_vehicle_length(c.vehicle_defaults.length);
  d->set_vehicle_width(c.vehicle_defaults.width);
  d->set_vehicle_max_speed(c.vehicle_defaults.max_speed);
  d->set_oscillation_window(static_cast<uint32_t>(c.detection.oscillation_window));
  d->set_oscillation_flips(static_cast<uint32_t>(c.detection.oscillation_flips));
  d->set_stall_ticks(static_cast<uint32_t>(c.detection.stall_ticks));
  d->set_stall_min_progress(c.detection.stall_min_progress);
  d->set_agent_behavior(static_cast<v1::Behavior>(c.agent_defaults.behavior));
  p->set_world_speed_limit(c.world_speed_limit);
  p->set_audit_every(c.audit_every);
  const BicycleParams& cb = c.vehicle_defaults.bicycle;
  auto* b = p->mutable_bicycle();
  b->set_wheelbase(cb.wheelbase);
  b->set_max_steer_angle(cb.max_steer_angle);
  b->set_max_accel(cb.max_accel);
  b->set_max_brake(cb.max_brake);
  b->set_steering_lag(cb.steering_time_constant);
}

std::string ConfigMessageToProto(std::string_view message) {
  // Engine prefix -> WorldConfig prefix; the first that matches is replaced.
  static constexpr std::pair<std::string_view, std::string_view> kPrefixes[] = {
      {"params.", "orca."},
      {"agent_defaults.", "defaults.agent_"},
      {"vehicle_defaults.bicycle.steering_time_constant", "bicycle.steering_lag"},
      {"vehicle_defaults.bicycle.", "bicycle."},
      {"vehicle_defaults.", "defaults.vehicle_"},
      {"detection.", "defaults."},
      {"frame.up", "up_axis"},
      {"frame.handedness", "handedness"},
      {"world.speed_limit", "world_speed_limit"},
  };
  for (const auto& [engine, api] : kPrefixes) {
    if (message.substr(0, engine.size()) == engine) {
      return std::string(api) + std::string(message.substr(engine.size()));
    }
  }
  return std::string(message);
}

BackendKind BackendFromProto(int backend, BackendKind server_default) {
  switch (backend) {
    case v1::BACKEND_UNSPECIFIED:
      return server_default;
    case v1::BACKEND_AUTO:
      return BackendKind::kAuto;
    case v1::BACKEND_CUDA:
      return BackendKind::kCuda;
    case v1::BACKEND_CPU:
      return BackendKind::kCpu;
    case v1::BACKEND_REFERENCE:
      return BackendKind::kReference;
    default:
      throw std::invalid_argument("backend: " + std::to_string(backend) + " is not a Backend");
  }
}

v1::Backend BackendToProto(BackendKind kind) {
  switch (kind) {
    case BackendKind::kAuto:
      return v1::BACKEND_AUTO;
    case BackendKind::kCuda:
      return v1::BACKEND_CUDA;
    case BackendKind::kCpu:
      return v1::BACKEND_CPU;
    case BackendKind::kReference:
      return v1::BACKEND_REFERENCE;
  }
  return v1::BACKEND_UNSPECIFIED;
}

void SnapshotFromProto(uint64_t tick, float dt, const v1::AgentBatch& a, const v1::VehicleBatch& v,
                       Snapshot* out) {
  SnapshotFromProto(tick, dt, a, v, v1::ForwardBatch::default_instance(), out);
}

void SnapshotFromProto(uint64_t tick, float dt, const v1::AgentBatch& a, const v1::VehicleBatch& v,
                       const v1::ForwardBatch& f, Snapshot* out) {
  // Every length first, so that nothing is half converted when one is wrong; the columns
  // are the tables' (kernels/world/column_tables.h), under their proto names.
  const auto n = static_cast<size_t>(a.id_size());
  const auto m = static_cast<size_t>(v.id_size());
  const auto k = static_cast<size_t>(f.id_size());
#define THRONG_AGENT_LENGTH(name, type, wire, need, rule) \
  CheckLength(a.name(), n, ColumnNeed::need == ColumnNeed::kOptional, "agents", #name, "agents");
#define THRONG_VEHICLE_LENGTH(name, type, wire, need, rule)                              \
  CheckLength(v.name(), m, ColumnNeed::need == ColumnNeed::kOptional, "vehicles", #name, \
              "vehicles");
#define THRONG_FORWARD_LENGTH(name, type, wire, need, rule)                             \
  CheckLength(f.name(), k, ColumnNeed::need == ColumnNeed::kOptional, "forward", #name, \
              "forward agents");
  THRONG_AGENT_COLUMNS(THRONG_AGENT_LENGTH)
  THRONG_VEHICLE_COLUMNS(THRONG_VEHICLE_LENGTH)
  THRONG_FORWARD_COLUMNS(THRONG_FORWARD_LENGTH)
#undef THRONG_AGENT_LENGTH
#undef THRONG_VEHICLE_LENGTH
#undef THRONG_FORWARD_LENGTH
  // The columns the engine keeps narrower than the wire: their values must fit.
  for (int i = 0; i < a.flags_size(); ++i) {
    if ((a.flags(i) & ~kKnownAgentFlags) != 0) {
      throw std::invalid_argument("agents.flags[" + std::to_string(i) +
                                  "]: " + std::to_string(a.flags(i)) +
                                  " has unknown bits (known: 1 non-cooperative, 2 uses "
                                  "preferred velocity)");
    }
  }
  for (int i = 0; i < a.behavior_size(); ++i) {
    if (a.behavior(i) >= kAgentBehaviorCount) {
      throw std::invalid_argument("agents.behavior[" + std::to_string(i) +
                                  "]: " + std::to_string(a.behavior(i)) +
                                  " is not a Behavior (0 by columns, 1 arrive, 2 seek, 3 flee, 4 "
                                  "preferred velocity, 5 navigate)");
    }
  }

  out->tick = tick;
  out->dt = dt;
  // Forward probes are uint32 both sides: a value beyond 64 reaches the engine's check.
#define THRONG_TAKE_AGENT(name, type, wire, need, rule) Take(a.name(), &out->agents.name);
#define THRONG_TAKE_VEHICLE(name, type, wire, need, rule) Take(v.name(), &out->vehicles.name);
#define THRONG_TAKE_FORWARD(name, type, wire, need, rule) Take(f.name(), &out->forward.name);
  THRONG_AGENT_COLUMNS(THRONG_TAKE_AGENT)
  THRONG_VEHICLE_COLUMNS(THRONG_TAKE_VEHICLE)
  THRONG_FORWARD_COLUMNS(THRONG_TAKE_FORWARD)
#undef THRONG_TAKE_AGENT
#undef THRONG_TAKE_VEHICLE
#undef THRONG_TAKE_FORWARD
}

#define THRONG_PUT_PRESENT(name, type, wire, need, rule) PutPresent(in.name, out->mutable_##name());

void AgentsToProto(const AgentSnapshot& in, v1::AgentBatch* out) {
  THRONG_AGENT_COLUMNS(THRONG_PUT_PRESENT)
}

void VehiclesToProto(const VehicleSnapshot& in, v1::VehicleBatch* out) {
  THRONG_VEHICLE_COLUMNS(THRONG_PUT_PRESENT)
}

void ForwardToProto(const ForwardSnapshot& in, v1::ForwardBatch* out) {
  THRONG_FORWARD_COLUMNS(THRONG_PUT_PRESENT)
}

#undef THRONG_PUT_PRESENT

void ResultToProto(const TickResult& r, const Snapshot& state, const TickOptions& options,
                   std::string_view backend, v1::StepResponse* out) {
  out->set_tick(r.tick);
  // Result columns always hold one value per row (zeros where the engine left one empty);
  // debug columns only with options.debug, the moved state only when the tick integrated.
  const size_t n = r.agents.vx.size();
  const size_t m = r.vehicles.steering.size();
  const size_t k = r.forward.move_x.size();
  const size_t md = options.debug ? m : 0;
  const size_t ni = options.integrate ? n : 0;
  const size_t mi = options.integrate ? m : 0;
  const size_t ki = options.integrate ? k : 0;
  auto* a = out->mutable_agents();
  auto* v = out->mutable_vehicles();
  auto* f = out->mutable_forward();
#define THRONG_PUT_AGENT(name, type, wire) Put(r.agents.name, n, a->mutable_##name());
#define THRONG_PUT_VEHICLE(name, type, wire) Put(r.vehicles.name, m, v->mutable_##name());
#define THRONG_PUT_VEHICLE_DEBUG(name, type, wire) Put(r.vehicles.name, md, v->mutable_##name());
#define THRONG_PUT_FORWARD(name, type, wire) Put(r.forward.name, k, f->mutable_##name());
#define THRONG_PUT_AGENT_MOVED(name) Put(state.agents.name, ni, a->mutable_##name());
#define THRONG_PUT_VEHICLE_MOVED(name) Put(state.vehicles.name, mi, v->mutable_##name());
#define THRONG_PUT_FORWARD_MOVED(name) Put(state.forward.name, ki, f->mutable_##name());
  THRONG_AGENT_RESULT_COLUMNS(THRONG_PUT_AGENT)
  THRONG_VEHICLE_RESULT_COLUMNS(THRONG_PUT_VEHICLE)
  THRONG_VEHICLE_DEBUG_RESULT_COLUMNS(THRONG_PUT_VEHICLE_DEBUG)
  THRONG_FORWARD_RESULT_COLUMNS(THRONG_PUT_FORWARD)
  THRONG_AGENT_MOVED_COLUMNS(THRONG_PUT_AGENT_MOVED)
  THRONG_VEHICLE_MOVED_COLUMNS(THRONG_PUT_VEHICLE_MOVED)
  THRONG_FORWARD_MOVED_COLUMNS(THRONG_PUT_FORWARD_MOVED)
#undef THRONG_PUT_AGENT
#undef THRONG_PUT_VEHICLE
#undef THRONG_PUT_VEHICLE_DEBUG
#undef THRONG_PUT_FORWARD
#undef THRONG_PUT_AGENT_MOVED
#undef THRONG_PUT_VEHICLE_MOVED
#undef THRONG_PUT_FORWARD_MOVED
  StatsToProto(r.stats, backend, out->mutable_stats());
}

void StatsToProto(const TickStats& s, std::string_view backend, v1::TickStats* p) {
  p->set_tick(s.tick);
  p->set_agents(s.agents);
  p->set_vehicles(s.vehicles);
  p->set_ok(s.status_count[static_cast<int>(SolveStatus::kOk)]);
  p->set_safe_stop(s.status_count[static_cast<int>(SolveStatus::kSafeStop)]);
  p->set_emergency(s.status_count[static_cast<int>(SolveStatus::kEmergency)]);
  p->set_oscillating(s.oscillating);
  p->set_stalled(s.stalled);
  p->set_stall_episodes(s.stall_episodes);
  p->set_longest_stall_ticks(s.longest_stall_ticks);
  p->set_jam_steps(s.jam_steps);
  p->set_reroutes(s.reroutes);
  p->set_stopped(s.stopped);
  p->set_time_stopped(s.time_stopped_s);
  p->set_constraints_mean(s.constraints_mean);
  p->set_constraints_max(s.constraints_max);
  p->set_deviation_mean(s.deviation_mean);
  p->set_deviation_max(s.deviation_max);
  p->set_candidates(s.candidates);
  p->set_neighbors(s.neighbors);
  p->set_audited_agents(s.audited_agents);
  p->set_audited_false_negatives(s.audited_false_negatives);
  p->set_agent_overlaps(s.agent_overlaps);
  p->set_vehicle_overlaps(s.vehicle_overlaps);
  p->set_agents_in_obstacles(s.agents_in_obstacles);
  p->set_vehicles_braking(s.vehicles_braking);
  p->set_forward_agents(s.forward_agents);
  p->set_forward_blocked(s.forward_blocked);
  p->set_forward_in_obstacles(s.forward_in_obstacles);
  auto* t = p->mutable_stage_seconds();
  const auto sec = [&](Stage stage) { return s.stage_ms[static_cast<int>(stage)] * 1e-3; };
  t->set_validate(sec(Stage::kValidate));
  t->set_upload(sec(Stage::kUpload));
  t->set_grid(sec(Stage::kGrid));
  t->set_preferred(sec(Stage::kPreferred));
  t->set_candidates(sec(Stage::kCandidates));
  t->set_orca(sec(Stage::kOrca));
  t->set_vehicles(sec(Stage::kVehicles));
  t->set_integrate(sec(Stage::kIntegrate));
  t->set_stats(sec(Stage::kStats));
  t->set_download(sec(Stage::kDownload));
  t->set_forward(sec(Stage::kForward));
  t->set_total(s.total_ms() * 1e-3);
  p->set_backend(std::string(backend));
}

void TotalsToProto(const WorldTotals& s, v1::WorldTotals* p) {
  p->set_ticks(s.ticks);
  p->set_ok(s.status_count[static_cast<int>(SolveStatus::kOk)]);
  p->set_safe_stop(s.status_count[static_cast<int>(SolveStatus::kSafeStop)]);
  p->set_emergency(s.status_count[static_cast<int>(SolveStatus::kEmergency)]);
  p->set_oscillating(s.oscillating);
  p->set_stalled(s.stalled);
  p->set_stall_episodes(s.stall_episodes);
  p->set_longest_stall_ticks(s.longest_stall_ticks);
  p->set_jam_steps(s.jam_steps);
  p->set_reroutes(s.reroutes);
  p->set_agent_overlaps(s.agent_overlaps);
  p->set_vehicle_overlaps(s.vehicle_overlaps);
  p->set_agents_in_obstacles(s.agents_in_obstacles);
  p->set_forward_in_obstacles(s.forward_in_obstacles);
  p->set_time_stopped(s.time_stopped_s);
}

namespace {

// The counts a tick's stats and a world's totals both keep, under the same names.
template <class Counts, class Proto>
void CountsFromProto(const Proto& p, Counts* s) {
  s->status_count[static_cast<int>(SolveStatus::kOk)] = p.ok();
  s->status_count[static_cast<int>(SolveStatus::kSafeStop)] = p.safe_stop();
  s->status_count[static_cast<int>(SolveStatus::kEmergency)] = p.emergency();
  s->oscillating = p.oscillating();
  s->stalled = p.stalled();
  s->stall_episodes = p.stall_episodes();
  s->longest_stall_ticks = p.longest_stall_ticks();
  s->jam_steps = p.jam_steps();
  s->reroutes = p.reroutes();
  s->agent_overlaps = p.agent_overlaps();
  s->vehicle_overlaps = p.vehicle_overlaps();
  s->agents_in_obstacles = p.agents_in_obstacles();
  s->forward_in_obstacles = p.forward_in_obstacles();
  s->time_stopped_s = p.time_stopped();
}

}  // namespace

TickStats StatsFromProto(const v1::TickStats& p) {
  TickStats s;
  CountsFromProto(p, &s);
  s.tick = p.tick();
  s.agents = p.agents();
  s.vehicles = p.vehicles();
  s.stopped = p.stopped();
  s.constraints_mean = p.constraints_mean();
  s.constraints_max = p.constraints_max();
  s.deviation_mean = p.deviation_mean();
  s.deviation_max = p.deviation_max();
  s.candidates = p.candidates();
  s.neighbors = p.neighbors();
  s.audited_agents = p.audited_agents();
  s.audited_false_negatives = p.audited_false_negatives();
  s.vehicles_braking = p.vehicles_braking();
  s.forward_agents = p.forward_agents();
  s.forward_blocked = p.forward_blocked();
  const auto& t = p.stage_seconds();
  const auto ms = [&](Stage stage, double seconds) {
    s.stage_ms[static_cast<int>(stage)] = seconds * 1e3;
  };
  ms(Stage::kValidate, t.validate());
  ms(Stage::kUpload, t.upload());
  ms(Stage::kGrid, t.grid());
  ms(Stage::kPreferred, t.preferred());
  ms(Stage::kCandidates, t.candidates());
  ms(Stage::kOrca, t.orca());
  ms(Stage::kVehicles, t.vehicles());
  ms(Stage::kIntegrate, t.integrate());
  ms(Stage::kStats, t.stats());
  ms(Stage::kDownload, t.download());
  ms(Stage::kForward, t.forward());
  return s;
}

WorldTotals TotalsFromProto(const v1::WorldTotals& p) {
  WorldTotals s;
  CountsFromProto(p, &s);
  s.ticks = p.ticks();
  return s;
}

}  // namespace throng::service
