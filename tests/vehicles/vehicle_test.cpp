// Vehicle follower (kernels/vehicles/vehicle.cuh), cross-track error, bicycle model
// (kernels/vehicles/bicycle.cuh), and the follower against its double reference
// (kernels/reference/vehicle_ref.cpp). What docs/ALGORITHMS.md §1-2 says the controller must show.
#include "kernels/vehicles/vehicle.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "kernels/vehicles/bicycle.cuh"
#include "kernels/math/frame.cuh"
#include "kernels/reference/spline_ref.h"
#include "kernels/reference/vehicle_ref.h"
#include "kernels/scenarios/roads.h"
#include "kernels/vehicles/spline.h"
#include "tests/vehicles/random_splines.h"

namespace throng {
namespace {

constexpr float kDt = 1.f / 60.f;

// --- Test course -----------------------------------------------------------------------
// One loop with long straights, a hairpin (R = 8 m, legs 16 m apart) and an S-bend:
//   straight A  (0,0) -> (120,0)            heading +X, 120 m
//   hairpin     left, centre (120,8)        -> (120,16) heading -X
//   straight B  (120,16) -> (60,16)
//   S-bend      (60,16) -> (20,36), right then left (min radius ~16 m)
//   straight C  (20,36) -> (-20,36)
//   wide turn   left, R = 18 m, centre (-20,18) -> (-20,0) heading +X
//   closing straight back to (0,0).
constexpr float kHairpinStart = 120.f;  // arc length where the hairpin begins
constexpr float kHairpinRadius = 8.f;

// The follower's test course (scenarios::HairpinCourse): straights, the hairpin, an S-bend.
SplineDesc Course(bool closed) { return scenarios::HairpinCourse(closed); }

bool Finite(const FollowerOutput& o) {
  const float f[] = {
      o.steering,         o.throttle,         o.brake,         o.target_speed, o.cte,
      o.progress,         o.position_delta,   o.heading_delta, o.look_ahead,   o.progress_point.x,
      o.progress_point.y, o.progress_point.z, o.target.x,      o.target.y,     o.target.z,
      o.tangent.x,        o.tangent.y,        o.tangent.z};
  for (float x : f) {
    if (!std::isfinite(x)) return false;
  }
  return true;
}

// A vehicle on the spline at arc length s, `offset` metres to the right, facing along it.
VehicleState StartAt(const SplineSetView& set, uint32_t spline, float s, float offset, float speed,
                     float max_speed) {
  const SplinePoint at = SampleSpline(set, spline, s);
  const Vec3 right = Normalize(Cross(at.tangent, Vec3{0, 0, 1}));
  VehicleState v{};
  v.position = at.position + right * offset;
  v.yaw = YawOf(Ground(at.tangent));
  v.speed = speed;
  v.spline = spline;
  v.progress_hint = s;
  v.max_speed = max_speed;
  return v;
}

struct Trace {
  std::vector<float> cte, steering, speed, progress, curvature, target_speed;
  bool finite = true;
  int wraps = 0;  // closed-loop laps completed (progress jumped back by over half a lap)
  VehicleState final_state{};
};

// Closed loop: follower, then bicycle. hold_speed ignores throttle and brake, so the
// look-ahead comparisons run at exactly the stated speed.
Trace Drive(const SplineSetView& set, VehicleState v, const FollowerParams& fp, int ticks,
            bool hold_speed, float world_limit = 0.f) {
  const BicycleParams bike;
  Trace t;
  const float length = set.headers[v.spline].length;
  float last_progress = v.progress_hint;
  for (int i = 0; i < ticks; ++i) {
    const FollowerOutput o = FollowSpline(set, v, fp, world_limit);
    t.finite = t.finite && Finite(o);
    if (o.progress < last_progress - 0.5f * length) ++t.wraps;
    last_progress = o.progress;
    t.cte.push_back(o.cte);
    t.steering.push_back(o.steering);
    t.speed.push_back(v.speed);
    t.progress.push_back(o.progress);
    t.curvature.push_back(CurvatureAt(set, v.spline, o.progress));
    t.target_speed.push_back(o.target_speed);
    v.progress_hint = o.progress;
    StepBicycle(v, o.steering, hold_speed ? 0.f : o.throttle, hold_speed ? 0.f : o.brake, bike,
                kDt);
  }
  t.final_state = v;
  return t;
}

float Rms(const std::vector<float>& x) {
  double sum = 0;
  for (float e : x) sum += static_cast<double>(e) * e;
  return x.empty() ? 0.f : static_cast<float>(std::sqrt(sum / x.size()));
}

float MaxAbs(const std::vector<float>& x) {
  float m = 0.f;
  for (float e : x) m = std::max(m, std::fabs(e));
  return m;
}

class VehicleFollowerTest : public ::testing::Test {
 protected:
  VehicleFollowerTest()
      : closed_(BuildSplineSet({Course(true)})), open_(BuildSplineSet({Course(false)})) {}
  SplineSet closed_, open_;
};

// (a)-(c) check docs/ALGORITHMS.md §1's formula as written (PlainFollowerParams: the seed's
// gains, no feed-forward, lag compensation or approach limit); the defaults' lane keeping
// is tests/vehicles/lane_keeping_test.cpp's.
// (a) Started 2 m off a long straight. With the 2 m / 0.2 s look-ahead position+heading
// alone does converge (e-folding ~10 m at 5 m/s, ~16 m at 15 m/s), only more slowly: the
// CTE term must bring the vehicle within 0.5 m of the line in at most 0.6 of the ticks
// position+heading alone needs, and below 0.1 m within 300 ticks. (With the former 4 m /
// 0.6 s defaults position+heading alone stayed over 0.5 m off for 200 ticks; with the
// short look-ahead it no longer does, so that is no longer asserted.)
TEST_F(VehicleFollowerTest, cte_term_brings_an_offset_vehicle_back_to_the_line) {
  const SplineSetView set = closed_.View();
  auto first_within = [](const Trace& t, float d) {
    for (size_t i = 0; i < t.cte.size(); ++i) {
      if (std::fabs(t.cte[i]) < d) return static_cast<int>(i);
    }
    return static_cast<int>(t.cte.size());
  };
  for (float speed : {5.f, 15.f}) {
    for (float offset : {2.f, -2.f}) {
      FollowerParams no_cte = PlainFollowerParams();
      no_cte.crosstrack_gain = 0.f;
      const VehicleState v = StartAt(set, 0, 5.f, offset, speed, speed);
      const Trace without = Drive(set, v, no_cte, 300, false);
      const Trace with = Drive(set, v, PlainFollowerParams(), 300, false);
      const int ticks_without = first_within(without, 0.5f), ticks_with = first_within(with, 0.5f);
      std::printf(
          "  [cte decay] %4.1f m/s, offset %+.0f m: ticks to |cte| < 0.5 m: without the "
          "CTE term %d, with gain 0.15 %d; |cte| after 200 / 300 ticks: without %.3f / "
          "%.3f m, with %.4f / %.4f m\n",
          speed, offset, ticks_without, ticks_with, std::fabs(without.cte[199]),
          std::fabs(without.cte[299]), std::fabs(with.cte[199]), std::fabs(with.cte[299]));
      EXPECT_LE(ticks_with, 0.6f * ticks_without) << "speed " << speed << " offset " << offset;
      EXPECT_LT(std::fabs(with.cte[299]), 0.1f) << "speed " << speed << " offset " << offset;
      // The vehicle starts right of the line when offset > 0: the CTE sign says so.
      EXPECT_GT(with.cte.front() * offset, 0.f);
      EXPECT_NEAR(std::fabs(with.cte.front()), 2.f, 1e-3f);
    }
  }
}

// (b) Adaptive look-ahead against a fixed long (15 m) and a fixed short (2 m) one, over a
// whole lap of the course at a held speed, with the bicycle model's default 0.3 s steering
// lag. Figures printed for all three. The defaults (base 2 m, 0.2 s) were chosen here
// (docs/VEHICLES.md); without the lag the fixed short look-ahead is never twitchy and wins,
// with it the short one overshoots and the adaptive one beats both.
void CompareLookAhead(const SplineSet& closed, bool against_short) {
  const SplineSetView set = closed.View();
  const float length = closed.headers[0].length;
  for (float speed : {5.f, 15.f}) {
    const int ticks = static_cast<int>(length / (speed * kDt)) + 1;
    FollowerParams adaptive = PlainFollowerParams();
    FollowerParams long_fixed = adaptive, short_fixed = adaptive;
    long_fixed.adaptive_look_ahead = short_fixed.adaptive_look_ahead = false;
    long_fixed.look_ahead_base = 15.f;
    short_fixed.look_ahead_base = 2.f;
    const VehicleState v = StartAt(set, 0, 0.f, 0.f, speed, speed);
    const Trace a = Drive(set, v, adaptive, ticks, true);
    const Trace l = Drive(set, v, long_fixed, ticks, true);
    const Trace s = Drive(set, v, short_fixed, ticks, true);
    std::printf(
        "  [look-ahead] %4.1f m/s, one lap (%.0f m): RMS / max |cte| in m: adaptive "
        "%.3f / %.3f, fixed 15 m %.3f / %.3f, fixed 2 m %.3f / %.3f\n",
        speed, length, Rms(a.cte), MaxAbs(a.cte), Rms(l.cte), MaxAbs(l.cte), Rms(s.cte),
        MaxAbs(s.cte));
    EXPECT_TRUE(a.finite && l.finite && s.finite);
    EXPECT_LT(Rms(a.cte), Rms(l.cte)) << "speed " << speed;
    EXPECT_LT(MaxAbs(a.cte), MaxAbs(l.cte)) << "speed " << speed;
    if (against_short) {
      EXPECT_LT(Rms(a.cte), Rms(s.cte)) << "speed " << speed;
      EXPECT_LT(MaxAbs(a.cte), MaxAbs(s.cte)) << "speed " << speed;
    }
  }
}

TEST_F(VehicleFollowerTest, adaptive_look_ahead_beats_fixed_long) {
  CompareLookAhead(closed_, false);
}

TEST_F(VehicleFollowerTest, adaptive_look_ahead_beats_fixed_short) {
  CompareLookAhead(closed_, true);
}

// (c) Once settled on a straight the steering does not alternate left/right.
// "Steering never oscillates sign tick to tick on straights" (docs/ALGORITHMS.md §1): no
// chatter, i.e. no sign change followed by another within the next two ticks. A slow
// weave is a different thing: with the 0.3 s steering lag and the default CTE gain the
// 15 m/s run settles through a decaying weave of about 1.4 s period (reported, and its
// amplitude must shrink).
TEST_F(VehicleFollowerTest, steering_does_not_chatter_on_straights_and_any_weave_decays) {
  const SplineSetView set = closed_.View();
  for (float speed : {5.f, 15.f}) {
    // Start 1 m off the line so there is something to settle; two laps.
    const VehicleState v = StartAt(set, 0, 0.f, 1.f, speed, speed);
    const int ticks = static_cast<int>(2.f * closed_.headers[0].length / (speed * kDt));
    const Trace t = Drive(set, v, FollowerParams{}, ticks, true);
    int checked = 0, flips = 0, chatter = 0, last_flip = -100;
    float first_lap_peak = 0.f, second_lap_peak = 0.f;
    const float lap = closed_.headers[0].length;
    for (size_t i = 1; i < t.steering.size(); ++i) {
      // Straight A, from 40 m after the wide turn's exit until the look-ahead window (13 m
      // at 15 m/s, plus the curvature window) reaches the hairpin at 120 m.
      const float s = t.progress[i];
      if (!(s > 40.f && s < 95.f && t.progress[i - 1] > 40.f)) continue;
      ++checked;
      const bool second_lap = static_cast<float>(i) * speed * kDt > lap;
      float& peak = second_lap ? second_lap_peak : first_lap_peak;
      peak = std::fmax(peak, std::fabs(t.cte[i]));
      const float a = t.steering[i - 1], b = t.steering[i];
      // A sign change at the level of float noise (< 1e-4 of full lock) is not a flip.
      if (a * b < 0.f && std::fabs(a) > 1e-4f && std::fabs(b) > 1e-4f) {
        ++flips;
        if (static_cast<int>(i) - last_flip <= 2) ++chatter;
        last_flip = static_cast<int>(i);
      }
    }
    std::printf(
        "  [straights] %4.1f m/s: %d ticks checked, %d sign changes, %d tick-to-tick; "
        "largest |cte| on the straight: lap 1 %.3f m, lap 2 %.3f m\n",
        speed, checked, flips, chatter, first_lap_peak, second_lap_peak);
    EXPECT_GT(checked, 100);
    EXPECT_EQ(chatter, 0) << "speed " << speed;
    EXPECT_LT(second_lap_peak, 0.5f * first_lap_peak + 0.01f) << "speed " << speed;
  }
}

// (d) Open spline: the target speed ramps to 0 at the end and the vehicle stops there,
// with no NaN even after it runs past the last point.
TEST_F(VehicleFollowerTest, open_spline_end_stops_without_nan) {
  const SplineSetView set = open_.View();
  const float length = open_.headers[0].length;
  for (float speed : {5.f, 15.f}) {
    // Start on the last straight before the end (after the wide turn).
    VehicleState v = StartAt(set, 0, length - 15.f, 0.5f, speed, speed);
    const Trace t = Drive(set, v, FollowerParams{}, 60 * 10, false);
    EXPECT_TRUE(t.finite);
    const VehicleState& end = t.final_state;
    const Vec3 last = LocationAt(set, 0, length);
    const float overshoot = end.position.x - last.x;  // the course ends heading +X
    std::printf(
        "  [open end] start %4.1f m/s: after 10 s speed %.2e m/s, %.2f m from the end "
        "point (overshoot %+.2f m), final target speed %.3f\n",
        speed, end.speed, Length(end.position - last), overshoot, t.target_speed.back());
    // The proportional brake (0.5 per m/s) lags the sqrt(2 a d) ramp, so the vehicle rolls
    // a few metres past the end and its speed decays exponentially rather than hitting 0.
    EXPECT_LT(end.speed, 1e-3f);
    EXPECT_LT(Length(end.position - last), 5.f);
    EXPECT_EQ(t.target_speed.back(), 0.f);
    // Past the end the follower keeps answering with finite values.
    v = end;
    v.position = last + Vec3{5.f, 0.f, 0.f};
    v.speed = 3.f;
    v.progress_hint = length + 10.f;
    const FollowerOutput o = FollowSpline(set, v, FollowerParams{}, 0.f);
    EXPECT_TRUE(Finite(o));
    EXPECT_EQ(o.target_speed, 0.f);
    EXPECT_EQ(o.throttle, 0.f);
    EXPECT_GT(o.brake, 0.f);
  }
}

// (e) A closed loop is lapped repeatedly: progress wraps and the vehicle stays on it.
TEST_F(VehicleFollowerTest, closed_loop_is_lapped_three_times) {
  const SplineSetView set = closed_.View();
  const float length = closed_.headers[0].length;
  VehicleState v = StartAt(set, 0, length - 10.f, 0.f, 10.f, 15.f);
  int ticks = 0;
  Trace t;
  // Drive until three wraps (at most 3 minutes).
  for (; ticks < 60 * 180; ticks += 600) {
    const Trace part = Drive(set, v, FollowerParams{}, 600, false);
    t.wraps += part.wraps;
    t.finite = t.finite && part.finite;
    t.cte.insert(t.cte.end(), part.cte.begin(), part.cte.end());
    t.progress.insert(t.progress.end(), part.progress.begin(), part.progress.end());
    v = part.final_state;
    if (t.wraps >= 3) break;
  }
  std::printf("  [laps] %d wraps in %.1f s, RMS / max |cte| %.3f / %.3f m\n", t.wraps,
              (ticks + 600) * kDt, Rms(t.cte), MaxAbs(t.cte));
  EXPECT_GE(t.wraps, 3);
  EXPECT_TRUE(t.finite);
  EXPECT_LT(MaxAbs(t.cte), 3.f) << "the hairpin's legs are 16 m apart";
  for (float s : t.progress) {
    ASSERT_GE(s, 0.f);
    ASSERT_LT(s, length);
  }
}

// Curvature-based speed: the vehicle is slow enough in the hairpin (and every bend).
TEST_F(VehicleFollowerTest, slows_before_the_hairpin) {
  const SplineSetView set = closed_.View();
  const FollowerParams fp;
  const VehicleState v = StartAt(set, 0, 1.f, 0.f, 15.f, 15.f);
  const int ticks = static_cast<int>(closed_.headers[0].length / (5.f * kDt));
  const Trace t = Drive(set, v, fp, ticks, false);
  float worst = 0.f, worst_hairpin = 0.f, entry_speed = -1.f, worst_at = 0.f;
  // First lap only: stop where progress wraps.
  for (size_t i = 0; i < t.speed.size() && !(i > 0 && t.progress[i] < t.progress[i - 1] - 100.f);
       ++i) {
    const float a = t.speed[i] * t.speed[i] * t.curvature[i];
    if (a > worst) {
      worst = a;
      worst_at = t.progress[i];
    }
    const bool in_hairpin =
        t.progress[i] > kHairpinStart && t.progress[i] < kHairpinStart + kPi * kHairpinRadius;
    if (in_hairpin) {
      worst_hairpin = std::max(worst_hairpin, a);
      if (entry_speed < 0.f) entry_speed = t.speed[i];
    }
  }
  std::printf(
      "  [speed] from 15 m/s: hairpin entry speed %.2f m/s (v_safe %.2f), largest "
      "speed^2*k: hairpin %.3f, whole lap %.3f m/s^2 at s = %.1f m (limit %.1f)\n",
      entry_speed, std::sqrt(fp.max_lateral_accel * kHairpinRadius), worst_hairpin, worst, worst_at,
      fp.max_lateral_accel);
  EXPECT_GT(entry_speed, 0.f);
  EXPECT_LE(worst_hairpin, 1.1f * fp.max_lateral_accel);
  EXPECT_LE(worst, 1.1f * fp.max_lateral_accel);
}

// Layered limits: vehicle max, spline limit, world limit; whichever is lowest holds.
TEST_F(VehicleFollowerTest, never_exceeds_any_layer_of_the_speed_limit) {
  struct Layers {
    float vehicle, spline, world;
  };
  for (const Layers& l : {Layers{8.f, 11.f, 13.f}, Layers{13.f, 8.f, 11.f}, Layers{11.f, 13.f, 8.f},
                          Layers{9.f, 0.f, 0.f}}) {
    SplineDesc d = Course(true);
    d.speed_limit = l.spline;
    const SplineSet built = BuildSplineSet({d});
    const SplineSetView set = built.View();
    const VehicleState v = StartAt(set, 0, 0.f, 0.f, 0.f, l.vehicle);
    const Trace t = Drive(set, v, FollowerParams{}, 60 * 40, false, l.world);
    float limit = l.vehicle;
    if (l.spline > 0.f) limit = std::min(limit, l.spline);
    if (l.world > 0.f) limit = std::min(limit, l.world);
    const float top = *std::max_element(t.speed.begin(), t.speed.end());
    const float top_target = *std::max_element(t.target_speed.begin(), t.target_speed.end());
    std::printf(
        "  [limits] vehicle %.0f, spline %.0f, world %.0f: top speed %.3f m/s, top "
        "target %.3f\n",
        l.vehicle, l.spline, l.world, top, top_target);
    EXPECT_LE(top, limit + 0.1f);
    EXPECT_LE(top_target, limit);
    EXPECT_GT(top, limit - 0.5f) << "the straights are long enough to reach the limit";
  }
}

// Debug values are what they claim to be.
TEST_F(VehicleFollowerTest, debug_values_are_consistent) {
  const SplineSetView set = closed_.View();
  const VehicleState v = StartAt(set, 0, 30.f, -1.f, 10.f, 15.f);
  // The plain formula: with lag compensation the target is the predicted pose's.
  const FollowerParams fp = PlainFollowerParams();
  const FollowerOutput o = FollowSpline(set, v, fp, 0.f);
  EXPECT_NEAR(o.progress, 30.f, 1e-2f);
  // Straight: curvature_scale 1.
  EXPECT_NEAR(o.look_ahead, fp.look_ahead_base + 10.f * fp.look_ahead_speed_factor, 1e-3f);
  const Vec3 target = LocationAt(set, 0, o.progress + o.look_ahead);
  EXPECT_LT(Length(o.target - target), 1e-4f);
  EXPECT_LT(Length(o.progress_point - LocationAt(set, 0, o.progress)), 1e-4f);
  EXPECT_NEAR(Length(o.tangent), 1.f, 1e-5f);
  // Left of the line, facing along it: the target lies right, the lane is parallel.
  EXPECT_NEAR(o.cte, -1.f, 1e-3f);
  EXPECT_GT(o.position_delta, 0.f);
  EXPECT_NEAR(o.heading_delta, 0.f, 1e-4f);
  EXPECT_GT(o.steering, 0.f);
  // In the hairpin the look-ahead shrinks with curvature_scale = lerp(1, 0.5, 3k).
  const VehicleState h = StartAt(set, 0, kHairpinStart + 12.f, 0.f, 10.f, 15.f);
  const FollowerOutput oh = FollowSpline(set, h, fp, 0.f);
  const float k = CurvatureAt(set, 0, oh.progress);
  EXPECT_NEAR(k, 1.f / kHairpinRadius, 0.01f);
  EXPECT_NEAR(oh.look_ahead,
              (fp.look_ahead_base + 10.f * fp.look_ahead_speed_factor) *
                  (1.f - 0.5f * std::min(3.f * k, 1.f)),
              1e-3f);
}

// FollowSpline never returns NaN for finite input: speed 0, far away, huge values.
TEST_F(VehicleFollowerTest, never_nan_for_finite_input) {
  std::vector<SplineDesc> descs = {Course(true), Course(false)};
  descs[1].id = 1;
  descs.push_back({7, {{0, 0, 0}, {10, 0, 0}}, false, 5.f});                   // two points only
  descs.push_back({8, {{0, 0, 0}, {0, 0.001f, 30}, {5, 0, 60}}, false, 0.f});  // near-vertical
  const SplineSet built = BuildSplineSet(descs);
  const SplineSetView set = built.View();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  // Log-uniform magnitudes from 1e-3 to 1e30 with a random sign, or exactly 0.
  auto wild = [&]() {
    const float r = unit(rng);
    if (r < 0.05f) return 0.f;
    const float m = std::pow(10.f, -3.f + 33.f * unit(rng));
    return unit(rng) < 0.5f ? -m : m;
  };
  int bad = 0;
  for (int i = 0; i < 100000; ++i) {
    VehicleState v{};
    v.spline = static_cast<uint32_t>(rng() % set.count);
    const float len = built.headers[v.spline].length;
    const int kind = i % 4;
    if (kind == 0) {  // near the spline, ordinary values, a quarter at speed 0
      v = StartAt(set, v.spline, unit(rng) * len, 6.f * unit(rng) - 3.f,
                  (i % 16 == 0) ? 0.f : 40.f * unit(rng), 40.f * unit(rng));
      v.yaw = 20.f * unit(rng) - 10.f;
    } else if (kind == 1) {  // far from the spline (up to 1e6 m), speed 0
      v.position = {2e6f * unit(rng) - 1e6f, 2e6f * unit(rng) - 1e6f, 2e3f * unit(rng) - 1e3f};
      v.yaw = 7.f * unit(rng);
      v.speed = 0.f;
      v.progress_hint = 2.f * len * unit(rng) - 0.5f * len;
      v.max_speed = 30.f * unit(rng);
    } else {  // anything finite
      v.position = {wild(), wild(), wild()};
      v.yaw = wild();
      v.speed = wild();
      v.progress_hint = wild();
      v.max_speed = wild();
    }
    FollowerParams fp;
    fp.adaptive_look_ahead = (i % 3) != 0;
    const FollowerOutput o = FollowSpline(set, v, fp, (i % 5 == 0) ? 0.f : wild());
    if (!Finite(o)) {
      if (++bad <= 5) {
        ADD_FAILURE() << "non-finite output for spline " << v.spline << " p=(" << v.position.x
                      << ", " << v.position.y << ", " << v.position.z << ") yaw " << v.yaw
                      << " speed " << v.speed << " hint " << v.progress_hint;
      }
    }
    if (o.steering < -1.f || o.steering > 1.f || o.throttle < 0.f || o.throttle > 1.f ||
        o.brake < 0.f || o.brake > 1.f || o.target_speed < 0.f) {
      ++bad;
    }
  }
  std::printf("  [fuzz] 100000 finite states: %d non-finite or out-of-range outputs\n", bad);
  EXPECT_EQ(bad, 0);
}

// --- Cross-track error ------------------------------------------------------------------

TEST(CrossTrackErrorTest, right_of_the_line_is_positive_left_negative) {
  // Internal frame: a lane heading +Y; its right is +X.
  const Vec3 t{0, 1, 0};
  EXPECT_FLOAT_EQ(CrossTrackError({1.5f, 3, 0}, {0, 3, 0}, t), 1.5f);
  EXPECT_FLOAT_EQ(CrossTrackError({-1.5f, 3, 0}, {0, 3, 0}, t), -1.5f);
  EXPECT_FLOAT_EQ(CrossTrackError({0, 3, 0}, {0, 3, 0}, t), 0.f);
  // Heading +X: right is -Y (right-handed, Z up).
  EXPECT_FLOAT_EQ(CrossTrackError({0, -2, 0}, {0, 0, 0}, {1, 0, 0}), 2.f);
  // Reversing the lane direction swaps the sides.
  EXPECT_FLOAT_EQ(CrossTrackError({0, -2, 0}, {0, 0, 0}, {-1, 0, 0}), -2.f);
}

// The same physical scene written in four engines' frames: a road going forward, flat
// or climbing 15%, a vehicle 1.5 m to its physical right (or left), facing along it or
// turned 0.1 rad to its right. CTE and steering must be the same physical answer.
TEST(CrossTrackErrorTest, same_physical_answer_in_every_frame) {
  struct Engine {
    const char* name;
    Frame frame;
    Vec3 forward, right, up;  // external axes
    float yaw_forward;        // external yaw of `forward`
    float yaw_right_sign;     // external yaw change of a right turn
  };
  const Engine engines[] = {
      {"Unreal (Z up, left-handed)",
       {UpAxis::kZ, Handedness::kLeft},
       {1, 0, 0},
       {0, 1, 0},
       {0, 0, 1},
       0.f,
       +1.f},
      {"Unity (Y up, left-handed)",
       {UpAxis::kY, Handedness::kLeft},
       {0, 0, 1},
       {1, 0, 0},
       {0, 1, 0},
       kPi / 2,
       -1.f},
      {"ROS (Z up, right-handed)",
       {UpAxis::kZ, Handedness::kRight},
       {1, 0, 0},
       {0, -1, 0},
       {0, 0, 1},
       0.f,
       -1.f},
      {"Godot (Y up, right-handed)",
       {UpAxis::kY, Handedness::kRight},
       {0, 0, -1},
       {1, 0, 0},
       {0, 1, 0},
       -kPi / 2,
       +1.f},
  };
  for (float grade : {0.f, 0.15f}) {
    for (float side : {1.5f, -1.5f}) {
      for (float turn : {0.f, 0.1f}) {
        float first_cte = 0.f, first_steering = 0.f;
        for (int e = 0; e < 4; ++e) {
          const Engine& en = engines[e];
          SplineDesc d;
          for (int i = 0; i <= 10; ++i) {
            const float along = 5.f * i;
            d.points.push_back(en.frame.ToInternal(en.forward * along + en.up * (grade * along)));
          }
          const SplineSet built = BuildSplineSet({d});
          // 20 m along, on the road's height, `side` to the right.
          const Vec3 ext = en.forward * 20.f + en.up * (grade * 20.f) + en.right * side;
          VehicleState v{};
          v.position = en.frame.ToInternal(ext);
          v.yaw = en.frame.YawToInternal(en.yaw_forward + en.yaw_right_sign * turn);
          v.speed = 8.f;
          v.progress_hint = 20.f;
          v.max_speed = 20.f;
          const FollowerOutput o = FollowSpline(built.View(), v, FollowerParams{}, 0.f);
          SCOPED_TRACE(::testing::Message()
                       << en.name << " grade " << grade << " side " << side << " turn " << turn);
          // Horizontal offset, perpendicular to a road with no sideways slope: |cte| = 1.5.
          EXPECT_NEAR(o.cte, side, 1e-3f);
          // Right of the line (or facing right of it) means steer left, and vice versa.
          EXPECT_EQ(o.steering<0.f, side> 0.f);
          if (turn > 0.f) {
            EXPECT_LT(o.heading_delta, 0.f);
          }
          if (e == 0) {
            first_cte = o.cte;
            first_steering = o.steering;
          } else {
            EXPECT_NEAR(o.cte, first_cte, 1e-4f);
            EXPECT_NEAR(o.steering, first_steering, 1e-4f);
          }
        }
      }
    }
  }
}

// On ramps and on a climbing curve (a spiral ramp, like a car park's) the tangent is
// tilted: |cte| must be the true lateral distance. The naive `cross(up, T)` keeps the sign
// but, not being a unit vector, shrinks the distance by cos(pitch).
TEST(CrossTrackErrorTest, tilted_tangent_gives_the_true_lateral_distance) {
  for (float grade : {0.15f, 0.4f, 1.f}) {
    // Spiral ramp: radius 20 m, climbing `grade` metres per metre of horizontal travel.
    SplineDesc d;
    for (int i = 0; i <= 24; ++i) {
      const float a = kTwoPi * i / 24.f * 0.75f;
      d.points.push_back({20.f * std::cos(a), 20.f * std::sin(a), grade * 20.f * a});
    }
    const SplineSet built = BuildSplineSet({d});
    const SplineSetView set = built.View();
    float worst = 0.f, naive_worst = 0.f;
    for (float s = 10.f; s < built.headers[0].length - 10.f; s += 3.7f) {
      const SplinePoint at = SampleSpline(set, 0, s);
      const Vec3 right = Normalize(Cross(at.tangent, Vec3{0, 0, 1}));  // horizontal, unit
      for (float lateral : {-2.f, 1.f, 2.5f}) {
        VehicleState v{};
        v.position = at.position + right * lateral;
        v.speed = 5.f;
        v.progress_hint = s + 1.f;
        v.max_speed = 10.f;
        const FollowerOutput o = FollowSpline(set, v, FollowerParams{}, 0.f);
        worst = std::max(worst, std::fabs(o.cte - lateral));
        const float naive = Dot(v.position - at.position, Cross(at.tangent, Vec3{0, 0, 1}));
        naive_worst = std::max(naive_worst, std::fabs(naive - lateral));
        EXPECT_EQ(naive > 0.f, lateral > 0.f) << "the naive version keeps the sign";
      }
    }
    std::printf(
        "  [tilted] grade %.2f: largest |cte - lateral| %.2e m (naive cross(up, T): "
        "%.3f m)\n",
        grade, worst, naive_worst);
    EXPECT_LT(worst, 2e-3f);
    EXPECT_GT(naive_worst, 0.01f) << "the test tells the two apart";
  }
}

// Along-track offsets and height above the road (along its normal) are not cross-track.
TEST(CrossTrackErrorTest, along_track_and_height_offsets_do_not_count) {
  const float g = 0.15f;
  const Vec3 t = Normalize(Vec3{1.f, 0.f, g});  // climbing 15% toward +X
  const Vec3 right{0, -1, 0};
  const Vec3 normal = Cross(right, t);  // up, tilted back
  EXPECT_GT(normal.z, 0.9f);
  const Vec3 road{10, 5, 1.5f};
  for (float along : {-3.f, 0.f, 4.f}) {
    for (float height : {0.f, 0.5f, 2.f}) {
      EXPECT_NEAR(CrossTrackError(road + t * along + normal * height + right * 1.25f, road, t),
                  1.25f, 1e-5f);
    }
  }
}

TEST(CrossTrackErrorTest, vertical_tangent_gives_zero_not_nan) {
  EXPECT_EQ(CrossTrackError({3, 4, 5}, {0, 0, 0}, {0, 0, 1}), 0.f);
  EXPECT_EQ(CrossTrackError({3, 4, 5}, {0, 0, 0}, {0, 0, 0}), 0.f);
}

TEST(CrossTrackErrorTest, kernel_matches_reference) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  float worst = 0.f;
  for (int i = 0; i < 10000; ++i) {
    const Vec3 t = Normalize(Vec3{u(rng), u(rng), 0.5f * u(rng)});
    const Vec3 road{50 * u(rng), 50 * u(rng), 5 * u(rng)};
    const Vec3 p = road + Vec3{5 * u(rng), 5 * u(rng), 2 * u(rng)};
    const double ref =
        reference::CrossTrackError({p.x, p.y, p.z}, {road.x, road.y, road.z}, {t.x, t.y, t.z});
    worst = std::max(worst, static_cast<float>(std::fabs(CrossTrackError(p, road, t) - ref)));
  }
  EXPECT_LT(worst, 1e-5f);
}

// --- Bicycle model ----------------------------------------------------------------------

TEST(BicycleTest, semi_implicit_step_moves_with_the_new_speed) {
  VehicleState v{};
  v.yaw = 0.3f;
  const BicycleParams b;
  StepBicycle(v, 0.f, 1.f, 0.f, b, 0.1f);
  EXPECT_FLOAT_EQ(v.speed, 0.3f);  // 3 m/s^2 * 0.1 s
  EXPECT_NEAR(v.position.x, 0.03f * std::cos(0.3f), 1e-7f);
  EXPECT_NEAR(v.position.y, 0.03f * std::sin(0.3f), 1e-7f);
  EXPECT_FLOAT_EQ(v.yaw, 0.3f);
  EXPECT_EQ(v.position.z, 0.f);
}

TEST(BicycleTest, steering_right_turns_clockwise_on_the_kinematic_radius) {
  BicycleParams b;
  b.steering_time_constant = 0.f;  // no lag: the wheel angle is the command at once
  for (float steering : {0.5f, -0.5f, 1.f}) {
    VehicleState v{};
    v.speed = 5.f;
    const float expected_rate = -5.f / b.wheelbase * std::tan(steering * b.max_steer_angle);
    StepBicycle(v, steering, 0.f, 0.f, b, 0.01f);
    EXPECT_NEAR(v.yaw, expected_rate * 0.01f, 1e-6f);
    EXPECT_EQ(v.yaw<0.f, steering> 0.f) << "right = clockwise = lower yaw";
    // A full circle: the path's radius is wheelbase / tan(wheel angle).
    v = VehicleState{};
    v.speed = 5.f;
    float min_y = 0.f, max_y = 0.f;
    for (int i = 0; i < 20000; ++i) {
      StepBicycle(v, steering, 0.f, 0.f, b, 0.001f);
      min_y = std::min(min_y, v.position.y);
      max_y = std::max(max_y, v.position.y);
    }
    const float radius = b.wheelbase / std::tan(std::fabs(steering) * b.max_steer_angle);
    EXPECT_NEAR(max_y - min_y, 2.f * radius, 0.01f * radius);
    if (steering > 0.f) {
      EXPECT_LT(min_y, -radius) << "turning right from +X goes to -Y";
    }
  }
}

TEST(BicycleTest, brakes_stop_but_never_reverse_and_inputs_are_clamped) {
  const BicycleParams b;
  VehicleState v{};
  v.speed = 1.f;
  StepBicycle(v, 0.f, 0.f, 1.f, b, 1.f);
  EXPECT_EQ(v.speed, 0.f);
  EXPECT_EQ(v.position.x, 0.f);
  StepBicycle(v, 0.f, 0.f, 1.f, b, 1.f);
  EXPECT_EQ(v.speed, 0.f);
  // Out-of-range inputs act like their limits.
  VehicleState a{}, c{};
  a.speed = c.speed = 4.f;
  StepBicycle(a, 5.f, 3.f, 0.f, b, 0.05f);
  StepBicycle(c, 1.f, 1.f, 0.f, b, 0.05f);
  EXPECT_EQ(a.speed, c.speed);
  EXPECT_EQ(a.yaw, c.yaw);
  // Yaw stays wrapped over long turning.
  for (int i = 0; i < 10000; ++i) StepBicycle(a, 1.f, 0.f, 0.f, b, 0.05f);
  EXPECT_GE(a.yaw, -kPi);
  EXPECT_LT(a.yaw, kPi);
}

// Steering lag: wheel += (command - wheel) * min(dt / tau, 1); the yaw uses the lagged angle.
TEST(BicycleTest, wheel_angle_follows_the_command_with_a_first_order_lag) {
  const BicycleParams b;  // tau 0.3 s
  EXPECT_FLOAT_EQ(b.steering_time_constant, 0.3f);
  VehicleState v{};
  EXPECT_EQ(v.wheel_angle, 0.f);
  v.speed = 5.f;
  const float dt = 1.f / 60.f, command = 1.f * b.max_steer_angle;
  // First step: a fraction dt / tau of the way, and the yaw turns by that angle only.
  StepBicycle(v, 1.f, 0.f, 0.f, b, dt);
  EXPECT_NEAR(v.wheel_angle, command * dt / 0.3f, 1e-6f);
  EXPECT_NEAR(v.yaw, -5.f / b.wheelbase * std::tan(v.wheel_angle) * dt, 1e-7f);
  // After one time constant (18 steps) the exponential is about 1 - 1/e of the way
  // (discrete: 1 - (1 - dt/tau)^18 = 0.645); after 2.5 s it is there to 0.1%.
  v = VehicleState{};
  for (int i = 0; i < 18; ++i) StepBicycle(v, 1.f, 0.f, 0.f, b, dt);
  EXPECT_NEAR(v.wheel_angle / command, 1.f - std::pow(1.f - dt / 0.3f, 18.f), 1e-5f);
  EXPECT_NEAR(v.wheel_angle / command, 1.f - std::exp(-1.f), 0.02f);
  for (int i = 18; i < 120; ++i) StepBicycle(v, 1.f, 0.f, 0.f, b, dt);
  for (int i = 120; i < 150; ++i) StepBicycle(v, 1.f, 0.f, 0.f, b, dt);
  EXPECT_NEAR(v.wheel_angle, command, 1e-3f * command);
  EXPECT_LE(v.wheel_angle, command) << "a first-order lag does not overshoot";
  // Release: back toward 0 the same way; the sign follows the command (+ = right).
  StepBicycle(v, -1.f, 0.f, 0.f, b, dt);
  EXPECT_LT(v.wheel_angle, command);
  EXPECT_GT(v.wheel_angle, 0.f);
  // dt >= tau, or tau = 0: the wheel angle is the command at once.
  VehicleState a{}, c{};
  StepBicycle(a, -0.5f, 0.f, 0.f, b, 0.5f);
  EXPECT_FLOAT_EQ(a.wheel_angle, -0.5f * b.max_steer_angle);
  BicycleParams no_lag;
  no_lag.steering_time_constant = 0.f;
  StepBicycle(c, 0.7f, 0.f, 0.f, no_lag, dt);
  EXPECT_FLOAT_EQ(c.wheel_angle, 0.7f * b.max_steer_angle);
  // Out-of-range steering commands the limit, so the wheel never passes max_steer_angle.
  VehicleState d{};
  for (int i = 0; i < 600; ++i) StepBicycle(d, 50.f, 0.f, 0.f, b, dt);
  EXPECT_LE(d.wheel_angle, b.max_steer_angle);
}

// --- Kernel against the double reference ------------------------------------------------

TEST(VehicleEquivalenceTest, kernel_matches_reference_on_random_states) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  const std::vector<SplineDesc> descs = testing::RandomSplines(rng, 24, 0, /*speed_limits=*/true);
  const SplineSet built = BuildSplineSet(descs);
  const SplineSetView set = built.View();
  std::vector<reference::ReferenceSpline> refs;
  for (size_t i = 0; i < descs.size(); ++i) refs.emplace_back(descs[i], i);

  constexpr int kStates = 5000;
  // Tolerances: steering, CTE and angles 1e-3 absolute (position delta and steering at
  // least the 1 cm progress tolerance's bearing change, see below); look-ahead 1e-3 relative;
  // progress 1 cm (the float projection's resolution where the distance minimum is flat, ~5 mm per
  // docs/SPLINES.md). The speed chain follows the progress: the window's largest curvature
  // sample moves with it, so target speed gets 1e-2 relative and throttle/brake 5e-3
  // (at 5e-3 relative 17 target speeds, 0.085%, differ; at 1e-3, 120).
  struct Field {
    const char* name;
    float FollowerOutput::*member;
    float abs_tol, rel_tol;
    int mismatches = 0;
    float worst = 0.f;
  };
  Field fields[] = {{"steering", &FollowerOutput::steering, 1e-3f, 0.f},
                    {"throttle", &FollowerOutput::throttle, 5e-3f, 0.f},
                    {"brake", &FollowerOutput::brake, 5e-3f, 0.f},
                    {"target_speed", &FollowerOutput::target_speed, 0.f, 1e-2f},
                    {"cte", &FollowerOutput::cte, 1e-3f, 0.f},
                    {"progress", &FollowerOutput::progress, 1e-2f, 0.f},
                    {"position_delta", &FollowerOutput::position_delta, 1e-3f, 0.f},
                    {"heading_delta", &FollowerOutput::heading_delta, 1e-3f, 0.f},
                    {"look_ahead", &FollowerOutput::look_ahead, 0.f, 1e-3f}};
  struct Case {
    uint32_t spline;
    VehicleState v;
    FollowerParams fp;
    float world;
    FollowerOutput kernel, ref;
  };
  std::vector<Case> cases(kStates);
  for (int i = 0; i < kStates; ++i) {
    Case& c = cases[i];
    c.spline = static_cast<uint32_t>(rng() % descs.size());
    const float len = built.headers[c.spline].length;
    const float truth = unit(rng) * len;
    c.v = StartAt(set, c.spline, truth, 6.f * unit(rng) - 3.f,
                  (i % 10 == 0) ? 0.f : 30.f * unit(rng), 5.f + 25.f * unit(rng));
    c.v.position.z += unit(rng) - 0.5f;
    // The plain formula from any heading; the defaults (which predict the pose ahead) from
    // headings within 45 degrees of the lane's: a vehicle following it, whose predicted
    // pose stays near it (kPoseProjectionSteps).
    if (i % 2 == 0) {
      c.v.yaw = kTwoPi * unit(rng) - kPi;
    } else {
      c.v.yaw = WrapAngle(c.v.yaw + (unit(rng) - 0.5f) * kPi / 2.f);
    }
    c.v.progress_hint = truth + 4.f * unit(rng) - 2.f;
    // Odd states: the defaults (feed-forward, lag compensation from a random wheel angle,
    // the approach limit, tick scaling); even ones the plain formula.
    if (i % 2 == 0) c.fp = PlainFollowerParams();
    // A wheel angle the vehicle can hold at its speed: lateral acceleration within 8 m/s^2
    // (a car's grip), so the predicted pose stays near the lane that its kernel projects
    // onto with kPoseProjectionSteps steps.
    const float grip = std::atan(8.f * 2.7f / std::max(c.v.speed * c.v.speed, 1e-3f));
    c.v.wheel_angle = std::min(grip, 0.6f) * (2.f * unit(rng) - 1.f);
    c.fp.adaptive_look_ahead = (i % 5) != 0;
    c.world = (i % 3 == 0) ? 5.f + 25.f * unit(rng) : 0.f;
    c.kernel = FollowSpline(set, c.v, c.fp, c.world);
  }
  // The reference is ~1 ms a state (arc length by adaptive Simpson): two threads.
  auto run_reference = [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      Case& c = cases[i];
      c.ref =
          reference::FollowSpline(refs[c.spline], descs[c.spline].speed_limit, c.v, c.fp, c.world);
    }
  };
  std::thread helper(run_reference, 0, kStates / 2);
  run_reference(kStates / 2, kStates);
  helper.join();
  int any_mismatch = 0;
  // The two debug angles at the predicted pose (the defaults' states) are counted apart:
  // the kernel projects that pose with kPoseProjectionSteps along-track steps, the
  // reference searches for it, and near the tight bends of random splines a few
  // millimetres of progress turn the lane's direction at a target 0.5-3.5 m ahead by more
  // than 1e-3 rad. The steering they feed is held to the full tolerance.
  int predicted_angle_mismatches = 0;
  for (const Case& c : cases) {
    const float len = built.headers[c.spline].length;
    bool mismatch = false;
    for (Field& f : fields) {
      const float a = c.kernel.*f.member, b = c.ref.*f.member;
      float diff = std::fabs(a - b);
      if (f.member == &FollowerOutput::progress && descs[c.spline].closed) {
        diff = std::min(diff, len - diff);  // 0 and length are the same point of a loop
      }
      if (f.member == &FollowerOutput::position_delta ||
          f.member == &FollowerOutput::heading_delta) {
        diff = std::min(diff, kTwoPi - diff);  // -pi and pi are the same direction
      }
      // Steering moves by angle / max_yaw_delta: the defaults' 0.1 rad is 5x the seed's
      // sensitivity (and its 4 /m CTE gain turns the 1 mm CTE tolerance into 4e-3).
      const float steer_scale = std::max(1.f, 0.5f / c.fp.max_yaw_delta);
      float tol = std::max(f.abs_tol, f.rel_tol * std::fabs(b));
      if (f.member == &FollowerOutput::steering) tol *= steer_scale;
      if (f.member == &FollowerOutput::position_delta || f.member == &FollowerOutput::steering) {
        // The progress tolerance (1 cm) moves the target by up to 1 cm, which turns its
        // bearing from the vehicle by up to 1 cm / distance: with the 2 m base look-ahead
        // that exceeds 1e-3 rad. Steering scales it by (1 - w) / max_yaw_delta <= 1.4.
        const float d = std::max(Length(Ground(c.ref.target - c.v.position)), 1e-3f);
        const float bearing_tol = 1e-2f / d;
        tol = std::max(tol, f.member == &FollowerOutput::steering ? 1.4f * steer_scale * bearing_tol
                                                                  : bearing_tol);
      }
      f.worst = std::max(f.worst, diff);
      if (!(diff <= tol)) {
        ++f.mismatches;
        const bool debug_angle = f.member == &FollowerOutput::position_delta ||
                                 f.member == &FollowerOutput::heading_delta;
        if (debug_angle && c.fp.lag_compensation > 0.f) {
          ++predicted_angle_mismatches;
        } else {
          mismatch = true;
        }
      }
    }
    any_mismatch += mismatch;
  }
  std::printf(
      "  [equivalence] %d states on %zu random splines; states with any mismatch: %d "
      "(%.3f%%)\n",
      kStates, descs.size(), any_mismatch, 100.0 * any_mismatch / kStates);
  for (const Field& f : fields) {
    const bool bearing =
        f.member == &FollowerOutput::position_delta || f.member == &FollowerOutput::steering;
    std::printf("    %-15s tol %s %.0e%s: %4d mismatches, largest difference %.3e\n", f.name,
                f.abs_tol > 0.f ? "abs" : "rel", f.abs_tol > 0.f ? f.abs_tol : f.rel_tol,
                !bearing                                ? ""
                : f.member == &FollowerOutput::steering ? " or 1.4 cm / target distance"
                                                        : " or 1 cm / target distance",
                f.mismatches, f.worst);
  }
  std::printf("    debug angles at the predicted pose outside the tolerance: %d of %d fields\n",
              predicted_angle_mismatches, kStates);
  EXPECT_LE(any_mismatch, kStates / 1000);
  EXPECT_LE(predicted_angle_mismatches, kStates / 50);
}

}  // namespace
}  // namespace throng
