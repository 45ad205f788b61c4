#include "kernels/steering/forward_batch.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/input/column_checks.h"

namespace throng {
namespace {

[[noreturn]] void Reject(const std::string& what) { throw std::invalid_argument(what); }

std::string At(const char* column, size_t i) { return ColumnAt("agents", column, i); }

}  // namespace

void ForwardAgentColumns::Resize(size_t n) {
  id.resize(n);
  for (auto* c : {&px, &py, &fx, &fy, &radius}) c->resize(n);
}

void FanResults::Resize(size_t n) {
  for (auto* c : {&move_x, &move_y, &chosen_x, &chosen_y, &hit_distance}) c->resize(n);
  probe.resize(n);
  all_blocked.resize(n);
}

void ValidateFan(const FanParams& p, float dt, const ForwardAgentColumns& a) {
  if (!(p.fov > 0.f) || !(p.fov <= 3.14159274f)) Reject("fan.fov: must be within (0, pi]");
  if (p.probes < 1 || p.probes > kMaxFanProbes) {
    Reject("fan.probes: " + std::to_string(p.probes) + " is outside [1, " +
           std::to_string(kMaxFanProbes) + "]");
  }
  if (!std::isfinite(p.max_distance) || !(p.max_distance > 0.f))
    Reject("fan.max_distance: must be finite and > 0");
  if (!std::isfinite(p.turn_speed) || p.turn_speed < 0.f)
    Reject("fan.turn_speed: must be finite and >= 0");
  if (!std::isfinite(dt) || !(dt > 0.f)) Reject("dt: must be finite and > 0");
  const size_t n = a.id.size();
  RequireFiniteColumns(
      "agents", {{"px", &a.px}, {"py", &a.py}, {"fx", &a.fx}, {"fy", &a.fy}, {"radius", &a.radius}},
      n);
  for (size_t i = 0; i < n; ++i) {
    if (a.fx[i] == 0.f && a.fy[i] == 0.f) Reject(At("fx", i) + ": zero-length forward direction");
    if (!(a.radius[i] > 0.f)) Reject(At("radius", i) + ": must be > 0");
  }
}

}  // namespace throng
