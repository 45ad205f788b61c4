// The world tick as one list of named stages (docs/ARCHITECTURE.md): World::Step runs
// them in order through one timed loop, then commits. Private to kernels/world/.
#pragma once

#include <cstdint>

#include "kernels/world/world_internals.h"

namespace throng {

// What the stages of one tick share. The stages write the world's buffers, `out`, `stats`
// and `next` only: what the world keeps changes when Step commits, after the last stage.
struct TickContext {
  // The state after this tick: the snapshot as given, or moved by dt (the world's spare
  // snapshot, World::Internals::next_state).
  Snapshot& next;
  TickContext(const WorldConfig& config_in, const Snapshot& snapshot_in,
              const TickOptions& options_in, World::Internals& w_in, TickResult* out_in,
              bool has_state_in, uint64_t last_tick_in)
      : next(w_in.next_state),
        config(config_in),
        snapshot(snapshot_in),
        options(options_in),
        w(w_in),
        out(out_in),
        has_state(has_state_in),
        last_tick(last_tick_in) {}

  const WorldConfig& config;
  const Snapshot& snapshot;
  const TickOptions& options;
  World::Internals& w;
  TickResult* out;
  bool has_state = false;  // the world's state before this tick (for the tick check)
  uint64_t last_tick = 0;
  TickStats stats;
  uint64_t vehicles_braking = 0;
  PedestrianSums pedestrians;  // the backend's sums over the pedestrians (Results)
  // `next` already holds every column of `snapshot` that integration does not write (World::
  // Advance after its first tick): Move writes the moved columns and copies nothing.
  bool next_holds_the_rest = false;
  // `snapshot` is the world's state as the last tick's move and preparation left it on the
  // backend (World::Internals::state_on_backend): the preparation may say kLastTick.
  bool snapshot_on_backend = false;
  // The kept agent memory is what the last report left on the backend
  // (World::Internals::memory_on_backend, as the tick began).
  bool memory_on_backend = false;
  // Nothing reads this tick's pedestrian results and next state on the host (an Advance tick
  // before its last): they stay on the backend.
  bool keep_on_backend = false;
  // The validation left the agents' (the vehicles', the forward agents') values to the
  // backend's preparation (ValidateSnapshot's agent_values_on_backend,
  // vehicle_values_on_backend, forward_values_on_backend).
  bool agent_values_on_backend = false;
  bool vehicle_values_on_backend = false;
  bool forward_values_on_backend = false;
  // What this tick left on the backend only (Internals::memory_on_backend_only and
  // state_on_backend_only once it commits).
  bool memory_left_on_backend = false;
  bool state_left_on_backend = false;
  bool vehicle_state_left_on_backend = false;  // Internals::vehicle_state_on_backend_only
  bool forward_state_left_on_backend = false;  // Internals::forward_state_on_backend_only
  // This tick's vehicle and forward-agent results come to the host: not on an Advance's
  // ticks before its last (keep_on_backend), whose results no host stage reads.
  bool vehicle_results_to_host() const { return !keep_on_backend; }
  bool forward_results_to_host() const { return !keep_on_backend; }
};

// One stage: the name its time is booked under (several stages may share one) and what it
// does. A stage whose work is split further (the backend's ORCA stages) adds those shares
// to ctx.stats.stage_ms itself; the loop books the rest of its time to `stage`.
struct TickStage {
  Stage stage;
  void (*run)(TickContext& ctx);
};

// Runs every stage in order, booking its wall time and asking options.stop after each
// (TickCancelled names the stage). Throws what a stage throws; then nothing is committed.
void RunTickStages(TickContext& ctx);

}  // namespace throng
