// What a world keeps per vehicle id from tick to tick (docs/WORLD.md, "Per-id state"): the
// lane progress and wheel angle, and the pose its follower last saw, from which the
// vehicles' preparation reads how the caller's physics moves it. A plain type: the
// backends read and write it, the reference included.
#pragma once

#include "kernels/math/vec.cuh"

namespace throng {

struct VehicleMemory {
  float progress = -1.f;  // m along the lane; < 0: never seen
  float wheel_angle = 0.f;
  // The pose last tick's follower saw (internal frame), to read how the vehicle's physics
  // moved it since (kernels/vehicles/turn_before_move.h). last_dt 0: none yet (a tick's
  // dt is > 0).
  Vec2 last_position;
  float last_yaw = 0.f, last_speed = 0.f, last_dt = 0.f;
  float turn_before_move = 1.f;  // the vehicle's, as its motion shows it
};

}  // namespace throng
