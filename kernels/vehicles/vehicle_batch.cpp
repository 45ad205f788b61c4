#include "kernels/vehicles/vehicle_batch.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "kernels/input/column_checks.h"
#include "kernels/input/input_limits.h"

namespace throng {
namespace {

[[noreturn]] void Reject(const std::string& what) { throw std::invalid_argument(what); }

std::string At(const char* column, size_t i) { return ColumnAt("vehicles", column, i); }

void Require(bool ok, const std::string& prefix, const char* field, const char* rule) {
  if (!ok) Reject(prefix + field + ": " + rule);
}

}  // namespace

void VehicleColumns::Resize(size_t n) {
  id.resize(n);
  spline_id.resize(n);
  for (auto* c : {&px, &py, &pz, &yaw, &speed, &progress_hint, &max_speed}) c->resize(n);
}

void FollowerResults::Resize(size_t n) {
  for (auto* c : {&steering, &throttle, &brake, &target_speed, &cte, &progress, &position_delta,
                  &heading_delta, &look_ahead, &target_x, &target_y, &target_z, &progress_x,
                  &progress_y, &progress_z, &tangent_x, &tangent_y, &tangent_z}) {
    c->resize(n);
  }
}

void ValidateFollowerParams(const FollowerParams& p, float world_speed_limit,
                            const std::string& prefix) {
  // Finite, >= 0 (or > 0) and at most `max` (kernels/input/input_limits.h).
  auto non_negative = [&](float v, const char* field, float max) {
    if (!(std::isfinite(v) && v >= 0.f && v <= max)) {
      Reject(prefix + field + ": must be >= 0 and <= " + std::to_string(static_cast<int>(max)));
    }
  };
  auto positive = [&](float v, const char* field, float max) {
    if (!(std::isfinite(v) && v > 0.f && v <= max)) {
      Reject(prefix + field + ": must be > 0 and <= " + std::to_string(static_cast<int>(max)));
    }
  };
  non_negative(p.look_ahead_base, "look_ahead_base", kMaxDistance);
  non_negative(p.look_ahead_speed_factor, "look_ahead_speed_factor", kMaxSeconds);
  Require(std::isfinite(p.heading_weight) && p.heading_weight >= 0.f && p.heading_weight <= 1.f,
          prefix, "heading_weight", "must be within [0, 1]");
  // At least 1 mrad: a denormal one overflows the steering to infinity, and a gain of
  // 1000 per rad is already bang-bang.
  Require(std::isfinite(p.max_yaw_delta) && p.max_yaw_delta >= 1e-3f && p.max_yaw_delta <= 3.1416f,
          prefix, "max_yaw_delta", "must be within [0.001, pi]");
  non_negative(p.crosstrack_gain, "crosstrack_gain", kMaxGain);
  positive(p.projection_window, "projection_window", kMaxDistance);
  positive(p.max_lateral_accel, "max_lateral_accel", kMaxAcceleration);
  positive(p.max_brake_decel, "max_brake_decel", kMaxAcceleration);
  positive(p.speed_gain, "speed_gain", kMaxGain);
  auto within = [&](float v, const char* field, float hi, const char* rule) {
    Require(std::isfinite(v) && v >= 0.f && v <= hi, prefix, field, rule);
  };
  within(p.curvature_feedforward, "curvature_feedforward", 2.f, "must be within [0, 2]");
  within(p.lag_compensation, "lag_compensation", 2.f, "must be within [0, 2]");
  within(p.approach_curvature_share, "approach_curvature_share", 1.f, "must be within [0, 1]");
  Require(std::isfinite(p.wheelbase) && p.wheelbase >= kMinSize && p.wheelbase <= kMaxVehicleSize,
          prefix, "wheelbase", "must be within [0.001, 100]");
  Require(std::isfinite(p.max_steer_angle) && p.max_steer_angle >= 1e-3f &&
              p.max_steer_angle < kMaxWheelAngle,
          prefix, "max_steer_angle", "must be within [0.001, 1.5)");
  non_negative(p.steering_lag, "steering_lag", kMaxSeconds);
  non_negative(p.control_period, "control_period", kMaxSeconds);
  // 0 switches the lead off; a denormal one would scale the wheel gap to infinity.
  Require(std::isfinite(p.wheel_response_time) &&
              (p.wheel_response_time == 0.f ||
               (p.wheel_response_time >= 1e-2f && p.wheel_response_time <= kMaxSeconds)),
          prefix, "wheel_response_time", "must be 0 (off) or within [0.01, 100]");
  if (!(std::isfinite(world_speed_limit) && world_speed_limit >= 0.f &&
        world_speed_limit <= kMaxSpeed)) {
    Reject("world.speed_limit: must be >= 0 and <= 1000 (0 = none)");
  }
}

std::vector<uint32_t> ValidateVehicles(const VehicleColumns& v,
                                       const std::vector<uint32_t>& spline_ids) {
  const size_t n = v.id.size();
  RequireLength("vehicles", "spline_id", v.spline_id.size(), n);
  RequireBoundedColumns("vehicles", {{"px", &v.px}, {"py", &v.py}, {"pz", &v.pz}}, n,
                        kMaxCoordinate, "m");
  RequireBoundedColumns("vehicles", {{"yaw", &v.yaw}}, n, kMaxYaw, "rad");
  RequireBoundedColumns("vehicles", {{"speed", &v.speed}, {"max_speed", &v.max_speed}}, n,
                        kMaxSpeed, "m/s");
  RequireBoundedColumns("vehicles", {{"progress_hint", &v.progress_hint}}, n, kMaxLaneLength, "m");
  for (size_t i = 0; i < n; ++i) {
    if (v.speed[i] < 0.f) Reject(At("speed", i) + ": must be >= 0");
    if (!(v.max_speed[i] > 0.f)) Reject(At("max_speed", i) + ": must be > 0");
  }
  std::unordered_map<uint32_t, uint32_t> index_of;
  for (size_t k = 0; k < spline_ids.size(); ++k)
    index_of.emplace(spline_ids[k], static_cast<uint32_t>(k));
  std::vector<uint32_t> index(n);
  for (size_t i = 0; i < n; ++i) {
    const auto it = index_of.find(v.spline_id[i]);
    if (it == index_of.end()) {
      Reject(At("spline_id", i) + ": " + std::to_string(v.spline_id[i]) +
             " is not a spline of this world");
    }
    index[i] = it->second;
  }
  if (!v.wheel_angle.empty()) {
    RequireLength("vehicles", "wheel_angle", v.wheel_angle.size(), n);
    RequireBoundedColumns("vehicles", {{"wheel_angle", &v.wheel_angle}}, n, kMaxWheelAngle, "rad");
  }
  if (!v.turn_before_move.empty()) {
    RequireLength("vehicles", "turn_before_move", v.turn_before_move.size(), n);
    for (size_t i = 0; i < n; ++i) {
      if (!(v.turn_before_move[i] >= 0.f && v.turn_before_move[i] <= 1.f))
        Reject(At("turn_before_move", i) + ": must be in [0, 1]");
    }
  }
  if (!v.profile.empty() && v.profile.size() != n) {
    Reject("vehicles.profile: has " + std::to_string(v.profile.size()) + " values, expected " +
           std::to_string(n) + " or none");
  }
  for (size_t i = 0; i < v.profile.size(); ++i) {
    if (v.profile[i] > v.profiles.size()) {
      Reject(At("profile", i) + ": " + std::to_string(v.profile[i]) + " but only " +
             std::to_string(v.profiles.size()) + " profiles (0 = the world's parameters)");
    }
  }
  for (size_t k = 0; k < v.profiles.size(); ++k) {
    ValidateFollowerParams(v.profiles[k], 0.f, "vehicles.profiles[" + std::to_string(k) + "].");
  }
  RequireUniqueIds("vehicles", v.id);
  return index;
}

std::vector<FollowerParams> ParameterTable(const FollowerParams& world, const VehicleColumns& v) {
  std::vector<FollowerParams> table;
  table.reserve(1 + v.profiles.size());
  table.push_back(world);
  table.insert(table.end(), v.profiles.begin(), v.profiles.end());
  return table;
}

}  // namespace throng
