// A vehicle's footprint in the ground plane (internal frame), readable on either backend. The
// snapshot's position is the rear-axle centre, which is where the bicycle model turns; the body
// reaches a short overhang behind it and the rest of its length ahead.
#pragma once

#include <cmath>

#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

constexpr float kRearOverhangFraction = 0.22f;  // about 1 m of a 4.5 m car

struct VehicleBody {
  Vec2 axle;     // rear-axle centre
  Vec2 heading;  // unit
  float length, width;

  THRONG_HD float rear() const { return kRearOverhangFraction * length; }  // m behind the axle
  THRONG_HD float front() const { return (1.f - kRearOverhangFraction) * length; }  // m ahead
  THRONG_HD Vec2 centre() const { return axle + heading * (0.5f * (front() - rear())); }

  // Discs covering the body, for ORCA (pedestrians avoid vehicles as discs): as many as
  // the body is long in widths, each reaching the body's corners of its slice. At most
  // kMaxDiscs: a needle-thin body gets fewer, larger discs (still covering it) instead of
  // length / width of them (100 m / 1 mm would be 10^5 per vehicle).
  static constexpr int kMaxDiscs = 32;
  THRONG_HD int DiscCount() const { return DiscCountFor(length, width); }
  // The disc count of a body of this size: a caller that knows the sizes alone (the world,
  // laying the discs out before the bodies it prepared on the backend come home) gets the
  // same count.
  THRONG_HD static int DiscCountFor(float length, float width) {
    const float k = ceilf(length / width - 1e-3f);
    return k < 1.f ? 1 : (k > static_cast<float>(kMaxDiscs) ? kMaxDiscs : static_cast<int>(k));
  }
  THRONG_HD float DiscRadius() const {
    const float half_slice = 0.5f * length / DiscCount();
    return sqrtf(half_slice * half_slice + 0.25f * width * width);
  }
  THRONG_HD Vec2 Disc(int j) const {
    const float slice = length / DiscCount();
    return axle + heading * (-rear() + (j + 0.5f) * slice);
  }

  // Distance from p to the body rectangle (0 inside).
  THRONG_HD float DistanceTo(Vec2 p) const {
    const Vec2 d = p - centre();
    const float along = fabsf(Dot(d, heading)) - 0.5f * length;
    const float across = fabsf(Dot(d, RightOf(heading))) - 0.5f * width;
    const float ax = along > 0.f ? along : 0.f, ay = across > 0.f ? across : 0.f;
    return sqrtf(ax * ax + ay * ay);
  }
};

}  // namespace throng
