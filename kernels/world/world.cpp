#include "kernels/world/world.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "kernels/obstacles.h"
#include "kernels/spline.cuh"
#include "kernels/steering.cuh"
#include "kernels/world/collisions.h"
#include "kernels/world/path_check.h"
#include "kernels/world/vehicle_body.h"
#include "kernels/world/world_memory.h"
#include "kernels/world/world_validate.h"

namespace throng {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Optional column value or the default.
float Or(const std::vector<float>& column, size_t i, float fallback) {
  return column.empty() ? fallback : column[i];
}

// Obstacles in the internal frame, counter-clockwise whatever the caller's orientation
// (a mirroring frame reverses it; callers may also simply give either).
std::vector<Polygon> InternalObstacles(const WorldConfig& config) {
  std::vector<Polygon> polygons(config.obstacles.size());
  for (size_t p = 0; p < config.obstacles.size(); ++p) {
    auto& vertices = polygons[p].vertices;
    for (Vec3 q : config.obstacles[p]) {
      const Vec3 i = config.frame.ToInternal(q);
      vertices.push_back({i.x, i.y});
    }
    double area2 = 0;
    for (size_t k = 0; k < vertices.size(); ++k) {
      const Vec2 a = vertices[k], b = vertices[(k + 1) % vertices.size()];
      area2 += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
    }
    if (area2 < 0) std::reverse(vertices.begin(), vertices.end());
  }
  return polygons;
}

std::vector<SplineDesc> InternalSplines(const WorldConfig& config) {
  std::vector<SplineDesc> splines = config.splines;
  for (SplineDesc& s : splines) {
    for (Vec3& p : s.points) p = config.frame.ToInternal(p);
  }
  return splines;
}

// Arc length of the lane point nearest to p, searched along the whole lane (for vehicles
// seen for the first time without a hint; the follower refines it locally).
float ProjectOnWholeLane(const SplineSet& lanes, uint32_t spline, Vec3 p) {
  const SplineSetView view = lanes.View();
  const float length = view.headers[spline].length;
  constexpr float kStep = 1.f;
  float best_s = 0.f, best_d = std::numeric_limits<float>::infinity();
  for (float s = 0.f; s <= length; s += kStep) {
    const float d = LengthSq(LocationAt(view, spline, s) - p);
    if (d < best_d) {
      best_d = d;
      best_s = s;
    }
  }
  return best_s;
}

size_t IndexOfLane(const std::vector<uint32_t>& lane_ids, uint32_t id) {
  return static_cast<size_t>(std::find(lane_ids.begin(), lane_ids.end(), id) - lane_ids.begin());
}

}  // namespace

struct World::Internals {
  std::unique_ptr<Backend> backend;
  WorldMemory memory;
  SplineSet lanes;  // internal frame, for path checks and projections
  std::vector<Polygon> obstacles;
  std::vector<Vec2> edges;

  // Buffers reused from tick to tick.
  std::vector<AgentMemory> agent_memory;
  std::vector<VehicleMemory> vehicle_memory;
  AgentColumns orca_agents;
  OrcaResult orca;
  VehicleColumns vehicles;
  FollowerResults follower;
  std::vector<VehicleBody> bodies;
  std::vector<float> clear;
  std::vector<Vec2> goal;
  std::vector<uint8_t> has_goal;
  std::vector<float> z, vz;  // internal height and vertical speed of each pedestrian
};

World::World(WorldConfig config, BackendKind backend)
    : config_(std::move(config)), in_(std::make_unique<Internals>()) {
  ValidateWorldConfig(config_);
  in_->backend = CreateBackend(backend);
  const std::vector<SplineDesc> splines = InternalSplines(config_);
  in_->lanes = BuildSplineSet(splines);
  in_->backend->SetSplines(splines);
  in_->obstacles = InternalObstacles(config_);
  in_->backend->SetObstacles(in_->obstacles);
  in_->edges = EdgeSegments(BuildObstacleVertices(in_->obstacles));
}

World::~World() = default;

BackendKind World::backend() const { return in_->backend->kind(); }
Backend& World::engine_backend() { return *in_->backend; }

void World::Step(const Snapshot& s, const TickOptions& options, TickResult* out) {
  TickStats stats;
  auto stage_start = Clock::now();
  auto lap = [&](Stage stage) {
    stats.stage_ms[static_cast<size_t>(stage)] += MsSince(stage_start);
    stage_start = Clock::now();
  };

  ValidateSnapshot(config_, s, has_state_, state_.tick);
  Internals& w = *in_;
  const Frame frame = config_.frame;
  const AgentSnapshot& a = s.agents;
  const VehicleSnapshot& vs = s.vehicles;
  const size_t n = a.size(), m = vs.size();
  const float dt = s.dt;
  w.memory.GatherAgents(a.id, &w.agent_memory);
  w.memory.GatherVehicles(vs.id, &w.vehicle_memory);
  lap(Stage::kValidate);

  // Pedestrians in the internal frame, with their preferred velocities (behaviours).
  const AgentDefaults& ad = config_.agent_defaults;
  AgentColumns& oa = w.orca_agents;
  oa.Resize(n);
  w.goal.assign(n, Vec2{});
  w.has_goal.assign(n, 0);
  w.z.resize(n);
  w.vz.resize(n);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) {
    const Vec3 p = frame.ToInternal({a.x[i], a.y[i], Or(a.z, i, 0.f)});
    const Vec3 v = frame.ToInternal({Or(a.vx, i, 0.f), Or(a.vy, i, 0.f), Or(a.vz, i, 0.f)});
    const uint8_t flags = a.flags.empty() ? 0 : a.flags[i];
    oa.id[i] = static_cast<uint32_t>(i);  // ids order ties; snapshot order is deterministic
    oa.px[i] = p.x;
    oa.py[i] = p.y;
    oa.vx[i] = v.x;
    oa.vy[i] = v.y;
    oa.radius[i] = Or(a.radius, i, ad.radius);
    oa.max_speed[i] = Or(a.max_speed, i, ad.max_speed);
    oa.flags[i] = (flags & kSnapshotNonCooperative) ? kAgentNonCooperative : 0;
    w.z[i] = p.z;
    w.vz[i] = v.z;
    Vec2 pref{};
    if (flags & kSnapshotNonCooperative) {
      pref = {v.x, v.y};
    } else if (a.has_goals() && !(flags & kSnapshotUsesPreferredVelocity)) {
      const Vec3 g = frame.ToInternal({a.goal_x[i], a.goal_y[i], Or(a.goal_z, i, 0.f)});
      w.goal[i] = {g.x, g.y};
      w.has_goal[i] = 1;
      const ArriveParams arrive{oa.max_speed[i], ad.max_accel, 1.f, ad.slowing_radius};
      pref = ArriveStep({p.x, p.y}, {v.x, v.y}, w.goal[i], arrive, dt);
    } else if (!a.pref_vx.empty()) {
      const Vec3 q = frame.ToInternal({a.pref_vx[i], a.pref_vy[i], Or(a.pref_vz, i, 0.f)});
      pref = {q.x, q.y};
    }
    oa.pref_vx[i] = pref.x;
    oa.pref_vy[i] = pref.y;
  }
  lap(Stage::kPreferred);

  // Vehicles: spline following, then the path check caps their speed.
  const VehicleDefaults& vd = config_.vehicle_defaults;
  VehicleColumns& vc = w.vehicles;
  vc.Resize(m);
  vc.profile.clear();
  vc.profiles.clear();
  w.bodies.resize(m);
  for (size_t i = 0; i < m; ++i) {
    const Vec3 p = frame.ToInternal({vs.x[i], vs.y[i], Or(vs.z, i, 0.f)});
    const float yaw = frame.YawToInternal(vs.yaw[i]);
    vc.id[i] = vs.id[i];
    vc.spline_id[i] = vs.spline_id[i];
    vc.px[i] = p.x;
    vc.py[i] = p.y;
    vc.pz[i] = p.z;
    vc.yaw[i] = yaw;
    vc.speed[i] = vs.speed[i];
    vc.max_speed[i] = Or(vs.max_speed, i, vd.max_speed);
    if (!vs.progress_hint.empty()) {
      vc.progress_hint[i] = vs.progress_hint[i];
    } else if (w.vehicle_memory[i].progress >= 0.f) {
      vc.progress_hint[i] = w.vehicle_memory[i].progress;
    } else {
      vc.progress_hint[i] = ProjectOnWholeLane(
          w.lanes, static_cast<uint32_t>(IndexOfLane(w.lanes.ids, vs.spline_id[i])), p);
    }
    w.bodies[i] = {{p.x, p.y}, HeadingOf(yaw), Or(vs.length, i, vd.length),
                   Or(vs.width, i, vd.width)};
  }
  FollowerResults& fr = w.follower;
  if (m > 0) w.backend->FollowSplines(config_.follower, config_.world_speed_limit, vc, &fr);
  {
    PathScene scene;
    scene.agent_x = oa.px.data();
    scene.agent_y = oa.py.data();
    scene.agent_radius = oa.radius.data();
    scene.agent_vx = oa.vx.data();
    scene.agent_vy = oa.vy.data();
    scene.agents = n;
    scene.bodies = w.bodies;
    scene.spline.resize(m);
    scene.progress.resize(m);
    for (size_t i = 0; i < m; ++i) {
      scene.spline[i] = static_cast<uint32_t>(IndexOfLane(w.lanes.ids, vs.spline_id[i]));
      scene.progress[i] = fr.progress[i];
    }
    scene.speed = vc.speed;
    scene.edges = w.edges;
    CheckPaths(config_.path_check, config_.follower.max_brake_decel, w.lanes, scene, &w.clear);
  }
  uint64_t braking = 0;
  for (size_t i = 0; i < m; ++i) {
    const float decel = config_.follower.max_brake_decel;
    const float cap = SpeedToStopWithin(w.clear[i], config_.path_check.gap, decel);
    if (cap >= fr.target_speed[i]) continue;
    ++braking;
    fr.target_speed[i] = cap;
    const float speed = vc.speed[i], gain = config_.follower.speed_gain;
    fr.throttle[i] = std::clamp((cap - speed) * gain, 0.f, 1.f);
    // At least the deceleration that stops short of the gap, not only the gain's share.
    const float room = std::max(w.clear[i] - config_.path_check.gap, 1e-3f);
    const float needed = speed > cap ? speed * speed / (2.f * room) / decel : 0.f;
    fr.brake[i] = std::clamp(std::max((speed - cap) * gain, needed), 0.f, 1.f);
  }

  // ORCA over pedestrians plus the vehicles' discs (non-cooperative: full responsibility).
  for (size_t i = 0; i < m; ++i) {
    const VehicleBody& body = w.bodies[i];
    const Vec2 v = body.heading * vc.speed[i];
    for (int j = 0; j < body.DiscCount(); ++j) {
      const Vec2 c = body.Disc(j);
      oa.id.push_back(static_cast<uint32_t>(oa.id.size()));
      oa.px.push_back(c.x);
      oa.py.push_back(c.y);
      oa.vx.push_back(v.x);
      oa.vy.push_back(v.y);
      oa.radius.push_back(body.DiscRadius());
      oa.max_speed.push_back(std::max(vc.speed[i], 0.01f));
      oa.pref_vx.push_back(v.x);
      oa.pref_vy.push_back(v.y);
      oa.flags.push_back(kAgentNonCooperative);
    }
  }
  lap(Stage::kVehicles);
  OrcaParams orca_params = config_.orca;
  orca_params.time_step = dt;
  OrcaRunOptions run;
  run.audit_every = config_.audit_every;
  w.backend->SolveOrca(orca_params, oa, run, &w.orca);
  const OrcaStageTimes& ot = w.orca.times;
  stats.stage_ms[static_cast<size_t>(Stage::kValidate)] += ot.validate_ms;
  stats.stage_ms[static_cast<size_t>(Stage::kUpload)] += ot.upload_ms;
  stats.stage_ms[static_cast<size_t>(Stage::kGrid)] += ot.grid_ms;
  stats.stage_ms[static_cast<size_t>(Stage::kCandidates)] += ot.neighbors_ms;
  stats.stage_ms[static_cast<size_t>(Stage::kOrca)] += ot.solve_ms + ot.revalidate_ms;
  stats.stage_ms[static_cast<size_t>(Stage::kDownload)] += ot.download_ms;
  stage_start = Clock::now();

  // Results in the caller's frame, and what the detectors make of them.
  const OrcaResult& orca = w.orca;
  AgentResults& ar = out->agents;
  ar.vx.resize(n);
  ar.vy.resize(n);
  ar.vz.resize(n);
  ar.status.resize(n);
  ar.flags.resize(n);
  ar.pref_vx.resize(n);
  ar.pref_vy.resize(n);
  ar.pref_vz.resize(n);
  ar.constraints.resize(n);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) {
    const Vec3 v = frame.ToExternal({orca.vx[i], orca.vy[i], w.vz[i]});
    const Vec3 pref = frame.ToExternal({oa.pref_vx[i], oa.pref_vy[i], 0.f});
    ar.vx[i] = v.x;
    ar.vy[i] = v.y;
    ar.vz[i] = v.z;
    ar.pref_vx[i] = pref.x;
    ar.pref_vy[i] = pref.y;
    ar.pref_vz[i] = pref.z;
    ar.status[i] = orca.status[i];
    ar.constraints[i] = orca.constraints[i];
    ar.flags[i] = 0;
    if (oa.flags[i] & kAgentNonCooperative) {
      w.agent_memory[i] = AgentMemory{};
      continue;
    }
    AgentMotion motion;
    motion.pref = {oa.pref_vx[i], oa.pref_vy[i]};
    motion.chosen = {orca.vx[i], orca.vy[i]};
    motion.has_goal = w.has_goal[i] != 0;
    motion.goal = w.goal[i];
    motion.goal_distance = Length(w.goal[i] - Vec2{oa.px[i], oa.py[i]});
    ar.flags[i] = DetectConditions(w.agent_memory[i], config_.detection, motion, dt);
  }

  VehicleResults& vr = out->vehicles;
  vr.steering = fr.steering;
  vr.throttle = fr.throttle;
  vr.brake = fr.brake;
  vr.target_speed = fr.target_speed;
  vr.cte = fr.cte;
  vr.progress = fr.progress;
  vr.clear_distance = w.clear;
  vr.target_x.clear();
  vr.target_y.clear();
  vr.target_z.clear();
  if (options.debug) {
    vr.target_x.resize(m);
    vr.target_y.resize(m);
    vr.target_z.resize(m);
    for (size_t i = 0; i < m; ++i) {
      const Vec3 t = frame.ToExternal({fr.target_x[i], fr.target_y[i], fr.target_z[i]});
      vr.target_x[i] = t.x;
      vr.target_y[i] = t.y;
      vr.target_z[i] = t.z;
    }
  }
  for (size_t i = 0; i < m; ++i) w.vehicle_memory[i].progress = fr.progress[i];
  lap(Stage::kStats);

  // The next state: the snapshot as given, or moved by dt.
  Snapshot next = s;
  if (options.integrate) {
    AgentSnapshot& na = next.agents;
    na.z.resize(n);
    na.vx.resize(n);
    na.vy.resize(n);
    na.vz.resize(n);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; ++i) {
      oa.px[i] += orca.vx[i] * dt;
      oa.py[i] += orca.vy[i] * dt;
      w.z[i] += w.vz[i] * dt;
      const Vec3 p = frame.ToExternal({oa.px[i], oa.py[i], w.z[i]});
      na.x[i] = p.x;
      na.y[i] = p.y;
      na.z[i] = p.z;
      na.vx[i] = ar.vx[i];
      na.vy[i] = ar.vy[i];
      na.vz[i] = ar.vz[i];
    }
    VehicleSnapshot& nv = next.vehicles;
    nv.z.resize(m);
    nv.progress_hint.resize(m);
    for (size_t i = 0; i < m; ++i) {
      VehicleState st{};
      st.position = {vc.px[i], vc.py[i], vc.pz[i]};
      st.yaw = vc.yaw[i];
      st.speed = vc.speed[i];
      st.wheel_angle = w.vehicle_memory[i].wheel_angle;
      StepBicycle(st, fr.steering[i], fr.throttle[i], fr.brake[i], vd.bicycle, dt);
      w.vehicle_memory[i].wheel_angle = st.wheel_angle;
      const Vec3 p = frame.ToExternal(st.position);
      nv.x[i] = p.x;
      nv.y[i] = p.y;
      nv.z[i] = p.z;
      nv.yaw[i] = frame.YawToExternal(st.yaw);
      nv.speed[i] = st.speed;
      nv.progress_hint[i] = fr.progress[i];
      w.bodies[i].axle = {st.position.x, st.position.y};
      w.bodies[i].heading = HeadingOf(st.yaw);
    }
  }
  lap(Stage::kIntegrate);

  // Tick stats over the pedestrians ORCA solved (non-cooperative ones are not solved).
  stats.tick = s.tick;
  stats.agents = n;
  stats.vehicles = m;
  uint64_t solved = 0, constraints_sum = 0;
  double deviation_sum = 0;
  for (size_t i = 0; i < n; ++i) {
    stats.candidates += orca.candidates[i];
    stats.neighbors += orca.neighbors[i];
    if (oa.flags[i] & kAgentNonCooperative) continue;
    ++solved;
    ++stats.status_count[orca.status[i]];
    constraints_sum += orca.constraints[i];
    stats.constraints_max = std::max<uint32_t>(stats.constraints_max, orca.constraints[i]);
    const double deviation = Length(Vec2{orca.vx[i] - oa.pref_vx[i], orca.vy[i] - oa.pref_vy[i]});
    deviation_sum += deviation;
    stats.deviation_max = std::max(stats.deviation_max, deviation);
    if (ar.flags[i] & kAgentOscillating) ++stats.oscillating;
    if (ar.flags[i] & kAgentStalled) ++stats.stalled;
    if (ar.flags[i] & kAgentStopped) ++stats.stopped;
  }
  if (solved > 0) {
    stats.constraints_mean = static_cast<double>(constraints_sum) / solved;
    stats.deviation_mean = deviation_sum / solved;
  }
  stats.time_stopped_s = stats.stopped * static_cast<double>(dt);
  stats.audited_agents = orca.audited_agents;
  stats.audited_false_negatives = orca.audited_false_negatives;
  stats.vehicles_braking = braking;
  const CollisionCounts collisions = CountCollisions(oa.px.data(), oa.py.data(), oa.radius.data(),
                                                     n, w.bodies, w.obstacles);
  stats.agent_overlaps = collisions.agent_pairs;
  stats.vehicle_overlaps = collisions.agent_vehicle;
  stats.agents_in_obstacles = collisions.agents_in_obstacles;
  lap(Stage::kStats);

  // Commit: nothing below can reject the tick.
  w.memory.Commit(a.id, std::move(w.agent_memory), vs.id, std::move(w.vehicle_memory));
  state_ = std::move(next);
  has_state_ = true;
  out->tick = s.tick;
  out->stats = stats;
  totals_.Add(stats);
  last_stats_ = stats;
}

void World::Advance(int ticks, float dt, TickResult* last) {
  if (!has_state_) throw WorldStateError("world has no state yet: Step it once first");
  if (ticks < 1) throw std::invalid_argument("ticks: must be >= 1");
  if (!(std::isfinite(dt) && dt > 0.f && dt <= 10.f)) {
    throw std::invalid_argument("dt: must be within (0, 10] s");
  }
  TickOptions options;
  options.integrate = true;
  for (int k = 0; k < ticks; ++k) {
    Snapshot next = state_;
    next.tick = state_.tick + 1;
    next.dt = dt;
    Step(next, options, last);
  }
}

}  // namespace throng
