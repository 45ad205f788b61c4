// A spline as a caller gives it, and the checks every backend applies to it (the input
// contract, shared by the engine and the reference alike; what the curve is, is each
// one's own: kernels/vehicles/spline.cuh and kernels/reference/spline_ref.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/math/vec.cuh"

namespace throng {

// A lane or road centre line, in the internal frame.
struct SplineDesc {
  uint32_t id = 0;
  std::vector<Vec3> points;  // control points the curve passes through
  bool closed = false;
  float speed_limit = 0.f;  // m/s; 0 = none of its own
};

// Control points after validation: throws std::invalid_argument naming the point
// ("splines[2].points[5]: coordinate is not finite") for NaN/inf, fewer than 2
// distinct points (3 when closed), a bad speed limit. Consecutive duplicates collapse,
// and so does a closing point equal to the first on a closed spline.
std::vector<Vec3> CleanControlPoints(const SplineDesc& desc, size_t index);

// Throws std::invalid_argument when two splines share an id
// ("splines[3].id: 7 is already used by splines[1]").
void ValidateSplineIds(const std::vector<SplineDesc>& descs);

}  // namespace throng
