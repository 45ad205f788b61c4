// Distance from a point to a segment, on host and device: the path check, the contact
// count and the cast fan all measure against obstacle edges with it.
#pragma once

#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

// Squared distance from p to segment ab (a point when a == b).
THRONG_HD inline float PointSegmentDistanceSq(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const float len_sq = LengthSq(ab);
  const float t = len_sq > 0.f ? Clamp(Dot(p - a, ab) / len_sq, 0.f, 1.f) : 0.f;
  return LengthSq(p - (a + ab * t));
}

}  // namespace throng
