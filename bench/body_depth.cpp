#include "bench/body_depth.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace throng::bench {

BodyDepths MeasureBodyDepths(const std::vector<float>& x, const std::vector<float>& y,
                             const std::vector<float>& radius, double deep) {
  BodyDepths out;
  const size_t n = x.size();
  if (n < 2) return out;
  double r_max = 0;
  for (float r : radius) r_max = std::max(r_max, static_cast<double>(r));
  const double cell = std::max(2 * r_max, 1e-3);
  auto key = [](int64_t cx, int64_t cy) { return (cx << 32) ^ (cy & 0xffffffff); };
  std::unordered_map<int64_t, std::vector<uint32_t>> cells;
  cells.reserve(n);
  std::vector<int64_t> cx(n), cy(n);
  for (size_t i = 0; i < n; ++i) {
    cx[i] = static_cast<int64_t>(std::floor(x[i] / cell));
    cy[i] = static_cast<int64_t>(std::floor(y[i] / cell));
    cells[key(cx[i], cy[i])].push_back(static_cast<uint32_t>(i));
  }
  for (size_t i = 0; i < n; ++i) {
    for (int64_t dy = -1; dy <= 1; ++dy) {
      for (int64_t dx = -1; dx <= 1; ++dx) {
        const auto it = cells.find(key(cx[i] + dx, cy[i] + dy));
        if (it == cells.end()) continue;
        for (uint32_t j : it->second) {
          if (j <= i) continue;  // each pair once
          const double ex = static_cast<double>(x[j]) - x[i];
          const double ey = static_cast<double>(y[j]) - y[i];
          const double depth = static_cast<double>(radius[i]) + radius[j] - std::hypot(ex, ey);
          if (depth > out.deepest) {
            out.deepest = depth;
            out.deepest_i = static_cast<uint32_t>(i);
            out.deepest_j = j;
          }
          if (depth > deep) ++out.deep_pairs;
        }
      }
    }
  }
  return out;
}

}  // namespace throng::bench
