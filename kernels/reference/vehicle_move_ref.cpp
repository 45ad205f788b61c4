// Each vehicle moved by the kinematic bicycle for one tick, one after another, written
// from the definition (docs/VEHICLES.md, "Bicycle model"): controls clamped to their ranges,
// speed first and never below zero, the wheel angle a first-order lag behind the command,
// yaw turned by speed / wheelbase * tan(wheel) and kept in [-pi, pi), then the position
// along the new heading. In double, rounded to float once per output.
#include <algorithm>
#include <cmath>

#include "kernels/reference/frame_ref.h"
#include "kernels/reference/reference_backend.h"
#include "kernels/reference/vehicle_ref.h"

namespace throng::reference {
namespace {

constexpr double kPi = 3.14159265358979323846;

double Within(double v, double lo, double hi) { return std::min(std::max(v, lo), hi); }

// Into [-pi, pi).
double Wrapped(double a) {
  a = std::fmod(a + kPi, 2.0 * kPi);
  if (a < 0.0) a += 2.0 * kPi;
  return a - kPi;
}

}  // namespace

double LaggedWheel(double wheel, double steering, double max_steer_angle, double time_constant,
                   double dt) {
  const double command = Within(steering, -1.0, 1.0) * max_steer_angle;
  if (!(time_constant > 0.0)) return command;
  return wheel + (command - wheel) * std::min(dt / time_constant, 1.0);
}

void ReferenceBackend::MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& scene,
                                    const VehicleMoveOutput& out) {
  const BicycleParams& b = params.bicycle;
  const double dt = params.dt;
  const bool mirrored =
      (params.frame.up == UpAxis::kZ) == (params.frame.handedness == Handedness::kLeft);
  for (size_t i = 0; i < scene.count; ++i) {
    const double throttle = Within(scene.throttle[i], 0.0, 1.0);
    const double brake = Within(scene.brake[i], 0.0, 1.0);
    const double speed =
        std::max(0.0, scene.speed[i] + (throttle * b.max_accel - brake * b.max_brake) * dt);
    const double wheel = LaggedWheel(scene.wheel_angle[i], scene.steering[i], b.max_steer_angle,
                                     b.steering_time_constant, dt);
    const double yaw = Wrapped(scene.yaw[i] - speed / b.wheelbase * std::tan(wheel) * dt);
    const double x = scene.px[i] + speed * dt * std::cos(yaw);
    const double y = scene.py[i] + speed * dt * std::sin(yaw);
    out.wheel_angle[i] = static_cast<float>(wheel);
    float caller[3];
    ToCaller(params.frame, static_cast<float>(x), static_cast<float>(y), scene.pz[i], caller);
    out.x[i] = caller[0];
    out.y[i] = caller[1];
    out.z[i] = caller[2];
    // Two of the four frames turn the other way round the up axis.
    out.yaw[i] = static_cast<float>(mirrored ? -yaw : yaw);
    out.speed[i] = static_cast<float>(speed);
    out.progress_hint[i] = scene.progress[i];
    out.bodies[i].axle = {static_cast<float>(x), static_cast<float>(y)};
    out.bodies[i].heading = {static_cast<float>(std::cos(yaw)), static_cast<float>(std::sin(yaw))};
  }
}

}  // namespace throng::reference
