// Collisions measured at the end of a tick (ALGORITHMS.md §5, observability): pedestrian
// pairs overlapping, pedestrians touching a vehicle's body, pedestrians inside obstacles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/orca/orca_types.h"
#include "kernels/input/stop_request.h"
#include "kernels/world/vehicle_body.h"

namespace throng {

struct CollisionCounts {
  uint64_t agent_pairs = 0;          // centre distance < r_a + r_b - tolerance
  uint64_t agent_vehicle = 0;        // distance to a body < r - tolerance
  uint64_t agents_in_obstacles = 0;  // distance to an edge < r - tolerance, or inside
};

// Tolerance: ORCA keeps agents a contact margin apart, float rounding eats into it.
constexpr float kCollisionTolerance = 1e-3f;

// Pedestrians at (x, y) with radii; obstacles as polygons (internal frame, any vertex
// count >= 2; closed when >= 3).
CollisionCounts CountCollisions(const float* x, const float* y, const float* radius, size_t n,
                                const std::vector<VehicleBody>& vehicles,
                                const std::vector<Polygon>& obstacles,
                                const StopRequested& stop = {});

}  // namespace throng
