// Lane keeping with the follower's defaults against pure pursuit and Stanley (issue 18),
// on the harness of throng-bench-lanes (bench/lanes/): the target table's worst cells at
// the bound reached, each of which the plain formula of docs/ALGORITHMS.md §1 fails; the same at
// a speed the caller imposes (issue 34); and the plain formula's switches still doing what
// §1 says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/lanes/lane_drive.h"
#include "kernels/vehicles/spline.h"

namespace throng::lanes {
namespace {

struct Cell {
  const char* course;
  float lag, speed;
};

struct Baselines {
  DriveResult pp, stanley;
  float BestRms() const { return std::min(Rms(pp), Rms(stanley)); }
  float BestMax() const { return std::min(Max(pp), Max(stanley)); }
  float BestTime() const { return std::min(Time(pp), Time(stanley)); }
  float BestOvershoot() const { return std::min(Over(pp), Over(stanley)); }
  static float Rms(const DriveResult& r) { return r.completed ? r.rms_cte : 1e9f; }
  static float Max(const DriveResult& r) { return r.completed ? r.max_cte : 1e9f; }
  static float Time(const DriveResult& r) {
    return r.completed && r.time_to_line >= 0.f ? r.time_to_line : 1e9f;
  }
  static float Over(const DriveResult& r) { return r.completed ? r.overshoot : 1e9f; }
};

// Throng is told the vehicle's lag and the tick, as a world tells it (docs/VEHICLES.md).
DriveResult DriveThrong(const Course& c, const SplineSet& set, FollowerParams p,
                        const DriveSetup& setup) {
  p.steering_lag = setup.steering_lag;
  if (p.control_period > 0.f) p.control_period = setup.dt;
  return DriveLap(c, set.View(), *MakeThrong(p, "throng"), setup);
}

Baselines DriveBaselines(const Course& c, const SplineSet& set, const DriveSetup& setup) {
  const BicycleParams bike;
  return {DriveLap(c, set.View(), *MakePurePursuit({}, bike), setup),
          DriveLap(c, set.View(), *MakeStanley({}, bike), setup)};
}

// On-line starts: RMS |cte| at most `bound` times the better baseline's and max |cte| below
// both, over one lap; the plain formula misses the 0.5x target on the same cell.
void ExpectOnLine(const Cell& cell, float bound) {
  const Course& course = CourseNamed(cell.course);
  const SplineSet set = BuildSplineSet({course.lane});
  const DriveSetup setup{cell.speed, cell.lag, false};
  const Baselines b = DriveBaselines(course, set, setup);
  const DriveResult t = DriveThrong(course, set, FollowerParams{}, setup);
  const DriveResult plain = DriveThrong(course, set, PlainFollowerParams(), setup);
  std::printf(
      "  [lanes] %-8s lag %.1f %2.0f m/s on-line: RMS / max |cte| throng %.4f / %.4f, plain "
      "%.4f / %.4f, pure pursuit %.4f / %.4f, stanley %.4f / %.4f\n",
      cell.course, cell.lag, cell.speed, t.rms_cte, t.max_cte, plain.rms_cte, plain.max_cte,
      b.pp.rms_cte, b.pp.max_cte, b.stanley.rms_cte, b.stanley.max_cte);
  ASSERT_TRUE(t.completed);
  EXPECT_LE(t.rms_cte, bound * b.BestRms()) << cell.course;
  EXPECT_LT(t.max_cte, b.BestMax()) << cell.course;
  EXPECT_GT(plain.rms_cte, 0.5f * b.BestRms()) << "the plain formula already meets the target";
}

// Off-line starts (3 m right, 15 degrees away): settled within 0.2 m sooner than both
// baselines, overshooting no more than the smaller (2 cm counts as none); the plain
// formula does not manage both.
void ExpectOffLine(const Cell& cell) {
  const Course& course = CourseNamed(cell.course);
  const SplineSet set = BuildSplineSet({course.lane});
  const DriveSetup setup{cell.speed, cell.lag, true};
  const Baselines b = DriveBaselines(course, set, setup);
  const DriveResult t = DriveThrong(course, set, FollowerParams{}, setup);
  const DriveResult plain = DriveThrong(course, set, PlainFollowerParams(), setup);
  std::printf(
      "  [lanes] %-8s lag %.1f %2.0f m/s off-line: settled / overshoot throng %.2f s / %.3f m, "
      "plain %.2f s / %.3f m, pure pursuit %.2f s / %.3f m, stanley %.2f s / %.3f m\n",
      cell.course, cell.lag, cell.speed, t.time_to_line, t.overshoot, plain.time_to_line,
      plain.overshoot, b.pp.time_to_line, b.pp.overshoot, b.stanley.time_to_line,
      b.stanley.overshoot);
  ASSERT_TRUE(t.completed);
  ASSERT_GE(t.time_to_line, 0.f);
  EXPECT_LT(t.time_to_line, b.BestTime()) << cell.course;
  EXPECT_LE(t.overshoot, OvershootAllowance(b.BestOvershoot())) << cell.course;
  const bool plain_wins = plain.completed && plain.time_to_line >= 0.f &&
                          plain.time_to_line < b.BestTime() &&
                          plain.overshoot <= OvershootAllowance(b.BestOvershoot());
  EXPECT_FALSE(plain_wins) << "the plain formula already meets the target";
}

// The worst on-line cell of each course at 60 Hz (throng-bench-lanes, docs/VEHICLES.md),
// at the ratio reached plus a margin (target 0.5x).
TEST(LaneKeepingTest, hairpin_worst_on_line_cell) { ExpectOnLine({"hairpin", 0.3f, 5.f}, 0.25f); }
TEST(LaneKeepingTest, chicane_worst_on_line_cell) { ExpectOnLine({"chicane", 0.3f, 5.f}, 0.15f); }
TEST(LaneKeepingTest, hill_worst_on_line_cell) { ExpectOnLine({"hill", 0.3f, 5.f}, 0.25f); }
TEST(LaneKeepingTest, big_loop_worst_on_line_cell) {
  ExpectOnLine({"big_loop", 0.3f, 10.f}, 0.45f);
}

// The off-line cells closest to losing (settling within 6% of pure pursuit's), and the
// lagged high-speed start where pure pursuit never settles.
TEST(LaneKeepingTest, hill_worst_off_line_cell) { ExpectOffLine({"hill", 0.f, 5.f}); }
TEST(LaneKeepingTest, big_loop_worst_off_line_cell) { ExpectOffLine({"big_loop", 0.f, 5.f}); }
TEST(LaneKeepingTest, hairpin_lagged_fast_off_line_cell) { ExpectOffLine({"hairpin", 0.3f, 35.f}); }

// Imposed speed (issue 34): the caller's own speed loop (bench/lanes/lane_drive.h) drives
// a constant speed or a ramp that never slows for bends, 30, 60 or 90 km/h, at ticks from
// 10 to 60 Hz. The target: RMS |cte| at most 0.75x the better baseline's and max below
// both; off-line (5 m, 20 degrees), settled within 0.2 m sooner than both. The cells below
// are the worst of throng-bench-lanes --speed-control constant|ramp and the ones that
// failed before (docs/VEHICLES.md, "Imposed speed"), bounded at the ratio reached plus a
// margin.
struct ImposedCell {
  const char* course;
  float rate, lag, speed;
  SpeedControl control = SpeedControl::kImposedConstant;
  Integration integration = Integration::kTurnFirst;
  bool read_turn_before_move = true;
};

struct ImposedRun {
  DriveResult throng;
  Baselines baselines;
};

ImposedRun DriveImposed(const ImposedCell& cell, bool off_line) {
  const Course& course = CourseNamed(cell.course);
  const SplineSet set = BuildSplineSet({course.lane});
  DriveSetup setup{cell.speed, cell.lag, off_line, 1.f / cell.rate};
  setup.speed_control = cell.control;
  setup.integration = cell.integration;
  setup.read_turn_before_move = cell.read_turn_before_move;
  setup.off_line_offset = 5.f;  // the off-line start: 5 m, 20 degrees
  setup.off_line_angle = 20.f * kPi / 180.f;
  return {DriveThrong(course, set, FollowerParams{}, setup), DriveBaselines(course, set, setup)};
}

// `min_fast`: the share of the lap driven above the follower's curvature-safe speed.
void ExpectImposedOnLine(const ImposedCell& cell, float bound, float min_fast = 0.2f) {
  const ImposedRun run = DriveImposed(cell, false);
  const DriveResult& t = run.throng;
  const Baselines& b = run.baselines;
  std::printf(
      "  [lanes] %-12s %2.0f Hz lag %.1f %4.1f m/s imposed on-line: RMS / max |cte| throng %.4f "
      "/ %.4f, pure pursuit %.4f / %.4f, stanley %.4f / %.4f; above the curvature-safe speed "
      "%.0f%% of the lap\n",
      cell.course, cell.rate, cell.lag, cell.speed, t.rms_cte, t.max_cte, b.pp.rms_cte,
      b.pp.max_cte, b.stanley.rms_cte, b.stanley.max_cte, 100.f * t.above_safe_share);
  ASSERT_TRUE(t.completed);
  EXPECT_GE(t.above_safe_share, min_fast) << "the imposed speed should be above the safe one";
  EXPECT_LE(t.rms_cte, bound * b.BestRms()) << cell.course;
  EXPECT_LT(t.max_cte, b.BestMax()) << cell.course;
}

void ExpectImposedOffLine(const ImposedCell& cell) {
  const ImposedRun run = DriveImposed(cell, true);
  const DriveResult& t = run.throng;
  const Baselines& b = run.baselines;
  std::printf(
      "  [lanes] %-12s %2.0f Hz lag %.1f %4.1f m/s imposed off-line: settled throng %.2f s, "
      "pure pursuit %.2f s, stanley %.2f s (-1: never)\n",
      cell.course, cell.rate, cell.lag, cell.speed, t.time_to_line, b.pp.time_to_line,
      b.stanley.time_to_line);
  ASSERT_TRUE(t.completed);
  ASSERT_GE(t.time_to_line, 0.f);
  EXPECT_LT(t.time_to_line, b.BestTime()) << cell.course;
}

// Were 1.31x, 1.71x and 1.41x before the follower counted the bicycle's per-tick heading
// lag (kTickTurnShare).
TEST(LaneKeepingTest, imposed_speed_chicane_10hz_without_lag) {
  ExpectImposedOnLine({"chicane", 10.f, 0.f, 25.f}, 0.1f);
}
TEST(LaneKeepingTest, imposed_speed_hairpin_turn_10hz) {
  ExpectImposedOnLine({"hairpin_turn", 10.f, 0.3f, 16.667f}, 0.5f);
}
TEST(LaneKeepingTest, imposed_speed_s_bends_10hz) {
  ExpectImposedOnLine({"s_bends", 10.f, 0.3f, 25.f}, 0.55f);
}
// Rang (period two, 2 cm) at 1.16-2.6x with the whole heading error corrected per tick and
// a look-ahead shorter than a tick's travel (kMinLookAheadTicks).
TEST(LaneKeepingTest, imposed_speed_lane_change_10hz_without_lag) {
  ExpectImposedOnLine({"lane_change", 10.f, 0.f, 25.f}, 0.1f);
}
TEST(LaneKeepingTest, imposed_speed_random_road_60hz) {
  ExpectImposedOnLine({"random_1", 60.f, 0.3f, 16.667f}, 0.05f);
}
// The worst cells of each speed control (the big loop's bends are gentle: at 60 km/h its
// constant speed is never above the safe one).
TEST(LaneKeepingTest, imposed_speed_worst_constant_cell) {
  ExpectImposedOnLine({"big_loop", 10.f, 0.3f, 16.667f}, 0.6f, 0.f);
}
TEST(LaneKeepingTest, imposed_speed_worst_ramp_cell) {
  ExpectImposedOnLine({"big_loop", 10.f, 0.3f, 25.f, SpeedControl::kImposedRamp}, 0.7f);
}

// A caller's own integration: the bicycle's turn and speed, the move along the exact arc
// or first, along the old heading. Assuming every vehicle turns first, the follower
// steered exact arcs outside the bend (11.9x and 9.1x the better baseline below) and
// lagged a tick behind on moving first (3.6x and 3.4x; throng-bench-lanes --integration
// exact-arc|move-first --assume-turn-first). Read from the vehicle's motion
// (VehicleState::turn_before_move), and steered from where a move-first vehicle is going
// anyway (UnturnedShare): 0.13x, 0.29x, 0.05x and 0.14x.
void ExpectCallerIntegrationOnLine(ImposedCell cell, Integration integration, float bound,
                                   float min_fast) {
  cell.integration = integration;
  ExpectImposedOnLine(cell, bound, min_fast);
  cell.read_turn_before_move = false;
  const ImposedRun untold = DriveImposed(cell, false);
  EXPECT_GT(untold.throng.rms_cte, untold.baselines.BestRms())
      << "assuming turn first no longer fails here: pick a cell that shows the reading";
}
TEST(LaneKeepingTest, imposed_speed_exact_arc_big_loop_10hz) {
  ExpectCallerIntegrationOnLine({"big_loop", 10.f, 0.3f, 8.333f}, Integration::kExactArc, 0.2f,
                                0.f);
}
TEST(LaneKeepingTest, imposed_speed_exact_arc_random_road_10hz_without_lag) {
  ExpectCallerIntegrationOnLine({"random_3", 10.f, 0.f, 25.f}, Integration::kExactArc, 0.4f, 0.2f);
}
TEST(LaneKeepingTest, imposed_speed_move_first_big_loop_10hz_without_lag) {
  ExpectCallerIntegrationOnLine({"big_loop", 10.f, 0.f, 25.f}, Integration::kMoveFirst, 0.1f, 0.2f);
}
TEST(LaneKeepingTest, imposed_speed_move_first_lane_change_20hz_without_lag) {
  ExpectCallerIntegrationOnLine({"lane_change", 20.f, 0.f, 25.f}, Integration::kMoveFirst, 0.2f,
                                0.2f);
}

// At 90 km/h on the lagged bicycle neither baseline settles. At 10 Hz without lag Throng
// settled 0.2 s after pure pursuit before a tick's correction was dead-beat for wheels
// that take the command within the tick (MaxTickCorrection); on the ramp from 15 km/h in
// the same tick before the approach share went from 0.7 to 0.8.
TEST(LaneKeepingTest, imposed_speed_off_line_s_bends_90kmh) {
  ExpectImposedOnLine({"s_bends", 60.f, 0.3f, 25.f}, 0.1f);
  ExpectImposedOffLine({"s_bends", 60.f, 0.3f, 25.f});
}
TEST(LaneKeepingTest, imposed_speed_off_line_10hz_without_lag) {
  ExpectImposedOffLine({"hairpin", 10.f, 0.f, 25.f});
}
TEST(LaneKeepingTest, imposed_speed_off_line_ramp_from_15kmh_at_10hz) {
  ExpectImposedOffLine({"hairpin", 10.f, 0.3f, 8.333f, SpeedControl::kImposedRamp});
}

// Where the curvature speed limit binds, the lateral acceleration (speed^2 tan(wheel angle)
// / wheelbase, the bicycle's) stays within max_lateral_accel over the lap. Without the
// speed loop's peak curvature and without the wheel lead (the follower before them) the
// same cell exceeds the limit by at least `before_above`.
void ExpectWithinLateralLimit(const Cell& cell, float before_above) {
  const Course& course = CourseNamed(cell.course);
  const SplineSet set = BuildSplineSet({course.lane});
  const DriveSetup setup{cell.speed, cell.lag, false};
  const DriveResult t = DriveThrong(course, set, FollowerParams{}, setup);
  DriveSetup before_setup = setup;
  before_setup.speed_loop.peak_curvature_speed = false;
  FollowerParams before = FollowerParams{};
  before.wheel_response_time = 0.f;
  const DriveResult b = DriveThrong(course, set, before, before_setup);
  const float limit = setup.speed_loop.max_lateral_accel;
  std::printf(
      "  [lanes] %-8s lag %.1f %2.0f m/s: max lateral acceleration %.3f m/s^2 (before %.3f), "
      "limit %.1f; mean speed %.2f m/s (before %.2f)\n",
      cell.course, cell.lag, cell.speed, t.max_lateral_accel, b.max_lateral_accel, limit,
      t.mean_speed, b.mean_speed);
  ASSERT_TRUE(t.completed);
  EXPECT_LE(t.max_lateral_accel, limit) << cell.course;
  EXPECT_GT(t.max_lateral_accel, 0.95f * limit) << "the limit does not bind on this cell";
  EXPECT_GT(b.max_lateral_accel, limit + before_above) << "it was already within the limit";
}

TEST(LaneKeepingTest, hairpin_lagged_lateral_acceleration_within_the_limit) {
  ExpectWithinLateralLimit({"hairpin", 0.3f, 15.f}, 0.8f);
}
TEST(LaneKeepingTest, chicane_lateral_acceleration_within_the_limit) {
  ExpectWithinLateralLimit({"chicane", 0.f, 15.f}, 0.5f);
}
TEST(LaneKeepingTest, hill_lagged_lateral_acceleration_within_the_limit) {
  ExpectWithinLateralLimit({"hill", 0.3f, 15.f}, 0.1f);
}

// docs/ALGORITHMS.md §1's switches on the plain formula: crosstrack_gain = 0 leaves the two
// angles alone, adaptive_look_ahead = false a fixed look-ahead of look_ahead_base.
TEST(LaneKeepingTest, plain_formula_switches_still_do_what_section_1_says) {
  const Course& course = CourseNamed("hairpin");
  const SplineSet set = BuildSplineSet({course.lane});
  FollowerParams p = PlainFollowerParams();
  p.crosstrack_gain = 0.f;
  p.adaptive_look_ahead = false;
  for (float s : {10.f, 121.f, 130.f, 250.f}) {
    for (float offset : {-1.f, 0.f, 1.5f}) {
      const SplinePoint at = SampleSpline(set.View(), 0, s);
      VehicleState v{};
      v.position = at.position + Normalize(Cross(at.tangent, Vec3{0.f, 0.f, 1.f})) * offset;
      v.yaw = YawOf(Ground(at.tangent)) + 0.1f;
      v.speed = 12.f;
      v.progress_hint = s;
      v.max_speed = 20.f;
      v.wheel_angle = 0.2f;  // ignored: no lag compensation
      const FollowerOutput o = FollowSpline(set.View(), v, p, 0.f);
      EXPECT_FLOAT_EQ(o.look_ahead, p.look_ahead_base);
      const float w = Lerp(p.heading_weight, 0.3f,
                           Clamp(CurvatureAt(set.View(), 0, o.progress) * 3.f, 0.f, 1.f));
      const float expected =
          Clamp((o.position_delta * (1.f - w) + o.heading_delta * w) / p.max_yaw_delta, -1.f, 1.f);
      EXPECT_FLOAT_EQ(o.steering, expected) << "s " << s << " offset " << offset;
      // The CTE term is back with its gain, exactly as §1 step 10 writes it.
      FollowerParams with_cte = p;
      with_cte.crosstrack_gain = 0.15f;
      const FollowerOutput c = FollowSpline(set.View(), v, with_cte, 0.f);
      EXPECT_FLOAT_EQ(c.steering,
                      Clamp((c.position_delta * (1.f - w) + c.heading_delta * w) / p.max_yaw_delta -
                                c.cte * 0.15f,
                            -1.f, 1.f));
    }
  }
}

}  // namespace
}  // namespace throng::lanes
