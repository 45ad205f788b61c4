#include "kernels/world/tick_stages.h"

#include <algorithm>
#include <array>
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
  // The pedestrians the last tick left on the backend only are the world's own, moved from
  // a checked state (World::Advance bounds how many ticks pass so).
  // The agents' values are checked by the backend's preparation, which reads them anyway
  // (no pass on the host), and their targets by the navigation's steering.
  const bool agents_checked = c.snapshot_on_backend && c.w.state_on_backend_only;
  c.agent_values_on_backend = !agents_checked;
  // The vehicles' likewise, by their preparation.
  const bool vehicles_checked = c.snapshot_on_backend && c.w.vehicle_state_on_backend_only;
  c.vehicle_values_on_backend = !vehicles_checked;
  // And the forward agents'.
  const bool forward_checked = c.snapshot_on_backend && c.w.forward_state_on_backend_only;
  c.forward_values_on_backend = !forward_checked;
  ValidateSnapshot(c.config, c.snapshot, c.has_state, c.last_tick, agents_checked, vehicles_checked,
                   forward_checked, c.agent_values_on_backend, c.vehicle_values_on_backend,
                   c.forward_values_on_backend);
  // Other ids than the kept ones are gathered from the kept rows on the host.
  if ((c.w.memory_on_backend_only && !c.w.memory.KeepsAgents(c.snapshot.agents.id)) ||
      (c.w.vehicle_memory_on_backend_only && !c.w.memory.KeepsVehicles(c.snapshot.vehicles.id))) {
    BringKeptHome(c.w, nullptr);
  }
  c.w.agent_memory_in = c.w.memory.AgentsFor(c.snapshot.agents.id, &c.w.agent_memory);
  c.w.memory_in_on_backend =
      c.memory_on_backend && c.w.agent_memory_in == c.w.memory.KeptAgentRows();
  c.w.vehicle_memory_in = c.w.memory.VehiclesFor(c.snapshot.vehicles.id, &c.w.vehicle_memory);
  c.w.vehicle_memory_in_on_backend = c.memory_on_backend && !c.snapshot.vehicles.id.empty() &&
                                     c.w.vehicle_memory_in == c.w.memory.KeptVehicleRows();
}

void Pedestrians(TickContext& c) {
  DropUncommittedCrowd(c.w);
  PreparePedestrians(c.config, c.snapshot,
                     c.snapshot_on_backend ? ColumnSource::kLastTick : ColumnSource::kHost,
                     c.agent_values_on_backend, c.w);
}

void Vehicles(TickContext& c) {
  DriveVehicles(c.config, c.snapshot,
                c.snapshot_on_backend ? ColumnSource::kLastTick : ColumnSource::kHost,
                c.vehicle_values_on_backend, c.vehicle_results_to_host(), c.options.debug, c.w);
}

void VehiclePaths(TickContext& c) {
  c.vehicles_braking =
      CheckVehiclePaths(c.config, c.snapshot, c.options.stop, c.vehicle_results_to_host(), c.w);
}

// Before the vehicles' discs join the pedestrians: forward agents meet vehicles as boxes.
void Forward(TickContext& c) {
  SteerForwardAgents(c.config, c.snapshot,
                     c.snapshot_on_backend ? ColumnSource::kLastTick : ColumnSource::kHost,
                     c.forward_values_on_backend, c.forward_results_to_host(), c.options.stop, c.w,
                     c.out, &c.stats);
}

void VehicleDiscs(TickContext& c) { AddVehicleDiscs(c.config, c.snapshot, c.w); }

// The backend's ORCA pipeline, its own stages booked as the backend timed them.
void Orca(TickContext& c) {
  OrcaParams params = c.config.orca;
  params.time_step = c.snapshot.dt;
  OrcaRunOptions run;
  run.audit_every = c.config.audit_every;
  run.stop = c.options.stop;
  // The agents are what the preparation (with the navigation's steering) and the vehicles'
  // discs wrote.
  run.agents = ColumnSource::kThisTick;
  run.results_to_host = false;  // the report and the move read them on the backend
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

// No host stage reads the pedestrians' memory (the re-routing asks the backend, which reads
// it there): it stays on the backend until something on the host asks for it
// (BringKeptHome).
void Results(TickContext& c) {
  c.memory_left_on_backend = true;
  c.pedestrians =
      FillResults(c.config, c.snapshot, c.options,
                  {!c.keep_on_backend, /*memory=*/false, c.vehicle_results_to_host()}, c.w, c.out);
}

void Move(TickContext& c) {
  if (!c.options.integrate) {
    c.next = c.snapshot;
    return;
  }
  if (c.next_holds_the_rest) {
    c.next.tick = c.snapshot.tick;
    c.next.dt = c.snapshot.dt;
  } else {
    SizeNextState(c.snapshot, &c.next);
  }
  // No host stage reads the next state (a crowd refresh asks the backend for the positions).
  c.state_left_on_backend = c.keep_on_backend;
  c.vehicle_state_left_on_backend = c.keep_on_backend && !c.snapshot.vehicles.id.empty();
  c.forward_state_left_on_backend = c.keep_on_backend && c.snapshot.forward.size() > 0;
  Integrate(c.config, c.snapshot, c.w, *c.out,
            {!c.state_left_on_backend, !c.vehicle_state_left_on_backend}, &c.next);
  IntegrateForward(c.config, c.snapshot, c.w, !c.forward_state_left_on_backend, &c.next);
}

// Tick stats over the pedestrians ORCA solved (non-cooperative ones are not solved), summed
// on the backend with their results, and the contacts after the move (counted on the
// backend, on the ORCA solve's grid).
void Stats(TickContext& c) {
  const World::Internals& w = c.w;
  const AgentColumns& oa = w.orca_agents;
  const OrcaResult& orca = w.orca;
  const PedestrianSums& sums = c.pedestrians;
  TickStats& stats = c.stats;
  const size_t n = c.snapshot.agents.size();
  stats.tick = c.snapshot.tick;
  stats.agents = n;
  stats.vehicles = c.snapshot.vehicles.size();
  stats.candidates = sums.candidates;
  stats.neighbors = sums.neighbors;
  for (int k = 0; k < kSolveStatusCount; ++k) stats.status_count[k] = sums.status_count[k];
  stats.jam_steps = sums.jam_steps;
  stats.constraints_max = sums.constraints_max;
  stats.deviation_max = sums.deviation_max;
  stats.oscillating = sums.oscillating;
  stats.stalled = sums.stalled;
  stats.stall_episodes = sums.stall_episodes;
  stats.longest_stall_ticks = sums.longest_stall_ticks;
  stats.stopped = sums.stopped;
  stats.reroutes = sums.reroutes;
  if (sums.solved > 0) {
    const auto solved = static_cast<double>(sums.solved);
    stats.constraints_mean = static_cast<double>(sums.constraints_sum) / solved;
    stats.deviation_mean = static_cast<double>(sums.deviation_sum) / kDeviationUnits / solved;
  }
  stats.time_stopped_s = stats.stopped * static_cast<double>(c.snapshot.dt);
  stats.audited_agents = orca.audited_agents;
  stats.audited_false_negatives = orca.audited_false_negatives;
  stats.vehicles_braking = c.vehicles_braking;
  // The pedestrians only (the first n): the vehicles' discs follow them in the ORCA columns.
  // The solve's pedestrians and the preparation's bodies, as the moves left them when the
  // tick integrated.
  const CollisionCounts collisions = w.backend->CountContacts(
      {oa.px.data(), oa.py.data(), oa.radius.data(), n, w.bodies.data(), w.bodies.size(),
       ColumnSource::kThisTick, c.options.integrate, ColumnSource::kThisTick},
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
  std::array<double, kBackendCallCount> calls_before{};
  for (int k = 0; k < kBackendCallCount; ++k) {
    calls_before[k] = backend.call_ms(static_cast<BackendCall>(k));
  }
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
  ctx.stats.backend_ms = 0;
  for (int k = 0; k < kBackendCallCount; ++k) {
    ctx.stats.backend_call_ms[k] = backend.call_ms(static_cast<BackendCall>(k)) - calls_before[k];
    ctx.stats.backend_ms += ctx.stats.backend_call_ms[k];
  }
  ctx.stats.orca_solve_ms = ctx.stats.backend_call_ms[static_cast<size_t>(BackendCall::kSolveOrca)];
}

}  // namespace throng
