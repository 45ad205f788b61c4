#include "kernels/world/world.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "kernels/input_limits.h"
#include "kernels/obstacles.h"
#include "kernels/world/collisions.h"
#include "kernels/world/world_internals.h"
#include "kernels/world/world_validate.h"

namespace throng {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
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

}  // namespace

World::World(WorldConfig config, BackendKind backend)
    : config_(std::move(config)), in_(std::make_unique<Internals>()) {
  ValidateWorldConfig(config_);
  in_->backend = CreateBackend(backend);
  const std::vector<SplineDesc> splines = InternalSplines(config_);
  in_->lanes = BuildSplineSet(splines);
  in_->backend->SetSplines(splines);
  in_->obstacles = InternalObstacles(config_);
  in_->backend->SetObstacles(in_->obstacles);
  in_->backend->SetFanObstacles(InternalFanShapes(config_, in_->obstacles), FanShapesCell(config_));
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
    ThrowIfStopRequested(options.stop, StageName(stage).data());
  };

  ValidateSnapshot(config_, s, has_state_, state_.tick);
  Internals& w = *in_;
  const AgentSnapshot& a = s.agents;
  const VehicleSnapshot& vs = s.vehicles;
  const size_t n = a.size(), m = vs.size();
  const float dt = s.dt;
  w.memory.GatherAgents(a.id, &w.agent_memory);
  w.memory.GatherVehicles(vs.id, &w.vehicle_memory);
  lap(Stage::kValidate);

  PreparePedestrians(config_, s, w);
  lap(Stage::kPreferred);

  const uint64_t braking = DriveVehicles(config_, s, options.stop, w);
  lap(Stage::kVehicles);

  // Before the vehicles' discs join the pedestrians: forward agents meet vehicles as boxes.
  SteerForwardAgents(config_, s, options.stop, w, out, &stats);
  lap(Stage::kForward);
  AddVehicleDiscs(w);

  AgentColumns& oa = w.orca_agents;
  OrcaParams orca_params = config_.orca;
  orca_params.time_step = dt;
  OrcaRunOptions run;
  run.audit_every = config_.audit_every;
  run.stop = options.stop;
  w.backend->SolveOrca(orca_params, oa, run, &w.orca);
  const OrcaStageTimes& ot = w.orca.times;
  stats.stage_ms[static_cast<size_t>(Stage::kValidate)] += ot.validate_ms;
  stats.stage_ms[static_cast<size_t>(Stage::kUpload)] += ot.upload_ms;
  stats.stage_ms[static_cast<size_t>(Stage::kGrid)] += ot.grid_ms;
  stats.stage_ms[static_cast<size_t>(Stage::kCandidates)] += ot.neighbors_ms;
  stats.stage_ms[static_cast<size_t>(Stage::kOrca)] += ot.solve_ms + ot.revalidate_ms;
  stats.stage_ms[static_cast<size_t>(Stage::kDownload)] += ot.download_ms;
  stage_start = Clock::now();

  FillResults(config_, s, options, w, out);
  const OrcaResult& orca = w.orca;
  const AgentResults& ar = out->agents;
  lap(Stage::kStats);

  // The next state: the snapshot as given, or moved by dt.
  Snapshot next = s;
  if (options.integrate) {
    Integrate(config_, s, w, *out, &next);
    IntegrateForward(config_, s, w, &next);
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
    if (ar.flags[i] & kAgentStalled) {
      ++stats.stalled;
      // The counter grows by one a tick, so it equals stall_ticks on a stall's first tick.
      const auto waited = static_cast<uint64_t>(w.agent_memory[i].ticks_without_progress);
      if (waited == static_cast<uint64_t>(config_.detection.stall_ticks)) ++stats.stall_episodes;
      stats.longest_stall_ticks = std::max(stats.longest_stall_ticks, waited);
    }
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
                                                     n, w.bodies, w.obstacles, options.stop);
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

void World::Advance(int ticks, float dt, TickResult* last, const StopRequested& stop) {
  if (!has_state_) throw WorldStateError("world has no state yet: Step it once first");
  if (ticks < 1) throw std::invalid_argument("ticks: must be >= 1");
  if (state_.tick > kMaxTick - static_cast<uint64_t>(ticks)) {
    throw std::invalid_argument("ticks: " + std::to_string(ticks) + " more would pass the last " +
                                "tick there is, " + std::to_string(kMaxTick) + " (2^53)");
  }
  ValidateTimeStep(dt);
  TickOptions options;
  options.integrate = true;
  options.stop = stop;
  for (int k = 0; k < ticks; ++k) {
    Snapshot next = state_;
    next.tick = state_.tick + 1;
    next.dt = dt;
    Step(next, options, last);
  }
}

}  // namespace throng
