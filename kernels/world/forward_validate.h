// A world's checks of its forward agents (part of ValidateWorldConfig and
// ValidateSnapshot). Errors are std::invalid_argument naming field and index.
#pragma once

#include "kernels/steering/forward_prepare_types.h"
#include "kernels/world/world_types.h"

namespace throng {

// "forward.probes: must be within [1, 64]", "obstacles[2].top: is below its base",
// "spheres[0].radius: must be > 0"; LimitExceeded beyond kMaxObstacleVertices spheres.
void ValidateForwardConfig(const WorldConfig& config);

// "forward.forward_x[3]: zero-length forward direction", "forward.speed[1]: must be at
// least 0.001 m/s", "forward.probes[4]: must be within [1, 64]", unique ids.
void ValidateForwardSnapshot(const WorldConfig& config, const ForwardSnapshot& forward);

// What the host checks of the forward agents when their preparation checks the values
// (ForwardChecksForPreparation): each present column's length, the goal columns that come
// together, ids strictly increasing (unique without a sort). False where one of them fails
// or is in doubt: then ValidateForwardSnapshot runs, which names the offender.
bool ForwardShapePasses(const ForwardSnapshot& forward);

// The checks of the forward agents' values that their preparation runs: each bounded float
// column's bounds from its rule in the column table, and forward_value_rules.h.
ForwardChecks ForwardChecksForPreparation();

}  // namespace throng
