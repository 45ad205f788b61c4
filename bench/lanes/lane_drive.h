// One closed-loop lap: a controller steers, the shared speed loop (the follower's
// throttle and brake, DriveSetup::speed_loop, or the caller's own, which ignores curves)
// drives, the kinematic bicycle moves, and the vehicle is snapped onto the road surface
// (slopes and banks) every tick.
#pragma once

#include "bench/lanes/lane_controllers.h"
#include "bench/lanes/lane_courses.h"
#include "kernels/math/scalar.cuh"

namespace throng::lanes {

// Who sets the speed. The follower: its throttle and brake (DriveSetup::speed_loop), which
// slow for curves. Imposed (issue 34, a game that owns the throttle): the caller's loop
// a = kImposedSpeedGain * (target - v) within the bicycle's acceleration and braking, to a
// constant target (the set speed) or a ramp (a triangle from half the set speed up to it
// and back, every kImposedRampPeriod), neither of which slows for curves.
enum class SpeedControl { kFollower, kImposedConstant, kImposedRamp };
constexpr float kImposedSpeedGain = 1.f;    // 1/s
constexpr float kImposedRampPeriod = 20.f;  // s

enum class Integration { kTurnFirst, kExactArc, kMoveFirst };

struct DriveSetup {
  float set_speed = 10.f;    // m/s: the vehicle's max speed (the follower slows for bends)
  float steering_lag = 0.f;  // s, the bicycle's steering_time_constant
  bool off_line = false;     // start 3 m right of the line, 15 degrees turned away from it
  float dt = 1.f / 60.f;     // s per tick (the follower runs once a tick)
  // The shared speed loop: the follower's throttle and brake with these settings (the
  // defaults; PlainFollowerParams() for docs/ALGORITHMS.md §1's speed rule).
  FollowerParams speed_loop{};
  SpeedControl speed_control = SpeedControl::kFollower;
  float off_line_offset = 3.f;                // m right of the line
  float off_line_angle = 15.f * kPi / 180.f;  // rad, turned away from it
  // How the vehicle moves in a tick: Throng's bicycle (turn, then move along the new
  // heading), or a caller's own integration with the bicycle's turn and speed, moving
  // along the exact arc (chord along the mean heading) or first (along the old heading).
  Integration integration = Integration::kTurnFirst;
  // As a world does, the follower is told the share of each tick's turn made before the
  // move as the vehicle's own motion shows it (kernels/vehicles/turn_before_move.h);
  // false: it keeps the bicycle's (turn first) whatever the integration.
  bool read_turn_before_move = true;
};

struct DriveResult {
  bool completed = false;          // drove the whole lap without leaving the road (|cte| < 10 m)
  float rms_cte = 0, max_cte = 0;  // m, over the lap (from the second 5 on when off-line)
  float mean_speed = 0, max_speed = 0;  // m/s actually driven
  float max_lateral_accel = 0;          // m/s^2, speed^2 * tan(wheel angle) / wheelbase
  // Share of the ticks driven more than 0.5 m/s above the follower's curvature-safe
  // target speed (imposed speeds: how much of the lap the caller drives too fast).
  float above_safe_share = 0;
  // Off-line starts: the settling time, from which |cte| stays <= 0.2 m for 3 s (-1:
  // never; a pass through the band on the way to an overshoot is not arriving), and the
  // largest excursion past the line on the far side in the first 10 s.
  float time_to_line = -1;  // s
  float overshoot = 0;      // m
};

// Overshoots below 2 cm (under 1% of the 3 m start) count as none: an approach that beats
// a baseline's 0.000 m must not be a coin toss of float rounding.
inline float OvershootAllowance(float baseline_overshoot) {
  return baseline_overshoot > 0.02f ? baseline_overshoot : 0.02f;
}

// Starting on the lane at arc length 0 (a straight) at min(set speed, the follower's
// target speed there), or at the imposed loop's first target. A lap is the closed lane's
// length, or an open lane's up to its run-out.
DriveResult DriveLap(const Course& course, const SplineSetView& set,
                     const LaneController& controller, const DriveSetup& setup);

}  // namespace throng::lanes
