// One forward agent's move for a tick, as the parallel backends run it
// (Backend::MoveForwardAgents; the types: forward_move_types.h).
#pragma once

#include <cstddef>

#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/steering/forward_move_types.h"

namespace throng {

struct ForwardMoveFunctor {
  ForwardMoveParams params;
  ForwardMoveScene in;
  ForwardMoveOutput out;
  // Each agent's speed * dt where its preparation made it (ForwardMoveParams::columns
  // kThisTick: `in.speed` is not read), the same float.
  const float* step = nullptr;

  THRONG_HD void operator()(size_t i) const {
    const Vec3 m = in.move[i];
    const Vec3 p = in.position[i] + m * (step != nullptr ? step[i] : in.speed[i] * params.dt);
    const Vec3 pe = params.frame.ToExternal(p);
    const Vec3 me = params.frame.ToExternal(m);
    out.x[i] = pe.x;
    out.y[i] = pe.y;
    out.z[i] = pe.z;
    out.forward_x[i] = me.x;
    out.forward_y[i] = me.y;
    out.forward_z[i] = me.z;
  }
};

}  // namespace throng
