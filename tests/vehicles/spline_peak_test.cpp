// Peak curvature (SplineKnot::peak_curvature, PeakCurvatureAhead): the bound the follower's
// speed loop takes where CurvatureAt's window averages a Catmull-Rom curve's knot spikes
// away (docs/SPLINES.md, "Peak curvature").
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/reference/spline_ref.h"
#include "kernels/vehicles/spline.h"

namespace throng {
namespace {

// A straight of `straight` m along +X, then a quarter circle of radius `r` to the left,
// control points about 2 m apart (as a road editor would place them).
SplineDesc StraightIntoArc(float straight, float r) {
  SplineDesc d;
  for (float x = 0.f; x < straight; x += 2.f) d.points.push_back({x, 0.f, 0.f});
  const int arc = static_cast<int>(std::ceil(0.5f * kPi * r / 2.f));
  for (int i = 0; i <= arc; ++i) {
    const float a = 0.5f * kPi * static_cast<float>(i) / static_cast<float>(arc);
    d.points.push_back({straight + r * std::sin(a), r - r * std::cos(a), 0.f});
  }
  return d;
}

TEST(SplinePeakTest, a_circle_peaks_at_its_own_curvature) {
  SplineDesc d;
  d.closed = true;
  const float r = 20.f;
  for (int i = 0; i < 64; ++i) {
    const float a = kTwoPi * static_cast<float>(i) / 64.f;
    d.points.push_back({r * std::cos(a), r * std::sin(a), 0.f});
  }
  const SplineSet set = BuildSplineSet({d});
  for (uint32_t k = 0; k < set.headers[0].segment_count; ++k) {
    EXPECT_NEAR(set.knots[k].peak_curvature * r, 1.f, 0.01f) << "segment " << k;
  }
  EXPECT_EQ(set.knots[set.headers[0].segment_count].peak_curvature, 0.f) << "the end knot";
}

TEST(SplinePeakTest, the_knot_spike_where_a_straight_meets_an_arc_is_seen) {
  const float r = 15.f;
  const SplineSet set = BuildSplineSet({StraightIntoArc(40.f, r)});
  const SplineSetView v = set.View();
  float windowed = 0.f, fine = 0.f;
  for (float s = 0.f; s < set.headers[0].length; s += 0.05f) {
    windowed = std::fmax(windowed, CurvatureAt(v, 0, s));
    fine = std::fmax(fine, ChordCurvatureAt(v, 0, s));
  }
  const float peak = PeakCurvatureAhead(v, 0, 0.f, set.headers[0].length);
  std::printf(
      "[ figures  ] straight into R %.0f m: windowed %.4f, peak %.4f, 0.05 m scan %.4f /m\n", r,
      windowed, peak, fine);
  EXPECT_GT(peak, windowed * 1.05f) << "the window averages the spike away; the peak must not";
  EXPECT_NEAR(peak, fine, 0.02f * fine) << "the 0.125 m samples find the 0.05 m scan's maximum";
}

TEST(SplinePeakTest, ahead_covers_the_touched_segments_only) {
  const SplineSet set = BuildSplineSet({StraightIntoArc(40.f, 15.f)});
  const SplineSetView v = set.View();
  // On the straight, well before the arc: nothing ahead within 10 m bends.
  EXPECT_LT(PeakCurvatureAhead(v, 0, 5.f, 10.f), 1e-4f);
  // Reaching into the arc: its curvature and more (the spike).
  EXPECT_GT(PeakCurvatureAhead(v, 0, 5.f, 45.f), 1.f / 15.f);
  // An open spline stops at its end; a distance beyond it changes nothing.
  const float length = set.headers[0].length;
  EXPECT_EQ(PeakCurvatureAhead(v, 0, length - 1.f, 1e4f),
            PeakCurvatureAhead(v, 0, length - 1.f, 1.f));
}

TEST(SplinePeakTest, a_closed_spline_wraps_into_its_first_segments) {
  SplineDesc d = StraightIntoArc(40.f, 15.f);
  d.closed = true;  // the closing leg runs back from the arc's end to the start
  const SplineSet set = BuildSplineSet({d});
  const SplineSetView v = set.View();
  const float length = set.headers[0].length;
  // From the last metre, 10 m ahead reaches the first segments.
  float first = 0.f;
  for (uint32_t k = 0; k < 4; ++k) first = std::fmax(first, set.knots[k].peak_curvature);
  EXPECT_GE(PeakCurvatureAhead(v, 0, length - 1.f, 10.f), first);
}

// A hostile window (1000 m/s of braking distance over a lane of 0.5 m segments) walks at
// most kMaxPeakSegments segments: a bend beyond them is not seen by the peak bound.
TEST(SplinePeakTest, the_walk_is_bounded_on_a_long_dense_lane) {
  SplineDesc d;
  for (int i = 0; i < 4000; ++i) d.points.push_back({0.5f * i, 0.f, 0.f});
  for (int i = 1; i <= 20; ++i) {
    const float a = 0.5f * kPi * static_cast<float>(i) / 20.f;
    d.points.push_back({1999.5f + 10.f * std::sin(a), 10.f - 10.f * std::cos(a), 0.f});
  }
  const SplineSet set = BuildSplineSet({d});
  const reference::ReferenceSpline ref(d);
  // From the start, 2,500 m ahead reaches the bend at 2,000 m, but 256 segments are 128 m.
  EXPECT_LT(PeakCurvatureAhead(set.View(), 0, 0.f, 2500.f), 1e-3f);
  EXPECT_LT(ref.PeakCurvatureAhead(0.0, 2500.0), 1e-3);
  // From 1,950 m the bend is within the walk.
  EXPECT_GT(PeakCurvatureAhead(set.View(), 0, 1950.f, 2500.f), 0.09f);
  EXPECT_GT(ref.PeakCurvatureAhead(1950.0, 2500.0), 0.09);
}

TEST(SplinePeakTest, the_reference_computes_the_same_peaks_in_double) {
  for (bool closed : {false, true}) {
    SplineDesc d = StraightIntoArc(30.f, 12.f);
    d.closed = closed;
    const SplineSet set = BuildSplineSet({d});
    const reference::ReferenceSpline ref(d);
    for (float s = 0.f; s < set.headers[0].length; s += 1.7f) {
      for (float distance : {0.f, 3.f, 25.f}) {
        const float got = PeakCurvatureAhead(set.View(), 0, s, distance);
        const double want = ref.PeakCurvatureAhead(s, distance);
        EXPECT_NEAR(got, want, 1e-3 * std::fmax(want, 1.0 / 12.0))
            << "s " << s << " distance " << distance << (closed ? " closed" : " open");
      }
    }
  }
}

}  // namespace
}  // namespace throng
