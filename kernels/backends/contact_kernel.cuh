// The per-agent and per-body contact tests (kernels/backend_api/contacts.h), read on either
// parallel backend from the agents in grid order (kernels/backends/grid_build.cuh).
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/backend_api/contacts.h"
#include "kernels/math/hd.cuh"
#include "kernels/math/ring.h"
#include "kernels/math/segment.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/spatial/aabb_grid.cuh"
#include "kernels/spatial/box_cover.cuh"
#include "kernels/spatial/grid.cuh"
#include "kernels/vehicles/vehicle_body.h"

namespace throng {

// Obstacle polygons as rings: polygon k is ring[ring_start[k] .. ring_start[k + 1]),
// its bounding box lo[k]..hi[k], the boxes indexed by `grid` and covered by `cover` (a
// pedestrian whose box meets no covered cell touches no polygon: most never read `grid`).
struct ContactPolygonsView {
  const int32_t* ring_start = nullptr;
  const Vec2* ring = nullptr;
  const Vec2* lo = nullptr;
  const Vec2* hi = nullptr;
  AabbGridView grid = {};
  int32_t count = 0;
  BoxCoverView cover = {};
};

// Even-odd rule (InsideRingAt); rings with fewer than 3 vertices have no inside.
THRONG_HD inline bool InsideRing(Vec2 p, const Vec2* ring, int32_t count) {
  return count >= 3 && InsideRingAt(ring, static_cast<size_t>(count), p);
}

// A body of radius r at p is inside polygon k or closer than r - tolerance to one of its
// edges (a two-vertex wall has one edge).
THRONG_HD inline bool TouchesPolygon(Vec2 p, float r, const ContactPolygonsView& polygons,
                                     int32_t k) {
  const Vec2 lo = polygons.lo[k], hi = polygons.hi[k];
  if (p.x < lo.x - r || p.x > hi.x + r || p.y < lo.y - r || p.y > hi.y + r) return false;
  const Vec2* ring = polygons.ring + polygons.ring_start[k];
  const int32_t count = polygons.ring_start[k + 1] - polygons.ring_start[k];
  if (InsideRing(p, ring, count)) return true;
  const float reach = r - kCollisionTolerance;
  if (!(reach > 0.f)) return false;
  const int32_t edges = count == 2 ? 1 : count;
  for (int32_t e = 0; e < edges; ++e) {
    if (PointSegmentDistanceSq(p, ring[e], ring[(e + 1) % count]) < reach * reach) return true;
  }
  return false;
}

// Agents in grid order with the grid they were sorted into. A slot with a negative radius
// holds no agent (a vehicle disc of the ORCA solve whose grid is read; its position is
// NaN). `moved`: how far any agent moved since the grid sorted it, which every query
// adds to its radius (0 when the grid was built from these positions).
struct ContactAgentsView {
  const float* x;
  const float* y;
  const float* radius;
  const uint32_t* offsets;
  GridSpec grid;
  float r_max;
  uint32_t count;
  float moved = 0.f;
};

struct AgentContactSums {
  uint64_t pairs = 0, in_obstacles = 0;
};

struct AddAgentContactSums {
  THRONG_HD AgentContactSums operator()(const AgentContactSums& a,
                                        const AgentContactSums& b) const {
    return {a.pairs + b.pairs, a.in_obstacles + b.in_obstacles};
  }
};

// Slot i's overlaps with the agents in later slots (each pair counted once: the lower
// slot's query reaches r_i + r_max + moved, and agent j, sorted where it stood, lies
// within r_i + r_j + moved of p_i when the two touch), and whether it touches an obstacle.
struct AgentContactsFunctor {
  ContactAgentsView agents;
  ContactPolygonsView polygons;

  THRONG_HD AgentContactSums operator()(uint32_t i) const {
    const Vec2 p{agents.x[i], agents.y[i]};
    const float r = agents.radius[i];
    if (!(r >= 0.f)) return {};  // no agent in this slot
    uint64_t pairs = 0;
    // The query's square, every cell of it: at the count's reach (a cell or two) the
    // disc's chord per row saves fewer cells than its square root and row order cost.
    const float query = r + agents.r_max + agents.moved;
    ForEachBoxRowRange(agents.grid, agents.offsets, p, Vec2{query, query},
                       [&](uint32_t begin, uint32_t end) {
                         for (uint32_t j = begin > i ? begin : i + 1; j < end; ++j) {
                           const float dx = agents.x[j] - p.x, dy = agents.y[j] - p.y;
                           const float reach = r + agents.radius[j] - kCollisionTolerance;
                           if (dx * dx + dy * dy < reach * reach) ++pairs;
                         }
                       });
    bool touches = false;
    const Vec2 lo{p.x - r, p.y - r}, hi{p.x + r, p.y + r};
    if (polygons.count > 0 && BoxCoverMayMeet(polygons.cover, lo, hi)) {
      ForEachAabbCandidate(polygons.grid, lo, hi, [&](int32_t k) {
        if (!touches) touches = TouchesPolygon(p, r, polygons, k);
      });
    }
    return {pairs, touches ? 1u : 0u};
  }
};

// Pedestrians closer to body b than their radius minus the tolerance. A body whose reach
// spans more bucket rows than the grid has would meet a row twice: it tests every agent.
struct BodyContactsFunctor {
  ContactAgentsView agents;
  const VehicleBody* bodies;

  THRONG_HD uint64_t operator()(uint32_t b) const {
    const VehicleBody body = bodies[b];
    const Vec2 c = body.centre();
    const float reach = 0.5f * hypotf(body.length, body.width) + agents.r_max + agents.moved;
    uint64_t touching = 0;
    auto test = [&](uint32_t begin, uint32_t end) {
      for (uint32_t j = begin; j < end; ++j) {
        if (body.DistanceTo({agents.x[j], agents.y[j]}) < agents.radius[j] - kCollisionTolerance) {
          ++touching;
        }
      }
    };
    const GridSpec& g = agents.grid;
    const int64_t rows = static_cast<int64_t>(CellCoord(c.y + reach, g.inv_cell)) -
                         CellCoord(c.y - reach, g.inv_cell) + 1;
    if (!(reach < 1e30f) || rows > static_cast<int64_t>(g.y_mask) + 1) {
      test(0, agents.count);
    } else {
      ForEachRowRange(g, agents.offsets, c, reach, test);
    }
    return touching;
  }
};

}  // namespace throng
