#include "kernels/reference/vehicle_ref.h"

#include <algorithm>
#include <cmath>

namespace throng::reference {
namespace {

constexpr double kPiD = 3.14159265358979323846;

P3 Sub(P3 a, P3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
P3 Mul(P3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double Dot(P3 a, P3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
P3 CrossP(P3 a, P3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
Vec3 ToFloat(P3 a) {
  return {static_cast<float>(a.x), static_cast<float>(a.y), static_cast<float>(a.z)};
}

// Signed angle from `from` to `to` the short way, in [-pi, pi).
double SignedAngle(double from, double to) {
  double d = std::fmod(to - from + kPiD, 2 * kPiD);
  if (d < 0) d += 2 * kPiD;
  return d - kPiD;
}

// NormalizeArcLength: wrap on a closed spline, clamp on an open one.
double Normalize(const ReferenceSpline& spline, double s) {
  const double len = spline.length();
  if (spline.closed()) {
    s = std::fmod(s, len);
    return s < 0 ? s + len : s;
  }
  return std::clamp(s, 0.0, len);
}

}  // namespace

double CrossTrackError(const P3& p, const P3& road_pos, const P3& tangent) {
  const P3 up{0, 0, 1};
  const P3 offset = Sub(p, road_pos);
  const P3 perpendicular = Sub(offset, Mul(tangent, Dot(offset, tangent)));
  const P3 projected_up = Sub(up, Mul(tangent, Dot(up, tangent)));
  const double n = std::sqrt(Dot(projected_up, projected_up));
  if (n == 0) return 0;  // vertical tangent: no side to be on
  const P3 road_right = CrossP(tangent, Mul(projected_up, 1 / n));
  return Dot(perpendicular, road_right);
}

FollowerOutput FollowSpline(const ReferenceSpline& spline, double spline_speed_limit,
                            const VehicleState& v, const FollowerParams& p,
                            double world_speed_limit) {
  FollowerOutput out;
  const P3 pos{v.position.x, v.position.y, v.position.z};
  const double speed = std::max(static_cast<double>(v.speed), 0.0);
  const double yaw = v.yaw;

  const double progress =
      spline.Project(pos, Normalize(spline, v.progress_hint), p.projection_window);
  const double k = spline.CurvatureAt(progress);
  const double sharp = std::clamp(3 * k, 0.0, 1.0);
  const double look_ahead =
      p.adaptive_look_ahead
          ? (p.look_ahead_base + speed * static_cast<double>(p.look_ahead_speed_factor)) *
                (1 - 0.5 * sharp)
          : static_cast<double>(p.look_ahead_base);
  const double target_s = Normalize(spline, progress + look_ahead);
  const P3 target = spline.LocationAt(target_s);
  const P3 tangent = spline.DirectionAt(target_s);

  const double lane_yaw = std::atan2(tangent.y, tangent.x);
  const double dx = target.x - pos.x, dy = target.y - pos.y;
  const double target_yaw = dx * dx + dy * dy > 1e-6 ? std::atan2(dy, dx) : lane_yaw;
  // Measured clockwise: positive when the direction lies right of the vehicle's yaw.
  const double position_delta = SignedAngle(target_yaw, yaw);
  const double heading_delta = SignedAngle(lane_yaw, yaw);

  const P3 road_pos = spline.LocationAt(progress);
  const double cte = CrossTrackError(pos, road_pos, spline.DirectionAt(progress));

  const double w = p.heading_weight + (0.3 - p.heading_weight) * sharp;
  const double yaw_command = position_delta * (1 - w) + heading_delta * w;
  const double steering =
      std::clamp(yaw_command / p.max_yaw_delta - cte * p.crosstrack_gain, -1.0, 1.0);

  // Speed window: what is seen, or what it takes to stop, whichever is longer; at most
  // the whole spline.
  const double braking = speed * speed / (2.0 * p.max_brake_decel);
  const double window = std::min(std::max(look_ahead, braking), spline.length());
  double k_ahead = k;  // sample 0 is `progress` itself
  for (int i = 1; i < kSpeedSamples; ++i) {
    k_ahead = std::max(k_ahead, spline.CurvatureAt(Normalize(
                                    spline, progress + window * i / (kSpeedSamples - 1))));
  }
  double target_speed = std::sqrt(p.max_lateral_accel / std::max(k_ahead, 1e-4));
  target_speed = std::min(target_speed, static_cast<double>(v.max_speed));
  if (spline_speed_limit > 0) target_speed = std::min(target_speed, spline_speed_limit);
  if (world_speed_limit > 0) target_speed = std::min(target_speed, world_speed_limit);
  if (!spline.closed()) {
    const double to_end = std::max(spline.length() - progress, 0.0);
    target_speed = std::min(target_speed, std::sqrt(2.0 * p.max_brake_decel * to_end));
  }
  target_speed = std::max(target_speed, 0.0);

  out.steering = static_cast<float>(steering);
  out.throttle = static_cast<float>(std::clamp((target_speed - v.speed) * p.speed_gain, 0.0, 1.0));
  out.brake = static_cast<float>(std::clamp((v.speed - target_speed) * p.speed_gain, 0.0, 1.0));
  out.target_speed = static_cast<float>(target_speed);
  out.cte = static_cast<float>(cte);
  out.progress = static_cast<float>(progress);
  out.position_delta = static_cast<float>(position_delta);
  out.heading_delta = static_cast<float>(heading_delta);
  out.look_ahead = static_cast<float>(look_ahead);
  out.progress_point = ToFloat(road_pos);
  out.target = ToFloat(target);
  out.tangent = ToFloat(tangent);
  return out;
}

}  // namespace throng::reference
