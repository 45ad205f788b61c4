// A world's checks of its forward agents (part of ValidateWorldConfig and
// ValidateSnapshot). Errors are std::invalid_argument naming field and index.
#pragma once

#include "kernels/world/world_types.h"

namespace throng {

// "forward.probes: must be within [1, 64]", "obstacles[2].top: is below its base",
// "spheres[0].radius: must be > 0"; LimitExceeded beyond kMaxObstacleVertices spheres.
void ValidateForwardConfig(const WorldConfig& config);

// "forward.forward_x[3]: zero-length forward direction", "forward.speed[1]: must be at
// least 0.001 m/s", "forward.probes[4]: must be within [1, 64]", unique ids.
void ValidateForwardSnapshot(const WorldConfig& config, const ForwardSnapshot& forward);

}  // namespace throng
