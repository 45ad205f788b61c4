// One pedestrian's move for a tick, as the parallel backends run it
// (Backend::MovePedestrians; the types: pedestrian_move_types.h).
#pragma once

#include <cstddef>

#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/steering/pedestrian_move_types.h"

namespace throng {

struct PedestrianMoveFunctor {
  PedestrianMoveParams params;
  PedestrianMoveScene in;
  PedestrianMoveOutput out;

  THRONG_HD void operator()(size_t i) const {
    const float dt = params.dt;
    out.px[i] += in.vx[i] * dt;
    out.py[i] += in.vy[i] * dt;
    out.pz[i] += in.vz[i] * dt;
    const Vec3 p = params.frame.ToExternal({out.px[i], out.py[i], out.pz[i]});
    out.x[i] = p.x;
    out.y[i] = p.y;
    out.z[i] = p.z;
    out.next_vx[i] = in.result_vx[i];
    out.next_vy[i] = in.result_vy[i];
    out.next_vz[i] = in.result_vz[i];
  }
};

}  // namespace throng
