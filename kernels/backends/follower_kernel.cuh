// The batched spline follower, written once for every parallel backend: one thread per
// vehicle.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/vehicles/vehicle.cuh"

namespace throng {

struct VehicleInputView {
  const uint32_t* __restrict__ spline;  // index into the installed set
  const float* __restrict__ px;
  const float* __restrict__ py;
  const float* __restrict__ pz;
  const float* __restrict__ yaw;
  const float* __restrict__ speed;
  const float* __restrict__ progress_hint;
  const float* __restrict__ max_speed;
  const uint16_t* __restrict__ profile;        // null: every vehicle uses table[0]
  const float* __restrict__ wheel_angle;       // null: the wheels straight
  const float* __restrict__ turn_before_move;  // null: 1, the bicycle's (turn first)
};

struct FollowerOutputView {
  float* __restrict__ steering;
  float* __restrict__ throttle;
  float* __restrict__ brake;
  float* __restrict__ target_speed;
  float* __restrict__ cte;
  float* __restrict__ progress;
  float* __restrict__ position_delta;
  float* __restrict__ heading_delta;
  float* __restrict__ look_ahead;
  float* __restrict__ target_x;
  float* __restrict__ target_y;
  float* __restrict__ target_z;
  float* __restrict__ progress_x;  // debug: the lane point at `progress`
  float* __restrict__ progress_y;
  float* __restrict__ progress_z;
  float* __restrict__ tangent_x;  // debug: the lane's unit tangent at the target
  float* __restrict__ tangent_y;
  float* __restrict__ tangent_z;
};

struct FollowerFunctor {
  SplineSetView set;
  VehicleInputView in;
  const FollowerParams* __restrict__ params;  // the world's, then the profiles
  float world_speed_limit;
  FollowerOutputView out;

  THRONG_HD void operator()(size_t i) const {
    VehicleState v{};
    v.position = {in.px[i], in.py[i], in.pz[i]};
    v.yaw = in.yaw[i];
    v.speed = in.speed[i];
    v.spline = in.spline[i];
    v.progress_hint = in.progress_hint[i];
    v.max_speed = in.max_speed[i];
    v.wheel_angle = in.wheel_angle ? in.wheel_angle[i] : 0.f;
    if (in.turn_before_move) v.turn_before_move = in.turn_before_move[i];
    const FollowerParams& p = params[in.profile ? in.profile[i] : 0];
    const FollowerOutput f = FollowSpline(set, v, p, world_speed_limit);
    out.steering[i] = f.steering;
    out.throttle[i] = f.throttle;
    out.brake[i] = f.brake;
    out.target_speed[i] = f.target_speed;
    out.cte[i] = f.cte;
    out.progress[i] = f.progress;
    out.position_delta[i] = f.position_delta;
    out.heading_delta[i] = f.heading_delta;
    out.look_ahead[i] = f.look_ahead;
    out.target_x[i] = f.target.x;
    out.target_y[i] = f.target.y;
    out.target_z[i] = f.target.z;
    out.progress_x[i] = f.progress_point.x;
    out.progress_y[i] = f.progress_point.y;
    out.progress_z[i] = f.progress_point.z;
    out.tangent_x[i] = f.tangent.x;
    out.tangent_y[i] = f.tangent.y;
    out.tangent_z[i] = f.tangent.z;
  }
};

}  // namespace throng
