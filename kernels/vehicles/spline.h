// Building packed spline sets from control points (host side, once per world).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/vehicles/spline.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

// A lane or road centre line, in the internal frame.
struct SplineDesc {
  uint32_t id = 0;
  std::vector<Vec3> points;  // control points the curve passes through
  bool closed = false;
  float speed_limit = 0.f;  // m/s; 0 = none of its own
};

// Splines packed for the kernels: every backend uploads these arrays as they are.
struct SplineSet {
  std::vector<SplineHeader> headers;
  std::vector<Vec3> coeff;        // 4 per segment
  std::vector<SplineKnot> knots;  // segments + 1 per spline
  std::vector<SplineSample> table;
  std::vector<uint32_t> ids;  // caller's id per spline, same order as headers

  size_t size() const { return headers.size(); }
  SplineSetView View() const {
    return {headers.data(), coeff.data(), knots.data(), table.data(),
            static_cast<uint32_t>(headers.size())};
  }
};

constexpr float kDefaultSplineTableSpacing = 0.25f;  // m

// Control points after validation: throws std::invalid_argument naming the point
// ("splines[2].points[5]: coordinate is not finite") for NaN/inf, fewer than 2
// distinct points (3 when closed), a bad speed limit. Consecutive duplicates collapse,
// and so does a closing point equal to the first on a closed spline.
std::vector<Vec3> CleanControlPoints(const SplineDesc& desc, size_t index);

// Throws std::invalid_argument when two splines share an id
// ("splines[3].id: 7 is already used by splines[1]").
void ValidateSplineIds(const std::vector<SplineDesc>& descs);

// Builds every spline; `index` in error messages is the position in `descs`.
SplineSet BuildSplineSet(const std::vector<SplineDesc>& descs,
                         float table_spacing = kDefaultSplineTableSpacing);

}  // namespace throng
