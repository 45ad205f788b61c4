// What a tick's follower leaves in each vehicle's memory for the next tick
// (FollowRunOptions::memory; docs/WORLD.md, "Per-id state"), as the parallel backends
// write it: the progress along its lane, from which the next preparation hints, and the
// wheel angle its steering turns the world's bicycle to. The move by the world's bicycle
// (vehicle_move.cuh) turns its wheel by the same rule, so a world's memory is the same
// whether the world or the caller moves the vehicle.
#pragma once

#include <cstddef>

#include "kernels/math/hd.cuh"
#include "kernels/vehicles/bicycle.cuh"
#include "kernels/vehicles/follower_types.h"
#include "kernels/vehicles/vehicle_memory.h"

namespace throng {

struct VehicleRememberFunctor {
  VehicleMemory* memory;
  const float* progress;
  const float* steering;
  BicycleParams wheel;  // its steering range and lag (LaggedWheelAngle reads no more)
  float dt;

  // The bicycle a follower's parameters were told (the world's: its range, lag and tick).
  static VehicleRememberFunctor For(const FollowerParams& told, VehicleMemory* memory,
                                    const float* progress, const float* steering) {
    BicycleParams wheel;
    wheel.max_steer_angle = told.max_steer_angle;
    wheel.steering_time_constant = told.steering_lag;
    return {memory, progress, steering, wheel, told.control_period};
  }

  THRONG_HD void operator()(size_t i) const {
    memory[i].progress = progress[i];
    memory[i].wheel_angle = LaggedWheelAngle(memory[i].wheel_angle, steering[i], wheel, dt);
  }
};

}  // namespace throng
