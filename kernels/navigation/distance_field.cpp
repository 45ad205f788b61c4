#include "kernels/navigation/distance_field.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "kernels/navigation/nav_costs.h"

namespace throng {
namespace {

constexpr float kInf = INFINITY;
constexpr float kSqrt2 = 1.41421356f;

// The first-order upwind solution of (u - a)^2 + (u - b)^2 = f^2 over two orthogonal
// settled neighbours a and b at the stencil's spacing (f: spacing x cost); one-sided when
// only one is known or they differ by f or more.
inline float Upwind(float a, float b, float f) {
  const float d = a - b;
  if (std::fabs(d) < f) return 0.5f * (a + b + std::sqrt(2.f * f * f - d * d));
  return std::min(a, b) + f;
}

// Seeds: cell index and its distance to the target.
std::vector<std::pair<float, uint32_t>> Seeds(const NavCosts& c, const NavTarget& target) {
  const NavGridSpec& g = c.spec;
  std::vector<std::pair<float, uint32_t>> seeds;
  Vec2 point = target.shape.empty() ? Vec2{0.f, 0.f} : target.shape[0];
  if (target.shape.size() >= 3) {
    RingFill(g).ForEachCellInside(target.shape, [&](size_t k) {
      if (!c.blocked[k]) seeds.push_back({0.f, static_cast<uint32_t>(k)});
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
      seeds.push_back({static_cast<float>(std::hypot(static_cast<double>(d.x), d.y) * c.cost[k]),
                       static_cast<uint32_t>(k)});
    }
  }
  return seeds;
}

// The march's working grid: the field's grid with a ring of blocked cells around it, so
// that no neighbour lookup needs a bounds check. Cell (ix, iy) is at (iy + 1) * width +
// ix + 1. A cell's values sit together (12 bytes): the march reads a neighbourhood at a
// time, and one cache line then serves all it asks of a cell.
struct MarchCell {
  // The state in the low two bits; above them, which diagonal neighbours the cell reaches
  // through an open corner (one bit per entry of kDiagonals).
  enum : uint8_t { kOpen = 0, kSettled = 1, kBlocked = 2, kStateBits = 3 };
  static constexpr int kDiagonals[4][2] = {{-1, -1}, {1, 1}, {-1, 1}, {1, -1}};
  static constexpr uint8_t Reaches(int d) { return static_cast<uint8_t>(4u << d); }

  float trial = INFINITY;  // the best value found so far; final once settled
  float step = 0.f;        // cell x cost: the axis stencil's f
  uint8_t state = kBlocked;
};

// Buckets of width w over the values, in a ring long enough for the largest step: the
// cells of one bucket leave in the order they came, and a cell whose value falls within
// the bucket being emptied joins it at the back (an untidy priority queue: Yatziv, Bartesaghi
// and Sapiro 2006). Every queue operation is O(1) where a heap's is O(log n); the order
// differs from a heap's only between values less than w apart.
class BucketQueue {
 public:
  BucketQueue(float width, size_t ring) : width_(width), ring_(ring) {}
  size_t BucketOf(float value) const { return static_cast<size_t>(value / width_); }
  void Push(uint32_t cell, float value, size_t current) {
    const size_t b = std::max(BucketOf(value), current);
    ring_[b % ring_.size()].push_back(cell);
    ++pending_;
  }
  bool empty() const { return pending_ == 0; }
  std::vector<uint32_t>& Bucket(size_t b) { return ring_[b % ring_.size()]; }
  void Popped(size_t count) { pending_ -= count; }

 private:
  float width_;
  std::vector<std::vector<uint32_t>> ring_;
  size_t pending_ = 0;
};

}  // namespace

std::vector<float> MarchNavDistances(const NavCosts& c, const NavTarget& target) {
  const NavGridSpec& g = c.spec;
  const size_t n = g.cells();
  if (n == 0) return {};
  const int64_t w = g.nx + 2;
  std::vector<MarchCell> grid(static_cast<size_t>(w) * static_cast<size_t>(g.ny + 2));
  auto padded_index = [w](size_t ix, size_t iy) {
    return (iy + 1) * static_cast<size_t>(w) + ix + 1;
  };
  float step_min = kInf, step_max = 0.f;
  for (int32_t iy = 0; iy < g.ny; ++iy) {
    for (int32_t ix = 0; ix < g.nx; ++ix) {
      const size_t k = g.Index(ix, iy);
      if (c.blocked[k]) continue;
      MarchCell& cell = grid[padded_index(ix, iy)];
      cell.state = MarchCell::kOpen;
      cell.step = g.cell * c.cost[k];
      step_min = std::min(step_min, cell.step);
      step_max = std::max(step_max, cell.step);
    }
  }
  // A diagonal neighbour counts only through an open corner: with both cells beside the
  // diagonal blocked, the front would leak through a gap no agent fits.
  for (size_t q = static_cast<size_t>(w); q + static_cast<size_t>(w) < grid.size(); ++q) {
    if (grid[q].state != MarchCell::kOpen) continue;
    for (int d = 0; d < 4; ++d) {
      const int64_t dx = MarchCell::kDiagonals[d][0], dy = MarchCell::kDiagonals[d][1];
      if (grid[q + dx].state != MarchCell::kBlocked &&
          grid[q + dy * w].state != MarchCell::kBlocked) {
        grid[q].state |= MarchCell::Reaches(d);
      }
    }
  }
  if (!(step_min < kInf)) return std::vector<float>(n, kInf);
  // A bucket a quarter of the smallest step wide (the figures in docs/PERFORMANCE.md: the
  // distances differ from a heap's by 3e-6 on average), and a ring that holds the largest
  // diagonal step; widened when the costs span so much that the ring would be huge.
  constexpr size_t kMaxRing = size_t{1} << 16;
  float width = 0.25f * step_min;
  if (kSqrt2 * step_max / width + 3.f > static_cast<float>(kMaxRing)) {
    width = kSqrt2 * step_max / static_cast<float>(kMaxRing - 3);
  }
  BucketQueue queue(width, static_cast<size_t>(std::ceil(kSqrt2 * step_max / width)) + 3);
  size_t bucket = SIZE_MAX;
  for (const auto& [value, k] : Seeds(c, target)) {
    const size_t q = padded_index(k % static_cast<size_t>(g.nx), k / static_cast<size_t>(g.nx));
    if (value < grid[q].trial) {
      grid[q].trial = value;
      queue.Push(static_cast<uint32_t>(q), value, 0);
      bucket = std::min(bucket, queue.BucketOf(value));
    }
  }
  // When cell k settles, of each neighbour m only the stencil that holds k can give a new
  // value (the other's was already taken into m's trial value when its last member
  // settled), so an axis neighbour re-solves the axis stencil and a diagonal one the
  // diagonal stencil: the axes at spacing h, the diagonals at h sqrt 2, the smaller
  // answer (multi-stencil fast marching, Hassouna and Farag 2007).
  const int64_t axis_offsets[4] = {-1, 1, -w, w};
  int64_t diagonal_offsets[4];  // to the neighbour in kDiagonals' direction d; d ^ 1 is back
  for (int d = 0; d < 4; ++d) {
    diagonal_offsets[d] = MarchCell::kDiagonals[d][0] + MarchCell::kDiagonals[d][1] * w;
  }
  MarchCell* cells = grid.data();
  auto known = [&](size_t m) {
    return (cells[m].state & MarchCell::kStateBits) == MarchCell::kSettled ? cells[m].trial : kInf;
  };
  auto across = [&](size_t m, int d) {
    return cells[m].state & MarchCell::Reaches(d)
               ? known(m + static_cast<size_t>(diagonal_offsets[d]))
               : kInf;
  };
  auto open = [&](size_t m) {
    return (cells[m].state & MarchCell::kStateBits) == MarchCell::kOpen;
  };
  auto relax = [&](size_t m, float candidate, size_t current) {
    if (candidate < cells[m].trial) {
      cells[m].trial = candidate;
      queue.Push(static_cast<uint32_t>(m), candidate, current);
    }
  };
  for (; !queue.empty(); ++bucket) {
    std::vector<uint32_t>& entries = queue.Bucket(bucket);
    for (size_t i = 0; i < entries.size(); ++i) {  // grows while it is emptied
      const size_t k = entries[i];
      if (!open(k)) continue;  // settled already: a stale entry
      cells[k].state |= MarchCell::kSettled;
      for (const int64_t o : axis_offsets) {
        const size_t m = k + static_cast<size_t>(o);
        if (!open(m)) continue;
        relax(m,
              Upwind(std::min(known(m - 1), known(m + 1)),
                     std::min(known(m - static_cast<size_t>(w)), known(m + static_cast<size_t>(w))),
                     cells[m].step),
              bucket);
      }
      for (int d = 0; d < 4; ++d) {
        const size_t m = k + static_cast<size_t>(diagonal_offsets[d]);
        // Only a neighbour that reaches k through an open corner has k in its stencil.
        if (!open(m) || !(cells[m].state & MarchCell::Reaches(d ^ 1))) continue;
        relax(m,
              Upwind(std::min(across(m, 0), across(m, 1)), std::min(across(m, 2), across(m, 3)),
                     kSqrt2 * cells[m].step),
              bucket);
      }
    }
    queue.Popped(entries.size());
    entries.clear();
  }
  std::vector<float> out(n);
  for (int32_t iy = 0; iy < g.ny; ++iy) {
    for (int32_t ix = 0; ix < g.nx; ++ix) out[g.Index(ix, iy)] = cells[padded_index(ix, iy)].trial;
  }
  return out;
}

uint8_t EncodeNavHeading(float dx, float dy) {
  if (!(dx != 0.f || dy != 0.f) || !std::isfinite(dx) || !std::isfinite(dy)) return kNavNoHeading;
  constexpr double kStep = 6.283185307179586 / kNavHeadings;
  long code = std::lround(std::atan2(static_cast<double>(dy), static_cast<double>(dx)) / kStep);
  if (code < 0) code += kNavHeadings;
  return static_cast<uint8_t>(code % kNavHeadings);
}

const Vec2* NavHeadingTable() {
  // Built once, from double: the same table wherever it is read.
  static const std::array<Vec2, 256> kTable = [] {
    std::array<Vec2, 256> t{};
    for (int c = 0; c < kNavHeadings; ++c) {
      const double a = 6.283185307179586 * c / kNavHeadings;
      t[static_cast<size_t>(c)] = {static_cast<float>(std::cos(a)),
                                   static_cast<float>(std::sin(a))};
    }
    return t;
  }();
  return kTable.data();
}

Vec2 NavHeadingVector(uint8_t heading) { return NavHeadingTable()[heading]; }

NavField BuildNavField(const NavCosts& c, const NavTarget& target) {
  const NavGridSpec& g = c.spec;
  NavField out;
  out.spec = g;
  const std::vector<float> u = MarchNavDistances(c, target);
  out.heading.assign(g.cells(), kNavNoHeading);
  auto at = [&](int32_t ix, int32_t iy) {
    if (ix < 0 || iy < 0 || ix >= g.nx || iy >= g.ny) return kInf;
    return u[g.Index(ix, iy)];
  };
  // Row by row in parallel: each cell's heading reads only the distances.
#pragma omp parallel for schedule(static)
  for (int32_t iy = 0; iy < g.ny; ++iy) {
    for (int32_t ix = 0; ix < g.nx; ++ix) {
      const size_t k = g.Index(ix, iy);
      if (!std::isfinite(u[k])) continue;
      // Upwind descent: toward the lower neighbour on each axis, by how much lower it is.
      const float l = at(ix - 1, iy), r = at(ix + 1, iy), d = at(ix, iy - 1), t = at(ix, iy + 1);
      const float dx = std::min(l, r) < u[k] ? (u[k] - std::min(l, r)) * (l < r ? -1.f : 1.f) : 0.f;
      const float dy = std::min(d, t) < u[k] ? (u[k] - std::min(d, t)) * (d < t ? -1.f : 1.f) : 0.f;
      out.heading[k] = EncodeNavHeading(dx, dy);
    }
  }
  return out;
}

Vec2 NavDirectionAt(const NavField& field, Vec2 p, NavRidge ridge) {
  if (field.spec.cells() == 0) return {0.f, 0.f};
  return NavDirectionIn({field.spec, field.heading.data()}, NavHeadingTable(), p, ridge);
}

Vec2 NavTurnTowardGoal(Vec2 way, Vec2 p, const Vec2* goal, const NavGoalCone& cone) {
  return NavTurnToward(way, p, goal, cone.on, cone.cos, cone.sin);
}

}  // namespace throng
