// Braking for what the path check found, one vehicle after another, written from the
// definition (docs/WORLD.md, "Vehicles and pedestrians together"): the target speed capped at
// sqrt(2 a (clear - gap)), the speed from which the vehicle's brakes (a) stop it `gap`
// short of what is ahead (0 with no room; no cap with nothing ahead); a capped vehicle's
// throttle is its speed loop's gain times (cap - speed) and its brake the larger of the
// gain times (speed - cap) and the share of its brakes that stops it in the room left
// (speed^2 / (2 room) / a, room at least 1 mm), both within [0, 1]. In double, rounded once.
#include <algorithm>
#include <cmath>

#include "kernels/reference/reference_backend.h"

namespace throng::reference {

uint64_t ReferenceBackend::BrakeForPaths(const PathBrakingScene& scene,
                                         const PathBrakingOutput& out) {
  uint64_t slowed = 0;
  for (size_t i = 0; i < scene.count; ++i) {
    const BrakingProfile& own = scene.profiles[scene.profile != nullptr ? scene.profile[i] : 0];
    const double clear = scene.clear[i], gap = scene.gap, decel = own.max_brake_decel;
    if (!std::isfinite(clear)) continue;  // nothing ahead: no cap
    const double room = clear - gap;
    const double cap = room > 0.0 ? std::sqrt(2.0 * decel * room) : 0.0;
    if (cap >= out.target_speed[i]) continue;
    ++slowed;
    const double speed = scene.speed[i], gain = own.speed_gain;
    out.target_speed[i] = static_cast<float>(cap);
    out.throttle[i] = static_cast<float>(std::clamp((cap - speed) * gain, 0.0, 1.0));
    const double left = std::max(room, 1e-3);
    const double needed = speed > cap ? speed * speed / (2.0 * left) / decel : 0.0;
    out.brake[i] = static_cast<float>(std::clamp(std::max((speed - cap) * gain, needed), 0.0, 1.0));
  }
  return slowed;
}

}  // namespace throng::reference
