// The engine's own bicycle and frame (header-only, compiled into the client library), so
// a vehicle moved here moves exactly as in throngd's Advance.
#include "throng/vehicle_motion.h"

#include <stdexcept>
#include <string>

#include "kernels/math/frame.cuh"
#include "kernels/vehicles/bicycle.cuh"

namespace throng::client {
namespace {

BicycleParams BicycleOf(const v1::BicycleConfig& b) {
  BicycleParams p;  // the engine's defaults, as throngd applies them to absent fields
  if (b.has_wheelbase()) p.wheelbase = b.wheelbase();
  if (b.has_max_steer_angle()) p.max_steer_angle = b.max_steer_angle();
  if (b.has_max_accel()) p.max_accel = b.max_accel();
  if (b.has_max_brake()) p.max_brake = b.max_brake();
  if (b.has_steering_lag()) p.steering_time_constant = b.steering_lag();
  return p;
}

}  // namespace

VehicleMotion::VehicleMotion(const v1::WorldConfig& config)
    : up_(config.up_axis()), handedness_(config.handedness()), bicycle_(config.bicycle()) {}

void VehicleMotion::Apply(const v1::VehicleResults& controls, float dt, v1::VehicleBatch* v) {
  const int n = v->id_size();
  if (controls.steering_size() != n || controls.throttle_size() != n ||
      controls.brake_size() != n) {
    throw std::invalid_argument("VehicleMotion: " + std::to_string(n) + " vehicles but " +
                                std::to_string(controls.steering_size()) + " controls");
  }
  if (wheel_angle_.size() != static_cast<size_t>(n)) wheel_angle_.assign(n, 0.f);
  const Frame frame{up_ == v1::UP_AXIS_Y ? UpAxis::kY : UpAxis::kZ,
                    handedness_ == v1::HANDEDNESS_LEFT ? Handedness::kLeft : Handedness::kRight};
  const BicycleParams bicycle = BicycleOf(bicycle_);
  const bool has_z = v->z_size() == n;
  for (int i = 0; i < n; ++i) {
    VehicleState s{};
    s.position = frame.ToInternal({v->x(i), v->y(i), has_z ? v->z(i) : 0.f});
    s.yaw = frame.YawToInternal(v->yaw(i));
    s.speed = v->speed(i);
    s.wheel_angle = wheel_angle_[i];
    StepBicycle(s, controls.steering(i), controls.throttle(i), controls.brake(i), bicycle, dt);
    const Vec3 p = frame.ToExternal(s.position);
    v->set_x(i, p.x);
    v->set_y(i, p.y);
    if (has_z) v->set_z(i, p.z);
    v->set_yaw(i, frame.YawToExternal(s.yaw));
    v->set_speed(i, s.speed);
    wheel_angle_[i] = s.wheel_angle;
  }
}

}  // namespace throng::client
