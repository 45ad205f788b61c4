// Building packed spline sets from control points (host side, once per world).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/math/vec.cuh"
#include "kernels/vehicles/spline.cuh"
#include "kernels/vehicles/spline_desc.h"

namespace throng {

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

// Builds every spline; `index` in error messages is the position in `descs`.
SplineSet BuildSplineSet(const std::vector<SplineDesc>& descs,
                         float table_spacing = kDefaultSplineTableSpacing);

}  // namespace throng
