// One closed-loop lap: a controller steers, the shared speed loop (the follower's
// throttle and brake, DriveSetup::speed_loop) drives, the kinematic bicycle moves,
// and the vehicle is snapped onto the road surface (slopes and banks) every tick.
#pragma once

#include "bench/lanes/lane_controllers.h"
#include "bench/lanes/lane_courses.h"

namespace throng::lanes {

struct DriveSetup {
  float set_speed = 10.f;    // m/s: the vehicle's max speed (the follower slows for bends)
  float steering_lag = 0.f;  // s, the bicycle's steering_time_constant
  bool off_line = false;     // start 3 m right of the line, 15 degrees turned away from it
  float dt = 1.f / 60.f;     // s per tick (the follower runs once a tick)
  // The shared speed loop: the follower's throttle and brake with these settings (the
  // defaults; PlainFollowerParams() for ALGORITHMS.md §1's speed rule).
  FollowerParams speed_loop{};
};

struct DriveResult {
  bool completed = false;          // drove the whole lap without leaving the road (|cte| < 10 m)
  float rms_cte = 0, max_cte = 0;  // m, over the lap (from the second 5 on when off-line)
  float mean_speed = 0, max_speed = 0;  // m/s actually driven
  float max_lateral_accel = 0;          // m/s^2, speed^2 * tan(wheel angle) / wheelbase
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
// target speed there).
DriveResult DriveLap(const Course& course, const SplineSetView& set,
                     const LaneController& controller, const DriveSetup& setup);

}  // namespace throng::lanes
