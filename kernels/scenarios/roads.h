// Road networks and vehicle fleets for tests, benchmarks and the demo (STYLE.md #11).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/vehicles/spline.h"
#include "kernels/vehicles/vehicle_batch.h"

namespace throng::scenarios {

// `count` closed, wobbly ring roads of 30 to 130 m radius with 24 control points each
// (ids 0..count-1), centred on the origin.
std::vector<SplineDesc> RingRoads(int count, uint32_t seed);

// n vehicles spread over the roads: up to 1 m off the centre line, heading along the lane
// within +-0.3 rad, 0 to 20 m/s, progress hints within 1 m of the truth.
VehicleColumns VehiclesOn(const std::vector<SplineDesc>& roads, size_t n, uint32_t seed);

// The follower's test course (tests/vehicles/vehicle_test.cpp, throng-bench-lanes' `hairpin`):
// straight A 120 m, a left hairpin of R = 8 m starting at arc length 120, straight B, an
// S-bend (min radius ~16 m), straight C, a wide left turn (R = 18 m) and the closing
// straight: 367 m closed. Open, it ends where the closing straight would begin again.
SplineDesc HairpinCourse(bool closed);

}  // namespace throng::scenarios
