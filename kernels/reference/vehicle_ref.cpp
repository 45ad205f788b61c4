#include "kernels/reference/vehicle_ref.h"

#include <algorithm>
#include <cmath>

namespace throng::reference {
namespace {

constexpr double kPiD = 3.14159265358979323846;
// docs/VEHICLES.md: one tick's wheel lead closes at most a quarter of the asked gap, and
// the peak-curvature speed bound leaves 1% of max_lateral_accel to the steering.
constexpr double kMaxLeadPerTick = 0.25;
constexpr double kLineCorrectionAllowance = 0.01;

// docs/VEHICLES.md, "Speed": the speed window's curvature is sampled at most 4 m apart,
// 8 to 32 samples (progress itself the first).
int SpeedSampleCount(double window) {
  return static_cast<int>(std::clamp(std::ceil(window / 4.0) + 1.0, 8.0, 32.0));
}

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

// The share of a heading error one tick may correct: half while the wheels lag; all of
// it when they take the command within the tick (they move min(dt / lag, 1) of the way),
// blended over the second half of that share.
double MostTickCorrection(const FollowerParams& p) {
  const double dt = p.control_period, lag = p.steering_lag;
  const double reach = lag > dt ? dt / lag : 1.0;
  return 0.5 + 0.5 * std::clamp(2 * reach - 1, 0.0, 1.0);
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
  // The adaptive look-ahead reaches at least one tick's travel ahead.
  const double look_ahead =
      p.adaptive_look_ahead
          ? std::max((p.look_ahead_base + speed * static_cast<double>(p.look_ahead_speed_factor)) *
                         (1 - 0.5 * sharp),
                     speed * static_cast<double>(p.control_period))
          : static_cast<double>(p.look_ahead_base);
  const P3 road_pos = spline.LocationAt(progress);
  const double cte = CrossTrackError(pos, road_pos, spline.DirectionAt(progress));

  // The pose steering is decided from: where the wheels' current angle takes the vehicle
  // in lag_compensation * steering_lag seconds (a circle about its turning centre),
  // projected onto the lane properly (the kernel takes one along-track step instead).
  P3 at = pos;
  double at_yaw = yaw, at_progress = progress, at_cte = cte;
  P3 at_tangent = spline.DirectionAt(progress);
  const double lag_horizon = static_cast<double>(p.lag_compensation) * p.steering_lag;
  // The command holds until the next call: half a control period more.
  const double horizon = lag_horizon + 0.5 * p.control_period;
  if (lag_horizon > 0 && speed > 0) {
    const double d = speed * horizon;
    const double left_curvature = -std::tan(static_cast<double>(v.wheel_angle)) / p.wheelbase;
    at_yaw = yaw + left_curvature * d;
    if (std::fabs(left_curvature * d) > 1e-9) {
      at.x += (std::sin(at_yaw) - std::sin(yaw)) / left_curvature;
      at.y += (std::cos(yaw) - std::cos(at_yaw)) / left_curvature;
    } else {
      at.x += d * std::cos(yaw);
      at.y += d * std::sin(yaw);
    }
    at_progress = spline.Project(at, Normalize(spline, progress + d), p.projection_window);
    at_tangent = spline.DirectionAt(at_progress);
    at_cte = CrossTrackError(at, spline.LocationAt(at_progress), at_tangent);
  }
  // Wheels without lag on physics that moves before it turns (turn_before_move f < 1/2):
  // the next (1 - 2 f) of a tick's move is along the current heading whatever is
  // commanded now, so steer from its end. From there the heading trails the lane as if
  // the vehicle turned first by that much more (unturned, below).
  double unturned = 0;
  if (lag_horizon <= 0)
    unturned = std::max(0.0, 1.0 - 2.0 * static_cast<double>(v.turn_before_move));
  if (unturned > 0 && speed > 0) {
    const double d = speed * unturned * p.control_period;
    at.x += d * std::cos(yaw);
    at.y += d * std::sin(yaw);
    at_progress = spline.Project(at, Normalize(spline, progress + d), p.projection_window);
    at_tangent = spline.DirectionAt(at_progress);
    at_cte = CrossTrackError(at, spline.LocationAt(at_progress), at_tangent);
  }

  const double target_s = Normalize(spline, at_progress + look_ahead);
  const P3 target = spline.LocationAt(target_s);
  const P3 tangent = spline.DirectionAt(target_s);

  const double lane_yaw = std::atan2(tangent.y, tangent.x);
  const double dx = target.x - at.x, dy = target.y - at.y;
  const double target_yaw = dx * dx + dy * dy > 1e-6 ? std::atan2(dy, dx) : lane_yaw;
  // Measured clockwise: positive when the direction lies right of the vehicle's yaw.
  const double position_delta = SignedAngle(target_yaw, at_yaw);
  const double heading_delta = SignedAngle(lane_yaw, at_yaw);

  const double w = p.heading_weight + (0.3 - p.heading_weight) * sharp;
  const double yaw_command = position_delta * (1 - w) + heading_delta * w;
  double feedback = yaw_command / p.max_yaw_delta - at_cte * p.crosstrack_gain;
  double feedforward = 0;
  double tick_heading_lag = 0;  // clockwise
  if (p.curvature_feedforward > 0) {
    // The lane turns by `turn` (clockwise) from the pose's progress to the target; on the
    // line a circle's chord bearing is half of it and its tangent all of it. Remove that
    // from the feedback, add the bicycle's wheel angle for the mean curvature.
    const double turn = SignedAngle(lane_yaw, std::atan2(at_tangent.y, at_tangent.x));
    const P3 from = spline.LocationAt(at_progress);
    const double chord = std::hypot(target.x - from.x, target.y - from.y);
    const double curvature = chord > 1e-2 ? turn / chord : 0.0;
    feedforward = p.curvature_feedforward * std::atan(p.wheelbase * curvature) / p.max_steer_angle;
    // A vehicle that turns a share f of each tick's turn and then moves along that heading
    // has, on the curve, the tick's chord as heading at f = 1 (the bicycle), the tangent at
    // 0.5 (exact arcs), and in general (f - 1/2) of a tick's turn behind the tangent. That
    // is the track too.
    tick_heading_lag = (static_cast<double>(v.turn_before_move) + unturned - 0.5) * speed *
                       p.control_period * curvature;
    feedback -=
        p.curvature_feedforward * (turn * (0.5 * (1 - w) + w) + tick_heading_lag) / p.max_yaw_delta;
  }
  // The yaw feedback's turn per tick, as a share of the heading error, and the most of it
  // one tick may correct (MostTickCorrection): above that the feedback is scaled down.
  const double per_tick = speed * p.control_period * p.max_steer_angle /
                          (static_cast<double>(p.max_yaw_delta) * p.wheelbase);
  const double most = MostTickCorrection(p);
  const double tick_scale = per_tick > most ? most / per_tick : 1.0;
  if (p.approach_curvature_share > 0) {
    // Split the feedback into heading error and the rest; the rest, read as the heading
    // error it would hold, is capped at what can be straightened out within |cte|: the
    // cap c solves c^2 / (2 k) + c * lag distance = |cte| for the approach share k of the
    // tightest turn (tan(max steer) / wheelbase).
    // Clockwise; the tick's heading lag is the track only for a vehicle on it: all of it on
    // the line, none from 0.5 m off.
    const double on_track = std::max(0.0, 1.0 - std::fabs(at_cte) / 0.5);
    const double heading_error = SignedAngle(std::atan2(at_tangent.y, at_tangent.x), at_yaw) -
                                 on_track * p.curvature_feedforward * tick_heading_lag;
    const double held = -(feedback - heading_error / p.max_yaw_delta) * p.max_yaw_delta;
    const double approach_k =
        p.approach_curvature_share * std::tan(static_cast<double>(p.max_steer_angle)) / p.wheelbase;
    // While the wheels catch up they still turn the old way; the predicted pose already
    // covers lag_compensation of that lag.
    // And while the yaw feedback removes the heading error: wheelbase * max_yaw_delta /
    // (max_steer_angle * its per-tick scale) of travel.
    const double lag_distance =
        speed * p.steering_lag * std::max(0.0, 1.0 - static_cast<double>(p.lag_compensation)) +
        p.wheelbase * p.max_yaw_delta / (p.max_steer_angle * tick_scale);
    // Positive root of c^2 + 2 k lag_distance c - 2 k |cte| = 0, at least 0.03 rad (near
    // the line the feedback is left alone).
    const double b = approach_k * lag_distance;
    const double cap = std::max(-b + std::sqrt(b * b + 2.0 * approach_k * std::fabs(at_cte)), 0.03);
    feedback = (heading_error - std::clamp(held, -cap, cap)) / p.max_yaw_delta;
  }
  feedback *= tick_scale;
  double steering = std::clamp(feedforward + feedback, -1.0, 1.0);
  // Lead on the wheels' lag: they should close the gap to the asked angle in
  // wheel_response_time, not steering_lag; the gain is held to a quarter of the gap per
  // tick (kMaxLeadPerTick).
  if (p.wheel_response_time > 0 && p.steering_lag > p.wheel_response_time) {
    double gain = static_cast<double>(p.steering_lag) / p.wheel_response_time;
    if (p.control_period > 0) {
      gain = std::min(gain, std::max(kMaxLeadPerTick * p.steering_lag / p.control_period, 1.0));
    }
    const double wheel = static_cast<double>(v.wheel_angle) / p.max_steer_angle;
    steering = std::clamp(wheel + (steering - wheel) * gain, -1.0, 1.0);
  }

  // Speed window: what is seen, or what it takes to stop, whichever is longer; at most
  // the whole spline.
  const double braking = speed * speed / (2.0 * p.max_brake_decel);
  const double window = std::min(std::max(look_ahead, braking), spline.length());
  double k_ahead = k;  // sample 0 is `progress` itself
  const int samples = SpeedSampleCount(window);
  for (int i = 1; i < samples; ++i) {
    k_ahead = std::max(
        k_ahead, spline.CurvatureAt(Normalize(spline, progress + window * i / (samples - 1))));
  }
  if (p.peak_curvature_speed) {
    k_ahead = std::max(k_ahead, spline.PeakCurvatureAhead(progress, window)) *
              (1.0 + kLineCorrectionAllowance);
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
