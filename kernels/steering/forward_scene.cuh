// The cast fan of a forward agent against the world's shapes and bodies, written once for
// every parallel backend (one thread per agent): candidates from the two grids, every
// probe against every candidate, docs/ALGORITHMS.md §4's choice, and the smoothed turn.
#pragma once

#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/spatial/aabb_grid.cuh"
#include "kernels/steering/cast_3d.cuh"
#include "kernels/steering/cast_fan.cuh"

namespace throng {

struct FanStaticView {
  const Vec2 *wall_a, *wall_b;
  const float *wall_z0, *wall_z1;
  int32_t walls;
  const int32_t* cap_start;
  const Vec2* cap_ring;
  const float* cap_z;
  const uint8_t* cap_top;
  int32_t caps;
  const Vec3* sphere_center;
  const float* sphere_radius;
  AabbGridView grid;
};

struct FanBodiesView {
  const Vec3 *capsule_p, *capsule_q;
  const float* capsule_radius;
  const int32_t* capsule_owner;
  int32_t capsules;
  const Vec3 *box_center, *box_half;
  const float* box_yaw;
  AabbGridView grid;
};

// 3D turn: normalize(lerp(forward, chosen, clamp(dt * turn_speed, 0, 1))). Where the lerp
// vanishes (chosen == -forward at 1/2) it turns a quarter turn to the right, as the 2D
// TurnToward does; a vertical forward takes -Y as its right (cast_fan.cuh's frame).
THRONG_HD inline Vec3 TurnToward3D(Vec3 forward, Vec3 chosen, float dt, float turn_speed) {
  const Vec3 f = Normalize(forward);
  const Vec3 c = Normalize(chosen);
  if (LengthSq(f) == 0.f) return LengthSq(c) > 0.f ? c : Vec3{1.f, 0.f, 0.f};
  if (LengthSq(c) == 0.f) return f;
  float t = dt * turn_speed;
  t = t > 0.f ? (t < 1.f ? t : 1.f) : 0.f;  // also maps NaN to 0
  const Vec3 blend = f + (c - f) * t;
  if (LengthSq(blend) < 1e-12f) return ConeLocalToWorld(Vec3{1.f, 0.f, 0.f}, f);
  return Normalize(blend);
}

// One static item (walls, caps, spheres) against one probe.
THRONG_HD inline float CastStatic(const FanStaticView& s, int32_t item, bool cone, Vec3 eye,
                                  Vec3 dir, float radius, float max_distance) {
  if (item < s.walls) {
    const float z0 = s.wall_z0[item], z1 = s.wall_z1[item];
    const bool unbounded = !(z1 < kNoHit);  // no height range: both bounds infinite
    if (!cone) {  // a flat disc at the eye's height meets the wall only within its range
      if (!unbounded && (eye.z < z0 || eye.z > z1)) return kNoHit;
      return SphereCastSegment2D(Ground(eye), Ground(dir), radius, max_distance, s.wall_a[item],
                                 s.wall_b[item]);
    }
    if (unbounded)
      return SphereCastInfiniteWall(eye, dir, radius, max_distance, s.wall_a[item], s.wall_b[item]);
    return SphereCastVerticalWall(eye, dir, radius, max_distance, s.wall_a[item], s.wall_b[item],
                                  z0, z1);
  }
  item -= s.walls;
  if (item < s.caps) {
    if (!cone) return kNoHit;  // a flat disc moving level never lands on a face
    const int32_t first = s.cap_start[item];
    return SphereCastPolygonCap(eye, dir, radius, max_distance, s.cap_ring + first,
                                s.cap_start[item + 1] - first, s.cap_z[item], s.cap_top[item] != 0);
  }
  item -= s.caps;
  const Vec3 c = s.sphere_center[item];
  if (!cone) {
    return DiscCastSphereSlice(Ground(eye), Ground(dir), radius, max_distance, eye.z, c,
                               s.sphere_radius[item]);
  }
  return SphereCastSphere(eye, dir, radius, max_distance, c, s.sphere_radius[item]);
}

// One body (capsules, then boxes) against one probe.
THRONG_HD inline float CastBody(const FanBodiesView& b, int32_t item, bool cone, Vec3 eye, Vec3 dir,
                                float radius, float max_distance) {
  if (item < b.capsules) {
    const Vec3 p = b.capsule_p[item], q = b.capsule_q[item];
    const float r = b.capsule_radius[item];
    if (!cone) {
      return DiscCastCapsuleSlice(Ground(eye), Ground(dir), radius, max_distance, eye.z, p, q, r);
    }
    return SphereCastCapsule(eye, dir, radius, max_distance, p, q, r);
  }
  item -= b.capsules;
  const Vec3 c = b.box_center[item], half = b.box_half[item];
  if (!cone) {  // level: the footprint, if the eye is within the box's height
    if (fabsf(eye.z - c.z) > half.z) return kNoHit;
    return SphereCastOrientedBox(Vec3{eye.x, eye.y, c.z}, Vec3{dir.x, dir.y, 0.f}, radius,
                                 max_distance, c, half, b.box_yaw[item]);
  }
  return SphereCastOrientedBox(eye, dir, radius, max_distance, c, half, b.box_yaw[item]);
}

// How far the item is from the eye, at least (+inf: out of reach for a ground fan at this
// height). The grids are 2D, so in 3D a candidate may be far above or below; ruling it
// out here spares a cast per probe, and the distance ranks candidates in a crowd.
THRONG_HD inline float StaticDistance(const FanStaticView& s, int32_t item, bool cone, Vec3 eye) {
  if (item < s.walls) {
    const float z0 = s.wall_z0[item], z1 = s.wall_z1[item];
    const float dz = eye.z < z0 ? z0 - eye.z : (eye.z > z1 ? eye.z - z1 : 0.f);
    if (!cone && dz > 0.f) return kNoHit;
    const float d2 = PointSegmentDistanceSq(Ground(eye), s.wall_a[item], s.wall_b[item]);
    return sqrtf(d2 + dz * dz);
  }
  item -= s.walls;
  if (item < s.caps) return cone ? fabsf(eye.z - s.cap_z[item]) : kNoHit;
  item -= s.caps;
  const Vec3 d = s.sphere_center[item] - eye;
  const float radius = s.sphere_radius[item];
  if (cone) return MaxF(Length(d) - radius, 0.f);
  return fabsf(d.z) < radius ? MaxF(Length(Ground(d)) - radius, 0.f) : kNoHit;
}

THRONG_HD inline float BodyDistance(const FanBodiesView& b, int32_t item, bool cone, Vec3 eye) {
  Vec3 c;
  float half_height, bound;
  if (item < b.capsules) {
    c = (b.capsule_p[item] + b.capsule_q[item]) * 0.5f;
    half_height = 0.5f * fabsf(b.capsule_q[item].z - b.capsule_p[item].z) + b.capsule_radius[item];
    bound = Length(b.capsule_q[item] - b.capsule_p[item]) * 0.5f + b.capsule_radius[item];
  } else {
    item -= b.capsules;
    c = b.box_center[item];
    half_height = b.box_half[item].z;
    bound = Length(b.box_half[item]);
  }
  const Vec3 d = c - eye;
  if (!cone && fabsf(d.z) > half_height) return kNoHit;
  return MaxF((cone ? Length(d) : Length(Ground(d))) - bound, 0.f);
}

// The `Capacity` nearest items offered (by key), in a max-heap: memory and work per agent
// stay bounded however many items a crowd packs into one probe reach.
template <int Capacity>
struct NearestItems {
  int32_t item[Capacity];
  float key[Capacity];
  int count = 0;

  THRONG_HD void Offer(int32_t it, float k) {
    int at;
    if (count < Capacity) {
      at = count++;
      while (at > 0 && key[(at - 1) / 2] < k) {  // sift up
        item[at] = item[(at - 1) / 2];
        key[at] = key[(at - 1) / 2];
        at = (at - 1) / 2;
      }
    } else {
      if (!(k < key[0])) return;
      at = 0;
      for (;;) {  // sift down from the root
        int child = 2 * at + 1;
        if (child >= count) break;
        if (child + 1 < count && key[child + 1] > key[child]) ++child;
        if (!(key[child] > k)) break;
        item[at] = item[child];
        key[at] = key[child];
        at = child;
      }
    }
    item[at] = it;
    key[at] = k;
  }
};

struct ForwardSceneFunctor {
  bool cone;
  float dt;
  const Vec3* __restrict__ position;
  const Vec3* __restrict__ forward;
  const Vec3* __restrict__ goal;
  const uint8_t* __restrict__ has_goal;
  const float* __restrict__ radius;
  const int32_t* __restrict__ probes;
  const float* __restrict__ fov;
  const float* __restrict__ probe_length;
  const float* __restrict__ turn_speed;
  const float* __restrict__ step;  // m moved this tick (speed * dt)
  FanStaticView statics;
  FanBodiesView bodies;
  Vec3* __restrict__ move;
  int16_t* __restrict__ probe;
  float* __restrict__ hit_distance;
  uint8_t* __restrict__ all_blocked;
  uint8_t* __restrict__ overlapping;

  // Candidates gathered once per agent, then probed in index order: most agents stop at
  // their first probe (the way ahead is free), so the casts per agent are about the
  // candidates, not the candidates times the probes. Where more than these lie within
  // one probe reach (a crowd packed onto a point, a dense mesh), the nearest are kept:
  // work per agent stays bounded (docs/FORWARD.md, "Candidates").
  static constexpr int kMaxShapeCandidates = 96;
  static constexpr int kMaxBodyCandidates = 96;

  THRONG_HD void operator()(uint32_t i) const {
    const Vec3 p = position[i];
    const Vec3 f = forward[i];
    const float r = radius[i];
    // With a goal, the way there is tried first; the fan always opens around the heading,
    // so that a wall across the way to the goal is turned along instead of flown into
    // (docs/FORWARD.md, "Goals").
    bool seek_goal = false;
    Vec3 to_goal{};
    if (has_goal[i]) {
      to_goal = goal[i] - p;
      if (!cone) to_goal.z = 0.f;
      seek_goal = LengthSq(to_goal) > 1e-12f;
      if (seek_goal) to_goal = Normalize(to_goal);
    }
    const Vec3 axis = f;
    const Vec3 eye = p + f * r;  // the agent's front
    const int n = probes[i] < 1 ? 1 : (probes[i] > kMaxFanProbes ? kMaxFanProbes : probes[i]);
    const float max_distance = probe_length[i];
    // Every probe's sweep lies within probe_length + r of the eye, and the centre's overlap
    // test within 2 r of it.
    const float reach = max_distance + 2.f * r;
    const Vec2 lo{eye.x - reach, eye.y - reach}, hi{eye.x + reach, eye.y + reach};
    const uint32_t self = i;

    NearestItems<kMaxShapeCandidates> shapes;
    NearestItems<kMaxBodyCandidates> near_bodies;
    bool overlap = false;
    ForEachAabbCandidate(statics.grid, lo, hi, [&](int32_t item) {
      const float d = StaticDistance(statics, item, cone, eye);
      if (!(d <= reach)) return;
      // At the centre, distance 0 answers "does the body already touch it?".
      if (!overlap) overlap = CastStatic(statics, item, cone, p, f, r, 0.f) == 0.f;
      shapes.Offer(item, d);
    });
    ForEachAabbCandidate(bodies.grid, lo, hi, [&](int32_t item) {
      if (item < bodies.capsules && bodies.capsule_owner[item] == static_cast<int32_t>(self))
        return;
      const float d = BodyDistance(bodies, item, cone, eye);
      if (d <= reach) near_bodies.Offer(item, d);
    });
    // The nearest hit of a sphere of radius r swept from `from` along dir. With
    // `new_only`, what the sphere already touches at `from` (a hit at 0) is left out: a
    // step is judged by what it would newly touch. With `shapes_only`, bodies are left out.
    auto hit_from = [&](Vec3 from, Vec3 dir, float length, bool new_only, bool shapes_only) {
      const auto keep = [&](float hit, float h) {
        return new_only && h == 0.f ? hit : MinF(hit, h);
      };
      float hit = kNoHit;
      for (int c = 0; c < shapes.count; ++c) {
        hit = keep(hit, CastStatic(statics, shapes.item[c], cone, from, dir, r, length));
      }
      for (int c = 0; c < near_bodies.count && !shapes_only; ++c) {
        hit = keep(hit, CastBody(bodies, near_bodies.item[c], cone, from, dir, r, length));
      }
      return hit;
    };
    auto hit_along = [&](Vec3 dir) { return hit_from(eye, dir, max_distance, false, false); };
    // Probe k of `count` spread over `half_angle` around `around` (ground or cone).
    auto direction = [&](int k, int count, float half_angle, Vec3 around) {
      if (cone) return ConeLocalToWorld(ConeDirection3D(k, count, half_angle), around);
      const Vec2 d = FanLocalToGround(FanDirection2D(k, count, half_angle), Ground(around));
      return Vec3{d.x, d.y, 0.f};
    };
    auto fan_direction = [&](int k) { return direction(k, n, fov[i], axis); };

    FanPicker picker;
    // The goal probe is number n, after the fan's 0 .. n - 1.
    const bool goal_free = seek_goal && picker.Offer(n, to_goal, hit_along(to_goal));
    for (int k = 0; k < n && !goal_free; ++k) {
      const Vec3 dir = fan_direction(k);
      if (picker.Offer(k, dir, hit_along(dir))) break;
    }
    const FanChoice c = picker.best;
    Vec3 m;
    if (cone) {
      m = TurnToward3D(f, c.direction, dt, turn_speed[i]);
    } else {
      const Vec2 g = TurnToward(Ground(f), Ground(c.direction), dt, turn_speed[i]);
      m = Vec3{g.x, g.y, 0.f};
    }
    // The smoothed turn, unless the way it leads is blocked nearer than the chosen probe's:
    // then the chosen direction at once (docs/FORWARD.md, "Turning").
    if (hit_along(m) < MinF(c.hit_distance, max_distance)) m = c.direction;
    // The body itself, swept from its centre: the probes start at the front, so a body
    // turning past a corner can clip it beside them, and a front already touching a wall
    // sees every probe blocked at 0. When this tick's step would newly touch something
    // (what the body already overlaps, such as a neighbour in a dense flock, does not
    // count), the agent takes the direction whose sweep from the centre is clear longest:
    // among the smoothed, the chosen, the fan's and a full turn's (n + 1 directions over
    // the whole circle or sphere), the first clear over the probe length, else the
    // longest; bodies first counted, then, in a crowd where no step clears them, only the
    // static shapes (docs/FORWARD.md, "The body's step").
    const float length = step[i];
    for (const bool shapes_only : {false, true}) {
      if (!(length > 0.f) || hit_from(p, m, length, true, shapes_only) == kNoHit) break;
      const int turn = n + 1;
      Vec3 escape = m;
      float escape_clear = -1.f;
      for (int k = -2; k < n + turn && escape_clear != kNoHit; ++k) {
        Vec3 dir;
        if (k == -2) {
          dir = m;
        } else if (k == -1) {
          dir = c.direction;
        } else if (k < n) {
          dir = fan_direction(k);
        } else {
          dir = direction(k - n, turn, kPi, f);
        }
        const float clear = hit_from(p, dir, max_distance, true, shapes_only);
        if (clear > escape_clear) {
          escape_clear = clear;
          escape = dir;
        }
      }
      if (escape_clear >= length) {  // a step that touches nothing new
        m = escape;
        break;
      }
    }
    move[i] = m;
    probe[i] = static_cast<int16_t>(c.probe);
    hit_distance[i] = c.hit_distance;
    all_blocked[i] = c.all_blocked ? 1 : 0;
    overlapping[i] = overlap ? 1 : 0;
  }
};

}  // namespace throng
