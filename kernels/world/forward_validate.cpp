// What a world checks of its forward agents: the fan defaults, the obstacles' heights and
// the spheres once, the forward columns every tick.
#include "kernels/world/forward_validate.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "kernels/input/column_checks.h"
#include "kernels/input/input_limits.h"
#include "kernels/steering/forward_value_rules.h"
#include "kernels/world/column_tables.h"

namespace throng {
namespace {

[[noreturn]] void Reject(const std::string& what) { throw std::invalid_argument(what); }

// The rules themselves are forward_value_rules.h's, shared with the backends' checks.
const char* kProbesRule = "must be within [1, 64]";
const char* kHalfAngleRule = "must be within (0, pi]";
const char* kLengthRule = "must be within [0.001, 10000] m";
const char* kTurnRule = "must be within [0, 1000] 1/s";
const char* kRadiusRule = "must be within [0.001, 100] m";

// An optional column: empty, or one valid value per agent.
template <class T, class Valid>
void OptionalColumn(const char* column, const std::vector<T>& values, size_t n, Valid valid,
                    const char* rule) {
  if (values.empty()) return;
  RequireLength("forward", column, values.size(), n);
  for (size_t i = 0; i < n; ++i) {
    if (!valid(values[i])) Reject(ColumnAt("forward", column, i) + ": " + rule);
  }
}

}  // namespace

void ValidateForwardConfig(const WorldConfig& c) {
  const ForwardDefaults& f = c.forward;
  if (f.mode != FanMode::kGround && f.mode != FanMode::kCone) Reject("forward.mode: unknown mode");
  if (f.probes < 1 || !FanProbesValid(static_cast<uint32_t>(f.probes)))
    Reject(std::string("forward.probes: ") + kProbesRule);
  if (!FanHalfAngleValid(f.half_angle))
    Reject(std::string("forward.half_angle: ") + kHalfAngleRule);
  if (!FanLengthValid(f.probe_length)) Reject(std::string("forward.probe_length: ") + kLengthRule);
  if (!FanTurnSpeedValid(f.turn_speed)) Reject(std::string("forward.turn_speed: ") + kTurnRule);
  if (!FanRadiusValid(f.radius)) Reject(std::string("forward.radius: ") + kRadiusRule);

  if (!c.obstacle_heights.empty() && c.obstacle_heights.size() != c.obstacles.size()) {
    Reject("obstacle_heights: " + std::to_string(c.obstacle_heights.size()) + " ranges for " +
           std::to_string(c.obstacles.size()) + " obstacles");
  }
  for (size_t k = 0; k < c.obstacle_heights.size(); ++k) {
    const HeightRange& h = c.obstacle_heights[k];
    const std::string name = "obstacles[" + std::to_string(k) + "]";
    if (!h.bounded) continue;
    if (!(std::fabs(h.base) <= kMaxCoordinate)) {
      Reject(name + ".base: must be finite and within +-2e6 m");
    }
    if (!(std::fabs(h.top) <= kMaxCoordinate)) {
      Reject(name + ".top: must be finite and within +-2e6 m");
    }
    if (h.top < h.base) Reject(name + ".top: is below its base");
  }

  if (c.spheres.size() > kMaxObstacleVertices) {
    throw LimitExceeded("spheres: " + std::to_string(c.spheres.size()) +
                        " spheres, more than the limit of " + std::to_string(kMaxObstacleVertices));
  }
  for (size_t k = 0; k < c.spheres.size(); ++k) {
    const SphereObstacle& s = c.spheres[k];
    const std::string name = "spheres[" + std::to_string(k) + "]";
    for (float v : {s.center.x, s.center.y, s.center.z}) {
      if (!(std::fabs(v) <= kMaxCoordinate)) {
        Reject(name + ".center: must be finite and within +-2e6 m");
      }
    }
    if (!(s.radius > 0.f)) Reject(name + ".radius: must be > 0");
    if (!(s.radius >= kMinSize && s.radius <= kMaxDistance)) {
      Reject(name + ".radius: must be within [0.001, 10000] m");
    }
  }
}

void ValidateForwardSnapshot(const WorldConfig& config, const ForwardSnapshot& f) {
  const char* t = "forward";
  const size_t n = f.size();
  // Every column's length and its table rule (kernels/world/column_tables.h), then the
  // checks across columns and of the ByHand columns.
  CheckColumns(t, n, [&](auto check) { VisitForwardColumns(f, check); });
  for (size_t i = 0; i < n; ++i) {
    if (!ForwardSpeedValid(f.speed[i])) {
      Reject(ColumnAt(t, "speed", i) + ": must be at least 0.001 m/s");
    }
  }
  // The up axis is the caller's; in the internal frame it is z. A ground fan needs a
  // heading in the ground plane, a cone any non-zero one.
  const bool cone = config.forward.mode == FanMode::kCone;
  for (size_t i = 0; i < n; ++i) {
    const HeadingFault fault =
        ForwardHeadingFault(config.frame, cone, f.forward_x[i], f.forward_y[i],
                            f.forward_z.empty() ? 0.f : f.forward_z[i]);
    if (fault == HeadingFault::kZeroLength) {
      Reject(ColumnAt(t, "forward_x", i) + ": zero-length forward direction");
    }
    if (fault == HeadingFault::kVertical) {
      Reject(ColumnAt(t, "forward_x", i) +
             ": the forward direction is vertical, and a ground fan needs a heading in the "
             "ground plane");
    }
  }
  OptionalColumn("radius", f.radius, n, FanRadiusValid, kRadiusRule);
  RequireTogether(t, "goal_x", f.goal_x, "goal_y", f.goal_y);
  if (!f.goal_z.empty() && f.goal_x.empty()) {
    Reject("forward.goal_z: given without goal_x and goal_y");
  }
  OptionalColumn("probes", f.probes, n, FanProbesValid, kProbesRule);
  OptionalColumn("half_angle", f.half_angle, n, FanHalfAngleValid, kHalfAngleRule);
  OptionalColumn("probe_length", f.probe_length, n, FanLengthValid, kLengthRule);
  OptionalColumn("turn_speed", f.turn_speed, n, FanTurnSpeedValid, kTurnRule);
  RequireUniqueIds(t, f.id);
}

// The forward columns whose values a check of its own reads (ByHand in the table): radius,
// probes, half_angle, probe_length and turn_speed, each checked by ForwardRowPasses
// (kernels/steering/forward_prepare.cuh), by the reference's and here.
#define THRONG_COUNT_BY_HAND(name, type, wire, need, rule) \
  count += (rule).kind == ColumnRule::Kind::kByHand ? 1 : 0;
constexpr int ForwardColumnsCheckedByHand() {
  int count = 0;
  THRONG_FORWARD_COLUMNS(THRONG_COUNT_BY_HAND)
  return count;
}
#undef THRONG_COUNT_BY_HAND
static_assert(ForwardColumnsCheckedByHand() == 5,
              "a new forward column checked by hand: add its check to ForwardRowPasses "
              "(kernels/steering/forward_prepare.cuh), to the reference's and to "
              "ValidateForwardSnapshot");

bool ForwardShapePasses(const ForwardSnapshot& f) {
  if (!LengthsRight(f.size(), [&](auto visit) { VisitForwardColumns(f, visit); })) return false;
  if (f.goal_x.empty() != f.goal_y.empty()) return false;
  if (!f.goal_z.empty() && f.goal_x.empty()) return false;
  return IdsIncrease(f.id);
}

// The bounded float columns the forward preparation reads, by their names in the table, in
// ForwardBoundedColumn order.
constexpr const char* kPreparedForwardBoundedColumns[kForwardBoundedColumns] = {
    "x", "y", "z", "forward_x", "forward_y", "forward_z", "speed", "goal_x", "goal_y", "goal_z"};

ForwardChecks ForwardChecksForPreparation() {
  ForwardChecks checks;
  checks.on = true;
  const ForwardSnapshot none;
  const TableBoundsCount n =
      BoundsFromTable([&](auto f) { VisitForwardColumns(none, f); }, kPreparedForwardBoundedColumns,
                      kForwardBoundedColumns, checks.bounds);
  // Every float column with a table rule has its bounds here.
  if (n.found != kForwardBoundedColumns || n.ruled != kForwardBoundedColumns) {
    throw std::logic_error("the forward agents' column table and the preparation's columns differ");
  }
  return checks;
}

}  // namespace throng
