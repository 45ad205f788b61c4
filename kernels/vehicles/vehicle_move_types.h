// What Backend::MoveVehicles reads and writes: each vehicle moved for one tick by the
// world's bicycle (kernels/vehicles/bicycle.cuh) under the controls its follower chose, in
// the internal frame (its body, which the contact count after the move reads) and in the
// caller's (the next state). The rule the parallel backends run: vehicle_move.cuh.
#pragma once

#include <cstddef>

#include "kernels/input/column_source.h"
#include "kernels/math/frame.cuh"
#include "kernels/vehicles/bicycle_params.h"
#include "kernels/vehicles/vehicle_body.h"

namespace throng {

struct VehicleMoveParams {
  Frame frame;  // the caller's
  BicycleParams bicycle;
  float dt = 0.f;
  // kThisTick: the scene's pose, speed and wheel angle and the output's bodies (as they
  // come in) are the last PrepareVehicles' columns of those names, steering and progress
  // the last FollowSplines' and throttle and brake its as the last BrakeForPaths capped
  // them (a device reads its own copies).
  ColumnSource columns = ColumnSource::kHost;
  // false: the moved bodies stay on the backend, for the contact count that reads them
  // there (ContactScene::bodies_columns); a backend with memory of its own leaves the
  // host's rows as they were (the cpu and the reference move them anyway).
  bool bodies_to_host = true;
  // false: the wheel angles and the next state stay on the backend, for the commit that
  // keeps them (Backend::KeepVehicles) and the next preparation that reads them there
  // (VehiclePrepareParams::columns kLastTick); a backend with memory of its own leaves
  // the host's rows as they were (the cpu and the reference write them anyway).
  bool next_state_to_host = true;
};

// Per vehicle, internal frame: the pose, speed and wheel angle it moves from, the controls
// the follower chose (after the path check's braking), and its progress along its lane,
// which the next state keeps as its hint.
struct VehicleMoveScene {
  const float* px;
  const float* py;
  const float* pz;
  const float* yaw;
  const float* speed;
  const float* wheel_angle;
  const float* steering;
  const float* throttle;
  const float* brake;
  const float* progress;
  size_t count;
};

// The wheel angle after the move (it may be the scene's rows), the body moved with the
// vehicle (axle and heading; its size kept), and the next state's pose, speed and progress
// hint in the caller's frame.
struct VehicleMoveOutput {
  float* wheel_angle;
  VehicleBody* bodies;
  float* x;
  float* y;
  float* z;
  float* yaw;
  float* speed;
  float* progress_hint;
};

}  // namespace throng
