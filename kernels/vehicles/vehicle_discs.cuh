// One vehicle's discs for the ORCA solve, as the parallel backends write them
// (Backend::WriteVehicleDiscs; the types: vehicle_disc_types.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/orca_types.h"
#include "kernels/vehicles/vehicle_disc_types.h"

namespace throng {

// The slowest a disc's max speed is: the solve sizes its neighbour search by max speeds,
// and a standing vehicle still counts as moving at this.
constexpr float kDiscMinMaxSpeed = 0.01f;  // m/s

struct VehicleDiscFunctor {
  VehicleDiscScene in;
  VehicleDiscOutput out;

  THRONG_HD void operator()(size_t v) const {
    const VehicleBody body = in.bodies[v];
    const float speed = in.speed[v];
    const Vec2 velocity = body.heading * speed;
    const float radius = body.DiscRadius();
    const float max_speed = MaxF(speed, kDiscMinMaxSpeed);
    const uint32_t first = in.disc_start[v], last = in.disc_start[v + 1];
    for (uint32_t k = first; k < last; ++k) {
      const Vec2 c = body.Disc(static_cast<int>(k - first));
      out.agents.id[k] = out.first_id + k;
      out.agents.px[k] = c.x;
      out.agents.py[k] = c.y;
      out.agents.vx[k] = velocity.x;
      out.agents.vy[k] = velocity.y;
      out.agents.radius[k] = radius;
      out.agents.max_speed[k] = max_speed;
      out.agents.pref_vx[k] = velocity.x;
      out.agents.pref_vy[k] = velocity.y;
      out.agents.flags[k] = kAgentNonCooperative;
    }
  }
};

// Vehicle v's disc count, for a layout made on the backend (a scan of these counts gives
// VehicleDiscScene::disc_start).
struct DiscCountOf {
  const VehicleBody* bodies;
  THRONG_HD uint32_t operator()(uint32_t v) const {
    return static_cast<uint32_t>(bodies[v].DiscCount());
  }
};

}  // namespace throng
