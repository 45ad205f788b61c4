// Moving vehicles the way Throng's follower expects them to move, for a game that applies
// the steering, throttle and brake itself: the world's kinematic bicycle (wheelbase,
// steering range, acceleration, braking, steering lag; docs/VEHICLES.md) in the world's
// frame. A game with its own vehicle physics uses that instead, and tells the world its
// steering lag (WorldConfig.bicycle.steering_lag).
#pragma once

#include <vector>

#include "throng/v1/simulation.pb.h"

namespace throng::client {

class VehicleMotion {
 public:
  // The frame (up_axis, handedness) and the bicycle (absent fields: the engine's
  // defaults) of the world the vehicles drive in.
  explicit VehicleMotion(const v1::WorldConfig& config);

  // One tick of `controls` (the response's vehicle rows, in the batch's order) applied to
  // the batch's x, y, z, yaw and speed. Each row's wheel angle, the steering lag's state,
  // is kept here between calls; a batch of another length starts every wheel straight.
  void Apply(const v1::VehicleResults& controls, float dt, v1::VehicleBatch* vehicles);

 private:
  v1::UpAxis up_;
  v1::Handedness handedness_;
  v1::BicycleConfig bicycle_;
  std::vector<float> wheel_angle_;  // rad, per row
};

}  // namespace throng::client
