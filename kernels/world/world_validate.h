// Everything a world checks before it changes anything: its configuration once, each
// snapshot every tick. Errors are std::invalid_argument naming field and index.
#pragma once

#include <cstdint>

#include "kernels/steering/pedestrian_prepare_types.h"
#include "kernels/vehicles/vehicle_prepare_types.h"
#include "kernels/world/world_types.h"

namespace throng {

// "detection.oscillation_window: 40 is outside [1, 32]", "obstacles[2].vertices[1].x: not
// finite", and the spline, ORCA and follower checks of their own modules.
void ValidateWorldConfig(const WorldConfig& config);

// A tick's dt: within [kMinSeconds, 10] s ("dt: must be within [0.001, 10] s").
void ValidateTimeStep(float dt);

// Column lengths, finite values within the limits of kernels/input/input_limits.h, ranges, unique
// ids, known spline ids and flag bits, a tick after `last_tick` when the world has ticked
// and at most kMaxTick, and ValidateTimeStep. `agents_checked`: the pedestrians are the
// world's own state (an Advance tick: checked when they came in, then moved by the world,
// ColumnSource::kLastTick), and are not checked again; `vehicles_checked` and
// `forward_checked` likewise for the vehicles and the forward agents.
// `agent_values_on_backend`: the agents' values are left to the backend's preparation
// (AgentChecksForPreparation), which reads them anyway; here only their lengths, ids and
// the columns that come in pairs, unless one of those fails (then every agent check, which
// names the first offender); the navigating rows' targets are left to the backend's
// steering (Backend::SteerNavigating).
// `vehicle_values_on_backend` likewise for the vehicles (VehicleChecksForPreparation): here
// their lengths and ids; `forward_values_on_backend` for the forward agents
// (ForwardChecksForPreparation): their lengths, paired goal columns and ids.
void ValidateSnapshot(const WorldConfig& config, const Snapshot& snapshot, bool has_last_tick,
                      uint64_t last_tick, bool agents_checked = false,
                      bool vehicles_checked = false, bool forward_checked = false,
                      bool agent_values_on_backend = false, bool vehicle_values_on_backend = false,
                      bool forward_values_on_backend = false);

// Every check of the agents' columns, one by one: the first offender named.
void ValidateAgents(const WorldConfig& config, const AgentSnapshot& agents);
// Every check of the vehicles' columns likewise.
void ValidateVehicles(const WorldConfig& config, const VehicleSnapshot& vehicles);

// The checks of the agents' values that the backend's preparation runs (PedestrianChecks,
// on): each float column's bounds from its rule in the column table.
PedestrianChecks AgentChecksForPreparation();
// The checks of the vehicles' values that their preparation runs: each float column's
// bounds from its rule in the table (the world sets the profiles' count).
VehicleChecks VehicleChecksForPreparation();

}  // namespace throng
