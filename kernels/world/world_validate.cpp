#include "kernels/world/world_validate.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/column_checks.h"
#include "kernels/orca_validate.h"
#include "kernels/vehicle_batch.h"

namespace throng {
namespace {

[[noreturn]] void Reject(const std::string& what) { throw std::invalid_argument(what); }

void RequirePositive(const std::string& field, float v) {
  if (!(std::isfinite(v) && v > 0.f)) Reject(field + ": must be finite and > 0");
}

void RequireNonNegative(const std::string& field, float v) {
  if (!(std::isfinite(v) && v >= 0.f)) Reject(field + ": must be finite and >= 0");
}

void RequireRange(const std::string& field, int v, int lo, int hi) {
  if (v < lo || v > hi) {
    Reject(field + ": " + std::to_string(v) + " is outside [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]");
  }
}

// An optional column is empty or has one value per row; present values are finite.
void OptionalFinite(const char* table, const char* column, const std::vector<float>& values,
                    size_t n) {
  if (values.empty()) return;
  RequireFiniteColumns(table, {{column, &values}}, n);
}

void OptionalPositive(const char* table, const char* column, const std::vector<float>& values,
                      size_t n) {
  OptionalFinite(table, column, values, n);
  for (size_t i = 0; i < values.size(); ++i) {
    if (!(values[i] > 0.f)) Reject(ColumnAt(table, column, i) + ": must be > 0");
  }
}

// Columns that only make sense together ("agents.goal_y: missing while goal_x is given").
void RequireTogether(const char* table, const char* first, const std::vector<float>& a,
                     const char* second, const std::vector<float>& b) {
  if (a.empty() != b.empty()) {
    const char* missing = a.empty() ? first : second;
    const char* given = a.empty() ? second : first;
    Reject(std::string(table) + "." + missing + ": missing while " + given + " is given");
  }
}

void ValidateAgentSnapshot(const AgentSnapshot& a) {
  const char* t = "agents";
  const size_t n = a.size();
  RequireFiniteColumns(t, {{"x", &a.x}, {"y", &a.y}}, n);
  OptionalFinite(t, "z", a.z, n);
  OptionalFinite(t, "vx", a.vx, n);
  OptionalFinite(t, "vy", a.vy, n);
  OptionalFinite(t, "vz", a.vz, n);
  OptionalPositive(t, "radius", a.radius, n);
  OptionalPositive(t, "max_speed", a.max_speed, n);
  RequireTogether(t, "goal_x", a.goal_x, "goal_y", a.goal_y);
  OptionalFinite(t, "goal_x", a.goal_x, n);
  OptionalFinite(t, "goal_y", a.goal_y, n);
  OptionalFinite(t, "goal_z", a.goal_z, n);
  RequireTogether(t, "pref_vx", a.pref_vx, "pref_vy", a.pref_vy);
  OptionalFinite(t, "pref_vx", a.pref_vx, n);
  OptionalFinite(t, "pref_vy", a.pref_vy, n);
  OptionalFinite(t, "pref_vz", a.pref_vz, n);
  if (!a.flags.empty()) {
    RequireLength(t, "flags", a.flags.size(), n);
    constexpr uint8_t kKnown = kSnapshotNonCooperative | kSnapshotUsesPreferredVelocity;
    for (size_t i = 0; i < n; ++i) {
      if (a.flags[i] & ~kKnown) {
        Reject(ColumnAt(t, "flags", i) + ": unknown bits " + std::to_string(a.flags[i] & ~kKnown));
      }
    }
  }
  RequireUniqueIds(t, a.id);
}

void ValidateVehicleSnapshot(const WorldConfig& config, const VehicleSnapshot& v) {
  const char* t = "vehicles";
  const size_t n = v.size();
  RequireFiniteColumns(t, {{"x", &v.x}, {"y", &v.y}, {"yaw", &v.yaw}, {"speed", &v.speed}}, n);
  OptionalFinite(t, "z", v.z, n);
  OptionalFinite(t, "progress_hint", v.progress_hint, n);
  OptionalPositive(t, "length", v.length, n);
  OptionalPositive(t, "width", v.width, n);
  OptionalPositive(t, "max_speed", v.max_speed, n);
  for (size_t i = 0; i < n; ++i) {
    if (v.speed[i] < 0.f) Reject(ColumnAt(t, "speed", i) + ": must be >= 0");
  }
  RequireLength(t, "spline_id", v.spline_id.size(), n);
  for (size_t i = 0; i < n; ++i) {
    const bool known = std::any_of(config.splines.begin(), config.splines.end(),
                                   [&](const SplineDesc& s) { return s.id == v.spline_id[i]; });
    if (!known) {
      Reject(ColumnAt(t, "spline_id", i) + ": " + std::to_string(v.spline_id[i]) +
             " is not a spline of this world");
    }
  }
  RequireUniqueIds(t, v.id);
}

void ValidateObstacles(const std::vector<std::vector<Vec3>>& obstacles) {
  for (size_t p = 0; p < obstacles.size(); ++p) {
    const std::string name = "obstacles[" + std::to_string(p) + "]";
    if (obstacles[p].size() < 2) Reject(name + ".vertices: needs at least 2 vertices");
    for (size_t k = 0; k < obstacles[p].size(); ++k) {
      const Vec3& q = obstacles[p][k];
      if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) {
        Reject(name + ".vertices[" + std::to_string(k) + "]: not finite");
      }
    }
  }
}

}  // namespace

void ValidateWorldConfig(const WorldConfig& c) {
  if (c.frame.up != UpAxis::kZ && c.frame.up != UpAxis::kY) Reject("frame.up: unknown axis");
  if (c.frame.handedness != Handedness::kRight && c.frame.handedness != Handedness::kLeft) {
    Reject("frame.handedness: unknown value");
  }
  ValidateSplineIds(c.splines);
  for (size_t i = 0; i < c.splines.size(); ++i) CleanControlPoints(c.splines[i], i);
  ValidateObstacles(c.obstacles);
  OrcaParams orca = c.orca;
  orca.time_step = 0.1f;  // each tick's dt replaces it, checked per snapshot
  ValidateOrcaParams(orca);
  ValidateFollowerParams(c.follower, c.world_speed_limit);
  RequirePositive("agent_defaults.radius", c.agent_defaults.radius);
  RequirePositive("agent_defaults.max_speed", c.agent_defaults.max_speed);
  RequirePositive("agent_defaults.max_accel", c.agent_defaults.max_accel);
  RequireNonNegative("agent_defaults.slowing_radius", c.agent_defaults.slowing_radius);
  RequirePositive("vehicle_defaults.length", c.vehicle_defaults.length);
  RequirePositive("vehicle_defaults.width", c.vehicle_defaults.width);
  RequirePositive("vehicle_defaults.max_speed", c.vehicle_defaults.max_speed);
  const BicycleParams& b = c.vehicle_defaults.bicycle;
  RequirePositive("vehicle_defaults.bicycle.wheelbase", b.wheelbase);
  RequirePositive("vehicle_defaults.bicycle.max_steer_angle", b.max_steer_angle);
  if (b.max_steer_angle >= 1.5f) Reject("vehicle_defaults.bicycle.max_steer_angle: must be < 1.5");
  RequireNonNegative("vehicle_defaults.bicycle.max_accel", b.max_accel);
  RequireNonNegative("vehicle_defaults.bicycle.max_brake", b.max_brake);
  RequireNonNegative("vehicle_defaults.bicycle.steering_time_constant", b.steering_time_constant);
  const DetectionParams& d = c.detection;
  RequireRange("detection.oscillation_window", d.oscillation_window, 1, 32);
  RequireRange("detection.oscillation_flips", d.oscillation_flips, 1, 32);
  RequireRange("detection.stall_ticks", d.stall_ticks, 1, 1 << 30);
  RequireNonNegative("detection.oscillation_min_lateral", d.oscillation_min_lateral);
  RequireNonNegative("detection.stall_min_progress", d.stall_min_progress);
  RequireNonNegative("detection.stop_speed", d.stop_speed);
  RequireNonNegative("detection.goal_tolerance", d.goal_tolerance);
  const PathCheckParams& p = c.path_check;
  RequireNonNegative("path_check.gap", p.gap);
  RequireNonNegative("path_check.reaction_time", p.reaction_time);
  RequireNonNegative("path_check.min_length", p.min_length);
  RequireNonNegative("path_check.lateral_margin", p.lateral_margin);
}

void ValidateSnapshot(const WorldConfig& config, const Snapshot& s, bool has_last_tick,
                      uint64_t last_tick) {
  if (has_last_tick && s.tick <= last_tick) {
    Reject("tick: " + std::to_string(s.tick) + " is not after the last tick " +
           std::to_string(last_tick));
  }
  if (!(std::isfinite(s.dt) && s.dt > 0.f && s.dt <= 10.f)) Reject("dt: must be within (0, 10] s");
  ValidateAgentSnapshot(s.agents);
  ValidateVehicleSnapshot(config, s.vehicles);
}

}  // namespace throng
