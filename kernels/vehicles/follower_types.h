// What the vehicle follower reads and answers (kernels/vehicles/vehicle.cuh), as types
// only: every backend and the reference share them without the follower's code. The
// contract (signs, formulas, defaults) is docs/VEHICLES.md.
#pragma once

#include <cstdint>

#include "kernels/math/vec.cuh"

namespace throng {

// Per world; a vehicle may override any (docs/VEHICLES.md, "Parameters and defaults").
struct FollowerParams {
  // Steering gains: chosen with feed-forward, lag compensation and the approach limit on
  // (throng-bench-lanes --search on the hairpin and chicane courses, docs/VEHICLES.md);
  // PlainFollowerParams() has the seed's (2 m, 0.2 s, 0.7, 0.5 rad, 0.15 /m).
  float look_ahead_base = 0.5f;         // m
  float look_ahead_speed_factor = 0.f;  // s
  float heading_weight = 0.3f;          // blend weight of heading delta on straights
  float max_yaw_delta = 0.1f;           // rad of yaw command that gives full steering
  float crosstrack_gain = 4.f;          // 1/m; 0 switches the CTE term off
  float projection_window = 6.f;        // m, local search around the progress hint
  float max_lateral_accel = 3.f;        // m/s^2
  float max_brake_decel = 6.f;          // m/s^2
  float speed_gain = 0.5f;              // s/m, throttle/brake per m/s of speed error
  bool adaptive_look_ahead = true;      // false: look_ahead = look_ahead_base (tests)
  // Lane keeping beyond docs/ALGORITHMS.md §1 (docs/VEHICLES.md, "Feed-forward, lag
  // compensation, approach"); with these four at 0 the formula is §1's exactly.
  float curvature_feedforward = 1.f;  // 0..2: share of the lane's curvature steered open-loop
  float lag_compensation = 0.2f;      // 0..2: share of steering_lag steered ahead (0 = now)
  // The vehicle the follower steers (a world's Advance passes its bicycle's): wheel angle
  // at steering +-1, wheelbase and the wheels' first-order lag behind the command.
  float wheelbase = 2.7f;        // m
  float max_steer_angle = 0.6f;  // rad
  float steering_lag = 0.3f;     // s
  // Far from the line, head for it no steeper than this share of the tightest turn can
  // straighten out before reaching it (0 = no limit): no overshoot after a lane change.
  float approach_curvature_share = 0.8f;  // 0..1 (0.7 until issue 34: docs/VEHICLES.md)
  // s between two follower calls (a world passes its tick): the yaw feedback is scaled
  // down where one tick's correction would overshoot at speed (0 = continuous).
  float control_period = 1.f / 60.f;
  // The wheels are commanded so that they reach the asked angle with this time constant
  // instead of steering_lag (a lead on the lag; 0 = off, as when steering_lag is no more).
  float wheel_response_time = 0.15f;  // s
  // Speed (docs/VEHICLES.md, "Speed"): the curvature bound is also the segments' peak
  // curvature (SplineKnot::peak_curvature), what a close follower actually turns at.
  bool peak_curvature_speed = true;
};

// docs/ALGORITHMS.md §1 as written, with the seed's gains: no feed-forward, no lag
// compensation, no approach limit, no tick scaling. What the §1 tests check, and the
// formula to compare against (docs/VEHICLES.md).
inline FollowerParams PlainFollowerParams() {
  FollowerParams p;
  p.look_ahead_base = 2.f;
  p.look_ahead_speed_factor = 0.2f;
  p.heading_weight = 0.7f;
  p.max_yaw_delta = 0.5f;
  p.crosstrack_gain = 0.15f;
  p.curvature_feedforward = 0.f;
  p.lag_compensation = 0.f;
  p.approach_curvature_share = 0.f;
  p.control_period = 0.f;
  p.wheel_response_time = 0.f;
  p.peak_curvature_speed = false;
  return p;
}

// What the follower reads of a vehicle (the bicycle model writes it back).
struct VehicleState {
  Vec3 position;        // internal frame, m
  float yaw;            // rad, counter-clockwise from +X
  float speed;          // m/s, >= 0
  uint32_t spline;      // lane the vehicle follows
  float progress_hint;  // last tick's progress, m
  float max_speed;      // m/s, the vehicle's own limit
  // Current road-wheel angle, rad, + = right: the bicycle model's steering-lag state
  // (kernels/vehicles/bicycle.cuh; it follows steering * max_steer_angle). Lag compensation
  // (PredictPose) and LeadWheels read it.
  float wheel_angle = 0.f;
  // Share of a tick's turn the vehicle's physics makes before its move: 1 turns first
  // (Throng's bicycle), 0.5 moves along the exact arc, 0 moves first. A world reads it from
  // the vehicle's motion (kernels/vehicles/turn_before_move.h); TickHeadingLag uses it.
  float turn_before_move = 1.f;
};

// Controls plus the debug values docs/ALGORITHMS.md §1 lists (what a developer draws).
struct FollowerOutput {
  float steering = 0.f;  // [-1, 1], +1 full right
  float throttle = 0.f;  // [0, 1]
  float brake = 0.f;     // [0, 1]
  float target_speed = 0.f;
  float cte = 0.f;             // m, > 0: right of the centre line
  float progress = 0.f;        // m; store as next tick's progress_hint
  float position_delta = 0.f;  // rad, > 0: the target lies to the right
  float heading_delta = 0.f;   // rad, > 0: the lane at the target turns right of the vehicle
  float look_ahead = 0.f;      // m
  Vec3 progress_point;         // spline point at `progress`
  Vec3 target;                 // look-ahead point
  Vec3 tangent;                // unit tangent at the target
};

}  // namespace throng
