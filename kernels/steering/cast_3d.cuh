// 3D shapes for sphere casts (docs/ALGORITHMS.md §4): vertical walls, prism caps, yawed boxes,
// capsule bodies, and the horizontal slices of a capsule or sphere for fans flying at a
// fixed height. Same contract as the casts in cast_fan.cuh: dir is normalised here (zero
// gives kNoHit), the result is the distance along the unit direction at first contact, 0
// when the sphere already touches the shape at the origin, kNoHit beyond max_distance.
// Float, __host__ __device__, no allocation. Internal frame: right-handed, Z up.
//
// Each cast is exact: a ray against the Minkowski sum of the shape and the sphere, written
// as a union of parts whose first entry is the minimum of the parts' entries. That holds
// because the origin is checked to be outside the whole sum first.
#pragma once

#include "kernels/math/scalar.cuh"
#include "kernels/steering/cast_fan.cuh"

namespace throng {

// Even-odd rule, so either orientation and non-convex rings work alike. PNPOLY's
// half-open test on y counts a vertex shared by two edges once, and the division is safe
// because it runs only for edges that straddle p.y.
THRONG_HD inline bool PointInPolygon(Vec2 p, const Vec2* ring, int count) {
  bool inside = false;
  for (int i = 0, j = count - 1; i < count; j = i++) {
    const Vec2 pi = ring[i];
    const Vec2 pj = ring[j];
    if ((pi.y > p.y) != (pj.y > p.y)) {
      const float x = pj.x + (p.y - pj.y) * (pi.x - pj.x) / (pi.y - pj.y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

// The vertical rectangle above segment ab between heights z0 <= z1. Its sum with the
// sphere is the face slab (the rectangle pushed +-radius along its normal) plus four edge
// capsules; the capsules' end spheres are the rounded corners, and they also cover the
// slab's sides, so the slab only needs entering through its two big faces.
THRONG_HD inline float SphereCastVerticalWall(Vec3 o, Vec3 dir, float radius, float max_distance,
                                              Vec2 a, Vec2 b, float z0, float z1) {
  // The rectangle is a product of segment ab and [z0, z1], so its squared distance splits.
  const float dz = o.z - Clamp(o.z, z0, z1);
  if (PointSegmentDistanceSq(Ground(o), a, b) + dz * dz <= radius * radius) return 0.f;
  const Vec3 d = Normalize(dir);
  if (LengthSq(d) == 0.f) return kNoHit;
  const Vec3 a0{a.x, a.y, z0};
  const Vec3 a1{a.x, a.y, z1};
  float best = RayCapsuleEntry(o, d, a0, a1, radius);
  const Vec2 ab = b - a;
  const float len = Length(ab);
  if (len > 0.f) {
    const Vec3 b0{b.x, b.y, z0};
    const Vec3 b1{b.x, b.y, z1};
    best = MinF(best, RayCapsuleEntry(o, d, b0, b1, radius));
    best = MinF(best, RayCapsuleEntry(o, d, a0, b0, radius));
    best = MinF(best, RayCapsuleEntry(o, d, a1, b1, radius));
    const Vec2 e = ab / len;
    const Vec2 normal{-e.y, e.x};  // horizontal: the face is vertical
    const float s0 = Dot(Ground(o) - a, normal);
    const float sd = Dot(Ground(d), normal);
    const float side = s0 > 0.f ? 1.f : -1.f;
    if (fabsf(s0) > radius && sd * side < 0.f) {
      const float t = (side * radius - s0) / sd;
      const Vec3 p = o + d * t;
      const float along = Dot(Ground(p) - a, e);
      if (along >= 0.f && along <= len && p.z >= z0 && p.z <= z1) best = MinF(best, t);
    }
  }
  // Rounding can put a root a hair behind an origin that sits right on a part's surface.
  best = MaxF(best, 0.f);
  return best <= max_distance ? best : kNoHit;
}

// The same wall without height limits: nothing depends on z, so it is the 2D disc cast in
// the ground plane, run along the horizontal part of dir and rescaled to 3D distance.
THRONG_HD inline float SphereCastInfiniteWall(Vec3 o, Vec3 dir, float radius, float max_distance,
                                              Vec2 a, Vec2 b) {
  if (PointSegmentDistanceSq(Ground(o), a, b) <= radius * radius) return 0.f;
  const Vec3 d = Normalize(dir);
  const float horizontal = Length(Ground(d));
  if (horizontal == 0.f) return kNoHit;  // a vertical path keeps its distance to the wall
  // No horizontal limit: max_distance applies to the 3D distance, checked once below.
  const float s = SphereCastSegment2D(Ground(o), Ground(d), radius, kNoHit, a, b);
  const float t = s / horizontal;
  return t <= max_distance ? t : kNoHit;
}

// Only the FACE of a horizontal polygon cap at height z: the plane z + radius reached from
// above (top) or z - radius from below (bottom), landing over the polygon. The rim is left
// to the walls' horizontal capsules, so a prism is its walls plus its two caps with no
// part counted twice, and a cap alone is not a closed shape: a sphere beside the polygon,
// or on the far side of the plane, gets kNoHit.
THRONG_HD inline float SphereCastPolygonCap(Vec3 o, Vec3 dir, float radius, float max_distance,
                                            const Vec2* ring, int count, float z, bool top) {
  const bool over = PointInPolygon(Ground(o), ring, count);
  if (over && fabsf(o.z - z) <= radius) return 0.f;
  const Vec3 d = Normalize(dir);
  const float outward = top ? 1.f : -1.f;
  const float plane = z + outward * radius;
  // Heights measured outward from the cap: the face is reached only while descending
  // onto it from the outward side.
  const float height = (o.z - plane) * outward;
  const float descent = -d.z * outward;
  if (!(height > 0.f && descent > 0.f)) return kNoHit;
  const float t = height / descent;
  if (t > max_distance) return kNoHit;
  return PointInPolygon(Ground(o + d * t), ring, count) ? t : kNoHit;
}

// A box turned by yaw about Z (local +x = (cos yaw, sin yaw, 0)). Rotations keep
// distances, so cast in the box's frame against the axis-aligned case.
THRONG_HD inline float SphereCastOrientedBox(Vec3 o, Vec3 dir, float radius, float max_distance,
                                             Vec3 center, Vec3 half_extent, float yaw) {
  const float c = cosf(yaw);
  const float s = sinf(yaw);
  const Vec3 m = o - center;
  const Vec3 local_o{c * m.x + s * m.y, -s * m.x + c * m.y, m.z};
  const Vec3 local_d{c * dir.x + s * dir.y, -s * dir.x + c * dir.y, dir.z};
  return SphereCastBox(local_o, local_d, radius, max_distance, -half_extent, half_extent);
}

// Squared distance from p to segment ab in 3D; a == b gives the distance to that point.
THRONG_HD inline float PointSegmentDistanceSq(Vec3 p, Vec3 a, Vec3 b) {
  const Vec3 ab = b - a;
  const float len_sq = LengthSq(ab);
  const float t = len_sq > 0.f ? Clamp(Dot(p - a, ab) / len_sq, 0.f, 1.f) : 0.f;
  return LengthSq(p - (a + ab * t));
}

// Bodies: a sphere of `radius` against the capsule of capsule_radius around segment pq, any
// orientation (upright pedestrians are vertical capsules; p == q is a sphere, for forward
// agents). Their sum is one capsule of radius + capsule_radius around pq.
THRONG_HD inline float SphereCastCapsule(Vec3 o, Vec3 dir, float radius, float max_distance, Vec3 p,
                                         Vec3 q, float capsule_radius) {
  const float r = radius + capsule_radius;
  if (PointSegmentDistanceSq(o, p, q) <= r * r) return 0.f;
  const Vec3 d = Normalize(dir);
  if (LengthSq(d) == 0.f) return kNoHit;
  // As for the wall: a root a hair behind an origin that sits on the surface counts as 0.
  const float t = MaxF(RayCapsuleEntry(o, d, p, q, r), 0.f);
  return t <= max_distance ? t : kNoHit;
}

// For ground-plane fans flying at height z, against a VERTICAL capsule: the disc meets the
// capsule exactly where it meets the capsule's cross-section at z, a circle about the axis
// of radius sqrt(R^2 - dz^2), dz being how far z lies outside the axis's heights (0 along
// the straight part). Only p's x, y are used: a q off that vertical is taken as (p.x, p.y,
// q.z). p.z <= q.z is expected; the other order gives the same result. A slice that is a
// single point (dz == R) counts as no contact, like no slice at all.
THRONG_HD inline float DiscCastCapsuleSlice(Vec2 o, Vec2 dir, float radius, float max_distance,
                                            float z, Vec3 p, Vec3 q, float capsule_radius) {
  const float dz = fabsf(z - Clamp(z, MinF(p.z, q.z), MaxF(p.z, q.z)));  // NaN z: no contact
  if (!(dz < capsule_radius)) return kNoHit;
  // (R - dz)(R + dz) rather than R^2 - dz^2: no cancellation near the poles.
  const float slice = sqrtf((capsule_radius - dz) * (capsule_radius + dz));
  const float r = radius + slice;
  const Vec2 c = Ground(p);
  if (LengthSq(o - c) <= r * r) return 0.f;
  const Vec2 d = Normalize(dir);
  if (LengthSq(d) == 0.f) return kNoHit;
  const float t = RayCircleEntry(o, d, c, r);
  return t <= max_distance ? t : kNoHit;
}

// The same for a sphere: a capsule whose axis is the single point center.
THRONG_HD inline float DiscCastSphereSlice(Vec2 o, Vec2 dir, float radius, float max_distance,
                                           float z, Vec3 center, float sphere_radius) {
  return DiscCastCapsuleSlice(o, dir, radius, max_distance, z, center, center, sphere_radius);
}

}  // namespace throng
