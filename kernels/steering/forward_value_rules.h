// The rules of a forward agent's values that its column table does not state (the ByHand
// columns of THRONG_FORWARD_COLUMNS in kernels/world/column_tables.h, the speed's floor and
// the heading), written once for the host's checks (kernels/world/forward_validate.cpp) and
// the backends' (ForwardRowPasses, forward_prepare.cuh). Each comparison refuses a NaN and
// an infinity without a call that a device lacks.
#pragma once

#include <cstdint>

#include "kernels/input/input_limits.h"
#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/steering/forward_batch.h"

namespace throng {

// A fan's half-angle is within (0, pi]: exactly float(pi) is allowed.
THRONG_HD inline bool FanHalfAngleValid(float v) { return v > 0.f && v <= kPi; }
THRONG_HD inline bool FanProbesValid(uint32_t v) {
  return v >= 1u && v <= static_cast<uint32_t>(kMaxFanProbes);
}
// A probe's length, m.
THRONG_HD inline bool FanLengthValid(float v) { return v >= kMinSize && v <= kMaxDistance; }
THRONG_HD inline bool FanTurnSpeedValid(float v) { return v >= 0.f && v <= kMaxGain; }
THRONG_HD inline bool FanRadiusValid(float v) { return v >= kMinSize && v <= kMaxRadius; }
// The table bounds the speed's magnitude; a forward agent also moves: at least 1 mm/s.
THRONG_HD inline bool ForwardSpeedValid(float v) { return v >= kMinSize; }

enum class HeadingFault : uint8_t { kNone, kZeroLength, kVertical };

// A forward direction in the caller's frame (its components within the table's bounds): a
// cone fan needs any non-zero one, a ground fan one with a part in the ground plane
// (internal x and y; the up axis is the caller's). The squares in double are exact, so a
// fused multiply-add gives the same sums.
THRONG_HD inline HeadingFault ForwardHeadingFault(const Frame& frame, bool cone, float x, float y,
                                                  float z) {
  const Vec3 d = frame.ToInternal({x, y, z});
  const double ground = static_cast<double>(d.x) * d.x + static_cast<double>(d.y) * d.y;
  const double all = ground + static_cast<double>(d.z) * d.z;
  if (!(all > 1e-12)) return HeadingFault::kZeroLength;
  if (!cone && !(ground > 1e-12)) return HeadingFault::kVertical;
  return HeadingFault::kNone;
}

}  // namespace throng
