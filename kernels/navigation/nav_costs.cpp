#include "kernels/navigation/nav_costs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

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

// Crossing number: inside a closed ring (its orientation does not matter).
bool Inside(const std::vector<Vec2>& ring, Vec2 p) {
  bool inside = false;
  for (size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
    const Vec2 a = ring[i], b = ring[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (b.x - a.x) * (p.y - a.y) / (b.y - a.y)) {
      inside = !inside;
    }
  }
  return inside;
}

}  // namespace

NavCosts BuildNavCosts(const std::vector<Polygon>& obstacles, const std::vector<NavTarget>& targets,
                       const NavFieldParams& params) {
  Require(params.cell >= 0.05f && params.cell <= 10.f, "cell: must be >= 0.05 and <= 10 m");
  Require(params.clearance >= 0.f && params.clearance <= 10.f,
          "clearance: must be >= 0 and <= 10 m");
  Require(params.wall_comfort > 0.f && params.wall_comfort <= 50.f,
          "wall_comfort: must be > 0 and <= 50 m");
  Require(params.wall_cost >= 0.f && params.wall_cost <= 100.f,
          "wall_cost: must be >= 0 and <= 100");
  Require(params.margin >= 0.f && params.margin <= 1000.f, "margin: must be >= 0 and <= 1000 m");

  Vec2 lo{INFINITY, INFINITY}, hi{-INFINITY, -INFINITY};
  auto cover = [&](Vec2 v) {
    lo = {std::min(lo.x, v.x), std::min(lo.y, v.y)};
    hi = {std::max(hi.x, v.x), std::max(hi.y, v.y)};
  };
  for (const Polygon& p : obstacles) std::for_each(p.vertices.begin(), p.vertices.end(), cover);
  for (const NavTarget& t : targets) std::for_each(t.shape.begin(), t.shape.end(), cover);
  NavCosts out;
  if (!(lo.x <= hi.x)) return out;  // nothing to navigate around or to
  NavGridSpec& g = out.spec;
  g.cell = params.cell;
  g.origin = {lo.x - params.margin, lo.y - params.margin};
  const double nx = std::ceil((static_cast<double>(hi.x) - lo.x + 2.0 * params.margin) / g.cell);
  const double ny = std::ceil((static_cast<double>(hi.y) - lo.y + 2.0 * params.margin) / g.cell);
  Require(nx * ny <= static_cast<double>(kMaxNavCells),
          "cell: the grid would hold " + std::to_string(static_cast<uint64_t>(nx * ny)) +
              " cells, at most " + std::to_string(kMaxNavCells) +
              " (a coarser cell, or a smaller world)");
  g.nx = std::max(1, static_cast<int32_t>(nx));
  g.ny = std::max(1, static_cast<int32_t>(ny));

  // Distance from each cell centre to the nearest edge, within the reach that matters.
  const float reach = params.clearance + params.wall_comfort;
  std::vector<float> wall(g.cells(), INFINITY);
  out.blocked.assign(g.cells(), 0);
  for (const Polygon& polygon : obstacles) {
    const std::vector<Vec2>& v = polygon.vertices;
    const size_t edges = v.size() == 2 ? 1 : v.size();
    for (size_t e = 0; e < edges; ++e) {
      const Vec2 a = v[e], b = v[(e + 1) % v.size()];
      const CellRange r = CellsOver(g, {std::min(a.x, b.x) - reach, std::min(a.y, b.y) - reach},
                                    {std::max(a.x, b.x) + reach, std::max(a.y, b.y) + reach});
      for (int32_t iy = r.y0; iy <= r.y1; ++iy) {
        for (int32_t ix = r.x0; ix <= r.x1; ++ix) {
          const float d = std::sqrt(PointSegmentDistanceSq(g.Centre(ix, iy), a, b));
          float& w = wall[g.Index(ix, iy)];
          w = std::min(w, d);
        }
      }
    }
    if (v.size() < 3) continue;
    Vec2 plo = v[0], phi = v[0];
    for (const Vec2& p : v) {
      plo = {std::min(plo.x, p.x), std::min(plo.y, p.y)};
      phi = {std::max(phi.x, p.x), std::max(phi.y, p.y)};
    }
    const CellRange r = CellsOver(g, plo, phi);
    for (int32_t iy = r.y0; iy <= r.y1; ++iy) {
      for (int32_t ix = r.x0; ix <= r.x1; ++ix) {
        if (Inside(v, g.Centre(ix, iy))) out.blocked[g.Index(ix, iy)] = 1;
      }
    }
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
