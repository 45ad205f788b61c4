// Kinematic bicycle model: turns the follower's controls into motion (docs/VEHICLES.md).
// Ground-plane model in the internal frame (Z up, yaw counter-clockwise): position.z is
// left to the caller (who snaps the vehicle to its road).
#pragma once

#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/vehicles/bicycle_params.h"
#include "kernels/vehicles/vehicle.cuh"

namespace throng {

// The wheel angle after dt: it follows steering * max_steer_angle with the first-order
// lag (wheel += (command - wheel) * min(dt / tau, 1)); no lag: the command.
THRONG_HD inline float LaggedWheelAngle(float wheel, float steering, const BicycleParams& b,
                                        float dt) {
  const float command = Clamp(steering, -1.f, 1.f) * b.max_steer_angle;
  if (!(b.steering_time_constant > 0.f)) return command;
  const float ratio = dt / b.steering_time_constant;
  return wheel + (command - wheel) * (ratio < 1.f ? ratio : 1.f);
}

// Semi-implicit step (docs/VEHICLES.md): speed first, then the wheel angle toward the
// command (wheel += (command - wheel) * min(dt / tau, 1)), then yaw with the new speed and
// the lagged wheel angle, then position along the new heading. Inputs are clamped to their
// ranges (steering beyond +-1 would take tan() toward its pole); yaw is kept in [-pi, pi)
// so it does not lose precision over a long run.
THRONG_HD inline void StepBicycle(VehicleState& v, float steering, float throttle, float brake,
                                  const BicycleParams& b, float dt) {
  steering = Clamp(steering, -1.f, 1.f);
  throttle = Clamp(throttle, 0.f, 1.f);
  brake = Clamp(brake, 0.f, 1.f);
  v.speed += (throttle * b.max_accel - brake * b.max_brake) * dt;
  if (v.speed < 0.f) v.speed = 0.f;  // brakes stop the car, they do not reverse it
  // Steering lag. The wheel only ever moves toward a command within +-max_steer_angle, so
  // a state that starts inside that range stays there and tan() stays off its pole.
  v.wheel_angle = LaggedWheelAngle(v.wheel_angle, steering, b, dt);
  // Steering right turns clockwise, which lowers the counter-clockwise yaw.
  v.yaw = WrapAngle(v.yaw - v.speed / b.wheelbase * tanf(v.wheel_angle) * dt);
  v.position.x += v.speed * dt * cosf(v.yaw);
  v.position.y += v.speed * dt * sinf(v.yaw);
}

}  // namespace throng
