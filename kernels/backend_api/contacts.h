// Contacts measured at the end of a tick (docs/ALGORITHMS.md §5, observability): pedestrian
// pairs overlapping, pedestrians touching a vehicle's body, pedestrians inside obstacles.
// Every backend counts them (Backend::CountContacts); the parallel ones on their own
// neighbour grid (kernels/backends/contact_pipeline.cuh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernels/input/column_source.h"
#include "kernels/vehicles/vehicle_body.h"

namespace throng {

struct CollisionCounts {
  uint64_t agent_pairs = 0;          // centre distance < r_a + r_b - tolerance
  uint64_t agent_vehicle = 0;        // distance to a body < r - tolerance
  uint64_t agents_in_obstacles = 0;  // distance to an edge < r - tolerance, or inside

  bool operator==(const CollisionCounts& o) const {
    return agent_pairs == o.agent_pairs && agent_vehicle == o.agent_vehicle &&
           agents_in_obstacles == o.agents_in_obstacles;
  }
};

// Tolerance: ORCA keeps agents a contact margin apart, float rounding eats into it.
// The parallel backends decide contacts in float with the same tests
// (kernels/backends/contact_kernel.cuh), so their counts of one scene are equal; the
// reference decides them in double from the definition (kernels/reference/contacts_ref.cpp)
// and differs only where a contact lies within float rounding of the 1 mm bound.
constexpr float kCollisionTolerance = 1e-3f;

// Pedestrians (internal frame: `count` entries of x, y and radius) and the vehicles'
// bodies, met against the obstacles installed with SetObstacles. Pointers and counts, not
// spans: nvcc compiles this header as C++17.
struct ContactScene {
  const float* x = nullptr;
  const float* y = nullptr;
  const float* radius = nullptr;
  size_t count = 0;
  const VehicleBody* bodies = nullptr;
  size_t body_count = 0;
  // kThisTick: x, y and radius are rows [0, count) of the last SolveOrca's agents, with x
  // and y as the last MovePedestrians moved them when `moved` (else as solved).
  ColumnSource columns = ColumnSource::kHost;
  bool moved = false;
  // kThisTick: the bodies are the last PrepareVehicles' bodies, as the last MoveVehicles
  // moved them when `moved`.
  ColumnSource bodies_columns = ColumnSource::kHost;
};

// The counts fit the backends' 32-bit indices.
inline void ValidateContactScene(const ContactScene& s) {
  constexpr size_t kMax = std::numeric_limits<uint32_t>::max();
  if (s.count > kMax || s.body_count > kMax) {
    throw std::invalid_argument("contacts: " + std::to_string(s.count) + " agents and " +
                                std::to_string(s.body_count) +
                                " bodies (at most 2^32 - 1 of each)");
  }
}

}  // namespace throng
