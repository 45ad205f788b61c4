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
