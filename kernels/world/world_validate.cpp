#include "kernels/world/world_validate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "kernels/input/column_checks.h"
#include "kernels/input/first_index.h"
#include "kernels/input/input_limits.h"
#include "kernels/orca/orca_validate.h"
#include "kernels/steering/pedestrian_prepare.cuh"
#include "kernels/vehicles/vehicle_batch.h"
#include "kernels/world/forward_validate.h"

namespace throng {
namespace {

[[noreturn]] void Reject(const std::string& what) { throw std::invalid_argument(what); }

std::string Limit(float max) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", max);
  return text;
}

void RequirePositive(const std::string& field, float v, float max) {
  if (!(std::isfinite(v) && v >= kMinSize && v <= max)) {
    Reject(field + ": must be >= 0.001 and <= " + Limit(max));
  }
}

void RequireNonNegative(const std::string& field, float v, float max) {
  if (!(std::isfinite(v) && v >= 0.f && v <= max)) {
    Reject(field + ": must be >= 0 and <= " + Limit(max));
  }
}

// Finite and |v| <= max, for values whose sign is checked elsewhere.
void RequireAtMost(const std::string& field, float v, float max) {
  if (!(std::fabs(v) <= max)) Reject(field + ": must be finite and within +-" + Limit(max));
}

void RequireRange(const std::string& field, int v, int lo, int hi) {
  if (v < lo || v > hi) {
    Reject(field + ": " + std::to_string(v) + " is outside [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]");
  }
}

// Navigating agents name a target of the world.
void ValidateTargets(const WorldConfig& config, const AgentSnapshot& a) {
  const char* t = "agents";
  const size_t n = a.size();
  if (!a.target.empty()) RequireLength(t, "target", a.target.size(), n);
  std::vector<uint32_t> ids;  // sorted: up to kMaxNavigationTargets per lookup
  for (const NavigationTarget& g : config.navigation_targets) ids.push_back(g.id);
  std::sort(ids.begin(), ids.end());
  const AgentBehavior world_default = config.agent_defaults.behavior;
  const size_t first = FirstIndexWhere(n, [&](size_t i) {
    return EffectiveBehavior(a, i, world_default) == AgentBehavior::kNavigate &&
           (a.target.empty() || !std::binary_search(ids.begin(), ids.end(), a.target[i]));
  });
  for (size_t i = first; i < n; ++i) {
    if (EffectiveBehavior(a, i, world_default) != AgentBehavior::kNavigate) continue;
    if (a.target.empty()) {
      Reject(std::string(t) + ".target: missing while agent " + std::to_string(i) +
             " navigates, which needs it");
    }
    if (!std::binary_search(ids.begin(), ids.end(), a.target[i])) {
      Reject(ColumnAt(t, "target", i) + ": " + std::to_string(a.target[i]) +
             " is not a navigation target of this world");
    }
  }
}

// Known values; arrive, seek and flee only with goals; an agent's own arrive, seek, flee or
// navigate together with its "uses preferred velocity" flag is a contradiction, not a
// choice.
void ValidateBehaviors(const AgentSnapshot& a, AgentBehavior world_default) {
  const char* t = "agents";
  const size_t n = a.size();
  if (!a.behavior.empty()) {
    RequireLength(t, "behavior", a.behavior.size(), n);
    const bool any_preferred_flag = !a.flags.empty();
    const size_t first = FirstIndexWhere(n, [&](size_t i) {
      return a.behavior[i] >= kAgentBehaviorCount ||
             (any_preferred_flag && a.behavior[i] != 0 &&
              (a.flags[i] & kSnapshotUsesPreferredVelocity) != 0);
    });
    for (size_t i = first; i < n; ++i) {
      if (a.behavior[i] >= kAgentBehaviorCount) {
        Reject(ColumnAt(t, "behavior", i) + ": " + std::to_string(a.behavior[i]) +
               " is not a behaviour (0 by columns, 1 arrive, 2 seek, 3 flee, 4 preferred "
               "velocity, 5 navigate)");
      }
      const auto own = static_cast<AgentBehavior>(a.behavior[i]);
      if ((BehaviorNeedsGoal(own) || own == AgentBehavior::kNavigate) && !a.flags.empty() &&
          (a.flags[i] & kSnapshotUsesPreferredVelocity)) {
        Reject(ColumnAt(t, "flags", i) + ": \"uses preferred velocity\" contradicts behavior " +
               std::string(AgentBehaviorName(own)));
      }
    }
  }
  if (a.has_goals()) return;
  const size_t first = FirstIndexWhere(
      n, [&](size_t i) { return BehaviorNeedsGoal(EffectiveBehavior(a, i, world_default)); });
  for (size_t i = first; i < n; ++i) {
    const AgentBehavior b = EffectiveBehavior(a, i, world_default);
    if (!BehaviorNeedsGoal(b)) continue;
    const std::string name(AgentBehaviorName(b));
    if (!a.behavior.empty() && a.behavior[i] != 0) {
      Reject(ColumnAt(t, "behavior", i) + ": " + name + " needs the goal columns");
    }
    Reject(std::string(t) + ".goal_x: missing while agent " + std::to_string(i) + " moves by " +
           name + " (the world's default behaviour), which needs it");
  }
}

// Every column's length and its table rule come first, in the table's order
// (kernels/world/column_tables.h); then the checks across columns and of ByHand values.
// AgentsPassAtOnce (below) must refuse whatever a check here, in ValidateBehaviors or in
// ValidateTargets refuses: a new check goes into both.
void ValidateAgentSnapshot(const AgentSnapshot& a) {
  const char* t = "agents";
  const size_t n = a.size();
  CheckColumns(t, n, [&](auto check) { VisitAgentColumns(a, check); });
  RequireTogether(t, "goal_x", a.goal_x, "goal_y", a.goal_y);
  RequireTogether(t, "pref_vx", a.pref_vx, "pref_vy", a.pref_vy);
  if (!a.flags.empty()) {
    constexpr uint8_t kKnown = kSnapshotNonCooperative | kSnapshotUsesPreferredVelocity;
    for (size_t i = FirstIndexWhere(n, [&](size_t k) { return (a.flags[k] & ~kKnown) != 0; });
         i < n; ++i) {
      if (a.flags[i] & ~kKnown) {
        Reject(ColumnAt(t, "flags", i) + ": unknown bits " + std::to_string(a.flags[i] & ~kKnown));
      }
    }
  }
  RequireUniqueIds(t, a.id);
}

// Every check of the three above at once, for the common case that all pass: the column
// ranges and each row's checks across its columns in one parallel region (each check in
// its own pass woke the cores three or four times a tick: docs/PERFORMANCE.md). Ids that
// are not strictly increasing, or any doubt, answer false: the checks then run one by one
// and name the first offender as before. Never true where one of them would reject.
// The agent columns whose values a check of its own reads (ByHand in the table): flags,
// behavior and target, each read by AgentsPassAtOnce. A new one needs its check there too,
// or the one pass would let its bad values through: this count stops the build until then.
#define THRONG_COUNT_BY_HAND(name, type, wire, need, rule) \
  count += (rule).kind == ColumnRule::Kind::kByHand ? 1 : 0;
constexpr int AgentColumnsCheckedByHand() {
  int count = 0;
  THRONG_AGENT_COLUMNS(THRONG_COUNT_BY_HAND)
  return count;
}
static_assert(AgentColumnsCheckedByHand() == 3,
              "a new agent column checked by hand: add its check to RowFlagsAndBehaviorPass "
              "(AgentsPassAtOnce and the preparation's checks call it) and to the reference's");

// The vehicle columns whose values a check of its own reads: spline_id and profile, each
// checked by the vehicles' preparation (VehicleRowPasses) and ValidateVehicleSnapshot.
constexpr int VehicleColumnsCheckedByHand() {
  int count = 0;
  THRONG_VEHICLE_COLUMNS(THRONG_COUNT_BY_HAND)
  return count;
}
#undef THRONG_COUNT_BY_HAND
static_assert(VehicleColumnsCheckedByHand() == 2,
              "a new vehicle column checked by hand: add its check to VehicleRowPasses "
              "(kernels/vehicles/vehicle_prepare.cuh), to the reference's and to "
              "ValidateVehicleSnapshot");

// The float columns the backend's preparation reads, by their names in the table, in
// PedestrianFloatColumn order: it checks their values (AgentChecksForPreparation).
constexpr const char* kPreparedFloatColumns[kPedestrianFloatColumns] = {
    "x",         "y",      "z",      "vx",     "vy",      "vz",      "radius",
    "max_speed", "goal_x", "goal_y", "goal_z", "pref_vx", "pref_vy", "pref_vz"};

bool PreparationReads(const char* column) {
  for (const char* name : kPreparedFloatColumns) {
    if (std::string_view(name) == column) return true;
  }
  return false;
}

bool AgentsPassAtOnce(const WorldConfig& config, const AgentSnapshot& a) {
  const size_t n = a.size();
  std::vector<ValueRange> ranges;
  if (!LengthsAndRanges(
          n, [&](auto check) { VisitAgentColumns(a, check); }, &ranges)) {
    return false;
  }
  if (a.goal_x.empty() != a.goal_y.empty() || a.pref_vx.empty() != a.pref_vy.empty()) return false;
  std::vector<uint32_t> targets;  // sorted, as ValidateTargets reads them
  for (const NavigationTarget& g : config.navigation_targets) targets.push_back(g.id);
  std::sort(targets.begin(), targets.end());
  const AgentBehavior world_default = config.agent_defaults.behavior;
  const bool has_target = !a.target.empty();
  const PedestrianPrepareScene scene = PedestrianSceneOf(a);
  return AllInRangeAnd(ranges.data(), ranges.size(), n, [&](size_t i) {
    if (i + 1 < n && !(a.id[i] < a.id[i + 1])) return false;  // unique, without a sort
    // The preparation's rules for a row (its checks refuse navigation; this pass, the one
    // checks of a world with targets, looks each navigating row's target up).
    AgentBehavior b = AgentBehavior::kByColumns;
    if (!RowFlagsAndBehaviorPass(scene, i, world_default, &b)) return false;
    return b != AgentBehavior::kNavigate ||
           (has_target && std::binary_search(targets.begin(), targets.end(), a.target[i]));
  });
}

// What the host checks of the agents when the backend's preparation checks the values it
// reads: every present column's length, the columns that come in pairs, the values of any
// ruled float column the preparation does not read (none today), and ids strictly
// increasing (unique without a sort). False where one of them fails or is in doubt (ids
// out of order): then every check runs one by one.
bool AgentShapePasses(const AgentSnapshot& a) {
  const size_t n = a.size();
  bool lengths_right = true;
  std::vector<ValueRange> unread;
  VisitAgentColumns(a, [&](const ColumnInfo& column, const auto& values) {
    if (column.need == ColumnNeed::kOptional && values.empty()) return;
    lengths_right = lengths_right && values.size() == n;
    if constexpr (std::is_same_v<std::decay_t<decltype(values)>, std::vector<float>>) {
      ValueRange range;
      if (!PreparationReads(column.name) && RangeOfRule(column.rule, values.data(), &range)) {
        unread.push_back(range);
      }
    }
  });
  if (!lengths_right) return false;
  if (a.goal_x.empty() != a.goal_y.empty() || a.pref_vx.empty() != a.pref_vy.empty()) return false;
  if (!unread.empty() && !AllInRange(unread.data(), unread.size(), n)) return false;
  return IdsIncrease(a.id);
}

// What the host checks of the vehicles when their preparation checks the values it reads
// (every float column, the lanes, the profiles): each present column's length, and ids
// strictly increasing (unique without a sort). False where one of them fails or is in
// doubt: then every check runs one by one.
bool VehicleShapePasses(const VehicleSnapshot& v) {
  return LengthsRight(v.size(), [&](auto f) { VisitVehicleColumns(v, f); }) && IdsIncrease(v.id);
}

void ValidateVehicleSnapshot(const WorldConfig& config, const VehicleSnapshot& v) {
  const char* t = "vehicles";
  const size_t n = v.size();
  CheckColumns(t, n, [&](auto check) { VisitVehicleColumns(v, check); });
  std::vector<uint32_t> lane_ids;
  lane_ids.reserve(config.splines.size());
  for (const SplineDesc& s : config.splines) lane_ids.push_back(s.id);
  std::sort(lane_ids.begin(), lane_ids.end());
  for (size_t i = 0; i < n; ++i) {
    if (!std::binary_search(lane_ids.begin(), lane_ids.end(), v.spline_id[i])) {
      Reject(ColumnAt(t, "spline_id", i) + ": " + std::to_string(v.spline_id[i]) +
             " is not a spline of this world");
    }
  }
  if (!v.profile.empty()) {
    const size_t profiles = config.vehicle_profiles.size();
    for (size_t i = 0; i < n; ++i) {
      if (v.profile[i] > profiles) {
        Reject(ColumnAt(t, "profile", i) + ": " + std::to_string(v.profile[i]) +
               " but the world has " + std::to_string(profiles) +
               (profiles == 1 ? " profile" : " profiles") + " (0 = its follower parameters)");
      }
    }
  }
  RequireUniqueIds(t, v.id);
}

void RequirePointWithin(const std::string& name, const Vec3& q) {
  if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) {
    Reject(name + ": not finite");
  }
  if (std::fabs(q.x) > kMaxCoordinate || std::fabs(q.y) > kMaxCoordinate ||
      std::fabs(q.z) > kMaxCoordinate) {
    Reject(name + ": a coordinate is beyond the limit of " +
           std::to_string(static_cast<long>(kMaxCoordinate)) + " m");
  }
}

void ValidateObstacles(const std::vector<std::vector<Vec3>>& obstacles) {
  size_t vertices = 0;
  for (const auto& polygon : obstacles) vertices += polygon.size();
  if (vertices > kMaxObstacleVertices) {
    throw LimitExceeded("obstacles: " + std::to_string(vertices) +
                        " vertices in all exceed the limit of " +
                        std::to_string(kMaxObstacleVertices) + " per world");
  }
  for (size_t p = 0; p < obstacles.size(); ++p) {
    const std::string name = "obstacles[" + std::to_string(p) + "]";
    if (obstacles[p].size() < 2) Reject(name + ".vertices: needs at least 2 vertices");
    for (size_t k = 0; k < obstacles[p].size(); ++k) {
      RequirePointWithin(name + ".vertices[" + std::to_string(k) + "]", obstacles[p][k]);
    }
  }
}

// Point coordinates and counts before anything is built: lane lengths come after.
void ValidateSplineInputs(const std::vector<SplineDesc>& splines) {
  if (splines.size() > kMaxSplines) {
    throw LimitExceeded("splines: " + std::to_string(splines.size()) + " exceed the limit of " +
                        std::to_string(kMaxSplines) + " per world");
  }
  size_t points = 0;
  for (const SplineDesc& s : splines) points += s.points.size();
  if (points > kMaxSplinePoints) {
    throw LimitExceeded("splines: " + std::to_string(points) +
                        " control points in all exceed the limit of " +
                        std::to_string(kMaxSplinePoints) + " per world");
  }
  for (size_t i = 0; i < splines.size(); ++i) {
    const std::string name = "splines[" + std::to_string(i) + "]";
    for (size_t k = 0; k < splines[i].points.size(); ++k) {
      RequirePointWithin(name + ".points[" + std::to_string(k) + "]", splines[i].points[k]);
    }
    RequireAtMost(name + ".speed_limit", splines[i].speed_limit, kMaxSpeed);
  }
}

}  // namespace

void ValidateWorldConfig(const WorldConfig& c) {
  if (c.frame.up != UpAxis::kZ && c.frame.up != UpAxis::kY) Reject("frame.up: unknown axis");
  if (c.frame.handedness != Handedness::kRight && c.frame.handedness != Handedness::kLeft) {
    Reject("frame.handedness: unknown value");
  }
  ValidateSplineInputs(c.splines);
  ValidateSplineIds(c.splines);
  for (size_t i = 0; i < c.splines.size(); ++i) CleanControlPoints(c.splines[i], i);
  ValidateObstacles(c.obstacles);
  ValidateForwardConfig(c);
  OrcaParams orca = c.orca;
  orca.time_step = 0.1f;  // each tick's dt replaces it, checked per snapshot
  ValidateOrcaParams(orca);
  ValidateFollowerParams(c.follower, c.world_speed_limit);
  if (c.vehicle_profiles.size() > kMaxVehicleProfiles) {
    throw LimitExceeded("vehicle_profiles: " + std::to_string(c.vehicle_profiles.size()) +
                        " profiles, more than the limit of " + std::to_string(kMaxVehicleProfiles));
  }
  for (size_t k = 0; k < c.vehicle_profiles.size(); ++k) {
    ValidateFollowerParams(c.vehicle_profiles[k], c.world_speed_limit,
                           "vehicle_profiles[" + std::to_string(k) + "].");
  }
  RequirePositive("agent_defaults.radius", c.agent_defaults.radius, kMaxRadius);
  RequirePositive("agent_defaults.max_speed", c.agent_defaults.max_speed, kMaxSpeed);
  RequirePositive("agent_defaults.max_accel", c.agent_defaults.max_accel, kMaxAcceleration);
  RequireNonNegative("agent_defaults.slowing_radius", c.agent_defaults.slowing_radius,
                     kMaxDistance);
  if (static_cast<uint8_t>(c.agent_defaults.behavior) >= kAgentBehaviorCount) {
    Reject("agent_defaults.behavior: " +
           std::to_string(static_cast<unsigned>(c.agent_defaults.behavior)) +
           " is not a behaviour");
  }
  RequirePositive("vehicle_defaults.length", c.vehicle_defaults.length, kMaxVehicleSize);
  RequirePositive("vehicle_defaults.width", c.vehicle_defaults.width, kMaxVehicleSize);
  RequirePositive("vehicle_defaults.max_speed", c.vehicle_defaults.max_speed, kMaxSpeed);
  const BicycleParams& b = c.vehicle_defaults.bicycle;
  // The follower divides by both (it is told the bicycle's geometry): a denormal one, now
  // reachable over the API (WorldConfig.bicycle), would turn the steering into NaN. The
  // bounds are the follower's own (ValidateFollowerParams).
  if (!(std::isfinite(b.wheelbase) && b.wheelbase >= kMinSize && b.wheelbase <= kMaxVehicleSize)) {
    Reject("vehicle_defaults.bicycle.wheelbase: must be within [0.001, 100]");
  }
  if (!(std::isfinite(b.max_steer_angle) && b.max_steer_angle >= 1e-3f &&
        b.max_steer_angle < kMaxWheelAngle)) {
    Reject("vehicle_defaults.bicycle.max_steer_angle: must be within [0.001, 1.5)");
  }
  RequireNonNegative("vehicle_defaults.bicycle.max_accel", b.max_accel, kMaxAcceleration);
  RequireNonNegative("vehicle_defaults.bicycle.max_brake", b.max_brake, kMaxAcceleration);
  RequireNonNegative("vehicle_defaults.bicycle.steering_time_constant", b.steering_time_constant,
                     kMaxSeconds);
  const DetectionParams& d = c.detection;
  RequireRange("detection.oscillation_window", d.oscillation_window, 1, 32);
  RequireRange("detection.oscillation_flips", d.oscillation_flips, 1, 32);
  RequireRange("detection.stall_ticks", d.stall_ticks, 1, 1 << 30);
  RequireNonNegative("detection.oscillation_min_lateral", d.oscillation_min_lateral, kMaxSpeed);
  RequireNonNegative("detection.stall_min_progress", d.stall_min_progress, kMaxDistance);
  RequireNonNegative("detection.stop_speed", d.stop_speed, kMaxSpeed);
  RequireNonNegative("detection.goal_tolerance", d.goal_tolerance, kMaxDistance);
  if (c.navigation_targets.size() > kMaxNavigationTargets) {
    throw LimitExceeded("navigation_targets: " + std::to_string(c.navigation_targets.size()) +
                        " targets, more than the limit of " +
                        std::to_string(kMaxNavigationTargets));
  }
  // Each point of `points` finite and within the coordinate bound, named `name[v]`.
  auto require_coordinates = [](const std::string& name, const std::vector<Vec3>& points) {
    for (size_t v = 0; v < points.size(); ++v) {
      const Vec3 q = points[v];
      for (const float x : {q.x, q.y, q.z}) {
        if (!(std::isfinite(x) && std::fabs(x) <= kMaxCoordinate)) {
          Reject(name + "[" + std::to_string(v) + "]: coordinates must be finite and within " +
                 std::to_string(static_cast<int64_t>(kMaxCoordinate)) + " m");
        }
      }
    }
  };
  for (size_t k = 0; k < c.navigation_targets.size(); ++k) {
    const NavigationTarget& g = c.navigation_targets[k];
    const std::string at = "navigation_targets[" + std::to_string(k) + "]";
    if (g.shape.size() != 1 && (g.shape.size() < 3 || g.shape.size() > kMaxTargetVertices)) {
      Reject(at + ".shape: " + std::to_string(g.shape.size()) +
             " vertices; a point needs 1, a polygon 3 to " + std::to_string(kMaxTargetVertices));
    }
    require_coordinates(at + ".shape", g.shape);
    if (!g.region.empty()) {
      const std::string region = at + ".region";
      if (g.region.size() != 2) {
        Reject(region + ": " + std::to_string(g.region.size()) +
               " points; a region is two, opposite corners of a box on the ground");
      }
      require_coordinates(region, g.region);
      const Vec3 r0 = c.frame.ToInternal(g.region[0]), r1 = c.frame.ToInternal(g.region[1]);
      const Vec2 lo{std::min(r0.x, r1.x), std::min(r0.y, r1.y)};
      const Vec2 hi{std::max(r0.x, r1.x), std::max(r0.y, r1.y)};
      const float cell = std::fmax(c.navigation.cell, 0.05f);  // its own check comes later
      if (!(hi.x - lo.x >= cell && hi.y - lo.y >= cell)) {
        Reject(region + ": the box must be at least navigation.cell wide on the ground");
      }
      for (size_t v = 0; v < g.shape.size(); ++v) {
        const Vec3 q = c.frame.ToInternal(g.shape[v]);
        if (q.x < lo.x || q.x > hi.x || q.y < lo.y || q.y > hi.y) {
          Reject(at + ".shape[" + std::to_string(v) + "]: outside the target's region");
        }
      }
    }
    for (size_t j = 0; j < k; ++j) {
      if (c.navigation_targets[j].id == g.id) {
        Reject(at + ".id: " + std::to_string(g.id) + " is already used by navigation_targets[" +
               std::to_string(j) + "]");
      }
    }
  }
  const PathCheckParams& p = c.path_check;
  RequireNonNegative("path_check.gap", p.gap, kMaxDistance);
  RequireNonNegative("path_check.reaction_time", p.reaction_time, kMaxSeconds);
  RequireNonNegative("path_check.min_length", p.min_length, kMaxDistance);
  RequireNonNegative("path_check.lateral_margin", p.lateral_margin, kMaxDistance);
}

void ValidateTimeStep(float dt) {
  if (!(dt >= kMinSeconds && dt <= 10.f)) Reject("dt: must be within [0.001, 10] s");
}

void ValidateAgents(const WorldConfig& config, const AgentSnapshot& agents) {
  ValidateAgentSnapshot(agents);
  ValidateBehaviors(agents, config.agent_defaults.behavior);
  ValidateTargets(config, agents);
}

void ValidateVehicles(const WorldConfig& config, const VehicleSnapshot& vehicles) {
  ValidateVehicleSnapshot(config, vehicles);
}

// The float columns the vehicles' preparation reads, by their names in the table, in
// VehicleFloatColumn order.
constexpr const char* kPreparedVehicleFloatColumns[kVehicleFloatColumns] = {
    "x", "y", "z", "yaw", "speed", "progress_hint", "length", "width", "max_speed"};

VehicleChecks VehicleChecksForPreparation() {
  VehicleChecks checks;
  checks.on = true;
  const VehicleSnapshot none;
  const TableBoundsCount n =
      BoundsFromTable([&](auto f) { VisitVehicleColumns(none, f); }, kPreparedVehicleFloatColumns,
                      kVehicleFloatColumns, checks.bounds);
  // Every float column of the table has its bounds here.
  if (n.found != kVehicleFloatColumns || n.floats != kVehicleFloatColumns) {
    throw std::logic_error("the vehicles' column table and the preparation's columns differ");
  }
  return checks;
}

PedestrianChecks AgentChecksForPreparation() {
  PedestrianChecks checks;
  checks.on = true;
  const AgentSnapshot none;
  const TableBoundsCount n =
      BoundsFromTable([&](auto f) { VisitAgentColumns(none, f); }, kPreparedFloatColumns,
                      kPedestrianFloatColumns, checks.bounds);
  // Each column the preparation reads has its rule in the table.
  if (n.found != kPedestrianFloatColumns) {
    throw std::logic_error("the agents' column table and the preparation's columns differ");
  }
  return checks;
}

void ValidateSnapshot(const WorldConfig& config, const Snapshot& s, bool has_last_tick,
                      uint64_t last_tick, bool agents_checked, bool vehicles_checked,
                      bool forward_checked, bool agent_values_on_backend,
                      bool vehicle_values_on_backend, bool forward_values_on_backend) {
  if (s.tick > kMaxTick) {
    Reject("tick: " + std::to_string(s.tick) + " is beyond the limit of " +
           std::to_string(kMaxTick) + " (2^53)");
  }
  if (has_last_tick && s.tick <= last_tick) {
    Reject("tick: " + std::to_string(s.tick) + " is not after the last tick " +
           std::to_string(last_tick));
  }
  ValidateTimeStep(s.dt);
  if (!agents_checked) {
    const bool pass =
        agent_values_on_backend ? AgentShapePasses(s.agents) : AgentsPassAtOnce(config, s.agents);
    if (!pass) ValidateAgents(config, s.agents);
  }
  if (!vehicles_checked && !(vehicle_values_on_backend && VehicleShapePasses(s.vehicles))) {
    ValidateVehicleSnapshot(config, s.vehicles);
  }
  if (!forward_checked && !(forward_values_on_backend && ForwardShapePasses(s.forward))) {
    ValidateForwardSnapshot(config, s.forward);
  }
}

}  // namespace throng
