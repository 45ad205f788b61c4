#include "kernels/world/tick_stages.h"

#include <algorithm>
#include <chrono>

#include "kernels/world/world_validate.h"

namespace throng {
namespace {

using Clock = std::chrono::steady_clock;

double StageMsSum(const TickStats& stats) {
  double sum = 0;
  for (double ms : stats.stage_ms) sum += ms;
  return sum;
}

// The snapshot checked against the world, and the per-id memory of its agents and vehicles
// matched by id (sorted ids: deterministic).
void ValidateAndGather(TickContext& c) {
  ValidateSnapshot(c.config, c.snapshot, c.has_state, c.last_tick);
  c.w.memory.GatherAgents(c.snapshot.agents.id, &c.w.agent_memory);
  c.w.memory.GatherVehicles(c.snapshot.vehicles.id, &c.w.vehicle_memory);
}

void Pedestrians(TickContext& c) {
  PrepareCrowdFields(c.config, c.snapshot, c.w);
  PreparePedestrians(c.config, c.snapshot, c.w);
}

void Vehicles(TickContext& c) { DriveVehicles(c.config, c.snapshot, c.w); }

void VehiclePaths(TickContext& c) {
  c.vehicles_braking = CheckVehiclePaths(c.config, c.snapshot, c.options.stop, c.w);
}

// Before the vehicles' discs join the pedestrians: forward agents meet vehicles as boxes.
void Forward(TickContext& c) {
  SteerForwardAgents(c.config, c.snapshot, c.options.stop, c.w, c.out, &c.stats);
}

void VehicleDiscs(TickContext& c) { AddVehicleDiscs(c.w); }

// The backend's ORCA pipeline, its own stages booked as the backend timed them.
void Orca(TickContext& c) {
  OrcaParams params = c.config.orca;
  params.time_step = c.snapshot.dt;
  OrcaRunOptions run;
  run.audit_every = c.config.audit_every;
  run.stop = c.options.stop;
  c.w.backend->SolveOrca(params, c.w.orca_agents, run, &c.w.orca);
  const OrcaStageTimes& t = c.w.orca.times;
  double* ms = c.stats.stage_ms.data();
  ms[static_cast<size_t>(Stage::kValidate)] += t.validate_ms;
  ms[static_cast<size_t>(Stage::kUpload)] += t.upload_ms;
  ms[static_cast<size_t>(Stage::kGrid)] += t.grid_ms;
  ms[static_cast<size_t>(Stage::kCandidates)] += t.neighbors_ms;
  ms[static_cast<size_t>(Stage::kOrca)] += t.solve_ms + t.revalidate_ms;
  ms[static_cast<size_t>(Stage::kDownload)] += t.download_ms;
}

void Results(TickContext& c) { FillResults(c.config, c.snapshot, c.options, c.w, c.out); }

void Move(TickContext& c) {
  if (c.next_holds_the_rest && c.options.integrate) {
    c.next.tick = c.snapshot.tick;
    c.next.dt = c.snapshot.dt;
  } else {
    c.next = c.snapshot;
  }
  if (!c.options.integrate) return;
  Integrate(c.config, c.snapshot, c.w, *c.out, &c.next);
  IntegrateForward(c.config, c.snapshot, c.w, &c.next);
}

// Tick stats over the pedestrians ORCA solved (non-cooperative ones are not solved), and
// the contacts after the move (counted on the backend, on the ORCA solve's grid).
void Stats(TickContext& c) {
  const World::Internals& w = c.w;
  const AgentColumns& oa = w.orca_agents;
  const OrcaResult& orca = w.orca;
  const AgentResults& ar = c.out->agents;
  TickStats& stats = c.stats;
  const size_t n = c.snapshot.agents.size();
  stats.tick = c.snapshot.tick;
  stats.agents = n;
  stats.vehicles = c.snapshot.vehicles.size();
  uint64_t solved = 0, constraints_sum = 0;
  double deviation_sum = 0;
  for (size_t i = 0; i < n; ++i) {
    stats.candidates += orca.candidates[i];
    stats.neighbors += orca.neighbors[i];
    if (oa.flags[i] & kAgentNonCooperative) continue;
    ++solved;
    ++stats.status_count[orca.status[i]];
    if (orca.solve_flags[i] & kSolveJamStep) ++stats.jam_steps;
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
      if (waited == static_cast<uint64_t>(c.config.detection.stall_ticks)) ++stats.stall_episodes;
      stats.longest_stall_ticks = std::max(stats.longest_stall_ticks, waited);
    }
    if (ar.flags[i] & kAgentStopped) ++stats.stopped;
    if (ar.flags[i] & kAgentRerouted) ++stats.reroutes;
  }
  if (solved > 0) {
    stats.constraints_mean = static_cast<double>(constraints_sum) / solved;
    stats.deviation_mean = deviation_sum / solved;
  }
  stats.time_stopped_s = stats.stopped * static_cast<double>(c.snapshot.dt);
  stats.audited_agents = orca.audited_agents;
  stats.audited_false_negatives = orca.audited_false_negatives;
  stats.vehicles_braking = c.vehicles_braking;
  // The pedestrians only (the first n): the vehicles' discs follow them in the ORCA columns.
  const CollisionCounts collisions = w.backend->CountContacts(
      {oa.px.data(), oa.py.data(), oa.radius.data(), n, w.bodies.data(), w.bodies.size()},
      c.options.stop);
  stats.agent_overlaps = collisions.agent_pairs;
  stats.vehicle_overlaps = collisions.agent_vehicle;
  stats.agents_in_obstacles = collisions.agents_in_obstacles;
}

constexpr TickStage kTickStages[] = {
    {Stage::kValidate, ValidateAndGather},  // the snapshot, and per-id memory by id
    {Stage::kPreferred, Pedestrians},       // internal frame, behaviours' preferred velocities
    {Stage::kVehicles, Vehicles},           // spline following
    {Stage::kForward, Forward},             // forward agents' cast fans
    {Stage::kVehicles, VehicleDiscs},       // vehicles join ORCA as non-cooperative discs
    {Stage::kOrca, Orca},                   // validate, upload, grid, candidates, solve, download
    {Stage::kVehicles, VehiclePaths},       // the path check, on the ORCA solve's grid
    {Stage::kStats, Results},               // results in the caller's frame, detectors' flags
    {Stage::kIntegrate, Move},              // the next state
    {Stage::kStats, Stats},                 // tick stats and contacts
};

}  // namespace

void RunTickStages(TickContext& ctx) {
  const TimedBackend& backend = *ctx.w.backend;
  const double busy_before = backend.busy_ms(), orca_before = backend.orca_ms();
  for (const TickStage& stage : kTickStages) {
    const double booked_before = StageMsSum(ctx.stats);
    const TransferredBytes copied_before = ctx.w.backend->transferred();
    const auto start = Clock::now();
    stage.run(ctx);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    const double split = StageMsSum(ctx.stats) - booked_before;
    const auto k = static_cast<size_t>(stage.stage);
    ctx.stats.stage_ms[k] += std::max(0.0, ms - split);
    const TransferredBytes copied = ctx.w.backend->transferred();
    ctx.stats.stage_bytes_to_backend[k] += copied.to_backend - copied_before.to_backend;
    ctx.stats.stage_bytes_to_host[k] += copied.to_host - copied_before.to_host;
    ThrowIfStopRequested(ctx.options.stop, StageName(stage.stage).data());
  }
  ctx.stats.backend_ms = backend.busy_ms() - busy_before;
  ctx.stats.orca_solve_ms = backend.orca_ms() - orca_before;
}

}  // namespace throng
