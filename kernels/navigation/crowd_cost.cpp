#include "kernels/navigation/crowd_cost.h"

#include <algorithm>
#include <cmath>

namespace throng {

NavCosts AddCrowdCost(const NavCosts& base, const std::vector<Vec2>& people, float density_cost,
                      float body_radius) {
  NavCosts out = base;
  const NavGridSpec& g = base.spec;
  if (g.cells() == 0 || !(density_cost > 0.f)) return out;
  // Each person counts as `persons` and adds persons * density_cost / (pi R^2) to the cells
  // whose centres lie within R: for a pedestrian one over kCrowdRadius, so the cost is the
  // head count's; for a larger body the people its disc would hold, over its disc.
  const float ratio = body_radius / kCrowdPersonRadius;
  const float persons = ratio > 1.f ? ratio * ratio : 1.f;
  const float radius = std::min(std::max(kCrowdRadius, body_radius), kCrowdSpreadMost);
  const float add = persons * density_cost / (3.14159265f * radius * radius);
  const float r_sq = radius * radius;
  for (const Vec2 p : people) {
    const auto lo_x = static_cast<int32_t>(std::floor((p.x - radius - g.origin.x) / g.cell));
    const auto lo_y = static_cast<int32_t>(std::floor((p.y - radius - g.origin.y) / g.cell));
    const auto hi_x = static_cast<int32_t>(std::floor((p.x + radius - g.origin.x) / g.cell));
    const auto hi_y = static_cast<int32_t>(std::floor((p.y + radius - g.origin.y) / g.cell));
    for (int32_t iy = std::max(lo_y, 0); iy <= std::min(hi_y, g.ny - 1); ++iy) {
      for (int32_t ix = std::max(lo_x, 0); ix <= std::min(hi_x, g.nx - 1); ++ix) {
        const size_t k = g.Index(ix, iy);
        if (out.blocked[k] || LengthSq(g.Centre(ix, iy) - p) > r_sq) continue;
        out.cost[k] += add;
      }
    }
  }
  // No more than kMaxCrowdDensity counts: denser is bodies on top of each other, and an
  // unbounded cost would stretch the march's buckets (distance_field.cpp) without end.
  const float most = kMaxCrowdDensity * density_cost;
  for (size_t k = 0; k < out.cost.size(); ++k) {
    if (!out.blocked[k]) out.cost[k] = std::min(out.cost[k], base.cost[k] + most);
  }
  return out;
}

}  // namespace throng
