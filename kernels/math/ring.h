// Point in a closed ring (a polygon's vertices in order, either orientation), on the host:
// the navigation grid's targets and the world's navigating agents ask it.
#pragma once

#include <vector>

#include "kernels/math/vec.cuh"

namespace throng {

// Crossing number: a horizontal ray from p crosses the ring's edges an odd number of times.
inline bool InsideRing(const std::vector<Vec2>& ring, Vec2 p) {
  bool inside = false;
  for (size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
    const Vec2 a = ring[i], b = ring[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (b.x - a.x) * (p.y - a.y) / (b.y - a.y)) {
      inside = !inside;
    }
  }
  return inside;
}

}  // namespace throng
