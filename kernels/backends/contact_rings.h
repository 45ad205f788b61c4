// Obstacle polygons as the contact tests read them (ContactPolygonsView): rings in CSR
// layout and a bounding box per polygon. Built on the host, once per world on the parallel
// backends and per count in the reference.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/math/vec.cuh"
#include "kernels/orca/orca_types.h"

namespace throng {

struct ContactRings {
  std::vector<int32_t> ring_start{0};  // polygon k: ring[ring_start[k] .. ring_start[k + 1])
  std::vector<Vec2> ring, lo, hi;
};

// Polygons already validated (at least two vertices each: BuildObstacleVertices).
inline ContactRings BuildContactRings(const std::vector<Polygon>& polygons) {
  ContactRings r;
  for (const Polygon& polygon : polygons) {
    Vec2 a = polygon.vertices[0], b = a;
    for (Vec2 v : polygon.vertices) {
      r.ring.push_back(v);
      a = {std::min(a.x, v.x), std::min(a.y, v.y)};
      b = {std::max(b.x, v.x), std::max(b.y, v.y)};
    }
    r.ring_start.push_back(static_cast<int32_t>(r.ring.size()));
    r.lo.push_back(a);
    r.hi.push_back(b);
  }
  return r;
}

}  // namespace throng
