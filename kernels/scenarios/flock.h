// Forward-only agents among scattered obstacles, for the cast-fan's tests and benchmarks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/steering/forward_batch.h"
#include "kernels/orca/orca_types.h"

namespace throng::scenarios {

struct Flock {
  std::vector<Polygon> obstacles;
  ForwardAgentColumns agents;
};

// `obstacle_count` boxes and walls over a square of side `side` m; n agents anywhere in
// it (some inside obstacles: the casts must cope), heading anywhere with forward vectors
// of varied length, radii 0.2 to 1.5 m.
Flock RandomFlock(uint32_t seed, size_t n, int obstacle_count = 40, float side = 100.f);

}  // namespace throng::scenarios
