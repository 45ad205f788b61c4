#include "kernels/vehicles/spline.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "kernels/reference/spline_ref.h"

namespace throng {
namespace {

SplineDesc Circle(float radius, int points, float z = 0.f) {
  SplineDesc d;
  d.closed = true;
  for (int i = 0; i < points; ++i) {
    const float a = kTwoPi * static_cast<float>(i) / static_cast<float>(points);
    d.points.push_back({radius * std::cos(a), radius * std::sin(a), z});
  }
  return d;
}

SplineDesc Line(Vec3 a, Vec3 b, int points) {
  SplineDesc d;
  for (int i = 0; i < points; ++i) {
    const float t = static_cast<float>(i) / static_cast<float>(points - 1);
    d.points.push_back(a + (b - a) * t);
  }
  return d;
}

TEST(SplineTest, straight_line_has_exact_length_and_zero_curvature) {
  const SplineSet set = BuildSplineSet({Line({0, 0, 0}, {30, 40, 0}, 6)});
  const SplineSetView v = set.View();
  EXPECT_NEAR(set.headers[0].length, 50.f, 1e-4f);
  for (float s = 0.f; s <= 50.f; s += 0.37f) {
    const SplinePoint p = SampleSpline(v, 0, s);
    EXPECT_NEAR(p.position.x, 0.6f * s, 1e-3f) << "s=" << s;
    EXPECT_NEAR(p.position.y, 0.8f * s, 1e-3f) << "s=" << s;
    EXPECT_NEAR(p.tangent.x, 0.6f, 1e-5f);
    EXPECT_NEAR(p.tangent.y, 0.8f, 1e-5f);
    EXPECT_LT(p.curvature, 1e-5f);
  }
}

TEST(SplineTest, circle_of_16_points_has_curvature_and_length_of_the_circle) {
  const float r = 20.f;
  const SplineSet set = BuildSplineSet({Circle(r, 16)});
  const SplineSetView v = set.View();
  EXPECT_NEAR(set.headers[0].length, kTwoPi * r, kTwoPi * r * 1e-3f);
  float worst = 0.f;
  for (float s = 0.f; s < set.headers[0].length; s += 0.1f) {
    worst = std::fmax(worst, std::fabs(CurvatureAt(v, 0, s) * r - 1.f));
  }
  EXPECT_LT(worst, 0.01f) << "largest relative curvature error";
}

TEST(SplineTest, ramp_keeps_height_and_tilts_the_tangent) {
  // 15% grade: z rises 15 m over 100 m.
  const SplineSet set = BuildSplineSet({Line({0, 0, 0}, {100, 0, 15}, 5)});
  const SplineSetView v = set.View();
  const float len = std::sqrt(100.f * 100.f + 15.f * 15.f);
  EXPECT_NEAR(set.headers[0].length, len, 1e-3f);
  const SplinePoint mid = SampleSpline(v, 0, len / 2);
  EXPECT_NEAR(mid.position.z, 7.5f, 1e-3f);
  EXPECT_NEAR(mid.tangent.z, 15.f / len, 1e-5f);
}

TEST(SplineTest, closed_spline_wraps_arc_length) {
  const SplineSet set = BuildSplineSet({Circle(10.f, 24)});
  const SplineSetView v = set.View();
  const float len = set.headers[0].length;
  for (float s : {0.5f, 7.f, 30.f}) {
    const Vec3 a = LocationAt(v, 0, s);
    const Vec3 b = LocationAt(v, 0, s + len);
    const Vec3 c = LocationAt(v, 0, s - 2 * len);
    EXPECT_NEAR(Length(a - b), 0.f, 2e-3f);
    EXPECT_NEAR(Length(a - c), 0.f, 2e-3f);
  }
}

TEST(SplineTest, open_spline_clamps_at_both_ends_without_nan) {
  const SplineSet set = BuildSplineSet({Line({0, 0, 0}, {10, 0, 0}, 3)});
  const SplineSetView v = set.View();
  for (float s : {-1e6f, -1.f, 10.f, 11.f, 1e9f}) {
    const SplinePoint p = SampleSpline(v, 0, s);
    EXPECT_TRUE(std::isfinite(p.position.x) && std::isfinite(p.tangent.x) &&
                std::isfinite(p.curvature));
  }
  EXPECT_NEAR(LocationAt(v, 0, -5.f).x, 0.f, 1e-5f);
  EXPECT_NEAR(LocationAt(v, 0, 15.f).x, 10.f, 1e-5f);
  EXPECT_NEAR(ProjectOnSpline(v, 0, {20, 0, 0}, 9.f, 5.f), 10.f, 1e-4f);
}

TEST(SplineTest, projection_on_a_hairpin_stays_on_its_own_leg) {
  // Two parallel legs 3 m apart joined by a tight turn: a global nearest-point search
  // from a point between them would pick whichever leg is a hair closer.
  SplineDesc hairpin;
  for (float x = 0.f; x <= 50.f; x += 10.f) hairpin.points.push_back({x, 0, 0});
  hairpin.points.push_back({52.f, 1.5f, 0});
  for (float x = 50.f; x >= 0.f; x -= 10.f) hairpin.points.push_back({x, 3.f, 0});
  const SplineSet set = BuildSplineSet({hairpin});
  const SplineSetView v = set.View();
  const float len = set.headers[0].length;
  // Vehicle on the first leg, drifted 1.6 m toward the second leg (closer to it).
  float s = 20.f;
  for (int tick = 0; tick < 10; ++tick) {
    const Vec3 p{20.f + tick * 0.5f, 1.6f, 0};
    s = ProjectOnSpline(v, 0, p, s, 4.f);
    EXPECT_LT(s, len / 2) << "jumped to the other leg at tick " << tick;
    EXPECT_NEAR(LocationAt(v, 0, s).x, p.x, 0.05f);
  }
  // The same point, with a hint on the second leg, stays on the second leg.
  const float s2 = ProjectOnSpline(v, 0, {20.f, 1.4f, 0}, len - 20.f, 4.f);
  EXPECT_GT(s2, len / 2);
}

// The projection's coarse scan reads table samples by index: hints and windows as large
// as finite floats go (the spline queries bound neither) must still give the nearest point
// of the window, not an index out of range. On a circle of radius 10 every point at angle
// a projects to arc length 10 a, from inside and from outside the circle.
TEST(SplineTest, projection_finds_the_nearest_point_for_any_finite_hint_and_window) {
  SplineDesc line = Line({0, 0, 0}, {10, 0, 0}, 3);
  line.id = 1;
  const SplineSet set = BuildSplineSet({Circle(10.f, 24), line});
  const SplineSetView v = set.View();
  const float len = set.headers[0].length;
  for (float a : {0.3f, 1.7f, 4.f}) {
    const Vec3 on = LocationAt(v, 0, 10.f * a);  // the circle's own point at arc 10 a
    for (float scale : {0.8f, 1.15f}) {
      const Vec3 p = on * scale;
      for (float hint : {10.f * a + 1.f, 10.f * a - 2.5f, 10.f * a + 3.f * len, 1e30f, -3e38f}) {
        for (float window : {0.01f, 4.f, 1e4f, 3e38f}) {
          const float s = ProjectOnSpline(v, 0, p, hint, window);
          ASSERT_TRUE(s >= 0.f && s <= len) << "hint " << hint << " window " << window;
          // Only a window that reaches the nearest point has to find it.
          const bool near_hint = std::fabs(hint) < 1e4f;
          if (window < 4.f || (window == 4.f && !near_hint)) continue;
          const float d = Length(LocationAt(v, 0, s) - p);
          EXPECT_NEAR(d, std::fabs(scale - 1.f) * 10.f, 2e-3f)
              << "a " << a << " scale " << scale << " hint " << hint << " window " << window;
        }
      }
    }
  }
  // An open line, a hint far beyond either end: the end nearest the point.
  EXPECT_NEAR(ProjectOnSpline(v, 1, {20, 1, 0}, 3e38f, 3e38f), 10.f, 1e-4f);
  EXPECT_NEAR(ProjectOnSpline(v, 1, {-5, 1, 0}, -3e38f, 3e38f), 0.f, 1e-4f);
  EXPECT_NEAR(ProjectOnSpline(v, 1, {4.25f, -2, 0}, 1e30f, 3e38f), 4.25f, 1e-4f);
}

TEST(SplineTest, rejects_too_few_points_and_non_finite_points) {
  SplineDesc one;
  one.points = {{1, 2, 3}};
  EXPECT_THROW(BuildSplineSet({one}), std::invalid_argument);
  SplineDesc dup;
  dup.points = {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}};
  try {
    SplineDesc ok = Line({0, 0, 0}, {1, 0, 0}, 2);
    dup.id = 1;
    BuildSplineSet({ok, dup});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("splines[1].points"), std::string::npos) << e.what();
  }
  SplineDesc nan = Line({0, 0, 0}, {1, 0, 0}, 4);
  nan.points[2].y = std::nanf("");
  try {
    BuildSplineSet({nan});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("splines[0].points[2]"), std::string::npos) << e.what();
  }
  SplineDesc inf = Line({0, 0, 0}, {1, 0, 0}, 3);
  inf.points[0].z = INFINITY;
  EXPECT_THROW(BuildSplineSet({inf}), std::invalid_argument);
}

TEST(SplineTest, collapses_duplicate_consecutive_points) {
  SplineDesc d = Line({0, 0, 0}, {10, 0, 0}, 3);
  d.points.insert(d.points.begin() + 1, d.points[1]);
  d.points.push_back(d.points.back());
  const SplineSet set = BuildSplineSet({d});
  EXPECT_EQ(set.headers[0].segment_count, 2u);
  EXPECT_NEAR(set.headers[0].length, 10.f, 1e-4f);
  SplineDesc closed = Circle(5.f, 8);
  closed.points.push_back(closed.points.front());  // closing point repeated
  EXPECT_EQ(BuildSplineSet({closed}).headers[0].segment_count, 8u);
}

TEST(SplineTest, rejects_duplicate_ids_and_bad_speed_limits) {
  SplineDesc a = Line({0, 0, 0}, {1, 0, 0}, 2);
  SplineDesc b = a;
  EXPECT_THROW(BuildSplineSet({a, b}), std::invalid_argument);
  b.id = 7;
  b.speed_limit = -1.f;
  EXPECT_THROW(BuildSplineSet({a, b}), std::invalid_argument);
}

TEST(ReferenceSplineTest, agrees_with_the_table_on_a_circle) {
  const SplineDesc d = Circle(15.f, 20, 2.f);
  const SplineSet set = BuildSplineSet({d});
  const reference::ReferenceSpline ref(d);
  EXPECT_NEAR(ref.length(), set.headers[0].length, 1e-3);
  for (double s = 0; s < ref.length(); s += 3.3) {
    const reference::P3 p = ref.LocationAt(s);
    const Vec3 q = LocationAt(set.View(), 0, static_cast<float>(s));
    EXPECT_NEAR(p.x, q.x, 2e-3);
    EXPECT_NEAR(p.y, q.y, 2e-3);
    EXPECT_NEAR(p.z, 2.0, 1e-9);
    EXPECT_NEAR(ref.CurvatureAt(s) * 15.0, 1.0, 0.01);
    EXPECT_NEAR(ref.CurvatureAt(s), CurvatureAt(set.View(), 0, static_cast<float>(s)), 1e-5);
  }
}

// The kept slopes change nothing: BendAt with a cache gives the point, tangent and bend
// it gives without one, bit for bit, whether the next s lies in the same piece (a table interval
// within one segment), in the next one, across a knot, or far away, on open and closed splines.
TEST(SplineTest, kept_slopes_give_the_same_point_bit_for_bit) {
  SplineDesc wiggle;
  for (int i = 0; i < 12; ++i) {
    const float x = 7.f * static_cast<float>(i);
    wiggle.points.push_back({x, 3.f * std::sin(0.9f * static_cast<float>(i)), 0.f});
  }
  wiggle.id = 1;
  const SplineSet set = BuildSplineSet({Circle(10.f, 24), wiggle});
  const SplineSetView v = set.View();
  for (uint32_t spline = 0; spline < 2; ++spline) {
    SplineSlopes slopes;
    int reused = 0;
    float s = -3.f;
    for (int k = 0; k < 4000; ++k) {
      // Small steps (the same piece again and again), now and then a jump.
      s += (k % 97 == 0) ? 23.7f : 0.0173f * static_cast<float>(1 + k % 5);
      const SplineSlopes before = slopes;
      Vec3 cached[3], plain[3];
      BendAt(v, spline, s, &cached[0], &cached[1], &cached[2], &slopes);
      BendAt(v, spline, s, &plain[0], &plain[1], &plain[2]);
      for (int q = 0; q < 3; ++q) {  // position, tangent, bend
        ASSERT_EQ(cached[q].x, plain[q].x) << "spline " << spline << " s " << s << " part " << q;
        ASSERT_EQ(cached[q].y, plain[q].y) << "spline " << spline << " s " << s << " part " << q;
        ASSERT_EQ(cached[q].z, plain[q].z) << "spline " << spline << " s " << s << " part " << q;
      }
      reused += before.k == slopes.k && before.segment == slopes.segment;
    }
    EXPECT_GT(reused, 1000) << "the test must reuse kept slopes";
  }
}

}  // namespace
}  // namespace throng
