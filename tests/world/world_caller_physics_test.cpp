// A caller that moves its vehicles with its own physics (Step, not Advance): the world
// reads from each vehicle's motion how that physics splits a tick between turning and
// moving (kernels/vehicles/turn_before_move.h), so the follower holds the lane whether
// the caller turns first, as Throng's bicycle does, or moves along the exact arc
// (docs/VEHICLES.md, "Imposed speed").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "kernels/math/scalar.cuh"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

constexpr float kRadius = 40.f;  // m, a closed circular lane
constexpr float kWheelbase = 2.7f, kMaxSteer = 0.6f;

WorldConfig Ring() {
  WorldConfig config;
  SplineDesc lane;
  lane.id = 1;
  lane.closed = true;
  for (int k = 0; k < 32; ++k) {
    const float a = 2.f * kPi * static_cast<float>(k) / 32.f;
    lane.points.push_back({kRadius * std::cos(a), kRadius * std::sin(a), 0.f});
  }
  config.splines = {lane};
  // The caller's wheels take the command at once; the world tells its follower so.
  config.vehicle_defaults.bicycle.steering_time_constant = 0.f;
  return config;
}

enum class CallerPhysics { kTurnFirst, kExactArc, kMoveFirst };

// RMS |cte| over laps two and three at a speed the caller holds (it ignores the throttle
// and brake), the caller moving the vehicle by the steering it gets at 10 Hz.
float DriveRing(BackendKind backend, CallerPhysics physics, float speed) {
  World world(Ring(), backend);
  Snapshot s;
  s.dt = 0.1f;
  s.vehicles.id = {7};
  s.vehicles.x = {kRadius};
  s.vehicles.y = {0.f};
  s.vehicles.yaw = {0.5f * kPi};  // counter-clockwise round the ring
  s.vehicles.speed = {speed};
  s.vehicles.spline_id = {1};
  const float lap_ticks = 2.f * kPi * kRadius / (speed * s.dt);
  double sum_sq = 0.0;
  int samples = 0;
  TickResult r;
  for (int tick = 1; tick <= static_cast<int>(3.f * lap_ticks); ++tick) {
    s.tick = static_cast<uint64_t>(tick);
    world.Step(s, {}, &r);
    if (tick > lap_ticks) {
      sum_sq += static_cast<double>(r.vehicles.cte[0]) * r.vehicles.cte[0];
      ++samples;
    }
    // Steering +1 is full right (clockwise); the yaw is counter-clockwise.
    const float turn = -speed * s.dt * std::tan(r.vehicles.steering[0] * kMaxSteer) / kWheelbase;
    const float yaw = s.vehicles.yaw[0];
    const float heading = physics == CallerPhysics::kTurnFirst  ? yaw + turn
                          : physics == CallerPhysics::kExactArc ? yaw + 0.5f * turn
                                                                : yaw;
    const float d = speed * s.dt;
    const float chord = physics == CallerPhysics::kExactArc && std::fabs(turn) > 1e-6f
                            ? d * std::sin(0.5f * turn) / (0.5f * turn)
                            : d;
    s.vehicles.x[0] += chord * std::cos(heading);
    s.vehicles.y[0] += chord * std::sin(heading);
    s.vehicles.yaw[0] = WrapAngle(yaw + turn);
  }
  return static_cast<float>(std::sqrt(sum_sq / samples));
}

class WorldCallerPhysicsTest : public BackendParamTest {};

// Assuming every caller turns first, the follower read an exact-arc vehicle's heading (on
// the curve, the tangent) as half a tick's turn off the lane and steered it outside, and
// steered a move-first one from where it no longer was: RMS 11 and 33 mm (exact arc), 24
// and 98 mm (move first) at 10 and 20 m/s on this ring, against 0.01 and 0.06 mm for a
// caller that turns first. Read from the motion: 0.02 and 0.31 mm, 0.01 and 0.05 mm.
TEST_P(WorldCallerPhysicsTest, ExactArcAndMoveFirstCallersHoldTheLaneLikeATurnFirstOne) {
  for (float speed : {10.f, 20.f}) {
    const float turn_first = DriveRing(GetParam(), CallerPhysics::kTurnFirst, speed);
    const float exact_arc = DriveRing(GetParam(), CallerPhysics::kExactArc, speed);
    const float move_first = DriveRing(GetParam(), CallerPhysics::kMoveFirst, speed);
    std::printf(
        "  [ring] %2.0f m/s at 10 Hz: RMS |cte| turn first %.5f m, exact arc %.5f m, move first "
        "%.5f m\n",
        speed, turn_first, exact_arc, move_first);
    EXPECT_LT(turn_first, 0.001f);
    EXPECT_LT(exact_arc, 0.002f);
    EXPECT_LT(move_first, 0.002f);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, WorldCallerPhysicsTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference,
                                           BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
