// 3D sphere casts (kernels/steering/cast_3d.cuh): hand-computed cases, then agreement with the
// sphere-traced double reference (kernels/reference/cast_ref.h) on random rays.
#include "kernels/steering/cast_3d.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "kernels/reference/cast_ref.h"

namespace throng {
namespace {

using reference::D2;
using reference::D3;

D2 ToD(Vec2 v) { return {v.x, v.y}; }
D3 ToD(Vec3 v) { return {v.x, v.y, v.z}; }
std::vector<D2> ToD(const std::vector<Vec2>& ring) {
  std::vector<D2> out;
  for (Vec2 p : ring) out.push_back(ToD(p));
  return out;
}
Vec2 Rotate(Vec2 v, float yaw) {
  return {cosf(yaw) * v.x - sinf(yaw) * v.y, sinf(yaw) * v.x + cosf(yaw) * v.y};
}

// An L: the square [0, 4]^2 without its notch [2, 4] x [2, 4] (counter-clockwise).
const std::vector<Vec2> kL = {{0, 0}, {4, 0}, {4, 2}, {2, 2}, {2, 4}, {0, 4}};
const Vec3 kDown{0, 0, -1};

// ---- Hand-computed cases ----------------------------------------------------------------

// Wall above x = 5, y in [-2, 2], z in [0, 3]; sphere of 0.5 moving along +x.
TEST(Cast3dTest, vertical_wall_known_distances) {
  const Vec2 a{5, -2}, b{5, 2};
  auto cast = [&](Vec3 o, Vec3 d, float max_d = 10.f) {
    return SphereCastVerticalWall(o, d, 0.5f, max_d, a, b, 0.f, 3.f);
  };
  EXPECT_NEAR(cast({0, 0, 1}, {1, 0, 0}), 4.5f, 1e-6f);    // face, head on
  EXPECT_NEAR(cast({0, 0, 1}, {3, 0, 0}), 4.5f, 1e-6f);    // dir is normalised
  EXPECT_NEAR(cast({10, 0, 1}, {-1, 0, 0}), 4.5f, 1e-6f);  // the other face
  // 0.3 beside the vertical edge at b: its capsule, where (5 - x)^2 + 0.09 = 0.25.
  EXPECT_NEAR(cast({0, 2.3f, 1}, {1, 0, 0}), 4.6f, 1e-5f);
  // 0.3 above the top edge: the horizontal capsule at z = 3.
  EXPECT_NEAR(cast({0, 0, 3.3f}, {1, 0, 0}), 4.6f, 1e-5f);
  // 0.3 past the top corner on both axes: the corner sphere, (5 - x)^2 + 0.18 = 0.25.
  EXPECT_NEAR(cast({0, 2.3f, 3.3f}, {1, 0, 0}), 5.f - std::sqrt(0.07f), 1e-5f);
  // Oblique onto the face: reaches x = 4.5 after 4.5 * sqrt(2), at y = 4.5 - 3 = 1.5.
  EXPECT_NEAR(cast({0, -3, 1}, {1, 1, 0}), 4.5f * std::sqrt(2.f), 1e-5f);
  // 0.6 above the top: passes the finite wall, not the infinite one.
  EXPECT_EQ(cast({0, 0, 3.6f}, {1, 0, 0}), kNoHit);
  EXPECT_NEAR(SphereCastInfiniteWall({0, 0, 3.6f}, {1, 0, 0}, 0.5f, 10.f, a, b), 4.5f, 1e-6f);
  EXPECT_EQ(cast({0, 0, -0.6f}, {1, 0, 0}), kNoHit);    // and below it
  EXPECT_EQ(cast({0, 2.6f, 1}, {1, 0, 0}), kNoHit);     // and beside it
  EXPECT_EQ(cast({0, 0, 1}, {-1, 0, 0}), kNoHit);       // moving away
  EXPECT_EQ(cast({0, 0, 1}, {1, 0, 0}, 4.4f), kNoHit);  // beyond max_distance
  EXPECT_NEAR(cast({0, 0, 1}, {1, 0, 0}, 4.5f), 4.5f, 1e-6f);
  EXPECT_EQ(cast({4.6f, 0, 1}, {-1, 0, 0}), 0.f);       // already touching the face
  EXPECT_EQ(cast({5.2f, 2.2f, 3.2f}, {1, 0, 0}), 0.f);  // touching the corner
  EXPECT_EQ(cast({0, 0, 1}, {0, 0, 0}), kNoHit);        // no direction
  // A degenerate segment is a vertical capsule (pole) at (5, 0) from z = 0 to 3.
  const Vec2 p{5, 0};
  EXPECT_NEAR(SphereCastVerticalWall({0, 0.3f, 1}, {1, 0, 0}, 0.5f, 10.f, p, p, 0.f, 3.f), 4.6f,
              1e-5f);
  EXPECT_NEAR(SphereCastVerticalWall({5, 0, 10}, kDown, 0.5f, 10.f, p, p, 0.f, 3.f), 6.5f, 1e-5f);
  EXPECT_EQ(SphereCastVerticalWall({0, 0.6f, 1}, {1, 0, 0}, 0.5f, 10.f, p, p, 0.f, 3.f), kNoHit);
}

TEST(Cast3dTest, infinite_wall_scales_the_horizontal_distance) {
  const Vec2 a{5, -2}, b{5, 2};
  // Climbing at 45 degrees: 4.5 m across takes 4.5 * sqrt(2) m of travel, at any height.
  EXPECT_NEAR(SphereCastInfiniteWall({0, 0, 100}, {1, 0, 1}, 0.5f, 10.f, a, b),
              4.5f * std::sqrt(2.f), 1e-5f);
  EXPECT_EQ(SphereCastInfiniteWall({0, 0, 100}, {1, 0, 1}, 0.5f, 6.f, a, b), kNoHit);
  EXPECT_EQ(SphereCastInfiniteWall({0, 0, 0}, {0, 0, 1}, 0.5f, 1e6f, a, b), kNoHit);  // vertical
  EXPECT_EQ(SphereCastInfiniteWall({4.7f, 0, -50}, {0, 0, 1}, 0.5f, 10.f, a, b), 0.f);
  EXPECT_EQ(SphereCastInfiniteWall({0, 2.6f, 0}, {1, 0, 0}, 0.5f, 10.f, a, b), kNoHit);
  EXPECT_NEAR(SphereCastInfiniteWall({0, 2.3f, 7}, {1, 0, 0}, 0.5f, 10.f, a, b), 4.6f, 1e-5f);
}

TEST(Cast3dTest, polygon_cap_lands_on_the_face_only) {
  const std::vector<Vec2> square = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
  auto cap = [&](Vec3 o, Vec3 d, bool top, float max_d = 20.f) {
    return SphereCastPolygonCap(o, d, 0.5f, max_d, square.data(), 4, 2.f, top);
  };
  EXPECT_NEAR(cap({2, 2, 10}, kDown, true), 7.5f, 1e-6f);  // onto the plane z = 2.5
  // From (-1, 2, 6.5) along (1, 0, -2): 4 m down, 2 m across, to x = 1 inside.
  EXPECT_NEAR(cap({-1, 2, 6.5f}, {1, 0, -2}, true), std::sqrt(20.f), 1e-5f);
  // Beside the polygon, within radius of its rim: the whole prism would be touched (the
  // rim capsule), the face is not.
  EXPECT_EQ(cap({4.3f, 2, 10}, kDown, true), kNoHit);
  EXPECT_EQ(cap({6, 2, 10}, kDown, true), kNoHit);
  EXPECT_EQ(cap({2, 2, 10}, {0, 0, 1}, true), kNoHit);          // moving away
  EXPECT_EQ(cap({2, 2, -5}, {0, 0, 1}, true), kNoHit);          // top face, from below
  EXPECT_NEAR(cap({2, 2, -5}, {0, 0, 1}, false), 6.5f, 1e-6f);  // the bottom: z = 1.5
  EXPECT_EQ(cap({2, 2, 10}, kDown, false), kNoHit);             // bottom face, from above
  EXPECT_EQ(cap({2, 2, 10}, kDown, true, 7.f), kNoHit);         // beyond max_distance
  EXPECT_EQ(cap({2, 2, 2.4f}, {0, 0, 1}, true), 0.f);           // within radius of the face
  EXPECT_EQ(cap({2, 2, 1.6f}, {0, 0, 1}, true), 0.f);
  EXPECT_EQ(cap({2, 2, 2.6f}, {0, 0, 1}, true), kNoHit);
  EXPECT_EQ(cap({2, 2, 10}, {0, 0, 0}, true), kNoHit);
  // The L: next to the notch is cap, in the notch is not (a convex hull would say it is).
  for (bool reversed : {false, true}) {
    std::vector<Vec2> ring = kL;
    if (reversed) std::reverse(ring.begin(), ring.end());
    auto l_cap = [&](Vec2 at) {
      return SphereCastPolygonCap({at.x, at.y, 10}, kDown, 0.5f, 20.f, ring.data(), 6, 2.f, true);
    };
    SCOPED_TRACE(reversed ? "clockwise" : "counter-clockwise");
    EXPECT_NEAR(l_cap({1.9f, 3}), 7.5f, 1e-6f);
    EXPECT_NEAR(l_cap({3, 1.9f}), 7.5f, 1e-6f);
    EXPECT_NEAR(l_cap({1, 1}), 7.5f, 1e-6f);
    EXPECT_EQ(l_cap({3, 3}), kNoHit);
    EXPECT_EQ(l_cap({2.1f, 2.1f}), kNoHit);
    EXPECT_EQ(l_cap({5, 1}), kNoHit);
  }
}

TEST(Cast3dTest, point_in_polygon_even_odd) {
  EXPECT_TRUE(PointInPolygon({1, 3}, kL.data(), 6));
  EXPECT_TRUE(PointInPolygon({3, 1}, kL.data(), 6));
  EXPECT_FALSE(PointInPolygon({3, 3}, kL.data(), 6));
  EXPECT_FALSE(PointInPolygon({-1, 1}, kL.data(), 6));
  // A ray along y = 2 from (1, 2) runs through the vertex (4, 2) and along edge (4,2)-(2,2):
  // the half-open rule must still count it once.
  EXPECT_TRUE(PointInPolygon({1, 2}, kL.data(), 6));
  EXPECT_TRUE(PointInPolygon({1, 4 - 1e-3f}, kL.data(), 6));
  // A pentagram's centre has winding number 2: even-odd leaves it out.
  std::vector<Vec2> star;
  for (int i = 0; i < 5; ++i) star.push_back(Rotate({0, 3}, 4 * kPi / 5 * i));
  EXPECT_FALSE(PointInPolygon({0, 0}, star.data(), 5));
  EXPECT_TRUE(PointInPolygon({0, 2.2f}, star.data(), 5));  // a point of the star
  EXPECT_FALSE(reference::PointInPolygon({0, 0}, ToD(star)));
  EXPECT_TRUE(reference::PointInPolygon({0, 2.2}, ToD(star)));
}

TEST(Cast3dTest, oriented_box_at_45_degrees_is_hit_on_its_edge) {
  const Vec3 center{5, 0, 0}, half{1, 1, 1};
  const float yaw = kPi / 4;
  // Turned by 45 degrees, the box points a vertical edge at the origin: at x = 5 - sqrt(2).
  const float edge = 5.f - std::sqrt(2.f);
  EXPECT_NEAR(SphereCastOrientedBox({0, 0, 0}, {1, 0, 0}, 0.5f, 10.f, center, half, yaw),
              edge - 0.5f, 1e-5f);
  // 0.2 to the side the edge's rounding is met, where (edge - x)^2 + 0.04 = 0.25; unturned,
  // the flat face would be met at 3.5.
  EXPECT_NEAR(SphereCastOrientedBox({0, 0.2f, 0}, {1, 0, 0}, 0.5f, 10.f, center, half, yaw),
              edge - std::sqrt(0.21f), 1e-5f);
  EXPECT_NEAR(SphereCastOrientedBox({0, 0.2f, 0}, {1, 0, 0}, 0.5f, 10.f, center, half, 0.f), 3.5f,
              1e-5f);
  // Turned, it reaches out to |y| = sqrt(2): a path at y = 1.8 meets the rounding of the
  // vertical edge at (5, sqrt(2)) and misses the unturned box (0.8 from its face); at y = 2
  // it misses both.
  const float off = 1.8f - std::sqrt(2.f);
  EXPECT_NEAR(SphereCastOrientedBox({0, 1.8f, 0}, {1, 0, 0}, 0.5f, 10.f, center, half, yaw),
              5.f - std::sqrt(0.25f - off * off), 1e-5f);
  EXPECT_EQ(SphereCastOrientedBox({0, 1.8f, 0}, {1, 0, 0}, 0.5f, 10.f, center, half, 0.f), kNoHit);
  EXPECT_EQ(SphereCastOrientedBox({0, 2.f, 0}, {1, 0, 0}, 0.5f, 10.f, center, half, yaw), kNoHit);
  // 45 degrees looks the same either way round; 30 does not. Along its long axis a 4 m
  // box is met at its end face, 10 - 2 - 0.5 from an origin 10 m back.
  const float y30 = kPi / 6;
  const Vec3 axis{cosf(y30), sinf(y30), 0};
  EXPECT_NEAR(
      SphereCastOrientedBox(center - axis * 10.f, axis, 0.5f, 20.f, center, {2, 0.5f, 1}, y30),
      7.5f, 1e-5f);
  // Down onto the top face, and the usual edge cases.
  EXPECT_NEAR(SphereCastOrientedBox({5, 0, 10}, kDown, 0.5f, 20.f, center, half, yaw), 8.5f, 1e-5f);
  EXPECT_EQ(SphereCastOrientedBox({0, 0, 0}, {1, 0, 0}, 0.5f, 3.f, center, half, yaw), kNoHit);
  EXPECT_EQ(SphereCastOrientedBox({5, 0, 1.3f}, {1, 0, 0}, 0.5f, 3.f, center, half, yaw), 0.f);
  EXPECT_EQ(SphereCastOrientedBox({0, 0, 0}, {0, 0, 0}, 0.5f, 3.f, center, half, yaw), kNoHit);
}

TEST(Cast3dTest, sphere_slice_depends_on_height) {
  const Vec3 c{5, 0, 1};
  auto slice = [&](float z, Vec2 o = {0, 0}, float max_d = 10.f) {
    return DiscCastSphereSlice(o, {1, 0}, 0.5f, max_d, z, c, 2.f);
  };
  EXPECT_NEAR(slice(1.f), 2.5f, 1e-6f);                         // the full radius
  EXPECT_NEAR(slice(2.f), 5.f - 0.5f - std::sqrt(3.f), 1e-5f);  // a 1 m higher slice
  EXPECT_NEAR(slice(0.f), 5.f - 0.5f - std::sqrt(3.f), 1e-5f);  // and lower
  EXPECT_EQ(slice(3.5f), kNoHit);                               // above the top
  EXPECT_EQ(slice(3.f), kNoHit);  // at the pole the slice is a point: no contact
  EXPECT_EQ(slice(-1.5f), kNoHit);
  EXPECT_EQ(slice(1.f, {0, 2.6f}), kNoHit);  // beside it
  EXPECT_EQ(slice(1.f, {0, 0}, 2.4f), kNoHit);
  EXPECT_EQ(slice(1.f, {2.6f, 0}), 0.f);
  EXPECT_EQ(slice(2.9f, {5, 0.2f}), 0.f);  // small slice, inside the disc
  EXPECT_EQ(DiscCastSphereSlice({0, 0}, {0, 0}, 0.5f, 10.f, 1.f, c, 2.f), kNoHit);
}

// A sphere of 1 at (5, 0, 0), and capsules of 1 rising from there: a short one to z = 1, a
// tall one to z = 4. Cast radius 0.5, so the sums have radius 1.5.
TEST(Cast3dTest, capsule_known_distances) {
  const Vec3 base{5, 0, 0}, short_top{5, 0, 1}, tall_top{5, 0, 4};
  const Vec3 x{1, 0, 0};
  auto cast = [&](Vec3 o, Vec3 d, Vec3 q, float max_d = 10.f) {
    return SphereCastCapsule(o, d, 0.5f, max_d, base, q, 1.f);
  };
  EXPECT_NEAR(cast({0, 0, 0}, x, base), 3.5f, 1e-6f);           // a sphere, head on
  EXPECT_NEAR(cast({0, 0, 0}, {4, 0, 0}, base), 3.5f, 1e-6f);   // dir is normalised
  EXPECT_NEAR(cast({5, 0, -9}, {0, 0, 1}, base), 7.5f, 1e-6f);  // from below
  // A sphere is SphereCastSphere's answer, bit for bit.
  EXPECT_EQ(cast({0, 0.7f, 0.2f}, {1, 0.1f, 0}, base),
            SphereCastSphere({0, 0.7f, 0.2f}, {1, 0.1f, 0}, 0.5f, 10.f, base, 1.f));
  // The side of the tall capsule at mid-height, head on and 0.9 off the axis, where
  // (5 - x)^2 + 0.81 = 2.25.
  EXPECT_NEAR(cast({0, 0, 2}, x, tall_top), 3.5f, 1e-6f);
  EXPECT_NEAR(cast({0, 0.9f, 2}, x, tall_top), 5.f - 1.2f, 1e-5f);
  // At z = 3 the path passes 2 over the short capsule's top (beyond 1.5) and meets the
  // tall one's side.
  EXPECT_EQ(cast({0, 0, 3}, x, short_top), kNoHit);
  EXPECT_NEAR(cast({0, 0, 3}, x, tall_top), 3.5f, 1e-6f);
  // 1 above the tall top: its end sphere, (5 - x)^2 + 1 = 2.25; and down onto the top.
  EXPECT_NEAR(cast({0, 0, 5}, x, tall_top), 5.f - std::sqrt(1.25f), 1e-5f);
  EXPECT_NEAR(cast({5, 0, 10}, kDown, tall_top), 10.f - 4.f - 1.5f, 1e-6f);
  EXPECT_NEAR(cast({5, 0, 10}, kDown, short_top), 10.f - 1.f - 1.5f, 1e-6f);
  // Lying along y, the capsule is met on its side wherever the path crosses it.
  EXPECT_NEAR(SphereCastCapsule({0, 1.5f, 0}, x, 0.5f, 10.f, {5, -2, 0}, {5, 2, 0}, 1.f), 3.5f,
              1e-6f);
  EXPECT_EQ(cast({0, 0, 2}, x, tall_top, 3.4f), kNoHit);  // beyond max_distance
  EXPECT_NEAR(cast({0, 0, 2}, x, tall_top, 3.5f), 3.5f, 1e-6f);
  EXPECT_EQ(cast({0, 0, 2}, {-1, 0, 0}, tall_top), kNoHit);  // moving away
  EXPECT_EQ(cast({0, 1.6f, 2}, x, tall_top), kNoHit);        // beside it
  EXPECT_EQ(cast({0, 0, 2}, {0, 0, 0}, tall_top), kNoHit);   // no direction
  EXPECT_EQ(cast({3.6f, 0, 2}, {-1, 0, 0}, tall_top), 0.f);  // touching the side
  EXPECT_EQ(cast({5, 1, 5.1f}, {0, 0, 1}, tall_top), 0.f);   // touching the top
  EXPECT_EQ(cast({3.6f, 0, 2}, {0, 0, 0}, tall_top), 0.f);   // touching, no direction
}

// The tall capsule again (axis (5, 0) from z = 0 to 4, radius 1), met by a disc of 0.5.
TEST(Cast3dTest, capsule_slice_depends_on_height) {
  const Vec3 p{5, 0, 0}, q{5, 0, 4};
  auto slice = [&](float z, Vec2 o = {0, 0}, float max_d = 10.f) {
    return DiscCastCapsuleSlice(o, {1, 0}, 0.5f, max_d, z, p, q, 1.f);
  };
  // Anywhere along the straight part the slice is the full radius.
  EXPECT_NEAR(slice(2.f), 3.5f, 1e-6f);
  EXPECT_NEAR(slice(0.f), 3.5f, 1e-6f);
  EXPECT_NEAR(slice(4.f), 3.5f, 1e-6f);
  // 0.5 above the top (or below the bottom): a circle of sqrt(0.75).
  const float smaller = 5.f - 0.5f - std::sqrt(0.75f);
  EXPECT_NEAR(slice(4.5f), smaller, 1e-5f);
  EXPECT_NEAR(slice(-0.5f), smaller, 1e-5f);
  EXPECT_EQ(slice(5.f), kNoHit);   // at the pole the slice is a point: no contact
  EXPECT_EQ(slice(5.5f), kNoHit);  // above the top
  EXPECT_EQ(slice(-1.5f), kNoHit);
  EXPECT_EQ(slice(2.f, {0, 1.6f}), kNoHit);     // beside it
  EXPECT_EQ(slice(2.f, {0, 0}, 3.4f), kNoHit);  // beyond max_distance
  EXPECT_NEAR(slice(2.f, {0, 0}, 3.5f), 3.5f, 1e-6f);
  EXPECT_EQ(slice(2.f, {3.6f, 0}), 0.f);
  EXPECT_EQ(slice(4.9f, {5, 0.2f}), 0.f);  // small slice, inside the disc
  EXPECT_EQ(DiscCastCapsuleSlice({0, 0}, {0, 0}, 0.5f, 10.f, 2.f, p, q, 1.f), kNoHit);
  // The ends in either order, and q off the vertical (only p's x, y count).
  EXPECT_EQ(DiscCastCapsuleSlice({0, 0}, {1, 0}, 0.5f, 10.f, 4.5f, q, p, 1.f), slice(4.5f));
  EXPECT_EQ(DiscCastCapsuleSlice({0, 0}, {1, 0}, 0.5f, 10.f, 4.5f, p, {7, 3, 4}, 1.f), slice(4.5f));
  // A point (disc of radius 0) moving at height z is a sphere of radius 0 moving there.
  const float point = DiscCastCapsuleSlice({0, 0.3f}, {1, -0.05f}, 0.f, 10.f, 4.5f, p, q, 1.f);
  EXPECT_LT(point, 5.f);
  EXPECT_NEAR(point, SphereCastCapsule({0, 0.3f, 4.5f}, {1, -0.05f, 0}, 0.f, 10.f, p, q, 1.f),
              1e-5f);
  // The sphere slice is the capsule slice of a single point.
  const Vec3 c{5, 0, 1};
  for (float z : {1.f, 2.f, 2.9f, 3.f}) {
    EXPECT_EQ(DiscCastSphereSlice({0, 0.4f}, {1, 0}, 0.5f, 10.f, z, c, 2.f),
              DiscCastCapsuleSlice({0, 0.4f}, {1, 0}, 0.5f, 10.f, z, c, c, 2.f));
  }
}

// The caps' rims are left to the walls, so a prism is exactly its walls plus two caps. For
// a square prism that is a box, axis-aligned or turned.
TEST(Cast3dTest, walls_and_caps_make_a_box) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> u(-1.f, 1.f), unit(0.f, 1.f);
  int compared = 0, hits = 0;
  double worst = 0;
  for (int k = 0; k < 4000; ++k) {
    const Vec3 center{u(rng) * 3, u(rng) * 3, u(rng) * 3};
    const Vec3 half{0.2f + 2 * unit(rng), 0.2f + 2 * unit(rng), 0.2f + 2 * unit(rng)};
    const float yaw = k % 2 ? u(rng) * kPi : 0.f;
    const Vec3 o{u(rng) * 10, u(rng) * 10, u(rng) * 10};
    // Walls cast from inside the box would not be the box's answer: skip origins that may
    // be inside (the turned box lies within |half.xy| of its centre horizontally).
    if (std::fabs(o.z - center.z) < half.z &&
        Length(Ground(o - center)) < Length(Vec2{half.x, half.y})) {
      continue;
    }
    const Vec3 d = Vec3{center.x - o.x, center.y - o.y, center.z - o.z} +
                   Vec3{u(rng), u(rng), u(rng)} * (2 + half.x + half.y + half.z);
    const float r = 0.05f + 1.5f * unit(rng), max_d = 30.f;
    std::vector<Vec2> ring;
    for (Vec2 corner : {Vec2{-half.x, -half.y}, Vec2{half.x, -half.y}, Vec2{half.x, half.y},
                        Vec2{-half.x, half.y}}) {
      ring.push_back(Ground(center) + Rotate(corner, yaw));
    }
    const float z0 = center.z - half.z, z1 = center.z + half.z;
    float prism = fminf(SphereCastPolygonCap(o, d, r, max_d, ring.data(), 4, z1, true),
                        SphereCastPolygonCap(o, d, r, max_d, ring.data(), 4, z0, false));
    for (int i = 0; i < 4; ++i) {
      prism =
          fminf(prism, SphereCastVerticalWall(o, d, r, max_d, ring[i], ring[(i + 1) % 4], z0, z1));
    }
    const float box = SphereCastOrientedBox(o, d, r, max_d, center, half, yaw);
    ++compared;
    ASSERT_EQ(prism == kNoHit, box == kNoHit) << k;
    if (box != kNoHit) {
      ++hits;
      worst = std::max(worst, static_cast<double>(std::fabs(prism - box)));
      EXPECT_NEAR(prism, box, 1e-4f * (1 + box)) << k;
    }
  }
  printf("walls + caps vs box: %d compared, %d hits, worst difference %.2e m\n", compared, hits,
         worst);
  EXPECT_GT(compared, 2000);
  EXPECT_GT(hits, compared / 5);
}

// ---- Agreement with the reference on random rays ------------------------------------------

// A contact within kEndBand of max_distance may fall either side of it, and a miss that
// comes within kGrazeBand of the Minkowski sum may turn into a tangential hit under float
// rounding (or leave the reference's march unconverged): such cases are counted, not
// compared. The reference runs to max_distance + 2 kEndBand so that a contact just past
// max_distance is seen and skipped rather than miscounted.
constexpr double kEndBand = 1e-3;
constexpr double kGrazeBand = 1e-3;

struct Agreement {
  const char* what;
  int generated = 0, compared = 0, hits = 0, zero = 0, grazing = 0, at_end = 0, mismatches = 0;
  double worst = 0;  // largest |float - reference| over compared hits

  // ref and gap come from the reference run with max_distance + 2 kEndBand.
  void Add(int k, float got, double ref, double gap, double max_d) {
    ++generated;
    if (std::isfinite(ref) && std::fabs(ref - max_d) <= kEndBand) {
      ++at_end;
      return;
    }
    const bool ref_hit = std::isfinite(ref) && ref <= max_d;
    if (!ref_hit && gap < kGrazeBand) {
      ++grazing;
      return;
    }
    ++compared;
    const bool got_hit = got != kNoHit;
    bool bad = got_hit != ref_hit;
    if (!bad && ref_hit) {
      ++hits;
      if (ref == 0) ++zero;
      const double err = std::fabs(got - ref);
      worst = std::max(worst, err);
      bad = err > 1e-4 * (1 + ref);
    }
    if (bad && ++mismatches <= 10) {
      ADD_FAILURE() << what << " case " << k << ": float " << got << ", reference " << ref
                    << " (closest gap " << gap << ", max_distance " << max_d << ")";
    }
  }

  void Check() const {
    printf(
        "%s: %d generated, %d compared (%.1f%%), %d hits (%d at the origin), skipped %d "
        "grazing and %d at max_distance, %d mismatches, worst difference %.2e m\n",
        what, generated, compared, 100.0 * compared / generated, hits, zero, grazing, at_end,
        mismatches, worst);
    EXPECT_EQ(mismatches, 0) << what;
    EXPECT_GE(compared, 0.8 * generated) << what;
    // Both outcomes in numbers, and hits that are not just overlaps at the origin.
    EXPECT_GT(hits - zero, generated / 8) << what;
    EXPECT_GT(compared - hits, generated / 10) << what;
  }
};

constexpr int kRandomCases = 20000;

// Aimed near `at` two times in three, so that hits, misses and grazes all occur.
Vec3 Aim(std::mt19937& rng, Vec3 from, Vec3 at, float spread) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const Vec3 d = (rng() % 3 == 0) ? Vec3{u(rng), u(rng), u(rng)}
                                  : at - from + Vec3{u(rng), u(rng), u(rng)} * spread;
  return LengthSq(d) > 1e-6f ? d : Vec3{1, 0, 0};
}

TEST(Cast3dTest, vertical_wall_matches_reference) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> u(-1.f, 1.f), unit(0.f, 1.f);
  Agreement agree{"vertical wall"};
  for (int k = 0; k < kRandomCases; ++k) {
    const Vec2 a{u(rng) * 5, u(rng) * 5};
    const Vec2 b = k % 50 == 0 ? a : a + Vec2{u(rng), u(rng)} * 4.f;
    const float z0 = u(rng) * 3, z1 = z0 + (k % 40 == 0 ? 0.f : 4 * unit(rng));
    const Vec3 o{u(rng) * 10, u(rng) * 10, u(rng) * 10};
    // Aim at the wall's inside or, often, at one of its edges or corners.
    const float s = k % 2 ? unit(rng) : static_cast<float>(rng() % 2);
    const float h = k % 3 ? unit(rng) : static_cast<float>(rng() % 2);
    const Vec2 g = a + (b - a) * s;
    const Vec3 d = Aim(rng, o, {g.x, g.y, z0 + (z1 - z0) * h}, 2.f);
    const float r = 0.05f + 1.5f * unit(rng), max_d = 1.f + 25.f * unit(rng);
    double gap = 0;
    const double ref = reference::SphereCastVerticalWall(ToD(o), ToD(d), r, max_d + 2 * kEndBand,
                                                         ToD(a), ToD(b), z0, z1, &gap);
    agree.Add(k, SphereCastVerticalWall(o, d, r, max_d, a, b, z0, z1), ref, gap, max_d);
  }
  agree.Check();
}

TEST(Cast3dTest, infinite_wall_matches_reference) {
  std::mt19937 rng(32);
  std::uniform_real_distribution<float> u(-1.f, 1.f), unit(0.f, 1.f);
  Agreement agree{"infinite wall"};
  for (int k = 0; k < kRandomCases; ++k) {
    const Vec2 a{u(rng) * 5, u(rng) * 5};
    const Vec2 b = k % 50 == 0 ? a : a + Vec2{u(rng), u(rng)} * 4.f;
    const Vec3 o{u(rng) * 10, u(rng) * 10, u(rng) * 10};
    const Vec2 g = a + (b - a) * unit(rng);
    Vec3 d = Aim(rng, o, {g.x, g.y, u(rng) * 10}, 2.f);
    if (k % 100 == 0) d = {0, 0, u(rng)};  // vertical: never hits, unless touching already
    const float r = 0.05f + 1.5f * unit(rng), max_d = 1.f + 25.f * unit(rng);
    double gap = 0;
    const double ref = reference::SphereCastInfiniteWall(ToD(o), ToD(d), r, max_d + 2 * kEndBand,
                                                         ToD(a), ToD(b), &gap);
    agree.Add(k, SphereCastInfiniteWall(o, d, r, max_d, a, b), ref, gap, max_d);
  }
  agree.Check();
}

// A star-shaped ring about `center`: simple, often non-convex, either orientation.
std::vector<Vec2> RandomRing(std::mt19937& rng, Vec2 center, int count, bool clockwise) {
  std::uniform_real_distribution<float> angle(0.f, kTwoPi), radius(0.5f, 3.f);
  std::vector<float> angles;
  for (int i = 0; i < count; ++i) angles.push_back(angle(rng));
  std::sort(angles.begin(), angles.end());
  std::vector<Vec2> ring;
  for (float t : angles) ring.push_back(center + Vec2{cosf(t), sinf(t)} * radius(rng));
  if (clockwise) std::reverse(ring.begin(), ring.end());
  return ring;
}

TEST(Cast3dTest, polygon_cap_matches_reference) {
  std::mt19937 rng(33);
  std::uniform_real_distribution<float> u(-1.f, 1.f), unit(0.f, 1.f);
  Agreement agree{"polygon cap"};
  for (int k = 0; k < kRandomCases; ++k) {
    const Vec2 c{u(rng) * 5, u(rng) * 5};
    const std::vector<Vec2> ring = RandomRing(rng, c, 3 + k % 6, k % 2 == 1);
    const float z = u(rng) * 3;
    const bool top = rng() % 2 == 0;
    const float outward = top ? 1.f : -1.f;
    const float r = 0.05f + 1.5f * unit(rng), max_d = 1.f + 25.f * unit(rng);
    // Mostly on the outward side (where the face can be reached), some within the slab.
    const Vec3 o{c.x + u(rng) * 6, c.y + u(rng) * 6, z + outward * (8 * unit(rng) - 0.5f)};
    // Toward a vertex or the centre, at the face plane, so that many paths land on the
    // face and many near its rim.
    const Vec2 v = ring[rng() % ring.size()];
    const Vec2 g = c + (v - c) * (1.2f * unit(rng));
    const Vec3 d = Aim(rng, o, {g.x, g.y, z + outward * r}, 0.3f);
    double gap = 0;
    const double ref = reference::SphereCastPolygonCap(ToD(o), ToD(d), r, max_d + 2 * kEndBand,
                                                       ToD(ring), z, top, &gap);
    agree.Add(
        k, SphereCastPolygonCap(o, d, r, max_d, ring.data(), static_cast<int>(ring.size()), z, top),
        ref, gap, max_d);
  }
  agree.Check();
}

TEST(Cast3dTest, point_in_polygon_matches_reference) {
  std::mt19937 rng(34);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  int compared = 0, inside = 0, mismatches = 0;
  const int generated = 20000;
  for (int k = 0; k < generated; ++k) {
    const std::vector<Vec2> ring = RandomRing(rng, {0, 0}, 3 + k % 8, k % 2 == 1);
    const Vec2 p{u(rng) * 2, u(rng) * 2};
    float edge_sq = INFINITY;
    for (size_t i = 0; i < ring.size(); ++i) {
      edge_sq = fminf(edge_sq, PointSegmentDistanceSq(p, ring[i], ring[(i + 1) % ring.size()]));
    }
    if (edge_sq < 1e-8f) continue;  // on the boundary either answer is right
    ++compared;
    const bool got = PointInPolygon(p, ring.data(), static_cast<int>(ring.size()));
    inside += got;
    mismatches += got != reference::PointInPolygon(ToD(p), ToD(ring));
  }
  printf("point in polygon: %d generated, %d compared, %d inside, %d mismatches\n", generated,
         compared, inside, mismatches);
  EXPECT_EQ(mismatches, 0);
  EXPECT_GE(compared, 0.8 * generated);
  EXPECT_GT(inside, compared / 5);
  EXPECT_GT(compared - inside, compared / 5);
}

TEST(Cast3dTest, oriented_box_matches_reference) {
  std::mt19937 rng(35);
  std::uniform_real_distribution<float> u(-1.f, 1.f), unit(0.f, 1.f);
  Agreement agree{"oriented box"};
  for (int k = 0; k < kRandomCases; ++k) {
    const Vec3 center{u(rng) * 5, u(rng) * 5, u(rng) * 5};
    const Vec3 half{0.1f + 2 * unit(rng), 0.1f + 2 * unit(rng), 0.1f + 2 * unit(rng)};
    const float yaw = u(rng) * kPi;
    const Vec3 o{u(rng) * 10, u(rng) * 10, u(rng) * 10};
    // Aim at a corner half the time: the rounded edges are where exactness shows.
    Vec3 at = center;
    if (k % 2) {
      const Vec2 corner = Rotate({rng() % 2 ? half.x : -half.x, rng() % 2 ? half.y : -half.y}, yaw);
      at = center + Vec3{corner.x, corner.y, rng() % 2 ? half.z : -half.z};
    }
    const Vec3 d = Aim(rng, o, at, 2.f);
    const float r = k % 97 == 0 ? 0.f : 0.05f + 1.5f * unit(rng);
    const float max_d = 1.f + 25.f * unit(rng);
    double gap = 0;
    const double ref = reference::SphereCastOrientedBox(ToD(o), ToD(d), r, max_d + 2 * kEndBand,
                                                        ToD(center), ToD(half), yaw, &gap);
    agree.Add(k, SphereCastOrientedBox(o, d, r, max_d, center, half, yaw), ref, gap, max_d);
  }
  agree.Check();
}

TEST(Cast3dTest, sphere_slice_matches_reference) {
  std::mt19937 rng(36);
  std::uniform_real_distribution<float> u(-1.f, 1.f), unit(0.f, 1.f);
  Agreement agree{"sphere slice"};
  for (int k = 0; k < kRandomCases; ++k) {
    const Vec3 c{u(rng) * 5, u(rng) * 5, u(rng) * 5};
    const float sr = 0.2f + 3 * unit(rng);
    const float z = c.z + sr * 1.2f * u(rng);  // a sixth of the heights miss the sphere
    const Vec2 o{u(rng) * 10, u(rng) * 10};
    const Vec3 d3 = Aim(rng, {o.x, o.y, 0}, {c.x, c.y, 0}, 2.f);
    const Vec2 d = k % 200 == 0 ? Vec2{0, 0} : Vec2{d3.x, d3.y};
    const float r = 0.05f + 1.5f * unit(rng), max_d = 1.f + 25.f * unit(rng);
    double gap = 0;
    const double ref = reference::DiscCastSphereSlice(ToD(o), ToD(d), r, max_d + 2 * kEndBand, z,
                                                      ToD(c), sr, &gap);
    agree.Add(k, DiscCastSphereSlice(o, d, r, max_d, z, c, sr), ref, gap, max_d);
  }
  agree.Check();
}

TEST(Cast3dTest, capsule_matches_reference) {
  std::mt19937 rng(37);
  std::uniform_real_distribution<float> u(-1.f, 1.f), unit(0.f, 1.f);
  Agreement agree{"capsule"};
  for (int k = 0; k < kRandomCases; ++k) {
    // Spheres (forward agents), upright capsules (pedestrians) and any other orientation.
    const Vec3 p{u(rng) * 5, u(rng) * 5, u(rng) * 5};
    Vec3 q = p;
    if (k % 3 == 1) q = p + Vec3{0, 0, 4 * unit(rng)};
    if (k % 3 == 2) q = p + Vec3{u(rng), u(rng), u(rng)} * 3.f;
    const float cr = 0.1f + 2 * unit(rng);
    const Vec3 o{u(rng) * 10, u(rng) * 10, u(rng) * 10};
    // Aim at the axis or, half the time, at one of its ends.
    const float s = k % 2 ? unit(rng) : static_cast<float>(rng() % 2);
    const Vec3 d = Aim(rng, o, p + (q - p) * s, 2.f);
    const float r = k % 97 == 0 ? 0.f : 0.05f + 1.5f * unit(rng);
    const float max_d = 1.f + 25.f * unit(rng);
    double gap = 0;
    const double ref = reference::SphereCastCapsule(ToD(o), ToD(d), r, max_d + 2 * kEndBand, ToD(p),
                                                    ToD(q), cr, &gap);
    agree.Add(k, SphereCastCapsule(o, d, r, max_d, p, q, cr), ref, gap, max_d);
  }
  agree.Check();
}

TEST(Cast3dTest, capsule_slice_matches_reference) {
  std::mt19937 rng(38);
  std::uniform_real_distribution<float> u(-1.f, 1.f), unit(0.f, 1.f);
  Agreement agree{"capsule slice"};
  for (int k = 0; k < kRandomCases; ++k) {
    Vec3 p{u(rng) * 5, u(rng) * 5, u(rng) * 3};
    Vec3 q{p.x, p.y, p.z + (k % 20 == 0 ? 0.f : 4 * unit(rng))};
    if (k % 50 == 1) q = q + Vec3{u(rng), u(rng), 0};  // off the vertical: p's x, y count
    if (k % 7 == 0) std::swap(p, q);
    const float cr = 0.2f + 3 * unit(rng);
    // Heights from cr * 1.2 below the lower end to as far above the upper one.
    const float lo = fminf(p.z, q.z), hi = fmaxf(p.z, q.z);
    const float z = lo - 1.2f * cr + (hi - lo + 2.4f * cr) * unit(rng);
    const Vec2 o{u(rng) * 10, u(rng) * 10};
    const Vec3 d3 = Aim(rng, {o.x, o.y, 0}, {p.x, p.y, 0}, 2.f);
    const Vec2 d = k % 200 == 0 ? Vec2{0, 0} : Vec2{d3.x, d3.y};
    const float r = 0.05f + 1.5f * unit(rng), max_d = 1.f + 25.f * unit(rng);
    double gap = 0;
    const double ref = reference::DiscCastCapsuleSlice(ToD(o), ToD(d), r, max_d + 2 * kEndBand, z,
                                                       ToD(p), ToD(q), cr, &gap);
    agree.Add(k, DiscCastCapsuleSlice(o, d, r, max_d, z, p, q, cr), ref, gap, max_d);
  }
  agree.Check();
}

}  // namespace
}  // namespace throng
