// Scalar helpers shared by per-agent code: clamp, lerp, angles.
#pragma once

#include <cmath>

#include "kernels/math/hd.cuh"

namespace throng {

constexpr float kPi = 3.14159265358979323846f;
constexpr float kTwoPi = 6.28318530717958647692f;

THRONG_HD inline float Clamp(float v, float lo, float hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}
THRONG_HD inline float Lerp(float a, float b, float t) { return a + (b - a) * t; }

// A choice and a root by names that the cpu's FloatLanes (kernels/math/float_lanes.h)
// share, so that code written once for F = float also runs over several agents at once.
THRONG_HD inline float Select(bool c, float a, float b) { return c ? a : b; }
THRONG_HD inline float Sqrt(float a) { return sqrtf(a); }

// fmaxf and fminf, inline: on x86-64 without -ffinite-math-only the host compiler calls
// libm for them, one call per use in the solve's per-neighbour loops and the reductions
// (1.5% of a tick's samples at 100,000). The same values as glibc's: the first argument
// when the two compare equal (so the sign of a zero is the same), the other one when one
// is NaN. The device keeps its own instructions.
THRONG_HD inline float MaxF(float a, float b) {
#if defined(__CUDA_ARCH__)
  return fmaxf(a, b);
#else
  // Compiles to maxss and a conditional move: no call, no jump.
  const float larger = b > a ? b : a;
  return a != a ? b : larger;
#endif
}
THRONG_HD inline float MinF(float a, float b) {
#if defined(__CUDA_ARCH__)
  return fminf(a, b);
#else
  const float smaller = b < a ? b : a;
  return a != a ? b : smaller;
#endif
}

// Wraps an angle into [-pi, pi).
THRONG_HD inline float WrapAngle(float a) {
  a = fmodf(a + kPi, kTwoPi);
  if (a < 0.f) a += kTwoPi;
  return a - kPi;
}

// Signed angle that turns `from` onto `to` the short way, in [-pi, pi).
THRONG_HD inline float ShortestSignedAngle(float from, float to) { return WrapAngle(to - from); }

// Wraps s into [0, length) for closed curves; length must be > 0.
THRONG_HD inline float WrapDistance(float s, float length) {
  s = fmodf(s, length);
  if (s < 0.f) s += length;
  return s >= length ? 0.f : s;
}

}  // namespace throng
