// Cast-fan obstacle avoidance for forward-moving agents (docs/ALGORITHMS.md §4): probe
// directions, exact sphere casts, the probe chooser and the smoothed turn.
// Float, __host__ __device__, fixed-size, no allocation.
//
// Local probe frame (decided here; docs/ALGORITHMS.md leaves it open): z forward, +x the
// agent's RIGHT, +y its up. With dir_i = (sin(theta_i) * (-1)^i, 0, cos(theta_i)) that
// makes probe 0 straight ahead, ODD probes (1, 3, ..) go to the LEFT and even probes
// (2, 4, ..) to the RIGHT, so the first probe off the axis looks left (§4's prose says
// "right/left"; the formula, not the prose, is kept). In the internal frame
// (right-handed, Z up) that is
//   world = RightOf(forward) * x + forward * z        (ground, 2D)
//   world = right * x + up * y + forward * z, right = forward x Z, up = right x forward.
#pragma once

#include <cmath>

#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/segment.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

// What a cast returns when nothing is touched within max_distance.
constexpr float kNoHit = INFINITY;

// ---- Directions -------------------------------------------------------------------------

// 2D fan in the local frame: theta_i = fov * i / (n - 1), alternating sides while opening.
// n <= 1 gives straight ahead.
THRONG_HD inline Vec3 FanDirection2D(int i, int n, float fov) {
  if (n <= 1) return {0.f, 0.f, 1.f};
  const float theta = fov * static_cast<float>(i) / static_cast<float>(n - 1);
  const float side = (i & 1) ? -1.f : 1.f;
  return {sinf(theta) * side, 0.f, cosf(theta)};
}

// 3D cone of half-angle fov, golden-angle spiral over the cap: equal cap area per probe
// (1 - cos(theta) is linear in i) rather than equal angle, which would bunch at the axis.
THRONG_HD inline Vec3 ConeDirection3D(int i, int n, float fov) {
  if (n <= 1) return {0.f, 0.f, 1.f};
  const float t = static_cast<float>(i) / static_cast<float>(n - 1);
  const float cos_theta = 1.f - (1.f - cosf(fov)) * t;
  const float sin_theta = sqrtf(MaxF(0.f, 1.f - cos_theta * cos_theta));
  // azimuth = 2 pi * 1.618 i, reduced to whole turns first so sinf/cosf stay accurate.
  const float turns = 1.618f * static_cast<float>(i);
  const float azimuth = kTwoPi * (turns - floorf(turns));
  return {sin_theta * cosf(azimuth), sin_theta * sinf(azimuth), cos_theta};
}

// Local fan direction -> internal ground plane (forward need not be unit).
THRONG_HD inline Vec2 FanLocalToGround(Vec3 local, Vec2 forward) {
  const Vec2 f = Normalize(forward);
  return RightOf(f) * local.x + f * local.z;
}

// Local cone direction -> internal world. A vertical forward has no ground heading; it
// then takes -Y as its right (the right of yaw 0).
THRONG_HD inline Vec3 ConeLocalToWorld(Vec3 local, Vec3 forward) {
  const Vec3 f = Normalize(forward);
  Vec3 right = Cross(f, Vec3{0.f, 0.f, 1.f});
  right = LengthSq(right) > 1e-12f ? Normalize(right) : Vec3{0.f, -1.f, 0.f};
  const Vec3 up = Cross(right, f);
  return right * local.x + up * local.y + f * local.z;
}

// ---- Ray entry helpers (origin outside the shape, d unit) -------------------------------

// First t > 0 at which o + t d enters the circle; kNoHit if never. Uses
// r^2 - |m x d|^2 for the discriminant and c / q for the near root, which avoid the
// cancellation of b^2 - c and -b - sqrt(..) far from the circle.
THRONG_HD inline float RayCircleEntry(Vec2 o, Vec2 d, Vec2 center, float r) {
  const Vec2 m = o - center;
  const float b = Dot(m, d);
  if (b >= 0.f) return kNoHit;  // outside and not approaching
  const float cross = Det(m, d);
  const float disc = r * r - cross * cross;
  if (disc < 0.f) return kNoHit;
  return (Dot(m, m) - r * r) / (-b + sqrtf(disc));
}

THRONG_HD inline float RaySphereEntry(Vec3 o, Vec3 d, Vec3 center, float r) {
  const Vec3 m = o - center;
  const float b = Dot(m, d);
  if (b >= 0.f) return kNoHit;
  const float disc = r * r - LengthSq(Cross(m, d));
  if (disc < 0.f) return kNoHit;
  return (Dot(m, m) - r * r) / (-b + sqrtf(disc));
}

// Entry into the capsule of radius r around segment pq (cylinder side, or an end sphere).
THRONG_HD inline float RayCapsuleEntry(Vec3 o, Vec3 d, Vec3 p, Vec3 q, float r) {
  float best = MinF(RaySphereEntry(o, d, p, r), RaySphereEntry(o, d, q, r));
  const Vec3 axis = q - p;
  const float len_sq = LengthSq(axis);
  if (len_sq > 0.f) {
    const Vec3 u = axis / sqrtf(len_sq);
    const Vec3 m = o - p;
    const Vec3 m_perp = m - u * Dot(m, u);
    const Vec3 d_perp = d - u * Dot(d, u);
    const float a = LengthSq(d_perp);
    const float b = Dot(m_perp, d_perp);
    const float c = LengthSq(m_perp) - r * r;
    // Inside the infinite cylinder (c <= 0) the capsule can only be entered via an end.
    if (a > 0.f && b < 0.f && c > 0.f) {
      const float disc = a * r * r - LengthSq(Cross(m_perp, d_perp));
      if (disc >= 0.f) {
        const float t = c / (-b + sqrtf(disc));
        const float along = Dot(m + d * t, u);
        if (along >= 0.f && along * along <= len_sq) best = MinF(best, t);
      }
    }
  }
  return best;
}

// ---- Sphere casts: exact, distance along dir (normalised here) --------------------------

// Disc of `radius` swept from origin along dir against segment ab: ray vs the capsule
// (Minkowski sum) = nearest of the two end circles and the two offset side lines.
// 0 if the disc already touches ab at the origin; kNoHit beyond max_distance.
THRONG_HD inline float SphereCastSegment2D(Vec2 origin, Vec2 dir, float radius, float max_distance,
                                           Vec2 a, Vec2 b) {
  if (PointSegmentDistanceSq(origin, a, b) <= radius * radius) return 0.f;
  const Vec2 d = Normalize(dir);
  if (LengthSq(d) == 0.f) return kNoHit;
  float best = MinF(RayCircleEntry(origin, d, a, radius), RayCircleEntry(origin, d, b, radius));
  const Vec2 ab = b - a;
  const float len = Length(ab);
  if (len > 0.f) {
    const Vec2 e = ab / len;
    const Vec2 normal{-e.y, e.x};
    const float s0 = Dot(origin - a, normal);  // signed distance from the line
    const float sd = Dot(d, normal);
    const float side = s0 > 0.f ? 1.f : -1.f;
    // Enter the band |s| <= radius through the side the origin is on, if heading there.
    if (fabsf(s0) > radius && sd * side < 0.f) {
      const float t = (side * radius - s0) / sd;
      const float along = Dot(origin + d * t - a, e);
      if (along >= 0.f && along <= len) best = MinF(best, t);
    }
  }
  return best <= max_distance ? best : kNoHit;
}

// Sphere of `radius` swept against a sphere: a ray against radius + sphere_radius.
THRONG_HD inline float SphereCastSphere(Vec3 o, Vec3 dir, float radius, float max_distance,
                                        Vec3 center, float sphere_radius) {
  const float r = radius + sphere_radius;
  if (LengthSq(o - center) <= r * r) return 0.f;
  const Vec3 d = Normalize(dir);
  if (LengthSq(d) == 0.f) return kNoHit;
  const float t = RaySphereEntry(o, d, center, r);
  return t <= max_distance ? t : kNoHit;
}

THRONG_HD inline float Component(Vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

// Box corner whose coordinate along axis k is the max when bit k of `bits` is set.
THRONG_HD inline Vec3 BoxCorner(Vec3 lo, Vec3 hi, int bits) {
  return {(bits & 1) ? hi.x : lo.x, (bits & 2) ? hi.y : lo.y, (bits & 4) ? hi.z : lo.z};
}

// Sphere of `radius` swept against an axis-aligned box. EXACT: the Minkowski sum is the
// box with rounded edges and corners (Ericson, Real-Time Collision Detection §5.5.7).
// The slab test against the box grown by radius finds the entry point; where that lies
// beyond the box on one axis (a face) it is the hit; beyond it on two axes the hit, if
// any, is on that edge's capsule; on three, on one of the corner's three edge capsules.
THRONG_HD inline float SphereCastBox(Vec3 o, Vec3 dir, float radius, float max_distance,
                                     Vec3 box_min, Vec3 box_max) {
  const Vec3 closest{Clamp(o.x, box_min.x, box_max.x), Clamp(o.y, box_min.y, box_max.y),
                     Clamp(o.z, box_min.z, box_max.z)};
  if (LengthSq(o - closest) <= radius * radius) return 0.f;
  const Vec3 d = Normalize(dir);
  if (LengthSq(d) == 0.f) return kNoHit;
  float t_enter = 0.f;
  float t_exit = kNoHit;
  for (int k = 0; k < 3; ++k) {
    const float ok = Component(o, k);
    const float dk = Component(d, k);
    const float lo = Component(box_min, k) - radius;
    const float hi = Component(box_max, k) + radius;
    if (dk == 0.f) {
      if (ok < lo || ok > hi) return kNoHit;
      continue;
    }
    float t1 = (lo - ok) / dk;
    float t2 = (hi - ok) / dk;
    if (t1 > t2) {
      const float s = t1;
      t1 = t2;
      t2 = s;
    }
    t_enter = MaxF(t_enter, t1);
    t_exit = MinF(t_exit, t2);
  }
  // The rounded box lies inside the grown box, so its hit is never before t_enter.
  if (t_enter > t_exit || t_enter > max_distance) return kNoHit;
  if (!(radius > 0.f)) return t_enter;  // a plain ray: the slab entry is exact
  const Vec3 p = o + d * t_enter;
  int below = 0;
  int above = 0;
  for (int k = 0; k < 3; ++k) {
    if (Component(p, k) < Component(box_min, k)) below |= 1 << k;
    if (Component(p, k) > Component(box_max, k)) above |= 1 << k;
  }
  const int outside = below | above;
  const int outside_axes = (outside & 1) + ((outside >> 1) & 1) + ((outside >> 2) & 1);
  float t = t_enter;
  if (outside_axes == 2) {
    t = RayCapsuleEntry(o, d, BoxCorner(box_min, box_max, below ^ 7),
                        BoxCorner(box_min, box_max, above), radius);
  } else if (outside_axes == 3) {
    const Vec3 corner = BoxCorner(box_min, box_max, above);
    t = kNoHit;
    for (int k = 0; k < 3; ++k) {
      t = MinF(
          t, RayCapsuleEntry(o, d, corner, BoxCorner(box_min, box_max, above ^ (1 << k)), radius));
    }
  }
  return t <= max_distance ? t : kNoHit;
}

// ---- Choosing a probe -------------------------------------------------------------------

struct FanChoice {
  int probe;           // index of the chosen probe
  Vec3 direction;      // its direction in the internal world frame (2D fans: z = 0)
  float hit_distance;  // kNoHit when the probe is free
  bool all_blocked;    // every probe hit within max_distance: the farthest hit was taken
};

// docs/ALGORITHMS.md §4's rule, fed one probe at a time in index order: the first free probe
// ends the search; otherwise the farthest hit wins (ties: the lowest index).
struct FanPicker {
  FanChoice best{-1, {0.f, 0.f, 1.f}, -1.f, true};

  // Returns true when the probe is free and the search is over.
  THRONG_HD bool Offer(int probe, Vec3 direction, float hit) {
    if (hit == kNoHit) {
      best = {probe, direction, hit, false};
      return true;
    }
    if (hit > best.hit_distance) best = {probe, direction, hit, true};
    return false;
  }
};

// 2D fan in the ground plane against wall segments (segments[2k], segments[2k + 1]),
// cast from the eye (the agent's front) with the agent's body radius.
THRONG_HD inline FanChoice ChooseFanDirection2D(Vec2 forward, Vec2 eye, float radius,
                                                float max_distance, float fov, int n,
                                                const Vec2* segments, int segment_count) {
  if (n < 1) n = 1;
  FanPicker picker;
  for (int i = 0; i < n; ++i) {
    const Vec2 dir = FanLocalToGround(FanDirection2D(i, n, fov), forward);
    float hit = kNoHit;
    for (int s = 0; s < segment_count; ++s) {
      hit = MinF(hit, SphereCastSegment2D(eye, dir, radius, max_distance, segments[2 * s],
                                          segments[2 * s + 1]));
    }
    if (picker.Offer(i, Vec3{dir.x, dir.y, 0.f}, hit)) break;
  }
  return picker.best;
}

// 3D cone against spheres and axis-aligned boxes.
THRONG_HD inline FanChoice ChooseConeDirection3D(Vec3 forward, Vec3 eye, float radius,
                                                 float max_distance, float fov, int n,
                                                 const Vec3* sphere_centers,
                                                 const float* sphere_radii, int sphere_count,
                                                 const Vec3* box_min, const Vec3* box_max,
                                                 int box_count) {
  if (n < 1) n = 1;
  FanPicker picker;
  for (int i = 0; i < n; ++i) {
    const Vec3 dir = ConeLocalToWorld(ConeDirection3D(i, n, fov), forward);
    float hit = kNoHit;
    for (int s = 0; s < sphere_count; ++s) {
      hit = MinF(hit, SphereCastSphere(eye, dir, radius, max_distance, sphere_centers[s],
                                       sphere_radii[s]));
    }
    for (int b = 0; b < box_count; ++b) {
      hit = MinF(hit, SphereCastBox(eye, dir, radius, max_distance, box_min[b], box_max[b]));
    }
    if (picker.Offer(i, dir, hit)) break;
  }
  return picker.best;
}

// ---- Turning ----------------------------------------------------------------------------

// move_dir = normalize(lerp(forward, chosen, clamp(dt * turn_speed, 0, 1))), with both
// inputs normalised first. Never NaN:
// - a NaN blend factor (0 * inf) counts as 0;
// - when the lerp is (nearly) zero-length, which happens only for chosen == -forward at a
//   factor of 1/2, it turns RIGHT by a quarter turn: the largest step the lerp takes at
//   that factor (its limit as chosen approaches -forward), on the side the engine biases
//   toward (OrcaParams::side_bias also aims right);
// - a zero forward takes chosen; both zero give +X (yaw 0).
THRONG_HD inline Vec2 TurnToward(Vec2 forward, Vec2 chosen, float dt, float turn_speed) {
  const Vec2 f = Normalize(forward);
  const Vec2 c = Normalize(chosen);
  if (LengthSq(f) == 0.f) return LengthSq(c) > 0.f ? c : Vec2{1.f, 0.f};
  if (LengthSq(c) == 0.f) return f;
  float t = dt * turn_speed;
  t = t > 0.f ? (t < 1.f ? t : 1.f) : 0.f;  // also maps NaN to 0
  const Vec2 blend = f + (c - f) * t;
  if (LengthSq(blend) < 1e-12f) return RightOf(f);
  return Normalize(blend);
}

}  // namespace throng
