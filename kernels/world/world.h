// A World: static configuration set once, dynamic state replaced by each snapshot, and
// the engine tick that joins ORCA crowds and spline-following vehicles (docs/WORLD.md).
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>

#include "kernels/backends/backend.h"
#include "kernels/navigation/nav_types.h"
#include "kernels/world/world_memory.h"
#include "kernels/world/world_types.h"

namespace throng {

// The world cannot do what was asked in its current state (Advance before any state).
class WorldStateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Everything a world keeps between ticks besides its configuration: the latest state, the
// per-id memory and the counts. A world built from the same configuration and restored
// from it continues bit for bit (ExportWorld / ImportWorld, docs/SERVICE.md).
struct WorldKept {
  bool has_state = false;
  Snapshot state;  // meaningful when has_state
  KeptMemory memory;
  NavCrowd crowd;
  WorldTotals totals;
  TickStats last_stats;
};

// Not thread-safe: one caller at a time per world; different worlds run in parallel.
class World {
 public:
  struct Internals;  // backend, per-id memory, internal-frame lanes, reused buffers
  // Validates the configuration (std::invalid_argument naming the field, e.g.
  // "splines[2].points[5].x: not finite") and creates the backend (BackendUnavailable).
  World(WorldConfig config, BackendKind backend);
  // As above, on a backend the caller made (a test's decorator, a backend of its own).
  World(WorldConfig config, std::unique_ptr<Backend> backend);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  const WorldConfig& config() const { return config_; }
  BackendKind backend() const;
  // For tests and benchmarks that compare stages: whoever asks may call it, so the next
  // tick copies the state to the backend again (ColumnSource::kLastTick no longer holds).
  Backend& engine_backend();

  // One tick on `snapshot`. Everything is validated before anything changes: a bad
  // snapshot throws std::invalid_argument naming column and index ("agents.radius[3]:
  // must be > 0") and leaves the world exactly as it was. Ids missing from the snapshot
  // lose their state, new ids start fresh. With options.integrate the moved snapshot
  // becomes state(); otherwise state() is the snapshot as given. A tick whose
  // options.stop asks ends with TickCancelled and leaves the world as it was too.
  void Step(const Snapshot& snapshot, const TickOptions& options, TickResult* out);

  // Runs `ticks` integrated ticks of `dt` from state(); `last` gets the final tick.
  // Throws WorldStateError when no snapshot has been stepped yet, and TickCancelled when
  // `stop` asks (the ticks already run stand; the stopped one changed nothing).
  void Advance(int ticks, float dt, TickResult* last, const StopRequested& stop = {});
  // As above, with Step's options for every tick (integrate always on): `last` then has the
  // debug and local result columns they ask for, and options.stop is asked.
  void Advance(int ticks, float dt, TickResult* last, const TickOptions& options);

  // The latest accepted snapshot (integrated when its tick integrated).
  const Snapshot& state() const { return state_; }
  bool has_state() const { return has_state_; }
  const WorldTotals& totals() const { return totals_; }
  const TickStats& last_stats() const { return last_stats_; }

  // The navigation field of the target with this id (WorldConfig::navigation_targets),
  // in the internal frame, as the world keeps it (headings); null when the world has no
  // such target.
  const NavField* NavigationField(uint32_t target_id) const;
  // That target's distances, marched again from the world's obstacles (the world keeps
  // headings only: docs/NAVIGATION.md, "Storage"); the same bits every time. About 0.1 s
  // per million cells. Empty when the world has no such target.
  std::optional<NavDistanceGrid> NavigationDistances(uint32_t target_id) const;
  // Bytes the world holds in navigation fields: the static ones and the crowd fields
  // built so far.
  size_t NavigationBytes() const;

  WorldKept Kept() const;
  // Replaces what the world keeps with `kept`, after checking all of it as a tick would
  // (the state as a snapshot of this world's configuration, the memory with
  // ValidateKeptMemory): std::invalid_argument naming the first bad value, and the world
  // unchanged.
  void Restore(WorldKept kept);

 private:
  void InstallScene();
  // Step's tick on `snapshot` after the world's state of tick `last_tick`. With
  // `next_holds_the_rest`, the spare snapshot already holds every column of `snapshot`
  // that integration does not write (Advance's ticks after its first): only the moved
  // columns are written, nothing is copied.
  // `snapshot_on_backend`: it is the state the kept tick left on the backend
  // (Internals::state_on_backend). `keep_on_backend`: nothing reads this tick's pedestrian
  // results and next state on the host (an Advance tick before its last).
  void StepAfter(const Snapshot& snapshot, const TickOptions& options, TickResult* out,
                 uint64_t last_tick, bool next_holds_the_rest, bool snapshot_on_backend,
                 bool keep_on_backend);

  WorldConfig config_;
  std::unique_ptr<Internals> in_;
  Snapshot state_;
  bool has_state_ = false;
  WorldTotals totals_;
  TickStats last_stats_;
};

}  // namespace throng
