// The world's bicycle (kernels/vehicles/bicycle.cuh): its geometry, limits and steering lag.
// A types header of its own so that the backend interface can name it without the model.
#pragma once

namespace throng {

struct BicycleParams {
  float wheelbase = 2.7f;        // m
  float max_steer_angle = 0.6f;  // rad of wheel angle at steering +-1
  float max_accel = 3.f;         // m/s^2 at throttle 1
  float max_brake = 6.f;         // m/s^2 at brake 1
  // s; first-order lag of the wheel angle behind steering * max_steer_angle, state kept in
  // VehicleState::wheel_angle. 0 = no lag (the wheel angle is the command).
  float steering_time_constant = 0.3f;
};

}  // namespace throng
