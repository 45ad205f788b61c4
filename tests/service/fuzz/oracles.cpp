#include "tests/service/fuzz/oracles.h"

#include <google/protobuf/util/message_differencer.h>

#include <cmath>

#include "kernels/world/world_types.h"

namespace throng::fuzz {

const char* OracleName(Oracle o) {
  switch (o) {
    case Oracle::kCrash:
      return "crash";
    case Oracle::kHang:
      return "hang";
    case Oracle::kWrongOk:
      return "wrong_ok";
    case Oracle::kChangedWorld:
      return "changed_world";
    case Oracle::kInternal:
      return "internal";
  }
  return "?";
}

SpeedRule RuleOfConfig(const v1::WorldConfig& config) {
  SpeedRule rule;
  const float set = config.defaults().agent_max_speed();
  // 0 takes the engine's default (a Solve's configuration is not filled in).
  rule.default_max_speed = set != 0.f ? set : AgentDefaults{}.max_speed;
  rule.up_axis = config.up_axis();
  return rule;
}

namespace {

std::string Index(const char* column, int i) {
  return std::string(column) + "[" + std::to_string(i) + "]";
}

// The first non-finite value of a result column, or a wrong length; empty when fine.
std::string CheckColumn(const char* name, const google::protobuf::RepeatedField<float>& values,
                        int expected, bool allow_inf = false) {
  if (values.size() != expected) {
    return std::string(name) + ": " + std::to_string(values.size()) + " values for " +
           std::to_string(expected);
  }
  for (int i = 0; i < values.size(); ++i) {
    const float v = values[i];
    if (std::isnan(v) || (std::isinf(v) && !(allow_inf && v > 0))) {
      return Index(name, i) + " = " + std::to_string(v) + " is not finite";
    }
  }
  return "";
}

// Optional result columns (positions, debug targets): empty or one value per row.
std::string CheckOptional(const char* name, const google::protobuf::RepeatedField<float>& values,
                          int expected) {
  return values.empty() ? "" : CheckColumn(name, values, expected);
}

}  // namespace

std::string CheckOkResponse(const v1::StepResponse& response, const v1::AgentBatch& agents,
                            const SpeedRule& rule) {
  const auto& a = response.agents();
  const int n = agents.id_size();
  std::string e;
  if (!(e = CheckColumn("agents.vx", a.vx(), n)).empty()) return e;
  if (!(e = CheckColumn("agents.vy", a.vy(), n)).empty()) return e;
  if (!(e = CheckOptional("agents.vz", a.vz(), n)).empty()) return e;
  if (!(e = CheckOptional("agents.x", a.x(), n)).empty()) return e;
  if (!(e = CheckOptional("agents.y", a.y(), n)).empty()) return e;
  if (!(e = CheckOptional("agents.z", a.z(), n)).empty()) return e;
  if (a.status_size() != n) return "agents.status: " + std::to_string(a.status_size()) + " values";
  const auto& v = response.vehicles();
  const int m = v.steering_size();
  for (const auto& [name, column] : {std::pair{"vehicles.throttle", &v.throttle()},
                                     {"vehicles.brake", &v.brake()},
                                     {"vehicles.target_speed", &v.target_speed()},
                                     {"vehicles.cte", &v.cte()},
                                     {"vehicles.progress", &v.progress()}}) {
    if (!(e = CheckColumn(name, *column, m)).empty()) return e;
  }
  if (!(e = CheckColumn("vehicles.steering", v.steering(), m)).empty()) return e;
  if (!(e = CheckColumn("vehicles.clear_distance", v.clear_distance(), m, true)).empty()) {
    return e;
  }
  for (const auto& [name, column] : {std::pair{"vehicles.target_x", &v.target_x()},
                                     {"vehicles.target_y", &v.target_y()},
                                     {"vehicles.target_z", &v.target_z()},
                                     {"vehicles.progress_x", &v.progress_x()},
                                     {"vehicles.progress_y", &v.progress_y()},
                                     {"vehicles.progress_z", &v.progress_z()},
                                     {"vehicles.tangent_x", &v.tangent_x()},
                                     {"vehicles.tangent_y", &v.tangent_y()},
                                     {"vehicles.tangent_z", &v.tangent_z()},
                                     {"vehicles.position_delta", &v.position_delta()},
                                     {"vehicles.heading_delta", &v.heading_delta()},
                                     {"vehicles.look_ahead", &v.look_ahead()},
                                     {"vehicles.x", &v.x()},
                                     {"vehicles.y", &v.y()},
                                     {"vehicles.z", &v.z()},
                                     {"vehicles.yaw", &v.yaw()},
                                     {"vehicles.speed", &v.speed()}}) {
    if (!(e = CheckOptional(name, *column, m)).empty()) return e;
  }

  const bool has_max = agents.max_speed_size() == n, has_flags = agents.flags_size() == n;
  const bool y_up = rule.up_axis == v1::UP_AXIS_Y;
  for (int i = 0; i < n; ++i) {
    if (a.status(i) != v1::SOLVE_STATUS_OK) continue;
    // A non-cooperative agent keeps the velocity it was given, at any speed.
    if (has_flags && (agents.flags(i) & v1::AGENT_FLAG_NON_COOPERATIVE)) continue;
    const double ground = y_up && a.vz_size() == n ? a.vz(i) : a.vy(i);
    const double speed = std::hypot(static_cast<double>(a.vx(i)), ground);
    const double limit = has_max ? agents.max_speed(i) : rule.default_max_speed;
    if (speed > limit * (1 + 1e-3)) {
      return "agent " + std::to_string(i) + " (id " + std::to_string(agents.id(i)) +
             ") status ok at " + std::to_string(speed) + " m/s over its max speed " +
             std::to_string(limit);
    }
  }
  return "";
}

std::string StateDifference(v1::GetWorldResponse before, v1::GetWorldResponse after) {
  before.mutable_last_stats()->clear_stage_seconds();
  after.mutable_last_stats()->clear_stage_seconds();
  google::protobuf::util::MessageDifferencer differ;
  std::string report;
  differ.ReportDifferencesToString(&report);
  if (differ.Compare(after, before)) return "";
  return report.empty() ? "states differ" : report.substr(0, 2000);
}

bool IsParseFailure(const grpc::Status& status) {
  if (status.error_code() != grpc::StatusCode::INTERNAL) return false;
  const std::string& m = status.error_message();
  return m.empty() || m == "Failed to parse message" || m == "Unable to parse request" ||
         m == "No payload";
}

}  // namespace throng::fuzz
