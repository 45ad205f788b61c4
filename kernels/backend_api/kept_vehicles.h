// Where Backend::FetchKeptVehicles copies what a backend kept of the vehicles of the tick
// the world committed (docs/ARCHITECTURE.md, "Columns a tick keeps on the backend"): the
// host's copy of what that tick's calls left on the backend only.
#pragma once

#include <cstddef>

#include "kernels/vehicles/vehicle_memory.h"

namespace throng {

struct KeptVehicleRows {
  // The memory the kept tick's FollowSplines completed (FollowRunOptions::memory); null:
  // not wanted.
  VehicleMemory* memory = nullptr;
  size_t memory_rows = 0;
  // The next state's moved columns (the caller's frame), as the kept tick's MoveVehicles
  // wrote them (VehicleMoveOutput's x to progress_hint); null: not wanted.
  float* x = nullptr;
  float* y = nullptr;
  float* z = nullptr;
  float* yaw = nullptr;
  float* speed = nullptr;
  float* progress_hint = nullptr;
  size_t state_rows = 0;
};

}  // namespace throng
