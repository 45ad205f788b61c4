// One vehicle's move for a tick, as the parallel backends run it (Backend::MoveVehicles;
// the types: vehicle_move_types.h).
#pragma once

#include <cstddef>

#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/vehicles/bicycle.cuh"
#include "kernels/vehicles/vehicle_move_types.h"

namespace throng {

struct VehicleMoveFunctor {
  VehicleMoveParams params;
  VehicleMoveScene in;
  VehicleMoveOutput out;

  THRONG_HD void operator()(size_t i) const {
    VehicleState st{};
    st.position = {in.px[i], in.py[i], in.pz[i]};
    st.yaw = in.yaw[i];
    st.speed = in.speed[i];
    st.wheel_angle = in.wheel_angle[i];
    StepBicycle(st, in.steering[i], in.throttle[i], in.brake[i], params.bicycle, params.dt);
    out.wheel_angle[i] = st.wheel_angle;
    const Vec3 p = params.frame.ToExternal(st.position);
    out.x[i] = p.x;
    out.y[i] = p.y;
    out.z[i] = p.z;
    out.yaw[i] = params.frame.YawToExternal(st.yaw);
    out.speed[i] = st.speed;
    out.progress_hint[i] = in.progress[i];
    out.bodies[i].axle = {st.position.x, st.position.y};
    out.bodies[i].heading = HeadingOf(st.yaw);
  }
};

}  // namespace throng
