// What a world checks of its forward agents: the fan defaults, the obstacles' heights and
// the spheres once, the forward columns every tick.
#include "kernels/world/forward_validate.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/input/column_checks.h"
#include "kernels/input/input_limits.h"

namespace throng {
namespace {

[[noreturn]] void Reject(const std::string& what) { throw std::invalid_argument(what); }

constexpr float kPi = 3.14159274f;  // float(pi): a half-angle of exactly pi is allowed

bool ValidHalfAngle(float v) { return v > 0.f && v <= kPi; }
bool ValidProbes(uint32_t v) { return v >= 1 && v <= static_cast<uint32_t>(kMaxFanProbes); }
bool ValidLength(float v) { return std::isfinite(v) && v >= kMinSize && v <= kMaxDistance; }
bool ValidTurnSpeed(float v) { return std::isfinite(v) && v >= 0.f && v <= kMaxGain; }
bool ValidRadius(float v) { return std::isfinite(v) && v >= kMinSize && v <= kMaxRadius; }

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
  if (f.probes < 1 || f.probes > kMaxFanProbes)
    Reject(std::string("forward.probes: ") + kProbesRule);
  if (!ValidHalfAngle(f.half_angle)) Reject(std::string("forward.half_angle: ") + kHalfAngleRule);
  if (!ValidLength(f.probe_length)) Reject(std::string("forward.probe_length: ") + kLengthRule);
  if (!ValidTurnSpeed(f.turn_speed)) Reject(std::string("forward.turn_speed: ") + kTurnRule);
  if (!ValidRadius(f.radius)) Reject(std::string("forward.radius: ") + kRadiusRule);

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
    if (!(f.speed[i] >= kMinSize)) Reject(ColumnAt(t, "speed", i) + ": must be at least 0.001 m/s");
  }
  // The up axis is the caller's; in the internal frame it is z. A ground fan needs a
  // heading in the ground plane, a cone any non-zero one.
  const bool cone = config.forward.mode == FanMode::kCone;
  for (size_t i = 0; i < n; ++i) {
    const Vec3 d = config.frame.ToInternal(
        {f.forward_x[i], f.forward_y[i], f.forward_z.empty() ? 0.f : f.forward_z[i]});
    const double ground = static_cast<double>(d.x) * d.x + static_cast<double>(d.y) * d.y;
    const double all = ground + static_cast<double>(d.z) * d.z;
    if (!(all > 1e-12)) Reject(ColumnAt(t, "forward_x", i) + ": zero-length forward direction");
    if (!cone && !(ground > 1e-12)) {
      Reject(ColumnAt(t, "forward_x", i) +
             ": the forward direction is vertical, and a ground fan needs a heading in the "
             "ground plane");
    }
  }
  OptionalColumn("radius", f.radius, n, ValidRadius, kRadiusRule);
  RequireTogether(t, "goal_x", f.goal_x, "goal_y", f.goal_y);
  if (!f.goal_z.empty() && f.goal_x.empty()) {
    Reject("forward.goal_z: given without goal_x and goal_y");
  }
  OptionalColumn("probes", f.probes, n, ValidProbes, kProbesRule);
  OptionalColumn("half_angle", f.half_angle, n, ValidHalfAngle, kHalfAngleRule);
  OptionalColumn("probe_length", f.probe_length, n, ValidLength, kLengthRule);
  OptionalColumn("turn_speed", f.turn_speed, n, ValidTurnSpeed, kTurnRule);
  RequireUniqueIds(t, f.id);
}

}  // namespace throng
