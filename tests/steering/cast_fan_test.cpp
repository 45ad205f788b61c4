// Cast-fan probes, sphere casts and the chooser (kernels/steering/cast_fan.cuh) against
// docs/ALGORITHMS.md §4 and the double reference.
#include "kernels/steering/cast_fan.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "kernels/reference/steering_ref.h"

namespace throng {
namespace {

using reference::D2;
using reference::D3;

D2 ToD(Vec2 v) { return {v.x, v.y}; }
D3 ToD(Vec3 v) { return {v.x, v.y, v.z}; }
float AngleBetween(Vec3 a, Vec3 b) {
  return std::acos(std::clamp(static_cast<double>(Dot(Normalize(a), Normalize(b))), -1.0, 1.0));
}
Vec2 Rotate(Vec2 v, float yaw) {
  return {cosf(yaw) * v.x - sinf(yaw) * v.y, sinf(yaw) * v.x + cosf(yaw) * v.y};
}

// ---- Directions -------------------------------------------------------------------------

TEST(CastFanTest, fan_directions_alternate_sides_and_open_monotonically) {
  const int n = 11;
  const float fov = 1.2f;
  EXPECT_EQ(FanDirection2D(0, n, fov), (Vec3{0, 0, 1}));
  EXPECT_EQ(FanDirection2D(0, 1, fov), (Vec3{0, 0, 1}));
  EXPECT_EQ(FanDirection2D(5, 1, fov), (Vec3{0, 0, 1}));
  float prev_angle = 0;
  for (int i = 1; i < n; ++i) {
    const Vec3 d = FanDirection2D(i, n, fov);
    EXPECT_NEAR(Length(d), 1.f, 1e-6f);
    EXPECT_EQ(d.y, 0.f);
    // Local +x is the agent's right: odd probes left (x < 0), even probes right.
    EXPECT_GT(d.x * (i % 2 == 1 ? -1.f : 1.f), 0.f) << i;
    const float angle = AngleBetween(d, {0, 0, 1});
    EXPECT_GT(angle, prev_angle) << i;
    prev_angle = angle;
  }
  EXPECT_NEAR(prev_angle, fov, 1e-5f);
}

TEST(CastFanTest, fan_ground_mapping_puts_odd_probes_on_the_left) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> yaw(-3.1f, 3.1f);
  for (int k = 0; k < 200; ++k) {
    const Vec2 forward = HeadingOf(yaw(rng)) * 2.5f;  // not unit on purpose
    for (int i = 0; i < 9; ++i) {
      const Vec2 w = FanLocalToGround(FanDirection2D(i, 9, 1.f), forward);
      const D2 ref = reference::FanGroundDirection(ToD(forward), i, 9, 1.0);
      EXPECT_NEAR(w.x, ref.x, 2e-6);
      EXPECT_NEAR(w.y, ref.y, 2e-6);
      // Det > 0: counter-clockwise of forward, i.e. left (Z up).
      if (i > 0) {
        EXPECT_GT(Det(forward, w) * (i % 2 == 1 ? 1.f : -1.f), 0.f) << i;
      }
    }
  }
  // And in the 3D cone frame: local +x is right, +y up.
  const Vec3 right = ConeLocalToWorld({1, 0, 0}, {1, 0, 0});
  EXPECT_NEAR(right.y, -1.f, 1e-6f);
  EXPECT_NEAR(ConeLocalToWorld({0, 1, 0}, {1, 0, 0}).z, 1.f, 1e-6f);
}

// Spread of a direction set: the coefficient of variation of nearest-neighbour angles,
// and the share of directions in the inner half (by area) of the cap.
struct Spread {
  double nn_cv = 0;
  double inner_share = 0;
};

Spread Measure(const std::vector<Vec3>& dirs, float fov) {
  std::vector<double> nn;
  int inner = 0;
  const double half_cap = (1 - std::cos(fov)) / 2;
  for (size_t i = 0; i < dirs.size(); ++i) {
    double best = 10;
    for (size_t j = 0; j < dirs.size(); ++j) {
      if (i != j) best = std::min(best, static_cast<double>(AngleBetween(dirs[i], dirs[j])));
    }
    nn.push_back(best);
    if (1 - dirs[i].z <= half_cap) ++inner;
  }
  double mean = 0, var = 0;
  for (double a : nn) mean += a;
  mean /= nn.size();
  for (double a : nn) var += (a - mean) * (a - mean);
  var /= nn.size();
  return {std::sqrt(var) / mean, static_cast<double>(inner) / dirs.size()};
}

TEST(CastFanTest, cone_directions_cover_the_cap_evenly_within_fov) {
  for (float fov : {0.5f, 1.f, 1.5f}) {
    const int n = 64;
    std::vector<Vec3> golden, linear;
    for (int i = 0; i < n; ++i) {
      const Vec3 d = ConeDirection3D(i, n, fov);
      EXPECT_NEAR(Length(d), 1.f, 1e-5f);
      EXPECT_LE(AngleBetween(d, {0, 0, 1}), fov + 1e-5f);
      golden.push_back(d);
      // Naive spacing: theta linear in i (same azimuths).
      const float theta = fov * i / (n - 1), az = 2 * kPi * 1.618f * i;
      linear.push_back({sinf(theta) * cosf(az), sinf(theta) * sinf(az), cosf(theta)});
      const D3 ref = reference::ConeDirection3D(i, n, fov);
      EXPECT_NEAR(d.x, ref.x, 1e-4);
      EXPECT_NEAR(d.y, ref.y, 1e-4);
      EXPECT_NEAR(d.z, ref.z, 1e-5);
    }
    EXPECT_NEAR(AngleBetween(golden.back(), {0, 0, 1}), fov, 1e-3f);  // reaches the rim
    const Spread g = Measure(golden, fov), l = Measure(linear, fov);
    printf(
        "fov %.1f: nearest-neighbour CV golden %.3f linear %.3f; inner-half share "
        "golden %.3f linear %.3f\n",
        fov, g.nn_cv, l.nn_cv, g.inner_share, l.inner_share);
    EXPECT_LT(g.nn_cv, 0.35);
    EXPECT_LT(g.nn_cv, l.nn_cv);
    EXPECT_NEAR(g.inner_share, 0.5, 0.05);
    EXPECT_GT(l.inner_share, 0.6);  // the naive spacing bunches at the axis
  }
  EXPECT_EQ(ConeDirection3D(0, 1, 1.f), (Vec3{0, 0, 1}));
}

// ---- The chooser in 2D scenes -----------------------------------------------------------

// Corridor along +x (walls y = +-3), a block across it at x = 4 that leaves a gap on one
// side: y in (0.5, 3) when gap_left, else y in (-3, -0.5). Everything rotated by yaw.
std::vector<Vec2> Corridor(bool gap_left, float yaw) {
  const float s = gap_left ? 1.f : -1.f;
  std::vector<Vec2> v = {{-5, 3}, {30, 3}, {-5, -3}, {30, -3}, {4, -3 * s}, {4, 0.5f * s}};
  for (Vec2& p : v) p = Rotate(p, yaw);
  return v;
}

TEST(CastFanTest, corridor_block_turns_to_the_free_side) {
  for (float yaw : {0.f, 0.7f, -2.4f}) {
    for (bool gap_left : {true, false}) {
      const std::vector<Vec2> walls = Corridor(gap_left, yaw);
      const Vec2 forward = HeadingOf(yaw);
      const FanChoice c = ChooseFanDirection2D(forward, {0, 0}, 0.4f, 6.f, kPi / 3, 13,
                                               walls.data(), static_cast<int>(walls.size()) / 2);
      SCOPED_TRACE(::testing::Message() << "yaw " << yaw << " gap_left " << gap_left);
      EXPECT_FALSE(c.all_blocked);
      EXPECT_EQ(c.hit_distance, kNoHit);
      // 5 degree steps: 15 deg left (probe 3) clears the block's end, 10 deg right does not.
      EXPECT_EQ(c.probe, gap_left ? 3 : 4);
      const float side = Det(forward, Ground(c.direction));
      EXPECT_GT(gap_left ? side : -side, 0.f);
      // Probe 0 (straight) is blocked by the block at about 4 - 0.4 m.
      float straight = kNoHit;
      for (size_t s = 0; s < walls.size(); s += 2) {
        straight = fminf(straight,
                         SphereCastSegment2D({0, 0}, forward, 0.4f, 6.f, walls[s], walls[s + 1]));
      }
      EXPECT_NEAR(straight, 3.6f, 1e-4f);
      // Same answer from the double reference.
      std::vector<reference::Segment> segs;
      for (size_t s = 0; s < walls.size(); s += 2)
        segs.push_back({ToD(walls[s]), ToD(walls[s + 1])});
      EXPECT_EQ(
          reference::ChooseFanDirection2D(ToD(forward), {0, 0}, 0.4, 6, kPi / 3, 13, segs).probe,
          c.probe);
    }
  }
}

TEST(CastFanTest, boxed_in_takes_the_farthest_hit) {
  // A closed room, the agent facing +x with the left wall farther than the right one.
  const std::vector<Vec2> room = {{3, -2},    {3, 3.5f}, {3, 3.5f}, {-4, 3.5f},
                                  {-4, 3.5f}, {-4, -2},  {-4, -2},  {3, -2}};
  const int n = 15;
  const float fov = 1.4f;
  const FanChoice c = ChooseFanDirection2D({1, 0}, {0, 0}, 0.3f, 20.f, fov, n, room.data(), 4);
  EXPECT_TRUE(c.all_blocked);
  int best = -1;
  float best_hit = -1;
  for (int i = 0; i < n; ++i) {
    const Vec2 d = FanLocalToGround(FanDirection2D(i, n, fov), {1, 0});
    float hit = kNoHit;
    for (int s = 0; s < 4; ++s)
      hit = fminf(hit, SphereCastSegment2D({0, 0}, d, 0.3f, 20.f, room[2 * s], room[2 * s + 1]));
    ASSERT_NE(hit, kNoHit);
    if (hit > best_hit) best_hit = hit, best = i;
  }
  EXPECT_EQ(c.probe, best);
  EXPECT_EQ(c.hit_distance, best_hit);
  EXPECT_GT(Det({1, 0}, Ground(c.direction)), 0.f);  // the roomier left side
  EXPECT_GT(c.probe, 0);
}

TEST(CastFanTest, disc_passes_a_wide_gap_but_not_a_narrow_one) {
  // Two walls across the path at x = 5 leaving a centred gap of the given width.
  auto cast = [](float gap, float radius) {
    const Vec2 w[] = {{5, gap / 2}, {5, 10}, {5, -gap / 2}, {5, -10}};
    return fminf(SphereCastSegment2D({0, 0}, {1, 0}, radius, 20.f, w[0], w[1]),
                 SphereCastSegment2D({0, 0}, {1, 0}, radius, 20.f, w[2], w[3]));
  };
  EXPECT_EQ(cast(1.2f, 0.5f), kNoHit);  // wider than the 1 m diameter
  EXPECT_LT(cast(0.8f, 0.5f), 5.f);     // narrower: the disc touches an end
  EXPECT_EQ(cast(0.8f, 0.f), kNoHit);   // a ray would pass
  EXPECT_EQ(cast(1.2f, 0.f), kNoHit);
  // The chooser sees the same: with the narrow gap ahead, probe 0 is not taken.
  const Vec2 narrow[] = {{5, 0.4f}, {5, 10}, {5, -0.4f}, {5, -10}};
  EXPECT_NE(ChooseFanDirection2D({1, 0}, {0, 0}, 0.5f, 20.f, 1.f, 7, narrow, 2).probe, 0);
  const Vec2 wide[] = {{5, 0.6f}, {5, 10}, {5, -0.6f}, {5, -10}};
  EXPECT_EQ(ChooseFanDirection2D({1, 0}, {0, 0}, 0.5f, 20.f, 1.f, 7, wide, 2).probe, 0);
}

TEST(CastFanTest, chooser_matches_reference_on_random_scenes) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<float> u(-8.f, 8.f), unit(0.f, 1.f);
  int mismatches = 0, blocked = 0, free_straight = 0;
  const int scenes = 2000;
  for (int k = 0; k < scenes; ++k) {
    std::vector<Vec2> segs;
    std::vector<reference::Segment> ref_segs;
    const int count = 2 + k % 6;
    for (int s = 0; s < count; ++s) {
      const Vec2 a{u(rng), u(rng)}, b{u(rng), u(rng)};
      segs.push_back(a);
      segs.push_back(b);
      ref_segs.push_back({ToD(a), ToD(b)});
    }
    const Vec2 forward = HeadingOf(u(rng));
    const Vec2 eye{u(rng) * 0.2f, u(rng) * 0.2f};
    const float radius = 0.1f + unit(rng), max_d = 2.f + 8.f * unit(rng),
                fov = 0.3f + 1.2f * unit(rng);
    const int n = 1 + k % 12;
    const FanChoice c =
        ChooseFanDirection2D(forward, eye, radius, max_d, fov, n, segs.data(), count);
    const reference::FanChoiceD r =
        reference::ChooseFanDirection2D(ToD(forward), ToD(eye), radius, max_d, fov, n, ref_segs);
    if (c.probe != r.probe || c.all_blocked != r.all_blocked) ++mismatches;
    blocked += c.all_blocked;
    free_straight += !c.all_blocked && c.probe == 0;
  }
  printf("chooser: %d scenes, %d all blocked, %d straight ahead free, %d mismatches\n", scenes,
         blocked, free_straight, mismatches);
  EXPECT_LE(mismatches, scenes / 1000 + 1);
  EXPECT_GT(blocked, scenes / 20);  // both branches exercised
  EXPECT_GT(scenes - blocked - free_straight, scenes / 20);
}

TEST(CastFanTest, cone_chooser_avoids_a_sphere_ahead) {
  const Vec3 center[] = {{6, 0, 0}};
  const float radii[] = {1.5f};
  const Vec3 box_lo[] = {{4, -10, -10}}, box_hi[] = {{5, -2.5f, 10}};  // a wall on the right
  const FanChoice c = ChooseConeDirection3D({1, 0, 0}, {0, 0, 0}, 0.5f, 10.f, 1.f, 32, center,
                                            radii, 1, box_lo, box_hi, 1);
  EXPECT_FALSE(c.all_blocked);
  EXPECT_GT(c.probe, 0);
  EXPECT_EQ(SphereCastSphere({0, 0, 0}, c.direction, 0.5f, 10.f, center[0], radii[0]), kNoHit);
  EXPECT_EQ(SphereCastBox({0, 0, 0}, c.direction, 0.5f, 10.f, box_lo[0], box_hi[0]), kNoHit);
  // Every earlier probe was blocked.
  for (int i = 0; i < c.probe; ++i) {
    const Vec3 d = ConeLocalToWorld(ConeDirection3D(i, 32, 1.f), {1, 0, 0});
    EXPECT_LE(fminf(SphereCastSphere({0, 0, 0}, d, 0.5f, 10.f, center[0], radii[0]),
                    SphereCastBox({0, 0, 0}, d, 0.5f, 10.f, box_lo[0], box_hi[0])),
              10.f);
  }
}

// ---- Turning ----------------------------------------------------------------------------

bool Finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

TEST(CastFanTest, turn_toward_never_nan) {
  const Vec2 f{0.6f, 0.8f};
  // chosen == -forward at a blend of exactly 1/2: a quarter turn to the right.
  const Vec2 r = TurnToward(f, -f, 0.5f, 1.f);
  EXPECT_TRUE(Finite(r));
  EXPECT_NEAR(Length(r), 1.f, 1e-6f);
  EXPECT_NEAR(Dot(r, f), 0.f, 1e-6f);
  EXPECT_LT(Det(f, r), 0.f);                          // clockwise: right
  EXPECT_EQ(TurnToward(f, -f, 0.f, 5.f), f);          // dt 0: no turn
  const Vec2 full = TurnToward(f, -f, 1e-3f, 1e30f);  // huge speed: all the way
  EXPECT_NEAR(full.x, -f.x, 1e-6f);
  EXPECT_TRUE(Finite(TurnToward(f, {1, 0}, 0.f, INFINITY)));  // 0 * inf
  EXPECT_TRUE(Finite(TurnToward(f, {1, 0}, INFINITY, INFINITY)));
  EXPECT_TRUE(Finite(TurnToward(f, {1, 0}, NAN, 1.f)));
  EXPECT_EQ(TurnToward({0, 0}, {0, 2}, 0.1f, 1.f), (Vec2{0, 1}));
  EXPECT_EQ(TurnToward({0, 0}, {0, 0}, 0.1f, 1.f), (Vec2{1, 0}));
  EXPECT_EQ(TurnToward(f, {0, 0}, 0.1f, 1.f), f);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f), e(-3.f, 3.f);
  for (int k = 0; k < 20000; ++k) {
    const Vec2 fw{u(rng), u(rng)};
    const Vec2 ch = k % 4 == 0 ? -fw * 3.f : Vec2{u(rng), u(rng)};
    const float dt = k % 5 == 0 ? 0.f : std::pow(10.f, e(rng));
    const float ts = std::pow(10.f, 3 * e(rng));
    const Vec2 t = TurnToward(fw, ch, dt, ts);
    ASSERT_TRUE(Finite(t)) << k;
    ASSERT_NEAR(Length(t), 1.f, 1e-5f) << k;
    const D2 ref = reference::TurnToward(ToD(fw), ToD(ch), dt, ts);
    EXPECT_NEAR(t.x, ref.x, 1e-4) << k;
    EXPECT_NEAR(t.y, ref.y, 1e-4) << k;
  }
}

TEST(CastFanTest, turn_toward_blends_by_dt_times_turn_speed) {
  const Vec2 f{1, 0}, c{0, 1};
  const Vec2 half = TurnToward(f, c, 0.1f, 5.f);
  EXPECT_NEAR(half.x, half.y, 1e-6f);  // lerp by 1/2 between perpendicular unit vectors
  EXPECT_EQ(TurnToward(f, c, 1.f, 2.f), c);
}

// ---- Sphere casts -----------------------------------------------------------------------

TEST(SphereCastTest, known_distances) {
  // Disc of 0.5 toward a wall 4 m ahead: touches at 3.5.
  EXPECT_NEAR(SphereCastSegment2D({0, 0}, {1, 0}, 0.5f, 10.f, {4, -1}, {4, 1}), 3.5f, 1e-6f);
  // Toward the wall's end, sideways offset 0.3 from it: end circle.
  EXPECT_NEAR(SphereCastSegment2D({0, 1.3f}, {1, 0}, 0.5f, 10.f, {4, -1}, {4, 1}),
              4.f - std::sqrt(0.25f - 0.09f), 1e-5f);
  // Along a wall's direction, offset laterally by less than the radius: the end first.
  EXPECT_NEAR(SphereCastSegment2D({0, 0.2f}, {1, 0}, 0.5f, 10.f, {3, 0}, {9, 0}),
              3.f - std::sqrt(0.25f - 0.04f), 1e-5f);
  EXPECT_EQ(SphereCastSegment2D({0, 0}, {1, 0}, 0.5f, 3.f, {4, -1}, {4, 1}), kNoHit);  // too far
  EXPECT_EQ(SphereCastSegment2D({0, 0}, {-1, 0}, 0.5f, 10.f, {4, -1}, {4, 1}), kNoHit);
  EXPECT_EQ(SphereCastSegment2D({3.7f, 0}, {-1, 0}, 0.5f, 10.f, {4, -1}, {4, 1}), 0.f);  // overlap
  EXPECT_NEAR(SphereCastSegment2D({0, 0}, {2, 0}, 0.5f, 10.f, {4, -1}, {4, 1}), 3.5f, 1e-6f);

  EXPECT_NEAR(SphereCastSphere({0, 0, 0}, {0, 0, 1}, 0.5f, 20.f, {0, 0, 10}, 2.f), 7.5f, 1e-5f);
  EXPECT_EQ(SphereCastSphere({0, 0, 0}, {0, 0, 1}, 0.5f, 20.f, {0, 2.6f, 10}, 2.f), kNoHit);
  EXPECT_EQ(SphereCastSphere({0, 0, 9}, {0, 0, 1}, 0.5f, 20.f, {0, 0, 10}, 2.f), 0.f);

  const Vec3 lo{2, -1, -1}, hi{4, 1, 1};
  EXPECT_NEAR(SphereCastBox({0, 0, 0}, {1, 0, 0}, 0.5f, 10.f, lo, hi), 1.5f, 1e-6f);  // face
  // Exact, not the grown box: a path at y = z = 1.4 passes the grown box's corner region
  // (|y|, |z| <= 1.5) but misses the rounded edge (distance sqrt(0.32) = 0.566 > 0.5).
  EXPECT_EQ(SphereCastBox({0, 1.4f, 1.4f}, {1, 0, 0}, 0.5f, 10.f, lo, hi), kNoHit);
  // At y = 1.3, z = 0: the rounded edge along z at (x=2, y=1): touches where
  // (2 - x)^2 + 0.09 = 0.25.
  EXPECT_NEAR(SphereCastBox({0, 1.3f, 0}, {1, 0, 0}, 0.5f, 10.f, lo, hi), 2.f - 0.4f, 1e-5f);
  // Toward a corner along the diagonal: the corner sphere.
  const float diag = (std::sqrt(3.f) * 2 - 0.5f) / std::sqrt(3.f);  // x of the touch point
  EXPECT_NEAR(SphereCastBox({0, -3, -3}, {1, 1, 1}, 0.5f, 20.f, {2, -1, -1}, {4, 1, 1}),
              std::sqrt(3.f) * (diag), 1e-4f);
  EXPECT_EQ(SphereCastBox({3, 0, 0.2f}, {1, 0, 0}, 0.5f, 10.f, lo, hi), 0.f);  // inside
}

struct Agreement {
  int cases = 0, hits = 0, zero = 0, mismatches = 0;
  double worst = 0;
  void Add(float got, double ref) {
    ++cases;
    if (std::isfinite(ref)) ++hits;
    if (ref == 0) ++zero;
    const bool got_hit = got != kNoHit, ref_hit = std::isfinite(ref);
    if (got_hit != ref_hit) {
      ++mismatches;
      return;
    }
    if (got_hit) {
      const double err = std::fabs(got - ref);
      worst = std::max(worst, err);
      if (err > 1e-3) ++mismatches;
    }
  }
  void Print(const char* what) const {
    printf(
        "%s: %d cases, %d hits (%d overlapping at the origin), %d mismatches, worst "
        "distance error %.2e m\n",
        what, cases, hits, zero, mismatches, worst);
  }
};

// Directions either random or aimed near the obstacle so that hits, misses and grazes all
// occur in numbers.
Vec3 Aim(std::mt19937& rng, Vec3 from, Vec3 at, bool three_d) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Vec3 d = (rng() % 3 == 0) ? Vec3{u(rng), u(rng), u(rng)}
                            : at - from + Vec3{u(rng), u(rng), u(rng)} * 3.f;
  if (!three_d) d.z = 0;
  return LengthSq(d) > 1e-6f ? d : Vec3{1, 0, 0};
}

TEST(SphereCastTest, segment_matches_reference) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> u(-10.f, 10.f), unit(0.f, 1.f);
  Agreement agree;
  for (int k = 0; k < 20000; ++k) {
    const Vec2 a{u(rng), u(rng)};
    const Vec2 b = k % 50 == 0 ? a : a + Vec2{u(rng), u(rng)} * 0.6f;
    const Vec2 o{u(rng), u(rng)};
    const Vec3 d3 = Aim(rng, {o.x, o.y, 0}, {(a.x + b.x) / 2, (a.y + b.y) / 2, 0}, false);
    const Vec2 d{d3.x, d3.y};
    const float r = 0.05f + 2.f * unit(rng), max_d = 1.f + 25.f * unit(rng);
    agree.Add(SphereCastSegment2D(o, d, r, max_d, a, b),
              reference::SphereCastSegment2D(ToD(o), ToD(d), r, max_d, ToD(a), ToD(b)));
  }
  agree.Print("segment");
  EXPECT_LE(agree.mismatches, agree.cases / 1000);
  EXPECT_GT(agree.hits - agree.zero, agree.cases / 5);
}

TEST(SphereCastTest, sphere_matches_reference) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-10.f, 10.f), unit(0.f, 1.f);
  Agreement agree;
  for (int k = 0; k < 20000; ++k) {
    const Vec3 c{u(rng), u(rng), u(rng)}, o{u(rng), u(rng), u(rng)};
    const Vec3 d = Aim(rng, o, c, true);
    const float r = 0.05f + 2.f * unit(rng), sr = 0.1f + 3.f * unit(rng);
    const float max_d = 1.f + 25.f * unit(rng);
    agree.Add(SphereCastSphere(o, d, r, max_d, c, sr),
              reference::SphereCastSphere(ToD(o), ToD(d), r, max_d, ToD(c), sr));
  }
  agree.Print("sphere");
  EXPECT_LE(agree.mismatches, agree.cases / 1000);
  EXPECT_GT(agree.hits - agree.zero, agree.cases / 5);
}

TEST(SphereCastTest, box_matches_reference) {
  std::mt19937 rng(10);
  std::uniform_real_distribution<float> u(-10.f, 10.f), unit(0.f, 1.f);
  Agreement agree;
  for (int k = 0; k < 20000; ++k) {
    const Vec3 lo{u(rng), u(rng), u(rng)};
    const Vec3 hi = lo + Vec3{unit(rng), unit(rng), unit(rng)} * 4.f;
    const Vec3 o{u(rng), u(rng), u(rng)};
    // Aim at a corner or edge often: the rounded parts are where exactness shows.
    const Vec3 at = k % 2 ? BoxCorner(lo, hi, static_cast<int>(rng() % 8)) : (lo + hi) * 0.5f;
    Vec3 d = Aim(rng, o, at, true);
    if (k % 7 == 0) d.y = 0;  // axis-parallel components exercise the slab special case
    const float r = k % 97 == 0 ? 0.f : 0.05f + 2.f * unit(rng);
    const float max_d = 1.f + 25.f * unit(rng);
    agree.Add(SphereCastBox(o, d, r, max_d, lo, hi),
              reference::SphereCastBox(ToD(o), ToD(d), r, max_d, ToD(lo), ToD(hi)));
  }
  agree.Print("box");
  EXPECT_LE(agree.mismatches, agree.cases / 1000);
  EXPECT_GT(agree.hits - agree.zero, agree.cases / 8);
}

}  // namespace
}  // namespace throng
