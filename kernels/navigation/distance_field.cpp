#include "kernels/navigation/distance_field.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "kernels/navigation/nav_costs.h"

namespace throng {
namespace {

constexpr double kInf = INFINITY;
constexpr double kSqrt2 = 1.4142135623730951;

// The first-order upwind solution of (u - a)^2 + (u - b)^2 = f^2 over two orthogonal
// settled neighbours a and b at the stencil's spacing (f: spacing x cost); one-sided when
// only one is known or they differ by f or more.
double Upwind(double a, double b, double f) {
  if (std::isfinite(a) && std::isfinite(b) && std::fabs(a - b) < f) {
    return 0.5 * (a + b + std::sqrt(2.0 * f * f - (a - b) * (a - b)));
  }
  return std::min(a, b) + f;
}

// Seeds: cell index and its distance to the target.
std::vector<std::pair<double, uint32_t>> Seeds(const NavCosts& c, const NavTarget& target) {
  const NavGridSpec& g = c.spec;
  std::vector<std::pair<double, uint32_t>> seeds;
  Vec2 point = target.shape.empty() ? Vec2{0.f, 0.f} : target.shape[0];
  if (target.shape.size() >= 3) {
    RingFill(g).ForEachCellInside(target.shape, [&](size_t k) {
      if (!c.blocked[k]) seeds.push_back({0.0, static_cast<uint32_t>(k)});
    });
    if (!seeds.empty()) return seeds;
    Vec2 sum{0.f, 0.f};
    for (const Vec2& v : target.shape) sum = sum + v;
    point = sum * (1.f / static_cast<float>(target.shape.size()));
  }
  const auto cx = static_cast<int32_t>(std::floor((point.x - g.origin.x) / g.cell));
  const auto cy = static_cast<int32_t>(std::floor((point.y - g.origin.y) / g.cell));
  for (int32_t iy = cy - 1; iy <= cy + 1; ++iy) {
    for (int32_t ix = cx - 1; ix <= cx + 1; ++ix) {
      if (ix < 0 || iy < 0 || ix >= g.nx || iy >= g.ny) continue;
      const size_t k = g.Index(ix, iy);
      if (c.blocked[k]) continue;
      const Vec2 d = g.Centre(ix, iy) - point;
      seeds.push_back(
          {std::hypot(static_cast<double>(d.x), d.y) * c.cost[k], static_cast<uint32_t>(k)});
    }
  }
  return seeds;
}

}  // namespace

NavField BuildNavField(const NavCosts& c, const NavTarget& target) {
  const NavGridSpec& g = c.spec;
  NavField out;
  out.spec = g;
  const size_t n = g.cells();
  std::vector<double> u(n, kInf);
  std::vector<uint8_t> done(n, 0);
  using Entry = std::pair<double, uint32_t>;  // (distance, cell): ties by index
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> trial;
  for (const Entry& s : Seeds(c, target)) {
    if (s.first < u[s.second]) {
      u[s.second] = s.first;
      trial.push(s);
    }
  }
  const double h = g.cell;
  auto known = [&](int32_t ix, int32_t iy) {
    if (ix < 0 || iy < 0 || ix >= g.nx || iy >= g.ny) return kInf;
    const size_t k = g.Index(ix, iy);
    return done[k] ? u[k] : kInf;
  };
  auto open = [&](int32_t ix, int32_t iy) {
    return ix >= 0 && iy >= 0 && ix < g.nx && iy < g.ny && !c.blocked[g.Index(ix, iy)];
  };
  // A diagonal neighbour counts only through an open corner: with both cells beside the
  // diagonal blocked, the front would leak through a gap no agent fits.
  auto across = [&](int32_t ix, int32_t iy, int32_t dx, int32_t dy) {
    return open(ix + dx, iy) && open(ix, iy + dy) ? known(ix + dx, iy + dy) : kInf;
  };
  while (!trial.empty()) {
    const auto [value, k] = trial.top();
    trial.pop();
    if (done[k] || value != u[k]) continue;  // settled, or a stale entry
    done[k] = 1;
    const int32_t ix = static_cast<int32_t>(k % static_cast<size_t>(g.nx));
    const int32_t iy = static_cast<int32_t>(k / static_cast<size_t>(g.nx));
    for (int32_t dy = -1; dy <= 1; ++dy) {
      for (int32_t dx = -1; dx <= 1; ++dx) {
        const int32_t qx = ix + dx, qy = iy + dy;
        if ((dx == 0 && dy == 0) || qx < 0 || qy < 0 || qx >= g.nx || qy >= g.ny) continue;
        const size_t m = g.Index(qx, qy);
        if (done[m] || c.blocked[m]) continue;
        // |grad u| = cost on two stencils, the axes (spacing h) and the diagonals (spacing
        // h sqrt 2, also orthogonal to each other), over the settled neighbours; the
        // smaller answer. The diagonal stencil removes most of the axis stencil's error
        // along the diagonals (multi-stencil fast marching).
        const double axis = Upwind(std::min(known(qx - 1, qy), known(qx + 1, qy)),
                                   std::min(known(qx, qy - 1), known(qx, qy + 1)), h * c.cost[m]);
        const double diagonal =
            Upwind(std::min(across(qx, qy, -1, -1), across(qx, qy, 1, 1)),
                   std::min(across(qx, qy, -1, 1), across(qx, qy, 1, -1)), kSqrt2 * h * c.cost[m]);
        const double candidate = std::min(axis, diagonal);
        if (candidate < u[m]) {
          u[m] = candidate;
          trial.push({candidate, static_cast<uint32_t>(m)});
        }
      }
    }
  }
  out.distance.assign(n, INFINITY);
  out.direction.assign(n, Vec2{0.f, 0.f});
  auto at = [&](int32_t ix, int32_t iy) {
    if (ix < 0 || iy < 0 || ix >= g.nx || iy >= g.ny) return kInf;
    return u[g.Index(ix, iy)];
  };
  for (int32_t iy = 0; iy < g.ny; ++iy) {
    for (int32_t ix = 0; ix < g.nx; ++ix) {
      const size_t k = g.Index(ix, iy);
      if (!std::isfinite(u[k])) continue;
      out.distance[k] = static_cast<float>(u[k]);
      // Upwind descent: toward the lower neighbour on each axis, by how much lower it is.
      const double l = at(ix - 1, iy), r = at(ix + 1, iy), d = at(ix, iy - 1), t = at(ix, iy + 1);
      const double dx = std::min(l, r) < u[k] ? (u[k] - std::min(l, r)) * (l < r ? -1 : 1) : 0.0;
      const double dy = std::min(d, t) < u[k] ? (u[k] - std::min(d, t)) * (d < t ? -1 : 1) : 0.0;
      const double len = std::hypot(dx, dy);
      if (len > 0) out.direction[k] = {static_cast<float>(dx / len), static_cast<float>(dy / len)};
    }
  }
  return out;
}

Vec2 NavDirectionAt(const NavField& field, Vec2 p) {
  const NavGridSpec& g = field.spec;
  if (g.cells() == 0) return {0.f, 0.f};
  const float fx = (p.x - g.origin.x) / g.cell - 0.5f, fy = (p.y - g.origin.y) / g.cell - 0.5f;
  if (!(fx >= -0.5f && fy >= -0.5f && fx <= static_cast<float>(g.nx) - 0.5f &&
        fy <= static_cast<float>(g.ny) - 0.5f)) {
    return {0.f, 0.f};  // outside the grid (NaN included)
  }
  const auto x0 = static_cast<int32_t>(std::floor(fx)), y0 = static_cast<int32_t>(std::floor(fy));
  const float tx = fx - static_cast<float>(x0), ty = fy - static_cast<float>(y0);
  Vec2 sum{0.f, 0.f};
  for (int32_t j = 0; j < 2; ++j) {
    for (int32_t i = 0; i < 2; ++i) {
      const int32_t ix = x0 + i, iy = y0 + j;
      if (ix < 0 || iy < 0 || ix >= g.nx || iy >= g.ny) continue;
      const float w = (i ? tx : 1.f - tx) * (j ? ty : 1.f - ty);
      sum = sum + field.direction[g.Index(ix, iy)] * w;
    }
  }
  float len = Length(sum);
  if (!(len > 1e-6f)) {  // no neighbour leads: the cell that holds p
    const int32_t ix = std::clamp(static_cast<int32_t>(std::floor(fx + 0.5f)), 0, g.nx - 1);
    const int32_t iy = std::clamp(static_cast<int32_t>(std::floor(fy + 0.5f)), 0, g.ny - 1);
    sum = field.direction[g.Index(ix, iy)];
    len = Length(sum);
  }
  return len > 1e-6f ? sum * (1.f / len) : Vec2{0.f, 0.f};
}

}  // namespace throng
