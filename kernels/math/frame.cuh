// Coordinate frames (docs/ALGORITHMS.md §6). The engine works internally in one frame:
// right-handed, Z up, ground plane XY, yaw counter-clockwise from +X seen from above.
// Callers speak their engine's frame; conversion happens once, at the boundary.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

enum class UpAxis : uint8_t { kZ = 0, kY = 1 };
enum class Handedness : uint8_t { kRight = 0, kLeft = 1 };

// External yaw is the heading's angle in the external ground plane, measured from +X
// toward the other ground axis (+Y when Z is up, +Z when Y is up). Every mapping below
// keeps physical directions: "right of the vehicle" is the same place in every frame.
//   Z up, right-handed (ROS, Blender):  (x, y, z) -> ( x,  y, z)
//   Z up, left-handed  (Unreal):        (x, y, z) -> ( x, -y, z)
//   Y up, right-handed (OpenGL, Godot): (x, y, z) -> ( x, -z, y)
//   Y up, left-handed  (Unity):         (x, y, z) -> ( x,  z, y)
struct Frame {
  UpAxis up = UpAxis::kZ;
  Handedness handedness = Handedness::kRight;

  THRONG_HD Vec3 ToInternal(Vec3 e) const {
    const float side = handedness == Handedness::kLeft ? 1.f : -1.f;
    if (up == UpAxis::kZ) return {e.x, handedness == Handedness::kLeft ? -e.y : e.y, e.z};
    return {e.x, side * e.z, e.y};
  }

  THRONG_HD Vec3 ToExternal(Vec3 i) const {
    const float side = handedness == Handedness::kLeft ? 1.f : -1.f;
    if (up == UpAxis::kZ) return {i.x, handedness == Handedness::kLeft ? -i.y : i.y, i.z};
    return {i.x, i.z, side * i.y};
  }

  // Only two of the four frames mirror the ground plane's angle direction.
  THRONG_HD bool MirrorsYaw() const {
    return (up == UpAxis::kZ) == (handedness == Handedness::kLeft);
  }
  THRONG_HD float YawToInternal(float yaw) const { return MirrorsYaw() ? -yaw : yaw; }
  THRONG_HD float YawToExternal(float yaw) const { return MirrorsYaw() ? -yaw : yaw; }
};

// Yaw of a direction in the internal ground plane.
THRONG_HD inline float YawOf(Vec2 d) { return atan2f(d.y, d.x); }
THRONG_HD inline Vec2 HeadingOf(float yaw) { return {cosf(yaw), sinf(yaw)}; }
// Unit vector pointing to the right of a heading (clockwise seen from above, Z up).
THRONG_HD inline Vec2 RightOf(Vec2 heading) { return {heading.y, -heading.x}; }

}  // namespace throng
