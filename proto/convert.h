// Between throng.v1 messages and the engine's plain C++ types (kernels/world/world_types.h).
// Bad input throws std::invalid_argument naming the field as the request spells it, relative
// to the message converted: "agents.radius: 3 values for 5 agents", "orca.max_neighbors: ..".
// Every function here is stateless and thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "kernels/backends/backend.h"
#include "kernels/world/world_types.h"
#include "throng/v1/simulation.pb.h"

namespace throng::service {

namespace v1 = ::throng::v1;

// A world's configuration; fields left at 0 take the engine's defaults.
WorldConfig ConfigFromProto(const v1::WorldConfig& proto);
// The effective configuration (every default filled in), without name and backend.
void ConfigToProto(const WorldConfig& config, v1::WorldConfig* out);

// The engine's configuration errors name its own fields ("agent_defaults.radius: .."); this
// names them as WorldConfig does ("defaults.agent_radius: ..").
std::string ConfigMessageToProto(std::string_view message);

// BACKEND_UNSPECIFIED takes `server_default`; an unknown value throws.
BackendKind BackendFromProto(int backend, BackendKind server_default);
v1::Backend BackendToProto(BackendKind kind);

// Fills `out` in place (its vectors keep their capacity from call to call). Checks the
// column lengths of every batch before converting any; everything else is the World's to
// check.
void SnapshotFromProto(uint64_t tick, float dt, const v1::AgentBatch& agents,
                       const v1::VehicleBatch& vehicles, const v1::ForwardBatch& forward,
                       Snapshot* out);
// As above, without forward agents (out->forward is emptied).
void SnapshotFromProto(uint64_t tick, float dt, const v1::AgentBatch& agents,
                       const v1::VehicleBatch& vehicles, Snapshot* out);
// Every present column of a snapshot (the state GetWorld sends back).
void AgentsToProto(const AgentSnapshot& agents, v1::AgentBatch* out);
void VehiclesToProto(const VehicleSnapshot& vehicles, v1::VehicleBatch* out);
void ForwardToProto(const ForwardSnapshot& forward, v1::ForwardBatch* out);

// A tick's response. `state` is the world's state after the tick: its positions are sent
// when the tick integrated. Result columns always have one value per agent, vehicle or
// forward agent.
void ResultToProto(const TickResult& result, const Snapshot& state, const TickOptions& options,
                   std::string_view backend, v1::StepResponse* out);
void StatsToProto(const TickStats& stats, std::string_view backend, v1::TickStats* out);
void TotalsToProto(const WorldTotals& totals, v1::WorldTotals* out);
// The way back, for an imported world (proto/world_export.h): every count and timing.
TickStats StatsFromProto(const v1::TickStats& stats);
WorldTotals TotalsFromProto(const v1::WorldTotals& totals);

}  // namespace throng::service
