// State a world keeps per id across ticks (docs/WORLD.md, "Per-id state"): the oscillation window
// and stall counter of every agent, the lane progress and wheel angle of every vehicle.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/detection/agent_conditions.h"
#include "kernels/math/vec.cuh"
#include "kernels/vehicles/vehicle_memory.h"
#include "kernels/world/world_types.h"

namespace throng {

// AgentMemory: kernels/detection/agent_conditions.h; the detectors that update it:
// kernels/detection/agent_conditions.cuh. VehicleMemory: kernels/vehicles/vehicle_memory.h;
// the vehicles' preparation updates it: kernels/vehicles/vehicle_prepare.cuh.

// The positions re-routed agents' crowd fields are built from (docs/NAVIGATION.md,
// "Re-routing"): every pedestrian of tick `tick`, internal frame. Kept between ticks and
// exported, so that a restored world builds the same fields.
struct NavCrowd {
  bool present = false;
  uint64_t tick = 0;
  std::vector<Vec2> positions;
};

// The per-id state as columns, in the order it is kept: what ExportWorld carries.
struct KeptMemory {
  std::vector<uint32_t> agent_ids;
  std::vector<AgentMemory> agents;
  std::vector<uint32_t> vehicle_ids;
  std::vector<VehicleMemory> vehicles;
};

// Throws std::invalid_argument naming the first bad value ("memory.agents[3].last_side: ..."):
// lengths that differ, repeated ids, values no tick could have left.
void ValidateKeptMemory(const KeptMemory& memory);
// Throws std::invalid_argument naming the first bad value ("crowd.positions[2]: ..."):
// positions beyond kMaxCoordinate or not finite, a tick beyond kMaxTick, positions without
// a crowd.
void ValidateNavCrowd(const NavCrowd& crowd);

class WorldMemory {
 public:
  KeptMemory Kept() const { return {agent_ids_, agents_, vehicle_ids_, vehicles_}; }
  // Replaces everything with `memory` (checked with ValidateKeptMemory first).
  void Restore(KeptMemory memory);

  // The kept agents' memory in the order of `ids`, read-only: the kept rows themselves
  // when the ids are last tick's in the same order (nothing is copied), else gathered into
  // `gathered` (known ids keep theirs, new ids start fresh). Valid until the next Commit
  // or Restore.
  const AgentMemory* AgentsFor(const std::vector<uint32_t>& ids,
                               std::vector<AgentMemory>* gathered) const;
  // The kept rows themselves (what AgentsFor returns when the ids are the kept ones).
  const AgentMemory* KeptAgentRows() const { return agents_.data(); }
  // Where a copy of the kept rows goes when the backend holds the newer one
  // (Backend::FetchKeptPedestrians), and how many there are.
  AgentMemory* KeptAgentRowsToFill() { return agents_.data(); }
  size_t KeptAgentCount() const { return agents_.size(); }
  // Whether AgentsFor(ids) returns the kept rows themselves (ids last tick's, in order).
  bool KeepsAgents(const std::vector<uint32_t>& ids) const { return ids == agent_ids_; }
  // The kept vehicles' memory in the order of `ids`, read-only, as AgentsFor gives the
  // agents'.
  const VehicleMemory* VehiclesFor(const std::vector<uint32_t>& ids,
                                   std::vector<VehicleMemory>* gathered) const;
  const VehicleMemory* KeptVehicleRows() const { return vehicles_.data(); }
  VehicleMemory* KeptVehicleRowsToFill() { return vehicles_.data(); }
  size_t KeptVehicleCount() const { return vehicles_.size(); }
  bool KeepsVehicles(const std::vector<uint32_t>& ids) const { return ids == vehicle_ids_; }
  // Replaces the kept state; ids missing here are forgotten. The rows are swapped in: the
  // caller gets the old ones back, as buffers for the next Gather.
  void Commit(const std::vector<uint32_t>& agent_ids, std::vector<AgentMemory>* agents,
              const std::vector<uint32_t>& vehicle_ids, std::vector<VehicleMemory>* vehicles);

 private:
  std::vector<uint32_t> agent_ids_, vehicle_ids_;
  std::vector<AgentMemory> agents_;
  std::vector<VehicleMemory> vehicles_;
};

}  // namespace throng
