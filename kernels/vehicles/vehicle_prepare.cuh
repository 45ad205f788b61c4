// One vehicle made ready for the follower, as the parallel backends run it
// (Backend::PrepareVehicles; the types: vehicle_prepare_types.h): its lane, its pose in
// the internal frame with the world's defaults, where along the lane to look for it, what
// its motion since last tick says about the caller's physics, and its body.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/math/column_or.cuh"
#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/vehicles/spline.cuh"
#include "kernels/vehicles/turn_before_move.h"
#include "kernels/vehicles/vehicle_prepare_types.h"

namespace throng {

// Where spline id `id` is, or would be, among the lookup's sorted ids.
THRONG_HD inline size_t LaneSlot(const LaneLookup& lanes, uint32_t id) {
  size_t lo = 0, hi = lanes.count;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (lanes.ids[mid] < id) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The lane of spline id `id`: its place in the world's set (validated: present).
THRONG_HD inline uint32_t LaneOf(const LaneLookup& lanes, uint32_t id) {
  const size_t k = LaneSlot(lanes, id);
  return k < lanes.count ? lanes.index[k] : 0u;
}

// The scene's float columns in VehicleFloatColumn order (absent ones null).
THRONG_HD inline void VehicleFloatColumns(const VehiclePrepareScene& in,
                                          const float* columns[kVehicleFloatColumns]) {
  columns[kVehicleX] = in.x;
  columns[kVehicleY] = in.y;
  columns[kVehicleZ] = in.z;
  columns[kVehicleYaw] = in.yaw;
  columns[kVehicleSpeed] = in.speed;
  columns[kVehicleProgressHint] = in.progress_hint;
  columns[kVehicleLength] = in.length;
  columns[kVehicleWidth] = in.width;
  columns[kVehicleMaxSpeed] = in.max_speed;
}

// Whether row i passes VehicleChecks: its present float values within their bounds, its
// spline id one of the world's lanes, its profile at most the world's count.
THRONG_HD inline bool VehicleRowPasses(const VehicleChecks& checks, const VehiclePrepareScene& in,
                                       size_t i) {
  const float* columns[kVehicleFloatColumns];
  VehicleFloatColumns(in, columns);
  bool within = true;
  for (int k = 0; k < kVehicleFloatColumns; ++k) {
    if (columns[k] == nullptr) continue;
    const float v = columns[k][i];
    within = within & (v >= checks.bounds[k].min) & (v <= checks.bounds[k].max);
  }
  const size_t lane = LaneSlot(in.lanes, in.spline_id[i]);
  return within && lane < in.lanes.count && in.lanes.ids[lane] == in.spline_id[i] &&
         (in.profile == nullptr || in.profile[i] <= checks.profiles);
}

// Arc length of the lane point nearest to p, searched along the whole lane (for vehicles
// seen for the first time without a hint; the follower refines it locally). Samples
// about 1 m apart, counted by index (a float counter stops advancing at 2^24 m) and at
// most kMaxWholeLaneSamples of them (a 100 km lane then samples every 1.5 m).
constexpr int64_t kMaxWholeLaneSamples = 65536;
THRONG_HD inline float ProjectOnWholeLane(const SplineSetView& lanes, uint32_t spline, Vec3 p) {
  const float length = lanes.headers[spline].length;
  int64_t intervals = static_cast<int64_t>(ceilf(length));
  intervals =
      intervals < 1 ? 1 : (intervals > kMaxWholeLaneSamples ? kMaxWholeLaneSamples : intervals);
  float best_s = 0.f, best_d = INFINITY;
  for (int64_t k = 0; k <= intervals; ++k) {
    const float s = length * static_cast<float>(static_cast<double>(k) / intervals);
    const float d = LengthSq(LocationAt(lanes, spline, s) - p);
    if (d < best_d) {
      best_d = d;
      best_s = s;
    }
  }
  return best_s;
}

struct VehiclePrepareFunctor {
  VehiclePrepareParams params;
  SplineSetView lanes;  // the world's, installed by SetSplines
  VehiclePrepareScene in;
  VehiclePrepareOutput out;

  // Prepares row i and answers 0, or answers 1 where params.checks refuse it and writes
  // nothing for it (the world rejects the tick).
  THRONG_HD uint32_t operator()(size_t i) const {
    if (params.checks.on && !VehicleRowPasses(params.checks, in, i)) return 1u;
    Prepare(i);
    return 0u;
  }

  THRONG_HD void Prepare(size_t i) const {
    const Frame frame = params.frame;
    const uint32_t lane = LaneOf(in.lanes, in.spline_id[i]);
    const Vec3 p = frame.ToInternal({in.x[i], in.y[i], ColumnOr(in.z, i, 0.f)});
    const float yaw = frame.YawToInternal(in.yaw[i]);
    const float speed = in.speed[i];
    out.lane[i] = lane;
    out.id[i] = in.id[i];
    out.spline_id[i] = in.spline_id[i];
    out.px[i] = p.x;
    out.py[i] = p.y;
    out.pz[i] = p.z;
    out.yaw[i] = yaw;
    out.speed[i] = speed;
    out.max_speed[i] = ColumnOr(in.max_speed, i, params.max_speed);
    if (in.profile != nullptr) out.profile[i] = static_cast<uint16_t>(in.profile[i]);
    VehicleMemory memory = in.memory[i];
    out.wheel_angle[i] = memory.wheel_angle;
    // Read from the move since last tick: a caller's own physics may not turn first as
    // the world's bicycle does (docs/VEHICLES.md, "Imposed speed").
    if (memory.last_dt > 0.f) {
      memory.turn_before_move =
          UpdateTurnBeforeMove(memory.turn_before_move, memory.last_position, memory.last_yaw,
                               {p.x, p.y}, yaw, MaxF(memory.last_speed, speed) * memory.last_dt);
    }
    out.turn_before_move[i] = memory.turn_before_move;
    memory.last_position = {p.x, p.y};
    memory.last_yaw = yaw;
    memory.last_speed = speed;
    memory.last_dt = params.dt;
    if (in.progress_hint != nullptr) {
      out.progress_hint[i] = in.progress_hint[i];
    } else if (memory.progress >= 0.f) {
      out.progress_hint[i] = memory.progress;
    } else {
      out.progress_hint[i] = ProjectOnWholeLane(lanes, lane, p);
    }
    out.memory[i] = memory;
    out.bodies[i] = {{p.x, p.y},
                     HeadingOf(yaw),
                     ColumnOr(in.length, i, params.length),
                     ColumnOr(in.width, i, params.width)};
  }
};

}  // namespace throng
