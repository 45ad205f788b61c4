// The world tick's private parts: the buffers a World keeps between ticks and the stages
// World::Step runs them through (kernels/world/world_stages.cpp). Not for callers.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/navigation/nav_steer_types.h"
#include "kernels/navigation/nav_types.h"
#include "kernels/vehicles/vehicle_body.h"
#include "kernels/world/timed_backend.h"
#include "kernels/world/world.h"
#include "kernels/world/world_memory.h"

namespace throng {

struct World::Internals {
  std::unique_ptr<TimedBackend> backend;  // the backend the world was given, timed
  WorldMemory memory;
  // The lanes by id: ids sorted, and each one's index in the backend's spline set
  // (LaneLookup; the backend holds the lanes themselves).
  std::vector<uint32_t> lane_ids, lane_of_id;
  std::vector<Polygon> obstacles;
  // Navigation, per target in the order of WorldConfig::navigation_targets: its id and
  // shape (internal frame), its field and its grid.
  // The costs are rasterised again from the targets and the obstacles when a crowd field
  // or a target's distances are wanted, rather than kept: 5 bytes a cell, more than a
  // field's 1.
  std::vector<NavTarget> nav_targets;
  std::vector<NavField> nav_fields;
  std::vector<NavGridSpec> nav_specs;
  // Re-routing (docs/NAVIGATION.md): the committed crowd, and one refreshed this tick that
  // Step commits (it clears crowd_refreshed). The crowd fields are cached per target until
  // the crowd they came from changes: a refresh, a restore, or a refresh that a cancelled
  // tick never committed (crowd_refreshed still set on the next tick) drops them.
  NavCrowd crowd, crowd_next;
  bool crowd_refreshed = false;
  std::vector<NavField> crowd_fields;      // per target, built on demand
  std::vector<uint8_t> crowd_field_built;  // per target
  // The navigation as the backend's steering reads it (NavSteerWorld): each target's point
  // (its vertices' mean: where an arriving agent heads) and ring, the keys sorted by id
  // (NavTargetIndex searches them too), the rings' vertices, and per tick each field's view (the
  // fields, then the crowd fields: null where none is built). nav_version changes with
  // every change of a field (a crowd field built or dropped), so that a backend with memory
  // of its own copies them again.
  std::vector<NavSteerTarget> nav_steer_targets;
  std::vector<NavTargetKey> nav_keys;
  std::vector<Vec2> nav_rings;
  std::vector<NavFieldView> nav_views;
  uint64_t nav_version = 1;

  // The state is, column by column, what the kept tick's pedestrians' move wrote (the
  // moved columns) and its preparation read (the others), both on the backend
  // (Backend::KeepPedestrians): an integrated tick committed, and no tick on the caller's
  // snapshot, Restore or engine_backend() since (ColumnSource::kLastTick).
  bool state_on_backend = false;
  // The kept memory is what the kept tick's calls wrote, on the backend (the agents' the
  // report, the vehicles' the follower): a tick committed, and no Restore or
  // engine_backend() since.
  bool memory_on_backend = false;
  // Rows the host does not hold, only the backend (the calls were told not to copy them
  // back): the kept agent memory, and the state's moved pedestrian columns (left so by an
  // Advance tick before its last). BringKeptHome copies them before a host reader needs
  // them.
  bool memory_on_backend_only = false;
  bool state_on_backend_only = false;
  // The kept vehicle memory likewise: no host stage reads it, so the follower never brings
  // it home. And the state's moved vehicle columns, left so by an Advance tick before its
  // last.
  bool vehicle_memory_on_backend_only = false;
  bool vehicle_state_on_backend_only = false;
  // The state's moved forward-agent columns likewise (Backend::KeepForward).
  bool forward_state_on_backend_only = false;
  // This tick's memory rows are the kept ones, as the last report left them on the backend.
  bool memory_in_on_backend = false;
  // Likewise for the vehicles', as the last follower left them.
  bool vehicle_memory_in_on_backend = false;

  // Buffers reused from tick to tick: copy-assigning into one keeps its capacity, so a
  // tick writes no fresh pages (at 1M agents they cost more than the copy).
  Snapshot next_state;      // the tick's result state; Step swaps it with the kept one
  // The pedestrians' memory: last tick's in the snapshot's order, read only (the kept rows
  // themselves, or gathered into `agent_memory` when the ids changed), and this tick's in
  // `agent_memory`, which the report writes (in place over the gathered rows) and the
  // commit keeps.
  const AgentMemory* agent_memory_in = nullptr;
  std::vector<AgentMemory> agent_memory;
  // The vehicles' likewise: last tick's read only, this tick's in `vehicle_memory`, which
  // the preparation writes and the follower completes.
  const VehicleMemory* vehicle_memory_in = nullptr;
  std::vector<VehicleMemory> vehicle_memory;
  AgentColumns orca_agents;
  OrcaResult orca;
  VehicleColumns vehicles;
  FollowerResults follower;
  std::vector<VehicleBody> bodies;
  std::vector<uint32_t> disc_start;  // each vehicle's first disc after the pedestrians
  std::vector<uint32_t> lane;  // each vehicle's lane, as an index in `lanes`
  std::vector<float> clear;
  std::vector<BrakingProfile> braking_profiles;  // the follower's, then each profile's
  std::vector<Vec2> goal;
  std::vector<uint8_t> has_goal;
  std::vector<uint8_t> navigates;     // each pedestrian's behaviour is BEHAVIOR_NAVIGATE
  std::vector<float> z, vz;           // internal height and vertical speed of each pedestrian
};

// Copies what Internals::memory_on_backend_only and state_on_backend_only say the host
// lacks from the backend into the kept memory and `state`, and clears them.
void BringKeptHome(World::Internals& w, Snapshot* state);

// The index of the navigation target with this id; nav_targets.size() when there is none.
size_t NavTargetIndex(const World::Internals& w, uint32_t target_id);
// Whether target k has a region, and so its own grid (else it shares the world's).
inline bool NavHasRegion(const WorldConfig& config, size_t k) {
  return !config.navigation_targets[k].region.empty();
}
// Target k's blocked cells and costs on its grid, rasterised again from the obstacles.
NavCosts NavCostsFor(const WorldConfig& config, const World::Internals& w, size_t k);

// An optional column's value, or the default where the column is absent.
inline float Or(const std::vector<float>& column, size_t i, float fallback) {
  return column.empty() ? fallback : column[i];
}

// Stages of World::Step, in order. Each reads the snapshot and the world's buffers and
// writes buffers only: nothing here changes what the world keeps until Step commits.

// Re-routing: a crowd refresh that the last tick made and never committed (it failed)
// goes, with the crowd fields built from it. Every tick, before the pedestrians' preparation
// (which refreshes the crowd when re-routed agents need it and it is older than
// navigation.reroute_every ticks, and builds the crowd fields they follow).
void DropUncommittedCrowd(World::Internals& w);
// Pedestrians in the internal frame, with their preferred velocities (behaviours).
// `columns`: kLastTick when `s` is the state the last tick left on the backend.
// `check_values`: the backend checks the agents' values on the way (ValidateSnapshot left
// them to it); a refusal throws std::invalid_argument naming the first offender.
void PreparePedestrians(const WorldConfig& config, const Snapshot& s, ColumnSource columns,
                        bool check_values, World::Internals& w);
// Vehicles: spline following, and their bodies for the stages after it.
// `columns`: kLastTick when `s` is the state the last tick left on the backend.
// `check_values`: the backend checks the vehicles' values on the way (ValidateSnapshot
// left them to it); a refusal throws std::invalid_argument naming the first offender.
// `results_to_host` false: no host stage reads this tick's vehicle results (an Advance's
// tick before its last), and the follower's answers stay on the backend; `debug`: its
// debug columns are wanted on the host besides (TickOptions::debug).
void DriveVehicles(const WorldConfig& config, const Snapshot& s, ColumnSource columns,
                   bool check_values, bool results_to_host, bool debug, World::Internals& w);
// The vehicles' bodies as non-cooperative discs after the pedestrians, for ORCA; they stay
// on the backend, where the solve reads them.
void AddVehicleDiscs(const WorldConfig& config, const Snapshot& s, World::Internals& w);
// After the ORCA solve: the path check caps the vehicles' speed. Returns how many vehicles
// it slowed. `stop` is asked inside the path check, between chunks of vehicles.
// `results_to_host` as for DriveVehicles: the clear distances and the capped answers.
uint64_t CheckVehiclePaths(const WorldConfig& config, const Snapshot& s, const StopRequested& stop,
                           bool results_to_host, World::Internals& w);
// The static shapes forward agents meet (internal frame), from the configuration and the
// world's internal polygons, and the cell of their grid (about one probe reach).
FanShapes InternalFanShapes(const WorldConfig& config, const std::vector<Polygon>& polygons);
float FanShapesCell(const WorldConfig& config);
// Forward agents' casts against the shapes and every body (pedestrians and vehicles as this
// tick's stages left them): results in the caller's frame (left on the backend unless
// `results_to_host`), counts in `stats`. `columns` kLastTick: the snapshot is the kept
// tick's state, its moved columns where that tick's move left them. `check_values`: the
// preparation checks the values (ValidateSnapshot left them to it); a refusal throws the
// host's error for the first offender. `stop` is asked between chunks of agents.
void SteerForwardAgents(const WorldConfig& config, const Snapshot& s, ColumnSource columns,
                        bool check_values, bool results_to_host, const StopRequested& stop,
                        World::Internals& w, TickResult* out, TickStats* stats);
// Forward agents move along their new direction at their speed; the next state stays on the
// backend unless `next_state_to_host`.
void IntegrateForward(const WorldConfig& config, const Snapshot& s, const World::Internals& w,
                      bool next_state_to_host, Snapshot* next);
// Results in the caller's frame, and the detectors' flags (per-id memory in the buffers),
// on the backend; returns the tick's sums over the pedestrians.
// What of the report's outputs comes back to the host (PedestrianReportParams).
struct ReportToHost {
  bool results = true;
  bool memory = true;
  bool vehicle_results = true;  // as DriveVehicles and CheckVehiclePaths were told
};
PedestrianSums FillResults(const WorldConfig& config, const Snapshot& s, const TickOptions& options,
                           ReportToHost to_host, World::Internals& w, TickResult* out);
// The next state before Integrate fills it: every column of `s`, but the pedestrians' and
// vehicles' columns Integrate writes in full are only sized (their values would be
// overwritten: at 100,000 pedestrians a whole copy is several megabytes a tick).
void SizeNextState(const Snapshot& s, Snapshot* next);
// Pedestrians move by their new velocity, vehicles by the bicycle model.
// What of the moved columns of `next` comes back to the host: the pedestrians'
// (PedestrianMoveParams::next_state_to_host) and the vehicles' (VehicleMoveParams::
// next_state_to_host); the rest stays on the backend.
struct StateToHost {
  bool pedestrians = true;
  bool vehicles = true;
};
void Integrate(const WorldConfig& config, const Snapshot& s, World::Internals& w,
               const TickResult& result, StateToHost to_host, Snapshot* next);

}  // namespace throng
