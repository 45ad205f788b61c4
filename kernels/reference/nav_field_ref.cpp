#include "kernels/reference/nav_field_ref.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

#include "kernels/reference/plane_ref.h"

namespace throng::reference {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

std::vector<double> NavDistances(const std::vector<Polygon>& obstacles, const NavTarget& target,
                                 const NavFieldParams& params, const NavGridSpec& g) {
  const size_t n = static_cast<size_t>(g.nx) * static_cast<size_t>(g.ny);
  auto centre = [&](int ix, int iy) {
    return D2{g.origin.x + (ix + 0.5) * g.cell, g.origin.y + (iy + 0.5) * g.cell};
  };
  // Every cell against every edge: blocked within the clearance or inside a polygon; the
  // cost rises from 1 at clearance + comfort to 1 + wall_cost at the clearance.
  std::vector<uint8_t> blocked(n, 0);
  std::vector<double> cost(n, 1.0);
  for (int iy = 0; iy < g.ny; ++iy) {
    for (int ix = 0; ix < g.nx; ++ix) {
      const D2 c = centre(ix, iy);
      double wall = kInf;
      bool inside = false;
      for (const Polygon& polygon : obstacles) {
        const std::vector<Vec2>& v = polygon.vertices;
        for (size_t e = 0; e < (v.size() == 2 ? 1 : v.size()); ++e) {
          const Vec2 a = v[e], b = v[(e + 1) % v.size()];
          wall = std::min(wall, SegmentDistance(c, {a.x, a.y}, {b.x, b.y}));
        }
        inside = inside || InsideRing(c, v);
      }
      const size_t k = static_cast<size_t>(iy) * g.nx + ix;
      blocked[k] = inside || wall < params.clearance;
      const double near = (params.clearance + params.wall_comfort - wall) / params.wall_comfort;
      cost[k] = 1.0 + params.wall_cost * std::clamp(near, 0.0, 1.0);
    }
  }
  std::vector<double> dist(n, kInf);
  using Entry = std::pair<double, size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
  auto seed = [&](size_t k, double d) {
    if (!blocked[k] && d < dist[k]) {
      dist[k] = d;
      open.push({d, k});
    }
  };
  bool polygon_seeded = false;
  if (target.shape.size() >= 3) {
    for (int iy = 0; iy < g.ny; ++iy) {
      for (int ix = 0; ix < g.nx; ++ix) {
        const size_t k = static_cast<size_t>(iy) * g.nx + ix;
        if (!blocked[k] && InsideRing(centre(ix, iy), target.shape)) {
          seed(k, 0.0);
          polygon_seeded = true;
        }
      }
    }
  }
  if (!polygon_seeded && !target.shape.empty()) {
    D2 point{0, 0};
    for (const Vec2& v : target.shape) point = {point.x + v.x, point.y + v.y};
    if (target.shape.size() < 3)
      point = {target.shape[0].x, target.shape[0].y};
    else
      point = {point.x / target.shape.size(), point.y / target.shape.size()};
    const int cx = static_cast<int>(std::floor((point.x - g.origin.x) / g.cell));
    const int cy = static_cast<int>(std::floor((point.y - g.origin.y) / g.cell));
    for (int iy = cy - 1; iy <= cy + 1; ++iy) {
      for (int ix = cx - 1; ix <= cx + 1; ++ix) {
        if (ix < 0 || iy < 0 || ix >= g.nx || iy >= g.ny) continue;
        const D2 c = centre(ix, iy);
        const size_t k = static_cast<size_t>(iy) * g.nx + ix;
        seed(k, std::hypot(c.x - point.x, c.y - point.y) * cost[k]);
      }
    }
  }
  const int moves[16][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},  {1, 1}, {1, -1}, {-1, 1}, {-1, -1},
                            {2, 1}, {2, -1}, {-2, 1}, {-2, -1}, {1, 2}, {1, -2}, {-1, 2}, {-1, -2}};
  auto free_cell = [&](int ix, int iy) {
    return ix >= 0 && iy >= 0 && ix < g.nx && iy < g.ny &&
           !blocked[static_cast<size_t>(iy) * g.nx + ix];
  };
  while (!open.empty()) {
    const auto [d, k] = open.top();
    open.pop();
    if (d > dist[k]) continue;
    const int ix = static_cast<int>(k % g.nx), iy = static_cast<int>(k / g.nx);
    for (const auto& m : moves) {
      const int jx = ix + m[0], jy = iy + m[1];
      if (!free_cell(jx, jy)) continue;
      // The cells the move passes beside: both axis neighbours of a diagonal, the two
      // cells a knight's move crosses.
      const int sx = (m[0] > 0) - (m[0] < 0), sy = (m[1] > 0) - (m[1] < 0);
      bool clear = true;
      if (std::abs(m[0]) + std::abs(m[1]) == 2) {
        clear = free_cell(ix + sx, iy) && free_cell(ix, iy + sy);
      } else if (std::abs(m[0]) + std::abs(m[1]) == 3) {
        clear = std::abs(m[0]) == 2 ? free_cell(ix + sx, iy) && free_cell(ix + sx, iy + sy)
                                    : free_cell(ix, iy + sy) && free_cell(ix + sx, iy + sy);
      }
      if (!clear) continue;
      const size_t j = static_cast<size_t>(jy) * g.nx + jx;
      const double step = std::hypot(m[0], m[1]) * g.cell * 0.5 * (cost[k] + cost[j]);
      if (d + step < dist[j]) {
        dist[j] = d + step;
        open.push({dist[j], j});
      }
    }
  }
  return dist;
}

}  // namespace throng::reference
