#include "kernels/world/collisions.h"

#include <algorithm>
#include <cmath>

#include "kernels/steering/cast_fan.cuh"
#include "kernels/world/host_grid.h"

namespace throng {
namespace {

// Even-odd rule; polygons with fewer than 3 vertices have no inside.
bool Inside(Vec2 p, const std::vector<Vec2>& poly) {
  if (poly.size() < 3) return false;
  bool inside = false;
  for (size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const Vec2 a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
      inside = !inside;
    }
  }
  return inside;
}

struct Box {
  Vec2 lo, hi;
};

}  // namespace

CollisionCounts CountCollisions(const float* x, const float* y, const float* radius, size_t n,
                                const std::vector<VehicleBody>& vehicles,
                                const std::vector<Polygon>& obstacles, const StopRequested& stop) {
  CollisionCounts counts;
  if (n == 0) return counts;
  const float r_max = *std::max_element(radius, radius + n);
  HostGrid grid;
  grid.Build(x, y, n, std::max(2.f * r_max, 1e-3f));

  std::vector<Box> boxes(obstacles.size());
  for (size_t p = 0; p < obstacles.size(); ++p) {
    Box b{obstacles[p].vertices[0], obstacles[p].vertices[0]};
    for (Vec2 v : obstacles[p].vertices) {
      b.lo = {std::min(b.lo.x, v.x), std::min(b.lo.y, v.y)};
      b.hi = {std::max(b.hi.x, v.x), std::max(b.hi.y, v.y)};
    }
    boxes[p] = b;
  }

  uint64_t pairs = 0, in_obstacles = 0;
  const std::vector<uint32_t>& order = grid.order();
  // Chunks of agents with a stop check between them: one very large agent makes every
  // cell large, and a stopped tick should not wait for the whole count.
  constexpr size_t kChunk = 65536;
  for (size_t begin = 0; begin < n; begin += kChunk) {
    ThrowIfStopRequested(stop, "stats");
    const size_t end = std::min(n, begin + kChunk);
#pragma omp parallel for reduction(+ : pairs, in_obstacles) schedule(static)
    for (size_t slot = begin; slot < end; ++slot) {
      const uint32_t i = order[slot];
      grid.ForEachNear(x[i], y[i], radius[i] + r_max, [&](uint32_t j) {
        if (j <= i) return;
        const float dx = x[j] - x[i], dy = y[j] - y[i];
        const float reach = radius[i] + radius[j] - kCollisionTolerance;
        if (dx * dx + dy * dy < reach * reach) ++pairs;
      });
      const Vec2 p{x[i], y[i]};
      for (size_t k = 0; k < obstacles.size(); ++k) {
        const Box& b = boxes[k];
        if (p.x < b.lo.x - radius[i] || p.x > b.hi.x + radius[i] || p.y < b.lo.y - radius[i] ||
            p.y > b.hi.y + radius[i]) {
          continue;
        }
        const auto& poly = obstacles[k].vertices;
        bool hit = Inside(p, poly);
        const size_t edges = poly.size() == 2 ? 1 : poly.size();
        for (size_t e = 0; e < edges && !hit; ++e) {
          const float reach = radius[i] - kCollisionTolerance;
          hit = reach > 0.f &&
                PointSegmentDistanceSq(p, poly[e], poly[(e + 1) % poly.size()]) < reach * reach;
        }
        if (hit) {
          ++in_obstacles;
          break;
        }
      }
    }
  }
  counts.agent_pairs = pairs;
  counts.agents_in_obstacles = in_obstacles;

  uint64_t touching = 0;
  for (const VehicleBody& body : vehicles) {
    const Vec2 c = body.centre();
    const float reach = 0.5f * std::hypot(body.length, body.width) + r_max;
    grid.ForEachNear(c.x, c.y, reach, [&](uint32_t j) {
      if (body.DistanceTo({x[j], y[j]}) < radius[j] - kCollisionTolerance) ++touching;
    });
  }
  counts.agent_vehicle = touching;
  return counts;
}

}  // namespace throng
