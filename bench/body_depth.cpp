#include "bench/body_depth.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "bench/cell_index.h"

namespace throng::bench {

BodyDepths MeasureBodyDepths(const std::vector<float>& x, const std::vector<float>& y,
                             const std::vector<float>& radius, double deep) {
  BodyDepths out;
  const size_t n = x.size();
  if (n < 2) return out;
  double r_max = 0;
  for (float r : radius) r_max = std::max(r_max, static_cast<double>(r));
  const CellIndex cells(x, y, std::max(2 * r_max, 1e-3));
  for (size_t i = 0; i < n; ++i) {
    cells.ForEachNear(i, [&](uint32_t j) {
      if (j <= i) return;  // each pair once
      const double ex = static_cast<double>(x[j]) - x[i];
      const double ey = static_cast<double>(y[j]) - y[i];
      const double depth = static_cast<double>(radius[i]) + radius[j] - std::hypot(ex, ey);
      if (depth > out.deepest) {
        out.deepest = depth;
        out.deepest_i = static_cast<uint32_t>(i);
        out.deepest_j = j;
      }
      if (depth > deep) ++out.deep_pairs;
    });
  }
  return out;
}

}  // namespace throng::bench
