#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string_view>

#include "kernels/navigation/crowd_cost.h"
#include "kernels/navigation/distance_field.h"
#include "kernels/navigation/nav_costs.h"
#include "kernels/vehicles/spline.cuh"
#include "kernels/world/world_internals.h"
#include "kernels/world/world_validate.h"

namespace throng {
namespace {

// The world's navigation as the backend's steering reads it, with the fields built now.
NavSteerWorld NavWorldOf(World::Internals& w) {
  const size_t t = w.nav_targets.size();
  w.nav_views.resize(2 * t);
  for (size_t k = 0; k < t; ++k) {
    w.nav_views[k] = {w.nav_fields[k].spec, w.nav_fields[k].heading.data()};
    const bool built = k < w.crowd_field_built.size() && w.crowd_field_built[k];
    w.nav_views[t + k] = {w.crowd_fields[k].spec,
                          built ? w.crowd_fields[k].heading.data() : nullptr};
  }
  return {w.nav_steer_targets.data(), w.nav_keys.data(),  t,
          w.nav_rings.data(),         w.nav_rings.size(), w.nav_views.data(),
          w.nav_views.data() + t,     NavHeadingTable(),  w.nav_version};
}

// Re-routing (docs/NAVIGATION.md): the crowd fields the re-routed pedestrians follow, built
// for the targets they name (the backend says which, NavigationRoutes, from where the
// preparation left them), from a crowd refreshed with their prepared positions when the
// last is older than navigation.reroute_every ticks. Answers whether it asked the backend
// (which then holds this tick's target column).
bool PrepareCrowdFields(const WorldConfig& config, const Snapshot& s, const NavSteerParams& nav,
                        const NavSteerScene& scene, World::Internals& w) {
  // Without re-routing, or without anyone who navigates, nobody follows a crowd field.
  if (config.navigation.reroute_every <= 0 || scene.target == nullptr) return false;
  const size_t n = scene.count, t = w.nav_targets.size();
  std::vector<uint8_t> needed(t, 0);
  if (w.backend->NavigationRoutes(nav, NavWorldOf(w), scene, {needed.data()}) == 0) return true;
  NavSteerParams again = nav;
  again.targets = ColumnSource::kLastTick;  // the call above read them
  const auto every = static_cast<uint64_t>(config.navigation.reroute_every);
  if (!w.crowd.present || s.tick < w.crowd.tick || s.tick - w.crowd.tick >= every) {
    w.crowd_next.present = true;
    w.crowd_next.tick = s.tick;
    std::vector<float> x(n), y(n);
    w.backend->NavigationRoutes(again, NavWorldOf(w), scene, {needed.data(), x.data(), y.data()});
    w.crowd_next.positions.resize(n);
    for (size_t i = 0; i < n; ++i) w.crowd_next.positions[i] = {x[i], y[i]};
    w.crowd_refreshed = true;
    w.crowd_field_built.assign(w.crowd_field_built.size(), 0);
    ++w.nav_version;
  }
  std::vector<size_t> build;
  for (size_t k = 0; k < needed.size(); ++k) {
    if (needed[k] && !w.crowd_field_built[k]) build.push_back(k);
  }
  if (build.empty()) return true;
  const NavCrowd& crowd = w.crowd_refreshed ? w.crowd_next : w.crowd;
  const float density_cost = config.navigation.density_cost;
  // Everyone counts with the world's default body (the crowd keeps positions alone).
  const float body = config.agent_defaults.radius;
  // The targets on the world's grid share one crowd cost; a region's is its own.
  NavCosts shared;
  for (const size_t k : build) {
    if (NavHasRegion(config, k)) continue;
    shared = AddCrowdCost(NavCostsFor(config, w, k), crowd.positions, density_cost, body);
    break;
  }
  // One target's field per thread: each march is serial and reads only its costs.
#pragma omp parallel for schedule(dynamic)
  for (size_t j = 0; j < build.size(); ++j) {
    const size_t k = build[j];
    if (NavHasRegion(config, k)) {
      const NavCosts own =
          AddCrowdCost(NavCostsFor(config, w, k), crowd.positions, density_cost, body);
      w.crowd_fields[k] = BuildNavField(own, w.nav_targets[k]);
    } else {
      w.crowd_fields[k] = BuildNavField(shared, w.nav_targets[k]);  // read, not copied
    }
  }
  for (const size_t k : build) w.crowd_field_built[k] = 1;
  ++w.nav_version;
  return true;
}

}  // namespace

void DropUncommittedCrowd(World::Internals& w) {
  w.crowd_fields.resize(w.nav_targets.size());
  w.crowd_field_built.resize(w.nav_targets.size(), 0);
  if (w.crowd_refreshed) {  // the last refresh was never committed: its fields go
    w.crowd_field_built.assign(w.crowd_field_built.size(), 0);
    w.crowd_refreshed = false;
    ++w.nav_version;
  }
}

// Pedestrians in the internal frame, with their preferred velocities (behaviours), on the
// backend; then the crowd fields the re-routed follow, built here, and the navigating ones
// steered along their fields on the backend.
void PreparePedestrians(const WorldConfig& config, const Snapshot& s, ColumnSource columns,
                        bool check_values, World::Internals& w) {
  const AgentSnapshot& a = s.agents;
  const size_t n = a.size();
  AgentColumns& oa = w.orca_agents;
  oa.Resize(n);
  w.goal.resize(n);
  w.has_goal.resize(n);
  w.navigates.resize(n);
  w.z.resize(n);
  w.vz.resize(n);
  const PedestrianPrepareScene scene = PedestrianSceneOf(a);
  const PedestrianPrepareOutput out{oa.Out(0),     w.z.data(),        w.vz.data(),
                                    w.goal.data(), w.has_goal.data(), w.navigates.data()};
  // The prepared columns stay on the backend: the tick's other calls read them there (the
  // navigation below, the solve, the forward agents' fans: their bodies).
  PedestrianPrepareParams params;
  params.frame = config.frame;
  params.defaults = config.agent_defaults;
  params.dt = s.dt;
  params.columns = columns;
  params.outputs_to_host = false;
  if (check_values) {
    static const PedestrianChecks kChecks = AgentChecksForPreparation();
    params.checks = kChecks;
    params.checks.navigation = !config.navigation_targets.empty() && !a.target.empty();
  }
  if (w.backend->PreparePedestrians(params, scene, out) > 0) {
    // Refused: the host's checks name the first offender (nothing the tick keeps has
    // changed yet: the preparation's columns are replaced by every tick, committed or not).
    ValidateAgents(config, a);
    throw std::logic_error("PreparePedestrians refused agents that the host's checks accept");
  }
  // Only a world with navigation targets has agents that navigate (validated): steered
  // along their fields on the backend, where the preparation left them.
  if (config.navigation_targets.empty() || a.target.empty()) return;
  const NavGoalCone cone(config.navigation.goal_cone);
  NavSteerParams nav;
  nav.frame = config.frame;
  nav.max_accel = config.agent_defaults.max_accel;
  nav.slowing_radius = config.agent_defaults.slowing_radius;
  nav.dt = s.dt;
  nav.cone_on = cone.on;
  nav.cone_cos = cone.cos;
  nav.cone_sin = cone.sin;
  nav.targets = columns;
  nav.memory = w.memory_in_on_backend ? ColumnSource::kLastTick : ColumnSource::kHost;
  nav.outputs_to_host = false;  // the solve reads them on the backend
  const bool reroute = config.navigation.reroute_every > 0;
  const NavSteerScene scene_nav{a.target.data(),
                                a.has_goals() ? a.goal_x.data() : nullptr,
                                a.has_goals() ? a.goal_y.data() : nullptr,
                                a.has_goals() && !a.goal_z.empty() ? a.goal_z.data() : nullptr,
                                reroute ? w.agent_memory_in : nullptr,
                                oa.px.data(),
                                oa.py.data(),
                                oa.vx.data(),
                                oa.vy.data(),
                                oa.max_speed.data(),
                                w.navigates.data(),
                                n};
  if (PrepareCrowdFields(config, s, nav, scene_nav, w)) nav.targets = ColumnSource::kLastTick;
  if (w.backend->SteerNavigating(nav, NavWorldOf(w), scene_nav,
                                 {oa.pref_vx.data(), oa.pref_vy.data()}) > 0) {
    // A navigating row names a target the world does not have: the host's checks name it.
    // The crowd fields built on the way are the committed crowd's, or a refresh's that the
    // next tick drops (DropUncommittedCrowd): nothing the world keeps has changed.
    ValidateAgents(config, a);
    throw std::logic_error("SteerNavigating refused targets that the host's checks accept");
  }
}

// Vehicles: spline following; their bodies for the stages after it.
void DriveVehicles(const WorldConfig& config, const Snapshot& s, ColumnSource columns,
                   bool check_values, bool results_to_host, bool debug, World::Internals& w) {
  const VehicleSnapshot& vs = s.vehicles;
  const size_t m = vs.size();
  const VehicleDefaults& vd = config.vehicle_defaults;
  VehicleColumns& vc = w.vehicles;
  vc.Resize(m);
  // Profiles are told the world's bicycle and tick, like the world's own parameters.
  const auto told_the_vehicle = [&](FollowerParams params) {
    params.wheelbase = vd.bicycle.wheelbase;
    params.max_steer_angle = vd.bicycle.max_steer_angle;
    params.steering_lag = vd.bicycle.steering_time_constant;
    params.control_period = s.dt;
    return params;
  };
  vc.profile.resize(vs.profile.size());  // validated: <= kMaxVehicleProfiles
  vc.profiles.clear();
  if (!vc.profile.empty()) {
    for (const FollowerParams& p : config.vehicle_profiles)
      vc.profiles.push_back(told_the_vehicle(p));
  }
  vc.wheel_angle.resize(m);       // the bicycle's state (Integrate), for lag compensation
  vc.turn_before_move.resize(m);  // how each vehicle's physics moves it, for the tick lag
  w.bodies.resize(m);
  w.lane.resize(m);
  // On the backend: each vehicle on its lane in the internal frame, its memory updated.
  auto optional = [](const auto& column) { return column.empty() ? nullptr : column.data(); };
  const VehiclePrepareScene scene{vs.id.data(),
                                  vs.spline_id.data(),
                                  vs.x.data(),
                                  vs.y.data(),
                                  optional(vs.z),
                                  vs.yaw.data(),
                                  vs.speed.data(),
                                  optional(vs.progress_hint),
                                  optional(vs.length),
                                  optional(vs.width),
                                  optional(vs.max_speed),
                                  optional(vs.profile),
                                  {w.lane_ids.data(), w.lane_of_id.data(), w.lane_ids.size()},
                                  w.vehicle_memory_in,
                                  m};
  w.vehicle_memory.resize(m);  // this tick's (it may hold last tick's, gathered)
  const VehiclePrepareOutput out{vc.id.data(),
                                 vc.spline_id.data(),
                                 vc.px.data(),
                                 vc.py.data(),
                                 vc.pz.data(),
                                 vc.yaw.data(),
                                 vc.speed.data(),
                                 vc.progress_hint.data(),
                                 vc.max_speed.data(),
                                 vc.wheel_angle.data(),
                                 vc.turn_before_move.data(),
                                 vc.profile.empty() ? nullptr : vc.profile.data(),
                                 w.lane.data(),
                                 w.bodies.data(),
                                 w.vehicle_memory.data()};
  // The memory: last tick's where the backend kept it (the ids unchanged), this tick's left
  // there for the follower, which completes it and leaves it there too: no host stage
  // reads it (BringKeptHome brings it when Kept() or new ids want it). A tick without
  // vehicles prepares none, which tells the backend that what the last tick's vehicle
  // calls left is not this tick's.
  const ColumnSource memory =
      w.vehicle_memory_in_on_backend ? ColumnSource::kLastTick : ColumnSource::kHost;
  // The prepared columns stay on the backend for the tick's other calls (the forward
  // agents' fans meet the vehicles' boxes there).
  VehiclePrepareParams params{config.frame,
                              vd.length,
                              vd.width,
                              vd.max_speed,
                              s.dt,
                              /*outputs_to_host=*/false,
                              /*memory_to_host=*/false,
                              memory,
                              columns};
  if (check_values) {
    static const VehicleChecks kChecks = VehicleChecksForPreparation();
    params.checks = kChecks;
    params.checks.profiles = static_cast<uint32_t>(config.vehicle_profiles.size());
  }
  if (w.backend->PrepareVehicles(params, scene, out) > 0) {
    // Refused: the host's checks name the first offender (the preparation wrote the tick's
    // own columns and memory rows, which a rejected tick does not keep).
    ValidateVehicles(config, vs);
    throw std::logic_error("PrepareVehicles refused vehicles that the host's checks accept");
  }
  FollowerResults& fr = w.follower;
  if (m > 0) {
    // The follower steers the vehicle the world integrates (its bicycle's geometry and
    // lag), once a tick, on the columns the preparation just wrote; its debug columns come
    // back only for the results that carry them (TickOptions::debug), and the three answers
    // the path check's braking caps come back from the braking (CheckVehiclePaths). It
    // completes the memory the preparation wrote: the progress, and the wheel angle the
    // world's bicycle turns to, whether the world or the caller moves the vehicle.
    w.backend->FollowSplines(
        told_the_vehicle(config.follower), config.world_speed_limit, vc,
        {ColumnSource::kThisTick, debug && results_to_host, /*braking_follows=*/true,
         w.vehicle_memory.data(), /*memory_to_host=*/false, results_to_host},
        &fr);
  } else {
    fr.Resize(0);  // no stale answers from a tick that had vehicles
  }
}

// The path check caps the vehicles' speed for what is ahead. It runs after the ORCA solve,
// whose agents are the same points (the pedestrians, then the vehicles' discs), so that
// the backend reads that solve's neighbour grid instead of sorting them again; nothing
// between the two reads its answer. Returns how many vehicles it slowed.
uint64_t CheckVehiclePaths(const WorldConfig& config, const Snapshot& s, const StopRequested& stop,
                           bool results_to_host, World::Internals& w) {
  const size_t n = s.agents.size(), m = s.vehicles.size();
  const AgentColumns& oa = w.orca_agents;
  const VehicleColumns& vc = w.vehicles;
  FollowerResults& fr = w.follower;
  {
    PathCheckScene scene;
    scene.agent_x = oa.px.data();
    scene.agent_y = oa.py.data();
    scene.agent_radius = oa.radius.data();
    scene.agent_vx = oa.vx.data();
    scene.agent_vy = oa.vy.data();
    scene.agents = n;
    scene.bodies = w.bodies.data();
    scene.spline = w.lane.data();
    scene.progress = fr.progress.data();
    scene.speed = vc.speed.data();
    scene.vehicles = m;
    scene.points_were_last_solve = true;  // AddVehicleDiscs, then the ORCA stage
    scene.vehicle_columns = ColumnSource::kThisTick;  // DriveVehicles' calls, as they left them
    scene.clear_to_host = results_to_host;            // else for the braking only
    // It looks as far ahead as the weakest brakes need.
    float weakest_brake = config.follower.max_brake_decel;
    for (const FollowerParams& p : vc.profiles) {
      weakest_brake = std::min(weakest_brake, p.max_brake_decel);
    }
    w.backend->CheckPaths(config.path_check, weakest_brake, scene, stop, &w.clear);
  }
  if (m == 0) return 0;
  // Then the braking for it, on the backend: the world's follower, then its profiles (as
  // vc.profile numbers them).
  w.braking_profiles.assign(1, {config.follower.max_brake_decel, config.follower.speed_gain});
  for (const FollowerParams& p : vc.profiles) {
    w.braking_profiles.push_back({p.max_brake_decel, p.speed_gain});
  }
  // The path check's answer, the preparation's columns and the follower's answers, as
  // those calls left them.
  return w.backend->BrakeForPaths(
      {config.path_check.gap, w.clear.data(), vc.speed.data(),
       vc.profile.empty() ? nullptr : vc.profile.data(), w.braking_profiles.data(),
       w.braking_profiles.size(), m, ColumnSource::kThisTick, results_to_host},
      {fr.target_speed.data(), fr.throttle.data(), fr.brake.data()});
}

// The vehicles' bodies as discs after the pedestrians, non-cooperative: pedestrians take
// full responsibility for avoiding them. Laid out here (each body's disc count, to size the
// columns) from the sizes the preparation gave the bodies (the snapshot's, else the
// defaults: the bodies themselves stay on the backend), written on the backend.
void AddVehicleDiscs(const WorldConfig& config, const Snapshot& s, World::Internals& w) {
  AgentColumns& oa = w.orca_agents;
  const VehicleColumns& vc = w.vehicles;
  const VehicleSnapshot& vs = s.vehicles;
  const VehicleDefaults& vd = config.vehicle_defaults;
  const size_t n = oa.size(), m = vc.size();
  w.disc_start.resize(m + 1);
  uint32_t discs = 0;
  for (size_t i = 0; i < m; ++i) {
    w.disc_start[i] = discs;
    const float length = vs.length.empty() ? vd.length : vs.length[i];
    const float width = vs.width.empty() ? vd.width : vs.width[i];
    discs += static_cast<uint32_t>(VehicleBody::DiscCountFor(length, width));
  }
  w.disc_start[m] = discs;
  if (m == 0) return;
  oa.Resize(n + discs);
  // The preparation's bodies and speeds, as it left them.
  w.backend->WriteVehicleDiscs(
      {w.bodies.data(), vc.speed.data(), w.disc_start.data(), m, ColumnSource::kThisTick},
      {static_cast<uint32_t>(n), oa.Out(n), /*to_host=*/false});
}

// Results in the caller's frame, and what the detectors make of them (per-id memory is
// updated in the world's buffers, kept only when Step commits).
PedestrianSums FillResults(const WorldConfig& config, const Snapshot& s, const TickOptions& options,
                           ReportToHost to_host, World::Internals& w, TickResult* out) {
  const Frame frame = config.frame;
  const size_t n = s.agents.size(), m = s.vehicles.size();
  const AgentColumns& oa = w.orca_agents;
  const FollowerResults& fr = w.follower;
  const OrcaResult& orca = w.orca;
  AgentResults& ar = out->agents;
  // The local columns empty, and not written, unless asked for (TickOptions::local_results):
  // sized apart, so that an emptied one is not refilled with zeros every tick.
  const size_t local_rows = options.local_results ? n : 0;
#define THRONG_SIZE_SENT(name, type, wire) ar.name.resize(n);
#define THRONG_SIZE_LOCAL(name, type, wire) ar.name.resize(local_rows);
  THRONG_AGENT_RESULT_COLUMNS(THRONG_SIZE_SENT)
  THRONG_AGENT_LOCAL_RESULT_COLUMNS(THRONG_SIZE_LOCAL)
#undef THRONG_SIZE_SENT
#undef THRONG_SIZE_LOCAL
  auto local = [&](auto& column) { return options.local_results ? column.data() : nullptr; };
  // The pedestrians on the backend: results, detectors (re-routing each stall_ticks
  // without progress, for navigating agents) and the tick's sums.
  PedestrianReportParams params;
  params.frame = frame;
  params.detection = config.detection;
  params.dt = s.dt;
  params.reroute = config.navigation.reroute_every > 0;
  params.columns = ColumnSource::kThisTick;  // the solve's and the preparation's, as left
  params.memory = w.memory_in_on_backend ? ColumnSource::kLastTick : ColumnSource::kHost;
  params.results_to_host = to_host.results;
  params.memory_to_host = to_host.memory;
  const PedestrianReportScene scene{oa.px.data(),
                                    oa.py.data(),
                                    oa.pref_vx.data(),
                                    oa.pref_vy.data(),
                                    oa.flags.data(),
                                    orca.vx.data(),
                                    orca.vy.data(),
                                    orca.status.data(),
                                    orca.constraints.data(),
                                    orca.solve_flags.data(),
                                    orca.candidates.data(),
                                    orca.neighbors.data(),
                                    w.vz.data(),
                                    w.goal.data(),
                                    w.has_goal.data(),
                                    w.navigates.data(),
                                    w.agent_memory_in,
                                    n};
  w.agent_memory.resize(n);
  const PedestrianReportOutput report{
      ar.vx.data(),      ar.vy.data(),         ar.vz.data(),     local(ar.pref_vx),
      local(ar.pref_vy), local(ar.pref_vz),    ar.status.data(), local(ar.constraints),
      ar.flags.data(),   w.agent_memory.data()};
  const PedestrianSums sums = w.backend->ReportPedestrians(params, scene, report);

  if (!to_host.vehicle_results) return sums;  // the vehicles' stayed on the backend
  VehicleResults& vr = out->vehicles;
  vr.steering = fr.steering;
  vr.throttle = fr.throttle;
  vr.brake = fr.brake;
  vr.target_speed = fr.target_speed;
  vr.cte = fr.cte;
  vr.progress = fr.progress;
  vr.clear_distance = w.clear;
  for (auto* c : {&vr.target_x, &vr.target_y, &vr.target_z, &vr.progress_x, &vr.progress_y,
                  &vr.progress_z, &vr.tangent_x, &vr.tangent_y, &vr.tangent_z}) {
    c->assign(options.debug ? m : 0, 0.f);
  }
  vr.position_delta.clear();
  vr.heading_delta.clear();
  vr.look_ahead.clear();
  if (options.debug) {
    for (size_t i = 0; i < m; ++i) {
      const Vec3 t = frame.ToExternal({fr.target_x[i], fr.target_y[i], fr.target_z[i]});
      const Vec3 p = frame.ToExternal({fr.progress_x[i], fr.progress_y[i], fr.progress_z[i]});
      const Vec3 d = frame.ToExternal({fr.tangent_x[i], fr.tangent_y[i], fr.tangent_z[i]});
      vr.target_x[i] = t.x;
      vr.target_y[i] = t.y;
      vr.target_z[i] = t.z;
      vr.progress_x[i] = p.x;
      vr.progress_y[i] = p.y;
      vr.progress_z[i] = p.z;
      vr.tangent_x[i] = d.x;
      vr.tangent_y[i] = d.y;
      vr.tangent_z[i] = d.z;
    }
    // Angles are to the vehicle's right in every frame: they need no conversion.
    vr.position_delta = fr.position_delta;
    vr.heading_delta = fr.heading_delta;
    vr.look_ahead = fr.look_ahead;
  }
  return sums;
}

// Pedestrians move by their new velocity, vehicles by the bicycle model: `next` and the
// world's buffers (positions for the collision count, wheel angles) hold the result.
namespace {

// The columns Integrate writes for every pedestrian and every vehicle, below.
constexpr std::string_view kAgentsIntegrated[] = {"x", "y", "z", "vx", "vy", "vz"};
constexpr std::string_view kVehiclesIntegrated[] = {"x", "y", "z", "yaw", "speed", "progress_hint"};

template <size_t N>
auto CopyUnlessIn(const std::string_view (&written)[N], size_t count) {
  return [&written, count](const ColumnInfo& info, const auto& from, auto& to) {
    if (std::find(std::begin(written), std::end(written), info.name) != std::end(written)) {
      to.resize(count);
    } else {
      to = from;  // keeps the buffer's capacity
    }
  };
}

}  // namespace

void SizeNextState(const Snapshot& s, Snapshot* next) {
  next->tick = s.tick;
  next->dt = s.dt;
  VisitAgentColumnPairs(s.agents, next->agents, CopyUnlessIn(kAgentsIntegrated, s.agents.size()));
  VisitVehicleColumnPairs(s.vehicles, next->vehicles,
                          CopyUnlessIn(kVehiclesIntegrated, s.vehicles.size()));
  next->forward = s.forward;
}

void Integrate(const WorldConfig& config, const Snapshot& s, World::Internals& w,
               const TickResult& result, StateToHost to_host, Snapshot* next) {
  const Frame frame = config.frame;
  const size_t n = s.agents.size(), m = s.vehicles.size();
  const float dt = s.dt;
  AgentColumns& oa = w.orca_agents;
  const OrcaResult& orca = w.orca;
  VehicleColumns& vc = w.vehicles;
  const FollowerResults& fr = w.follower;
  const AgentResults& ar = result.agents;
  AgentSnapshot& na = next->agents;
  na.z.resize(n);
  na.vx.resize(n);
  na.vy.resize(n);
  na.vz.resize(n);
  // On the backend: the internal positions move in place (the contact count reads them).
  w.backend->MovePedestrians(
      // The solve's, preparation's and report's columns; the moved internal positions
      // stay on the backend for the contact count.
      {frame, dt, ColumnSource::kThisTick, /*positions_to_host=*/false, to_host.pedestrians},
      {orca.vx.data(), orca.vy.data(), w.vz.data(), ar.vx.data(), ar.vy.data(), ar.vz.data(), n},
      {oa.px.data(), oa.py.data(), w.z.data(), na.x.data(), na.y.data(), na.z.data(), na.vx.data(),
       na.vy.data(), na.vz.data()});
  // The vehicles by the world's bicycle, on the backend too: their bodies move in place
  // (the contact count reads them).
  VehicleSnapshot& nv = next->vehicles;
  nv.z.resize(m);
  nv.progress_hint.resize(m);
  if (m == 0) return;
  // The preparation's pose and bodies, the follower's controls as the braking capped them;
  // the moved bodies stay on the backend for the contact count (the next tick's
  // preparation writes them anew).
  w.backend->MoveVehicles({frame, config.vehicle_defaults.bicycle, dt, ColumnSource::kThisTick,
                           /*bodies_to_host=*/false, to_host.vehicles},
                          {vc.px.data(), vc.py.data(), vc.pz.data(), vc.yaw.data(), vc.speed.data(),
                           vc.wheel_angle.data(), fr.steering.data(), fr.throttle.data(),
                           fr.brake.data(), fr.progress.data(), m},
                          {vc.wheel_angle.data(), w.bodies.data(), nv.x.data(), nv.y.data(),
                           nv.z.data(), nv.yaw.data(), nv.speed.data(), nv.progress_hint.data()});
}

}  // namespace throng
