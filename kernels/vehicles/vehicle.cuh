// Vehicle spline follower: three-factor steering (position, heading, cross-track error)
// and curvature-based target speed, per vehicle, on host and device.
//
// The contract (signs, formulas, defaults) is docs/VEHICLES.md; docs/ALGORITHMS.md §1-2 is the
// specification. Everything is in the internal frame (kernels/math/frame.cuh): right-handed,
// Z up, yaw counter-clockwise. Angles here are measured clockwise (toward the vehicle's
// right), so steering +1 is full right and a positive delta means "turn right".
// kernels/reference/vehicle_ref.cpp computes the same in double, independently.
#pragma once

#include <cstdint>

#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/vehicles/follower_types.h"
#include "kernels/vehicles/spline.cuh"

namespace throng {

// Curvature samples over the speed window (docs/VEHICLES.md, "Speed").
// At least kSpeedSamples points, and no more than kSpeedSampleSpacing apart up to
// kMaxSpeedSamples: 8 points over a 35 m/s braking window (102 m) are 15 m apart and
// step over a chicane's 8 m arcs.
constexpr int kSpeedSamples = 8;
constexpr int kMaxSpeedSamples = 32;
constexpr float kSpeedSampleSpacing = 4.f;  // m
THRONG_HD inline int SpeedSampleCount(float window) {
  const float n = ceilf(window / kSpeedSampleSpacing) + 1.f;
  return n < kSpeedSamples      ? kSpeedSamples
         : n > kMaxSpeedSamples ? kMaxSpeedSamples
                                : static_cast<int>(n);
}
// The adaptive look-ahead is at least this many ticks of travel (FollowSpline, step 3).
constexpr float kMinLookAheadTicks = 1.f;
// Below this ground distance (1 mm) the direction to the target is undefined (a vehicle
// stopped on the end of an open spline); the lane's direction stands in for it.
constexpr float kMinTargetDistanceSq = 1e-6f;

// Signed cross-track error (docs/ALGORITHMS.md §2), > 0 right of the line. The road normal is
// world up made perpendicular to the tangent, so on ramps right = T x normal is still a
// unit vector and |cte| is the true lateral distance. A vertical tangent has no "right":
// the normal vanishes and so does the error (never NaN).
THRONG_HD inline float CrossTrackError(Vec3 p, Vec3 road_pos, Vec3 tangent) {
  const Vec3 up{0.f, 0.f, 1.f};
  const Vec3 offset = p - road_pos;
  const Vec3 perpendicular = offset - tangent * Dot(offset, tangent);
  const Vec3 road_normal = Normalize(up - tangent * Dot(up, tangent));
  const Vec3 road_right = Cross(tangent, road_normal);  // right-handed: T x up points right
  return Dot(perpendicular, road_right);
}

// The pose the steering is decided from (FollowSpline): the vehicle's own, or where it
// will be after lag_compensation * steering_lag seconds.
struct Pose {
  Vec3 position;
  float yaw;
  float progress;
  Vec3 road;     // lane point at `progress`
  Vec3 tangent;  // lane direction there
  float cte;
};

// Along-track correction steps that project the predicted pose: each leaves kappa * offset
// of the error (the lane's curvature times the distance from it), so on roads (offsets
// under a metre, radii over 8 m) three leave well under a millimetre.
constexpr int kPoseProjectionSteps = 3;

// Shorter chords than this (1 cm) give no curvature estimate (a vehicle at an open end).
constexpr float kMinFeedforwardChord = 1e-2f;

// Wheels without lag on physics that moves before it turns (turn_before_move f < 1/2):
// the next (1 - 2 f) of a tick's move goes along the current heading whatever is
// commanded now, so the follower steers from its end (PredictPose), from where the
// heading trails the lane as if the vehicle turned first by that much more
// (TickHeadingLag). Moving first (f = 0) is a tick's delay between command and position;
// steered from where the vehicle was, 29 of 288 imposed cells were above pure pursuit,
// all without lag (throng-bench-lanes --integration move-first); from the tick's end,
// none. For exact arcs (1/2) a straight half tick was worse (24 cells against 3), hence
// nothing from 1/2 up. With a lag the prediction below covers it.
THRONG_HD inline float UnturnedShare(const VehicleState& v, const FollowerParams& p) {
  if (p.lag_compensation * p.steering_lag > 0.f) return 0.f;
  const float s = 1.f - 2.f * v.turn_before_move;
  return s > 0.f ? s : 0.f;
}

// Moves speed * (lag_compensation * steering_lag + half a control period) along the circle
// of the current wheel angle (exact arc: chord along the mean heading), or the
// UnturnedShare of a tick straight ahead, then finds that point's progress from the move's
// along-track part and kPoseProjectionSteps correction steps (no second ProjectOnSpline).
THRONG_HD inline Pose PredictPose(const SplineSetView& set, const VehicleState& v,
                                  const FollowerOutput& now, Vec3 road_tangent, float speed,
                                  const FollowerParams& p) {
  Pose pose{v.position, v.yaw, now.progress, now.progress_point, road_tangent, now.cte};
  const bool lagged = p.lag_compensation * p.steering_lag > 0.f;
  const float unturned = UnturnedShare(v, p) * p.control_period;
  if ((!lagged && !(unturned > 0.f)) || speed == 0.f) return pose;
  // Plus half a tick: the command is held until the next call.
  const float d = lagged ? speed * (p.lag_compensation * p.steering_lag + 0.5f * p.control_period)
                         : speed * unturned;  // straight ahead: no turn before the move
  const float turn = lagged ? d * tanf(v.wheel_angle) / p.wheelbase : 0.f;  // clockwise
  const float chord = fabsf(turn) > 1e-4f ? d * sinf(0.5f * turn) / (0.5f * turn) : d;
  const float mid = v.yaw - 0.5f * turn;
  pose.position = v.position + Vec3{chord * cosf(mid), chord * sinf(mid), 0.f};
  pose.yaw = WrapAngle(v.yaw - turn);
  // The move's along-track part from the vehicle's progress, then the correction steps.
  const SplineHeader& h = set.headers[v.spline];
  pose.progress = now.progress + Dot(pose.position - v.position, road_tangent);
  for (int i = 0; i < kPoseProjectionSteps; ++i) {
    FrameAt(set, v.spline, pose.progress, &pose.road, &pose.tangent);
    pose.progress =
        NormalizeArcLength(h, pose.progress + Dot(pose.position - pose.road, pose.tangent));
  }
  FrameAt(set, v.spline, pose.progress, &pose.road, &pose.tangent);
  pose.cte = CrossTrackError(pose.position, pose.road, pose.tangent);
  return pose;
}

// Share of the heading error one tick may correct (TickGainScale) while the wheels lag:
// at 1 the feedback would remove it in one tick and, with the wheels still turning, ring;
// 0.5 halves it per tick.
constexpr float kMaxTickCorrection = 0.5f;

// Where the wheels take the command within the tick (Throng's bicycle: the wheel angle
// moves min(control_period / steering_lag, 1) of the way to it), a tick's correction turns
// the vehicle exactly as asked, and the whole heading error is removed (dead-beat): at
// 0.5, at 10 Hz without lag, the approach from 5 m off the line overshot and settled 1-2
// ticks after pure pursuit's (docs/VEHICLES.md, "Imposed speed"). Between, blended on the
// share the wheels reach: half or less keeps kMaxTickCorrection.
constexpr float kMaxTickCorrectionFreeWheels = 1.f;
THRONG_HD inline float MaxTickCorrection(const FollowerParams& p) {
  const float reach = p.steering_lag > p.control_period ? p.control_period / p.steering_lag : 1.f;
  return Lerp(kMaxTickCorrection, kMaxTickCorrectionFreeWheels, Clamp(2.f * reach - 1.f, 0.f, 1.f));
}

// Approach headings below this (1.7 degrees) are never limited: near the line the linear
// feedback settles by itself, and limiting it there would only soften it.
constexpr float kFreeApproach = 0.03f;  // rad

// Distance over which the yaw feedback removes a heading error (1/e): the wheels turn by
// max_steer_angle / max_yaw_delta per rad of it, scaled per tick (TickGainScale).
THRONG_HD inline float TickGainScale(float speed, const FollowerParams& p);
THRONG_HD inline float HeadingLoopDistance(float speed, const FollowerParams& p) {
  return p.wheelbase * p.max_yaw_delta / (p.max_steer_angle * TickGainScale(speed, p));
}

// The share of the steering lag that the predicted pose does not already cover.
THRONG_HD inline float LagNotPredicted(const FollowerParams& p) {
  return p.lag_compensation < 1.f ? 1.f - p.lag_compensation : 0.f;
}

// Feedback (steering units, heading error / max_yaw_delta plus a lateral part) with the
// heading it asks for toward the line limited. Turning back from a heading error `a` at
// curvature k takes a^2 / (2 k) of lateral distance, plus a * d while the lagging wheels
// still point the old way or the yaw feedback is still removing it (d = speed * the part of
// steering_lag not predicted + HeadingLoopDistance); so no more than the
// `a` solving a^2 / (2 k) + a d = |cte| is asked, with k the approach share of the tightest turn.
THRONG_HD inline float LimitApproach(float feedback, float heading_error, float cte, float speed,
                                     const FollowerParams& p) {
  const float lateral = feedback - heading_error / p.max_yaw_delta;
  const float asked = -lateral * p.max_yaw_delta;  // heading error the feedback settles at
  const float k = p.approach_curvature_share * tanf(p.max_steer_angle) / p.wheelbase;
  const float d = speed * p.steering_lag * LagNotPredicted(p) + HeadingLoopDistance(speed, p);
  const float allowed = MaxF(k * (sqrtf(d * d + 2.f * fabsf(cte) / k) - d), kFreeApproach);
  return (heading_error - Clamp(asked, -allowed, allowed)) / p.max_yaw_delta;
}

// The yaw feedback's gain per tick: heading error h turns the wheels by
// h * max_steer_angle / max_yaw_delta, which turns the vehicle by speed * control_period *
// tan(that) / wheelbase in one tick. Scaled so that is at most MaxTickCorrection of h.
THRONG_HD inline float TickGainScale(float speed, const FollowerParams& p) {
  const float per_tick =
      speed * p.control_period * p.max_steer_angle / (p.max_yaw_delta * p.wheelbase);
  const float most = MaxTickCorrection(p);
  return per_tick > most ? most / per_tick : 1.f;
}

// LeadWheels: at 60 Hz and a 0.3 s lag this never binds (4.5 against the default scale
// 2); at 10 Hz it turns the lead off (0.75), where any lead cost lane precision
// (throng-bench-lanes --dt 0.1: 28 of 40 cells at 0.5x with a scale of 1.5, 32 without).
constexpr float kMaxLeadPerTick = 0.25f;

// The command that brings the wheels (at `wheel_angle`, rad) to `asked` (steering units)
// with time constant wheel_response_time when their first-order lag is steering_lag:
// the remaining gap, scaled by steering_lag / wheel_response_time. Off when the lag is
// already no slower. The wheels close dt / steering_lag of the commanded gap per tick, so
// the scale is held to where one tick closes at most kMaxLeadPerTick of the asked gap.
THRONG_HD inline float LeadWheels(float asked, float wheel_angle, const FollowerParams& p) {
  if (!(p.wheel_response_time > 0.f) || !(p.steering_lag > p.wheel_response_time)) return asked;
  float scale = p.steering_lag / p.wheel_response_time;
  if (p.control_period > 0.f) {
    const float per_tick = kMaxLeadPerTick * p.steering_lag / p.control_period;
    scale = MinF(scale, MaxF(per_tick, 1.f));
  }
  const float wheel = wheel_angle / p.max_steer_angle;
  return Clamp(wheel + (asked - wheel) * scale, -1.f, 1.f);
}

// Throng's bicycle (kernels/vehicles/bicycle.cuh), like most game physics, steps
// semi-implicitly: each tick turns first, then moves along the new heading. Driving a curve
// exactly, its positions lie on the curve but its heading is each tick's chord, which trails
// the curve's tangent there by half the tick's turn, speed * control_period * curvature / 2.
// The follower counts that much of its two deltas as the track, not as an error: at 10 Hz
// and 25 m/s on a 0.08 1/m bend it is 0.1 rad, and fed back it pulled the vehicle 0.1-0.3 m
// inside every bend (throng-bench-lanes --rates 10, docs/VEHICLES.md, "Imposed speed").
// Physics that turns only part of the tick before moving (VehicleState::turn_before_move)
// trails by less: moving along the exact arc, the heading is the tangent (no lag); moving
// first, it leads by half the turn. Assumed 1 with exact arcs, the follower pulled them
// outside every bend: 66 of 288 imposed-speed cells above pure pursuit
// (throng-bench-lanes --integration exact-arc --assume-turn-first).
THRONG_HD inline float TickHeadingLag(float speed, float curvature, float turn_before_move,
                                      const FollowerParams& p) {
  return (turn_before_move - 0.5f) * speed * p.control_period * curvature;
}
// The lag describes a vehicle driving the curve; one still approaching the line is not, so
// the approach limit's heading error counts it only near the line: all of it on the line,
// none kOnTrackBand or more away. Counted there too, a start 3 m off a gentle bend settled
// one tick later at 10 and 20 Hz; not counted at all, bends driven at an imposed speed
// went above 1.0x (throng-bench-lanes).
constexpr float kOnTrackBand = 0.5f;  // m
THRONG_HD inline float OnTrackShare(float cte) {
  const float share = 1.f - fabsf(cte) / kOnTrackBand;
  return share > 0.f ? share : 0.f;
}

// With peak_curvature_speed, the share of max_lateral_accel left for the steering's own
// corrections around the line: on the held-out courses a close follower turns up to 0.3%
// tighter than the lane where the speed limit binds (throng-bench-lanes).
constexpr float kLineCorrectionAllowance = 0.01f;

// One follower tick for one vehicle. `world_speed_limit` <= 0 means none.
THRONG_HD inline FollowerOutput FollowSpline(const SplineSetView& set, const VehicleState& v,
                                             const FollowerParams& p, float world_speed_limit) {
  FollowerOutput out;
  const SplineHeader& h = set.headers[v.spline];
  // Reversing is not modelled: a negative speed would put the look-ahead behind.
  const float speed = v.speed > 0.f ? v.speed : 0.f;

  // 1-2. Local refinement only (a global search would jump legs in a hairpin).
  out.progress = ProjectOnSpline(set, v.spline, v.position, NormalizeArcLength(h, v.progress_hint),
                                 p.projection_window);
  const float k = CurvatureAt(set, v.spline, out.progress);
  const float sharpness = Clamp(k * 3.f, 0.f, 1.f);

  // 3-5. Faster looks further; a sharper bend pulls the target in so it is not cut.
  // At least one tick's travel (kMinLookAheadTicks): a nearer target is passed before the
  // next call, and its bearing swings from side to side (a 2 cm, period-two ring at 10 Hz).
  out.look_ahead = p.adaptive_look_ahead
                       ? MaxF((p.look_ahead_base + speed * p.look_ahead_speed_factor) *
                                  Lerp(1.f, 0.5f, sharpness),
                              kMinLookAheadTicks * speed * p.control_period)
                       : p.look_ahead_base;
  // The lane where the vehicle is (cte, the debug progress point).
  Vec3 road_tangent;
  FrameAt(set, v.spline, out.progress, &out.progress_point, &road_tangent);
  out.cte = CrossTrackError(v.position, out.progress_point, road_tangent);

  // Steer from where the vehicle will be when the wheels have caught up with the
  // command: steering_lag ahead (scaled by lag_compensation) on the arc its wheels are on
  // (no second projection: PredictPose).
  const Pose pose = PredictPose(set, v, out, road_tangent, speed, p);

  // 4-7. Clockwise angles: ShortestSignedAngle(to_yaw, vehicle_yaw) > 0 when to_yaw is
  // right of (below) the vehicle's counter-clockwise yaw.
  FrameAt(set, v.spline, pose.progress + out.look_ahead, &out.target, &out.tangent);
  const float lane_yaw = YawOf(Ground(out.tangent));
  const Vec2 to_target = Ground(out.target - pose.position);
  const float target_yaw = LengthSq(to_target) > kMinTargetDistanceSq ? YawOf(to_target) : lane_yaw;
  out.position_delta = ShortestSignedAngle(target_yaw, pose.yaw);
  out.heading_delta = ShortestSignedAngle(lane_yaw, pose.yaw);

  // 9-10. CTE is a distance, so it is a separate return-to-centre term, not blended.
  const float w = Lerp(p.heading_weight, 0.3f, sharpness);
  const float yaw_command = out.position_delta * (1.f - w) + out.heading_delta * w;
  float feedback = yaw_command / p.max_yaw_delta - pose.cte * p.crosstrack_gain;
  float feedforward = 0.f;
  float tick_heading_lag = 0.f;  // clockwise, rad (TickHeadingLag)

  // Curvature feed-forward. On the line and along it, position delta is half the lane's
  // turn over the look-ahead and heading delta all of it (a circle's chord and tangent):
  // that part leaves the feedback, and the wheel angle the lane's mean curvature there
  // needs (kinematic bicycle, atan(L k)) is steered open-loop instead. The feedback keeps
  // only the errors, so it no longer has to be wrong to turn.
  if (p.curvature_feedforward > 0.f) {
    const float lane_turn = ShortestSignedAngle(lane_yaw, YawOf(Ground(pose.tangent)));
    const float chord = Length(Ground(out.target - pose.road));
    const float curvature = chord > kMinFeedforwardChord ? lane_turn / chord : 0.f;
    tick_heading_lag =
        TickHeadingLag(speed, curvature, v.turn_before_move + UnturnedShare(v, p), p);
    const float on_line = lane_turn * (0.5f * (1.f - w) + w) + tick_heading_lag;
    feedback -= p.curvature_feedforward * on_line / p.max_yaw_delta;
    feedforward = p.curvature_feedforward * atanf(p.wheelbase * curvature) / p.max_steer_angle;
  }
  if (p.approach_curvature_share > 0.f) {
    const float heading_error = ShortestSignedAngle(YawOf(Ground(pose.tangent)), pose.yaw) -
                                OnTrackShare(pose.cte) * p.curvature_feedforward * tick_heading_lag;
    feedback = LimitApproach(feedback, heading_error, pose.cte, speed, p);
  }
  out.steering = Clamp(feedforward + feedback * TickGainScale(speed, p), -1.f, 1.f);
  out.steering = LeadWheels(out.steering, v.wheel_angle, p);

  // Speed: the sharpest curvature within what the vehicle sees or needs to stop in.
  // Past one lap (or the whole open spline) there is nothing new to see; the cap also
  // keeps an enormous speed's infinite braking distance out of the sample positions.
  const float braking_distance = speed * speed / (2.f * p.max_brake_decel);
  float window = out.look_ahead > braking_distance ? out.look_ahead : braking_distance;
  window = window < h.length ? window : h.length;
  float k_ahead = k;  // sample 0 is `progress` itself
  const int samples = SpeedSampleCount(window);
  for (int i = 1; i < samples; ++i) {
    const float s =
        out.progress + window * (static_cast<float>(i) / static_cast<float>(samples - 1));
    k_ahead = MaxF(k_ahead, CurvatureAt(set, v.spline, s));
  }
  if (p.peak_curvature_speed) {
    k_ahead = MaxF(k_ahead, PeakCurvatureAhead(set, v.spline, out.progress, window)) *
              (1.f + kLineCorrectionAllowance);
  }
  float target_speed = sqrtf(p.max_lateral_accel / MaxF(k_ahead, 1e-4f));
  target_speed = MinF(target_speed, v.max_speed);
  if (h.speed_limit > 0.f) target_speed = MinF(target_speed, h.speed_limit);
  if (world_speed_limit > 0.f) target_speed = MinF(target_speed, world_speed_limit);
  if (!h.closed) {
    // Stop at the end: the speed from which max_brake_decel stops exactly there.
    const float to_end = MaxF(h.length - out.progress, 0.f);
    target_speed = MinF(target_speed, sqrtf(2.f * p.max_brake_decel * to_end));
  }
  out.target_speed = MaxF(target_speed, 0.f);
  out.throttle = Clamp((out.target_speed - v.speed) * p.speed_gain, 0.f, 1.f);
  out.brake = Clamp((v.speed - out.target_speed) * p.speed_gain, 0.f, 1.f);
  return out;
}

}  // namespace throng
