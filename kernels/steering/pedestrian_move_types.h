// What Backend::MovePedestrians reads and writes: each pedestrian moved by its chosen
// velocity for one tick (semi-implicit Euler, as steering.cuh assumes), in the internal
// frame and in the caller's. The rule the parallel backends run: pedestrian_move.cuh.
#pragma once

#include <cstddef>

#include "kernels/input/column_source.h"
#include "kernels/math/frame.cuh"

namespace throng {

struct PedestrianMoveParams {
  Frame frame;  // the caller's
  float dt = 0.f;
  // kThisTick: the positions moved (PedestrianMoveOutput's px, py) are rows [0, count) of
  // the last SolveOrca's agents and pz the last PreparePedestrians' z; the scene's vx, vy
  // are that solve's answer and vz the preparation's; result_v* are the last
  // ReportPedestrians' vx, vy, vz.
  ColumnSource columns = ColumnSource::kHost;
  // false: the moved internal positions (PedestrianMoveOutput's px, py, pz) stay on the
  // backend, for the contact count that reads them there. A backend with memory of its own
  // then leaves them as they were on the host; the cpu and the reference move them anyway.
  bool positions_to_host = true;
  // false: the next state's columns (PedestrianMoveOutput's x to next_vz) stay on the
  // backend, where the next tick's preparation reads them (kLastTick) and
  // Backend::FetchKeptPedestrians copies them to the host once kept.
  bool next_state_to_host = true;
};

// Per pedestrian: the solve's velocity in the ground plane and the vertical speed it kept
// (internal frame), and the velocity the results hold (the caller's frame), which the next
// state takes as it is.
struct PedestrianMoveScene {
  const float* vx;
  const float* vy;
  const float* vz;
  const float* result_vx;
  const float* result_vy;
  const float* result_vz;
  size_t count;
};

// The position, moved in place (internal frame: the contact count after the move reads
// it), and the next state's position and velocity (the caller's frame).
struct PedestrianMoveOutput {
  float* px;
  float* py;
  float* pz;
  float* x;
  float* y;
  float* z;
  float* next_vx;
  float* next_vy;
  float* next_vz;
};

}  // namespace throng
