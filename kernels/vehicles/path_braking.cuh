// Braking for what the path check found, one vehicle at a time, as the parallel backends
// run it (Backend::BrakeForPaths; the types: path_check_types.h).
#pragma once

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/vehicles/path_check_types.h"

namespace throng {

// The speed from which braking at `decel` stops `gap` short of something `clear` ahead
// (+inf when nothing is: clear is not finite).
THRONG_HD inline float SpeedToStopWithin(float clear, float gap, float decel) {
  if (!(fabsf(clear) <= FLT_MAX)) return INFINITY;
  const float room = clear - gap;
  return room > 0.f ? sqrtf(2.f * decel * room) : 0.f;
}

// 1 when vehicle i was slowed, else 0: the reduction over it counts the braking vehicles.
struct PathBrakingFunctor {
  PathBrakingScene in;
  PathBrakingOutput out;

  THRONG_HD uint64_t operator()(size_t i) const {
    const BrakingProfile own = in.profiles[in.profile != nullptr ? in.profile[i] : 0];
    const float clear = in.clear[i], decel = own.max_brake_decel;
    const float cap = SpeedToStopWithin(clear, in.gap, decel);
    if (cap >= out.target_speed[i]) return 0;
    out.target_speed[i] = cap;
    const float speed = in.speed[i], gain = own.speed_gain;
    out.throttle[i] = Clamp((cap - speed) * gain, 0.f, 1.f);
    // At least the deceleration that stops short of the gap, not only the gain's share.
    const float room = MaxF(clear - in.gap, 1e-3f);
    const float needed = speed > cap ? speed * speed / (2.f * room) / decel : 0.f;
    out.brake[i] = Clamp(MaxF((speed - cap) * gain, needed), 0.f, 1.f);
    return 1;
  }
};

}  // namespace throng
