#include "kernels/navigation/nav_costs.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/math/segment.cuh"

namespace throng {
namespace {

void Require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("navigation." + what);
}

// Cells whose centres lie in [lo, hi] (clamped to the grid); empty when none.
struct CellRange {
  int32_t x0, y0, x1, y1;
};
CellRange CellsOver(const NavGridSpec& g, Vec2 lo, Vec2 hi) {
  auto index = [&](float v, float origin, int32_t n, bool upper) {
    const float t = (v - origin) / g.cell - 0.5f;
    const float i = upper ? std::floor(t) : std::ceil(t);
    return static_cast<int32_t>(std::clamp(i, -1.f, static_cast<float>(n)));
  };
  return {std::max(index(lo.x, g.origin.x, g.nx, false), 0),
          std::max(index(lo.y, g.origin.y, g.ny, false), 0),
          std::min(index(hi.x, g.origin.x, g.nx, true), g.nx - 1),
          std::min(index(hi.y, g.origin.y, g.ny, true), g.ny - 1)};
}

// The x-interval of the row y = const within `r` of segment ab (the capsule is convex, so
// it is one interval: the union of the band's and the two end discs'); false when empty.
bool CapsuleRow(Vec2 a, Vec2 b, float r, float y, float* lo, float* hi) {
  float l = INFINITY, h = -INFINITY;
  for (const Vec2 c : {a, b}) {
    const float dy = y - c.y;
    if (dy * dy <= r * r) {
      const float w = std::sqrt(r * r - dy * dy);
      l = std::min(l, c.x - w);
      h = std::max(h, c.x + w);
    }
  }
  const Vec2 d = b - a;
  const float length = Length(d);
  if (length > 0.f) {
    const Vec2 u = d * (1.f / length);
    // Along the segment: 0 <= (x - a.x) u.x + (y - a.y) u.y <= length; across it:
    // |(x - a.x) u.y - (y - a.y) u.x| <= r. Each is linear in x.
    float bl = -INFINITY, bh = INFINITY;
    auto clip = [&](float slope, float offset, float min, float max) {
      // min <= slope * (x - a.x) + offset <= max
      if (std::fabs(slope) < 1e-12f) {
        if (offset < min || offset > max) bl = INFINITY;
        return;
      }
      float x0 = a.x + (min - offset) / slope, x1 = a.x + (max - offset) / slope;
      if (x0 > x1) std::swap(x0, x1);
      bl = std::max(bl, x0);
      bh = std::min(bh, x1);
    };
    clip(u.x, (y - a.y) * u.y, 0.f, length);
    clip(u.y, -(y - a.y) * u.x, -r, r);
    if (bl <= bh) {
      l = std::min(l, bl);
      h = std::max(h, bh);
    }
  }
  *lo = l;
  *hi = h;
  return l <= h;
}

}  // namespace

void RingFill::ForEachCellIndexInside(const std::vector<Vec2>& ring,
                                      const std::function<void(size_t)>& f) {
  const NavGridSpec& g = spec_;
  int32_t first = g.ny, last = -1;
  for (size_t e = 0; e < ring.size(); ++e) {
    const Vec2 a = ring[e], b = ring[(e + 1) % ring.size()];
    const CellRange rows = CellsOver(g, {a.x, std::min(a.y, b.y)}, {a.x, std::max(a.y, b.y)});
    for (int32_t iy = rows.y0; iy <= rows.y1; ++iy) {
      const float y = g.Centre(0, iy).y;
      if ((a.y > y) == (b.y > y)) continue;  // the half-open rule: each crossing once
      crossings_[iy].push_back(a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y));
      first = std::min(first, iy);
      last = std::max(last, iy);
    }
  }
  for (int32_t iy = first; iy <= last; ++iy) {
    std::vector<float>& xs = crossings_[iy];
    std::sort(xs.begin(), xs.end());
    for (size_t k = 0; k + 1 < xs.size(); k += 2) {
      const CellRange r = CellsOver(g, {xs[k], 0.f}, {xs[k + 1], 0.f});
      for (int32_t ix = r.x0; ix <= r.x1; ++ix) f(g.Index(ix, iy));
    }
    xs.clear();
  }
}

void ValidateNavParams(const NavFieldParams& params) {
  Require(params.cell >= 0.05f && params.cell <= 10.f, "cell: must be >= 0.05 and <= 10 m");
  Require(params.clearance >= 0.f && params.clearance <= 10.f,
          "clearance: must be >= 0 and <= 10 m");
  Require(params.wall_comfort > 0.f && params.wall_comfort <= 50.f,
          "wall_comfort: must be > 0 and <= 50 m");
  Require(params.wall_cost >= 0.f && params.wall_cost <= 100.f,
          "wall_cost: must be >= 0 and <= 100");
  Require(params.margin >= 0.f && params.margin <= 1000.f, "margin: must be >= 0 and <= 1000 m");
  Require(params.density_cost >= 0.f && params.density_cost <= 100.f,
          "density_cost: must be >= 0 and <= 100");
  Require(params.goal_cone >= 0.f && params.goal_cone <= 1.58f,
          "goal_cone: must be >= 0 and <= 1.58 rad (90 degrees)");
  Require(params.reroute_every >= 0 && params.reroute_every <= 1000000,
          "reroute_every: must be >= 0 and <= 1000000 ticks");
}

namespace {

// The grid over [lo, hi] with `margin` round it; `what` and `smaller` name it in the error.
NavGridSpec GridOver(Vec2 lo, Vec2 hi, const NavFieldParams& params, const std::string& what,
                     const std::string& smaller) {
  NavGridSpec g;
  g.cell = params.cell;
  g.origin = {lo.x - params.margin, lo.y - params.margin};
  const double nx = std::ceil((static_cast<double>(hi.x) - lo.x + 2.0 * params.margin) / g.cell);
  const double ny = std::ceil((static_cast<double>(hi.y) - lo.y + 2.0 * params.margin) / g.cell);
  Require(nx * ny <= static_cast<double>(kMaxNavCells),
          "cell: " + what + " would hold " + std::to_string(static_cast<uint64_t>(nx * ny)) +
              " cells, at most " + std::to_string(kMaxNavCells) + " (a coarser cell, or " +
              smaller + ")");
  g.nx = std::max(1, static_cast<int32_t>(nx));
  g.ny = std::max(1, static_cast<int32_t>(ny));
  return g;
}

}  // namespace

NavGridSpec NavGridFor(const std::vector<Polygon>& obstacles, const std::vector<NavTarget>& targets,
                       const NavFieldParams& params) {
  ValidateNavParams(params);
  Vec2 lo{INFINITY, INFINITY}, hi{-INFINITY, -INFINITY};
  auto cover = [&](Vec2 v) {
    lo = {std::min(lo.x, v.x), std::min(lo.y, v.y)};
    hi = {std::max(hi.x, v.x), std::max(hi.y, v.y)};
  };
  for (const Polygon& p : obstacles) std::for_each(p.vertices.begin(), p.vertices.end(), cover);
  for (const NavTarget& t : targets) std::for_each(t.shape.begin(), t.shape.end(), cover);
  if (!(lo.x <= hi.x)) return {};  // nothing to navigate around or to
  return GridOver(lo, hi, params, "the grid", "a smaller world");
}

NavGridSpec NavGridForRegion(Vec2 lo, Vec2 hi, const NavFieldParams& params) {
  ValidateNavParams(params);
  return GridOver(lo, hi, params, "a target's region", "a smaller region");
}

NavCosts BuildNavCosts(const std::vector<Polygon>& obstacles, const std::vector<NavTarget>& targets,
                       const NavFieldParams& params) {
  return BuildNavCostsOn(NavGridFor(obstacles, targets, params), obstacles, params);
}

NavCosts BuildNavCostsOn(const NavGridSpec& spec, const std::vector<Polygon>& obstacles,
                         const NavFieldParams& params) {
  NavCosts out;
  out.spec = spec;
  const NavGridSpec& g = out.spec;
  if (g.cells() == 0) return out;
  const float reach = params.clearance + params.wall_comfort;
  // Only what reaches the grid: a region's grid skips the world's other obstacles.
  const Vec2 grid_lo = g.origin;
  const Vec2 grid_hi = {g.origin.x + static_cast<float>(g.nx) * g.cell,
                        g.origin.y + static_cast<float>(g.ny) * g.cell};
  auto reaches = [&](Vec2 a, Vec2 b) {
    return std::max(a.x, b.x) + reach >= grid_lo.x && std::min(a.x, b.x) - reach <= grid_hi.x &&
           std::max(a.y, b.y) + reach >= grid_lo.y && std::min(a.y, b.y) - reach <= grid_hi.y;
  };
  // The work below is the ground the edges' reach covers plus the rows they cross, in
  // cells: bounded before anything is done, so a few long hostile edges cannot hold a
  // world's creation (docs/NAVIGATION.md, "Limits").
  double work = 0;
  for (const Polygon& polygon : obstacles) {
    const std::vector<Vec2>& v = polygon.vertices;
    for (size_t e = 0; e < (v.size() == 2 ? 1 : v.size()); ++e) {
      const Vec2 a = v[e], b = v[(e + 1) % v.size()];
      if (!reaches(a, b)) continue;
      const double length = Length(b - a);
      work += (length + 2.0 * reach + g.cell) * (2.0 * reach + 2.0 * g.cell) /
                  (static_cast<double>(g.cell) * g.cell) +
              std::fabs(b.y - a.y) / g.cell + 1.0;
    }
  }
  Require(work <= static_cast<double>(kMaxNavRasterWork),
          "cell: the obstacles' edges cover " + std::to_string(static_cast<uint64_t>(work)) +
              " cells within their reach, at most " + std::to_string(kMaxNavRasterWork) +
              " (a coarser cell, a smaller clearance or wall_comfort, or shorter edges)");

  // Distance from each cell centre to the nearest edge, within the reach that matters:
  // per edge, per row, only the cells of the row within reach of the segment.
  std::vector<float> wall(g.cells(), INFINITY);
  out.blocked.assign(g.cells(), 0);
  for (const Polygon& polygon : obstacles) {
    const std::vector<Vec2>& v = polygon.vertices;
    for (size_t e = 0; e < (v.size() == 2 ? 1 : v.size()); ++e) {
      const Vec2 a = v[e], b = v[(e + 1) % v.size()];
      if (!reaches(a, b)) continue;
      const CellRange rows = CellsOver(g, {std::min(a.x, b.x) - reach, std::min(a.y, b.y) - reach},
                                       {std::max(a.x, b.x) + reach, std::max(a.y, b.y) + reach});
      for (int32_t iy = rows.y0; iy <= rows.y1; ++iy) {
        const float y = g.Centre(0, iy).y;
        float x_lo, x_hi;
        if (!CapsuleRow(a, b, reach, y, &x_lo, &x_hi)) continue;
        const CellRange r = CellsOver(g, {x_lo, y}, {x_hi, y});
        for (int32_t ix = r.x0; ix <= r.x1; ++ix) {
          const float d = std::sqrt(PointSegmentDistanceSq(g.Centre(ix, iy), a, b));
          float& w = wall[g.Index(ix, iy)];
          w = std::min(w, d);
        }
      }
    }
  }
  RingFill fill(g);
  for (const Polygon& polygon : obstacles) {
    if (polygon.vertices.size() < 3) continue;
    Vec2 lo = polygon.vertices[0], hi = polygon.vertices[0];
    for (const Vec2 q : polygon.vertices) {
      lo = {std::min(lo.x, q.x), std::min(lo.y, q.y)};
      hi = {std::max(hi.x, q.x), std::max(hi.y, q.y)};
    }
    if (!reaches(lo, hi)) continue;
    fill.ForEachCellInside(polygon.vertices, [&](size_t k) { out.blocked[k] = 1; });
  }
  out.cost.assign(g.cells(), 1.f);
  for (size_t k = 0; k < g.cells(); ++k) {
    if (wall[k] < params.clearance) out.blocked[k] = 1;
    const float near = std::clamp((reach - wall[k]) / params.wall_comfort, 0.f, 1.f);
    out.cost[k] = 1.f + params.wall_cost * near;
  }
  return out;
}

}  // namespace throng
