// Vehicle path check: how far each vehicle can drive along its lane before it reaches a
// pedestrian, another vehicle or an obstacle (docs/WORLD.md, "Vehicles brake"). The
// corridor follows the lane rather than the heading, so a curve ahead is checked where
// the vehicle will actually be.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "kernels/vehicles/spline.h"
#include "kernels/vehicles/vehicle_body.h"
#include "kernels/world/world_types.h"

namespace throng {

struct PathScene {
  const float* agent_x = nullptr;  // pedestrians, internal frame
  const float* agent_y = nullptr;
  const float* agent_radius = nullptr;
  const float* agent_vx = nullptr;  // current velocity: where a pedestrian is heading
  const float* agent_vy = nullptr;
  size_t agents = 0;
  // Views of the caller's columns, one entry per vehicle (edges: two points each).
  std::span<const VehicleBody> bodies;
  std::span<const uint32_t> spline;  // each vehicle's lane (index in the set)
  std::span<const float> progress;   // m, the rear axle's place on the lane
  std::span<const float> speed;      // m/s
  std::span<const Vec2> edges;       // obstacle edges
};

// A pedestrian counts as in the path when it is in the corridor now or will step into it
// before the vehicle gets there at its current speed (looking at most kPredictionHorizon
// ahead): drivers yield to people walking toward the road, not only to people on it.
constexpr float kPredictionHorizon = 3.f;  // s
// The longest corridor checked: braking from 250 km/h at 6 m/s^2 needs 400 m. A cap keeps
// one sample walk bounded whatever speed or braking a caller configures.
constexpr float kMaxPathCheckLength = 1000.f;  // m

// clear[i]: metres free ahead of vehicle i's front bumper within its checked length
// (max(min_length, braking distance + reaction distance + gap), at most
// kMaxPathCheckLength); +inf when nothing is there. 0 when something touches the bumper.
void CheckPaths(const PathCheckParams& params, float max_brake_decel, const SplineSet& lanes,
                const PathScene& scene, std::vector<float>* clear, const StopRequested& stop = {});

// The speed from which braking at `decel` stops `gap` short of something `clear` ahead.
float SpeedToStopWithin(float clear, float gap, float decel);

}  // namespace throng
