// Each vehicle's body as discs for the ORCA solve, one vehicle after another, written from
// the footprint's definition (docs/WORLD.md, "Vehicles and pedestrians together"): the rear
// axle 22% of the length from the rear, the discs' count laid out by the caller (ceil(L /
// W), at most 32), each centred on its slice of the axis and reaching the slice's corners;
// non-cooperative, moving at the vehicle's velocity. In double, rounded to float once.
#include <algorithm>
#include <cmath>

#include "kernels/reference/reference_backend.h"

namespace throng::reference {
namespace {

constexpr double kRearShare = 0.22;
// A standing vehicle's discs still count as moving this fast (the solve sizes its
// neighbour search by max speeds).
constexpr double kSlowestMaxSpeed = 0.01;

}  // namespace

void ReferenceBackend::WriteVehicleDiscs(const VehicleDiscScene& scene,
                                         const VehicleDiscOutput& out) {
  for (size_t v = 0; v < scene.count; ++v) {
    const VehicleBody& body = scene.bodies[v];
    const double length = body.length, width = body.width;
    const double hx = body.heading.x, hy = body.heading.y;
    const double speed = scene.speed[v];
    const uint32_t first = scene.disc_start[v], count = scene.disc_start[v + 1] - first;
    if (count == 0) continue;
    const double slice = length / count;
    const auto radius = static_cast<float>(std::hypot(0.5 * slice, 0.5 * width));
    const auto vx = static_cast<float>(hx * speed), vy = static_cast<float>(hy * speed);
    for (uint32_t j = 0; j < count; ++j) {
      const uint32_t k = first + j;
      const double along = -kRearShare * length + (j + 0.5) * slice;
      out.agents.id[k] = out.first_id + k;
      out.agents.px[k] = static_cast<float>(body.axle.x + hx * along);
      out.agents.py[k] = static_cast<float>(body.axle.y + hy * along);
      out.agents.vx[k] = vx;
      out.agents.vy[k] = vy;
      out.agents.radius[k] = radius;
      out.agents.max_speed[k] = static_cast<float>(std::max(speed, kSlowestMaxSpeed));
      out.agents.pref_vx[k] = vx;
      out.agents.pref_vy[k] = vy;
      out.agents.flags[k] = kAgentNonCooperative;
    }
  }
}

}  // namespace throng::reference
