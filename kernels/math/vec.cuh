// 2D and 3D float vectors for per-agent math, usable on host and device.
#pragma once

#include <cmath>

#include "kernels/math/hd.cuh"

namespace throng {

struct Vec2 {
  float x = 0.f;
  float y = 0.f;
};

struct Vec3 {
  float x = 0.f;
  float y = 0.f;
  float z = 0.f;
};

THRONG_HD inline Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
THRONG_HD inline Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
THRONG_HD inline Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
THRONG_HD inline Vec2 operator*(Vec2 a, float s) { return {a.x * s, a.y * s}; }
THRONG_HD inline Vec2 operator*(float s, Vec2 a) { return {a.x * s, a.y * s}; }
THRONG_HD inline Vec2 operator/(Vec2 a, float s) { return {a.x / s, a.y / s}; }
THRONG_HD inline bool operator==(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }
THRONG_HD inline float Dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
// z of the 3D cross product: > 0 when b lies counter-clockwise of a.
THRONG_HD inline float Det(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
THRONG_HD inline float LengthSq(Vec2 a) { return Dot(a, a); }
THRONG_HD inline float Length(Vec2 a) { return sqrtf(LengthSq(a)); }
// Zero stays zero: callers never see NaN from a degenerate direction.
THRONG_HD inline Vec2 Normalize(Vec2 a) {
  const float len = Length(a);
  return len > 0.f ? a / len : Vec2{0.f, 0.f};
}
THRONG_HD inline Vec2 ClampLength(Vec2 a, float max_len) {
  const float len_sq = LengthSq(a);
  return len_sq > max_len * max_len ? a * (max_len / sqrtf(len_sq)) : a;
}

THRONG_HD inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
THRONG_HD inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
THRONG_HD inline Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
THRONG_HD inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
THRONG_HD inline Vec3 operator*(float s, Vec3 a) { return {a.x * s, a.y * s, a.z * s}; }
THRONG_HD inline Vec3 operator/(Vec3 a, float s) { return {a.x / s, a.y / s, a.z / s}; }
THRONG_HD inline bool operator==(Vec3 a, Vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
THRONG_HD inline float Dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
THRONG_HD inline Vec3 Cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
THRONG_HD inline float LengthSq(Vec3 a) { return Dot(a, a); }
THRONG_HD inline float Length(Vec3 a) { return sqrtf(LengthSq(a)); }
THRONG_HD inline Vec3 Normalize(Vec3 a) {
  const float len = Length(a);
  return len > 0.f ? a / len : Vec3{0.f, 0.f, 0.f};
}
THRONG_HD inline Vec2 Ground(Vec3 a) { return {a.x, a.y}; }

}  // namespace throng
