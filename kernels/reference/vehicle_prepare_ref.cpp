// The snapshot's vehicles made ready for the follower, one after another, written from the
// definitions (docs/VEHICLES.md, "Caller physics"; docs/WORLD.md, "Per-id state"): each on
// the lane its spline id names, in the internal frame, with its own size and top speed or
// the world's; its progress hint the snapshot's, else last tick's progress, else the
// nearest point of the whole lane (found here to the millimetre in double, where the
// engine keeps its best metre sample); the share of a tick's turn its physics makes before
// the move read from its motion since last tick. Angles and the chord in double.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/reference/frame_ref.h"
#include "kernels/reference/reference_backend.h"

namespace throng::reference {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Into [-pi, pi).
double Wrapped(double a) {
  a = std::fmod(a + kPi, 2.0 * kPi);
  if (a < 0.0) a += 2.0 * kPi;
  return a - kPi;
}

// docs/VEHICLES.md, "Caller physics": a tick's motion from (from, yaw_from) to (to, yaw_to)
// says which share of its turn came before the move when it turned at least 1e-3 rad and
// moved a chord of 1 cm to twice its possible travel; the chord's direction is the heading
// at the move. A share beyond [-0.5, 1.5] is no integration (a reposition); the rest is
// clamped to [0, 1]. Otherwise the estimate stands.
double TurnShare(double estimate, double from_x, double from_y, double yaw_from, double to_x,
                 double to_y, double yaw_to, double travel) {
  const double turn = Wrapped(yaw_to - yaw_from);
  const double cx = to_x - from_x, cy = to_y - from_y;
  const double chord = std::hypot(cx, cy);
  if (!(std::fabs(turn) >= 1e-3) || !(chord >= 1e-2) || !(chord <= 2.0 * travel)) return estimate;
  const double share = Wrapped(std::atan2(cy, cx) - yaw_from) / turn;
  if (!(share >= -0.5 && share <= 1.5)) return estimate;
  return std::min(std::max(share, 0.0), 1.0);
}

// The arc length of the lane's point nearest to p: a scan every half metre, refined within
// the best sample's neighbourhood.
double NearestOnLane(const ReferenceSpline& lane, const P3& p) {
  const double length = lane.length();
  const long samples = std::max(1L, static_cast<long>(std::ceil(length / 0.5)));
  double best_s = 0.0, best_d = INFINITY;
  for (long k = 0; k <= samples; ++k) {
    const double s = length * static_cast<double>(k) / static_cast<double>(samples);
    const P3 q = lane.LocationAt(s);
    const double d =
        (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) + (q.z - p.z) * (q.z - p.z);
    if (d < best_d) {
      best_d = d;
      best_s = s;
    }
  }
  return lane.Project(p, best_s, 0.5);
}

// Whether vehicle i's values pass `checks` (VehicleChecks): every present float column in
// its bounds, its spline one of the world's (the reference's own list of them), its
// profile at most the world's count.
bool Passes(const VehicleChecks& checks, const VehiclePrepareScene& s, size_t i,
            const std::vector<uint32_t>& spline_ids) {
  const float* const columns[kVehicleFloatColumns] = {
      s.x, s.y, s.z, s.yaw, s.speed, s.progress_hint, s.length, s.width, s.max_speed};
  for (int k = 0; k < kVehicleFloatColumns; ++k) {
    if (columns[k] == nullptr) continue;
    const float v = columns[k][i];
    if (std::isnan(v) || v < checks.bounds[k].min || v > checks.bounds[k].max) return false;
  }
  if (std::find(spline_ids.begin(), spline_ids.end(), s.spline_id[i]) == spline_ids.end()) {
    return false;
  }
  return s.profile == nullptr || s.profile[i] <= checks.profiles;
}

}  // namespace

uint64_t ReferenceBackend::PrepareVehicles(const VehiclePrepareParams& params,
                                           const VehiclePrepareScene& scene,
                                           const VehiclePrepareOutput& out) {
  const bool mirrored =
      (params.frame.up == UpAxis::kZ) == (params.frame.handedness == Handedness::kLeft);
  uint64_t refused = 0;
  for (size_t i = 0; i < scene.count; ++i) {
    if (params.checks.on && !Passes(params.checks, scene, i, spline_ids_)) {
      ++refused;  // not prepared: its values never reach the follower
      continue;
    }
    const uint32_t lane = static_cast<uint32_t>(
        std::find(spline_ids_.begin(), spline_ids_.end(), scene.spline_id[i]) -
        spline_ids_.begin());
    float p[3];
    FromCaller(params.frame, scene.x[i], scene.y[i], scene.z != nullptr ? scene.z[i] : 0.f, p);
    // Two of the four frames turn the other way round the up axis.
    const float yaw = mirrored ? -scene.yaw[i] : scene.yaw[i];
    const float speed = scene.speed[i];
    out.lane[i] = lane;
    out.id[i] = scene.id[i];
    out.spline_id[i] = scene.spline_id[i];
    out.px[i] = p[0];
    out.py[i] = p[1];
    out.pz[i] = p[2];
    out.yaw[i] = yaw;
    out.speed[i] = speed;
    out.max_speed[i] = scene.max_speed != nullptr ? scene.max_speed[i] : params.max_speed;
    if (scene.profile != nullptr) out.profile[i] = static_cast<uint16_t>(scene.profile[i]);
    VehicleMemory m = scene.memory[i];
    out.wheel_angle[i] = m.wheel_angle;
    if (m.last_dt > 0.f) {
      const double travel = static_cast<double>(std::max(m.last_speed, speed)) * m.last_dt;
      m.turn_before_move =
          static_cast<float>(TurnShare(m.turn_before_move, m.last_position.x, m.last_position.y,
                                       m.last_yaw, p[0], p[1], yaw, travel));
    }
    out.turn_before_move[i] = m.turn_before_move;
    m.last_position = {p[0], p[1]};
    m.last_yaw = yaw;
    m.last_speed = speed;
    m.last_dt = params.dt;
    if (scene.progress_hint != nullptr) {
      out.progress_hint[i] = scene.progress_hint[i];
    } else if (m.progress >= 0.f) {
      out.progress_hint[i] = m.progress;
    } else {
      out.progress_hint[i] = static_cast<float>(NearestOnLane(splines_[lane], {p[0], p[1], p[2]}));
    }
    out.bodies[i].axle = {p[0], p[1]};
    out.bodies[i].heading = {static_cast<float>(std::cos(static_cast<double>(yaw))),
                             static_cast<float>(std::sin(static_cast<double>(yaw)))};
    out.bodies[i].length = scene.length != nullptr ? scene.length[i] : params.length;
    out.bodies[i].width = scene.width != nullptr ? scene.width[i] : params.width;
    out.memory[i] = m;
  }
  return refused;
}

}  // namespace throng::reference
