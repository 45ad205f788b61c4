// A world's forward agents made ready for their fans and answered, one after another, written
// from the definitions (docs/FORWARD.md): each agent's columns in the internal frame with the
// world's defaults, every other body of the tick (a pedestrian an upright capsule from its
// feet to kPedestrianHeight, a vehicle a box on its wheels, an agent a sphere), the fan
// (forward_scene_ref.cpp) and its answers in the caller's frame.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/input/input_limits.h"
#include "kernels/reference/forward_scene_ref.h"
#include "kernels/reference/frame_ref.h"
#include "kernels/reference/reference_backend.h"
#include "kernels/steering/forward_batch.h"

namespace throng::reference {
namespace {

Vec3 Internal(const Frame& frame, float x, float y, float z) {
  float v[3];
  FromCaller(frame, x, y, z, v);
  return {v[0], v[1], v[2]};
}

float ValueOr(const float* column, size_t i, float fallback) {
  return column == nullptr ? fallback : column[i];
}

// docs/WORLD.md: the rear axle sits 22% of the length from the rear bumper, so the body's
// middle lies (1/2 - 0.22) of its length ahead of the axle, along its heading.
constexpr double kRearShare = 0.22;

// Whether forward agent i's values pass `checks` (ForwardChecks; docs/FORWARD.md and the
// column table): the bounded columns within their bounds, the fan's own settings within
// their ranges, a speed of at least 1 mm/s, and a heading the fan can steer (any non-zero
// one in a cone, one with a part in the ground plane in a ground fan).
bool Passes(const ForwardChecks& checks, const Frame& frame, FanMode mode,
            const ForwardPrepareScene& s, size_t i) {
  const float* const bounded[kForwardBoundedColumns] = {
      s.x, s.y, s.z, s.forward_x, s.forward_y, s.forward_z, s.speed, s.goal_x, s.goal_y, s.goal_z};
  for (int k = 0; k < kForwardBoundedColumns; ++k) {
    if (bounded[k] == nullptr) continue;
    const float v = bounded[k][i];
    if (std::isnan(v) || v < checks.bounds[k].min || v > checks.bounds[k].max) return false;
  }
  auto within = [](const float* column, size_t row, double lo, double hi) {
    return column == nullptr ||
           (!std::isnan(column[row]) && column[row] >= lo && column[row] <= hi);
  };
  const double pi = static_cast<float>(3.14159265358979323846);  // float(pi) is allowed
  if (!(s.speed[i] >= kMinSize)) return false;
  if (!within(s.radius, i, kMinSize, kMaxRadius)) return false;
  if (s.probes != nullptr && (s.probes[i] < 1 || s.probes[i] > kMaxFanProbes)) return false;
  if (s.half_angle != nullptr && !(s.half_angle[i] > 0.f && s.half_angle[i] <= pi)) return false;
  if (!within(s.probe_length, i, kMinSize, kMaxDistance)) return false;
  if (!within(s.turn_speed, i, 0.0, kMaxGain)) return false;
  const Vec3 f = Internal(frame, s.forward_x[i], s.forward_y[i], ValueOr(s.forward_z, i, 0.f));
  const double ground = double{f.x} * f.x + double{f.y} * f.y;
  if (!(ground + double{f.z} * f.z > 1e-12)) return false;
  return mode == FanMode::kCone || ground > 1e-12;
}

}  // namespace

uint64_t ReferenceBackend::PrepareForwardScene(const ForwardPrepareParams& params,
                                               const ForwardPrepareScene& s) {
  if (params.checks.on) {
    uint64_t refused = 0;
    for (size_t i = 0; i < s.count; ++i) {
      refused += Passes(params.checks, params.frame, params.defaults.mode, s, i) ? 0 : 1;
    }
    if (refused > 0) {
      fan_agents_.Resize(0);  // nothing prepared: no fan runs on these values
      return refused;
    }
  }
  const ForwardDefaults& d = params.defaults;
  ForwardSceneAgents& a = fan_agents_;
  a.Resize(s.count);
  fan_speed_.assign(s.speed, s.speed + s.count);
  fan_mode_ = d.mode;
  fan_dt_ = params.dt;
  for (size_t i = 0; i < s.count; ++i) {
    a.position[i] = Internal(params.frame, s.x[i], s.y[i], ValueOr(s.z, i, 0.f));
    Vec3 f = Internal(params.frame, s.forward_x[i], s.forward_y[i], ValueOr(s.forward_z, i, 0.f));
    if (d.mode == FanMode::kGround) f.z = 0.f;
    const double length = std::sqrt(double{f.x} * f.x + double{f.y} * f.y + double{f.z} * f.z);
    a.forward[i] = length > 0
                       ? Vec3{static_cast<float>(f.x / length), static_cast<float>(f.y / length),
                              static_cast<float>(f.z / length)}
                       : Vec3{};
    a.has_goal[i] = s.goal_x != nullptr ? 1 : 0;
    a.goal[i] = s.goal_x != nullptr
                    ? Internal(params.frame, s.goal_x[i], s.goal_y[i], ValueOr(s.goal_z, i, 0.f))
                    : Vec3{};
    a.radius[i] = ValueOr(s.radius, i, d.radius);
    a.probes[i] = s.probes == nullptr ? d.probes : static_cast<int32_t>(s.probes[i]);
    a.fov[i] = ValueOr(s.half_angle, i, d.half_angle);
    a.probe_length[i] = ValueOr(s.probe_length, i, d.probe_length);
    a.turn_speed[i] = ValueOr(s.turn_speed, i, d.turn_speed);
    a.step[i] = s.speed[i] * params.dt;
  }
  FanBodies& b = fan_bodies_;
  b = FanBodies{};
  for (size_t k = 0; k < s.pedestrians; ++k) {
    const float r = s.pedestrian_radius[k];
    const float feet = s.pedestrian_z[k];
    const float x = s.pedestrian_x[k], y = s.pedestrian_y[k];
    b.capsule_p.push_back({x, y, feet + r});
    b.capsule_q.push_back({x, y, feet + std::max(kPedestrianHeight - r, r)});
    b.capsule_radius.push_back(r);
    b.capsule_owner.push_back(-1);
  }
  for (size_t i = 0; i < s.count; ++i) {
    b.capsule_p.push_back(a.position[i]);
    b.capsule_q.push_back(a.position[i]);
    b.capsule_radius.push_back(a.radius[i]);
    b.capsule_owner.push_back(static_cast<int32_t>(i));
  }
  for (size_t v = 0; v < s.vehicles; ++v) {
    const VehicleBody& body = s.vehicle_bodies[v];
    const double ahead = (0.5 - kRearShare) * body.length;
    const double cx = body.axle.x + body.heading.x * ahead;
    const double cy = body.axle.y + body.heading.y * ahead;
    const float h = kVehicleBodyHeight;
    b.box_center.push_back(
        {static_cast<float>(cx), static_cast<float>(cy), s.vehicle_z[v] + h / 2});
    b.box_half.push_back({body.length / 2, body.width / 2, h / 2});
    b.box_yaw.push_back(static_cast<float>(std::atan2(double{body.heading.y}, body.heading.x)));
  }
  return 0;
}

ForwardSums ReferenceBackend::SteerForwardScene(const ForwardSteerParams& params,
                                                const StopRequested& stop,
                                                const ForwardSteerOutput& out) {
  ForwardSceneResults& r = fan_results_;
  reference::SteerForwardScene(fan_shapes_, fan_mode_, fan_dt_, fan_agents_, fan_bodies_, stop, &r);
  ForwardSums sums;
  for (size_t i = 0; i < fan_agents_.size(); ++i) {
    float m[3];
    ToCaller(params.frame, r.move[i].x, r.move[i].y, r.move[i].z, m);
    out.move_x[i] = m[0];
    out.move_y[i] = m[1];
    out.move_z[i] = m[2];
    out.probe[i] = static_cast<uint16_t>(r.probe[i]);
    out.hit_distance[i] = r.hit_distance[i];
    out.all_blocked[i] = r.all_blocked[i];
    sums.blocked += r.all_blocked[i] != 0 ? 1 : 0;
    sums.in_obstacles += r.overlapping[i] != 0 ? 1 : 0;
  }
  return sums;
}

}  // namespace throng::reference
