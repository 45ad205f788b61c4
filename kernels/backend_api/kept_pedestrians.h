// Where Backend::FetchKeptPedestrians copies what a backend kept of the tick the world
// committed (docs/ARCHITECTURE.md, "Columns a tick keeps on the backend"): the host's copy
// of columns that tick's calls left on the backend only.
#pragma once

#include <cstddef>

#include "kernels/detection/agent_conditions.h"

namespace throng {

struct KeptPedestrianRows {
  // The next state's moved columns (the caller's frame), as the kept tick's
  // MovePedestrians wrote them (PedestrianMoveOutput's x to next_vz); null: not wanted.
  float* x = nullptr;
  float* y = nullptr;
  float* z = nullptr;
  float* vx = nullptr;
  float* vy = nullptr;
  float* vz = nullptr;
  size_t state_rows = 0;
  // The memory the kept tick's ReportPedestrians wrote; null: not wanted.
  AgentMemory* memory = nullptr;
  size_t memory_rows = 0;
};

}  // namespace throng
