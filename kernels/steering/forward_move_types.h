// What Backend::MoveForwardAgents reads and writes: each forward agent moved for one tick
// along the direction its cast fan chose (ForwardSceneResults::move) at its speed, and the
// next state's position and heading in the caller's frame. The rule the parallel backends
// run: forward_move.cuh.
#pragma once

#include <cstddef>

#include "kernels/input/column_source.h"
#include "kernels/math/frame.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

struct ForwardMoveParams {
  Frame frame;  // the caller's
  float dt = 0.f;
  // kThisTick: each agent's position and its step (speed * dt) are where the last
  // PrepareForwardScene put them, its direction what the last SteerForwardScene chose; the
  // scene's pointers are not read (the world has no host copy of them).
  ColumnSource columns = ColumnSource::kHost;
  // false: the next state stays on the backend (Backend::KeepForward keeps it for the next
  // PrepareForwardScene). A backend with memory of its own then leaves the host's as they
  // were; the cpu and the reference write them.
  bool next_state_to_host = true;
};

// Per agent (internal frame): where it is, the unit direction it moves along this tick,
// and its speed.
struct ForwardMoveScene {
  const Vec3* position;
  const Vec3* move;
  const float* speed;
  size_t count;
};

// The next state's position and forward direction (the caller's frame).
struct ForwardMoveOutput {
  float* x;
  float* y;
  float* z;
  float* forward_x;
  float* forward_y;
  float* forward_z;
};

}  // namespace throng
