// Point in a closed ring (a polygon's vertices in order, either orientation): the
// navigating agents' steering and the contact count ask it, on either backend.
#pragma once

#include <cstddef>

#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

// Crossing number: a horizontal ray from p crosses the ring's `count` edges an odd number
// of times.
THRONG_HD inline bool InsideRingAt(const Vec2* ring, size_t count, Vec2 p) {
  bool inside = false;
  for (size_t i = 0, j = count - 1; i < count; j = i++) {
    const Vec2 a = ring[i], b = ring[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (b.x - a.x) * (p.y - a.y) / (b.y - a.y)) {
      inside = !inside;
    }
  }
  return inside;
}

}  // namespace throng
