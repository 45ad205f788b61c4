// Vehicle spline follower: three-factor steering (position, heading, cross-track error)
// and curvature-based target speed, per vehicle, on host and device.
//
// The contract (signs, formulas, defaults) is docs/VEHICLES.md; ALGORITHMS.md §1-2 is the
// specification. Everything is in the internal frame (kernels/frame.cuh): right-handed,
// Z up, yaw counter-clockwise. Angles here are measured clockwise (toward the vehicle's
// right), so steering +1 is full right and a positive delta means "turn right".
// kernels/reference/vehicle_ref.cpp computes the same in double, independently.
#pragma once

#include <cstdint>

#include "kernels/frame.cuh"
#include "kernels/hd.cuh"
#include "kernels/scalar.cuh"
#include "kernels/spline.cuh"
#include "kernels/vec.cuh"

namespace throng {

// Per world; a vehicle may override any (docs/VEHICLES.md, "Parameters and defaults").
struct FollowerParams {
  float look_ahead_base = 2.f;           // m
  float look_ahead_speed_factor = 0.2f;  // s
  float heading_weight = 0.7f;           // blend weight of heading delta on straights
  float max_yaw_delta = 0.5f;            // rad of yaw command that gives full steering
  float crosstrack_gain = 0.15f;         // 1/m; 0 switches the CTE term off
  float projection_window = 6.f;         // m, local search around the progress hint
  float max_lateral_accel = 3.f;         // m/s^2
  float max_brake_decel = 6.f;           // m/s^2
  float speed_gain = 0.5f;               // s/m, throttle/brake per m/s of speed error
  bool adaptive_look_ahead = true;       // false: look_ahead = look_ahead_base (tests)
};

// What the follower reads of a vehicle (the bicycle model writes it back).
struct VehicleState {
  Vec3 position;        // internal frame, m
  float yaw;            // rad, counter-clockwise from +X
  float speed;          // m/s, >= 0
  uint32_t spline;      // lane the vehicle follows
  float progress_hint;  // last tick's progress, m
  float max_speed;      // m/s, the vehicle's own limit
  // Current road-wheel angle, rad, + = right: the bicycle model's steering-lag state
  // (kernels/bicycle.cuh; it follows steering * max_steer_angle). The follower ignores it.
  float wheel_angle = 0.f;
};

// Controls plus the debug values ALGORITHMS.md §1 lists (what a developer draws).
struct FollowerOutput {
  float steering = 0.f;  // [-1, 1], +1 full right
  float throttle = 0.f;  // [0, 1]
  float brake = 0.f;     // [0, 1]
  float target_speed = 0.f;
  float cte = 0.f;             // m, > 0: right of the centre line
  float progress = 0.f;        // m; store as next tick's progress_hint
  float position_delta = 0.f;  // rad, > 0: the target lies to the right
  float heading_delta = 0.f;   // rad, > 0: the lane at the target turns right of the vehicle
  float look_ahead = 0.f;      // m
  Vec3 progress_point;         // spline point at `progress`
  Vec3 target;                 // look-ahead point
  Vec3 tangent;                // unit tangent at the target
};

// Curvature samples over the speed window (docs/VEHICLES.md, "Speed").
constexpr int kSpeedSamples = 8;
// Below this ground distance (1 mm) the direction to the target is undefined (a vehicle
// stopped on the end of an open spline); the lane's direction stands in for it.
constexpr float kMinTargetDistanceSq = 1e-6f;

// Signed cross-track error (ALGORITHMS.md §2), > 0 right of the line. The road normal is
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
  out.look_ahead = p.adaptive_look_ahead ? (p.look_ahead_base + speed * p.look_ahead_speed_factor) *
                                               Lerp(1.f, 0.5f, sharpness)
                                         : p.look_ahead_base;
  FrameAt(set, v.spline, out.progress + out.look_ahead, &out.target, &out.tangent);

  // 6-7. Clockwise angles: ShortestSignedAngle(to_yaw, vehicle_yaw) > 0 when to_yaw is
  // right of (below) the vehicle's counter-clockwise yaw.
  const float lane_yaw = YawOf(Ground(out.tangent));
  const Vec2 to_target = Ground(out.target - v.position);
  const float target_yaw = LengthSq(to_target) > kMinTargetDistanceSq ? YawOf(to_target) : lane_yaw;
  out.position_delta = ShortestSignedAngle(target_yaw, v.yaw);
  out.heading_delta = ShortestSignedAngle(lane_yaw, v.yaw);

  // 8. CTE at the vehicle's own progress, not at the target.
  Vec3 road_tangent;
  FrameAt(set, v.spline, out.progress, &out.progress_point, &road_tangent);
  out.cte = CrossTrackError(v.position, out.progress_point, road_tangent);

  // 9-10. CTE is a distance, so it is a separate return-to-centre term, not blended.
  const float w = Lerp(p.heading_weight, 0.3f, sharpness);
  const float yaw_command = out.position_delta * (1.f - w) + out.heading_delta * w;
  out.steering = Clamp(yaw_command / p.max_yaw_delta - out.cte * p.crosstrack_gain, -1.f, 1.f);

  // Speed: the sharpest curvature within what the vehicle sees or needs to stop in.
  // Past one lap (or the whole open spline) there is nothing new to see; the cap also
  // keeps an enormous speed's infinite braking distance out of the sample positions.
  const float braking_distance = speed * speed / (2.f * p.max_brake_decel);
  float window = out.look_ahead > braking_distance ? out.look_ahead : braking_distance;
  window = window < h.length ? window : h.length;
  float k_ahead = k;  // sample 0 is `progress` itself
  for (int i = 1; i < kSpeedSamples; ++i) {
    const float s = out.progress + window * (static_cast<float>(i) / (kSpeedSamples - 1));
    k_ahead = fmaxf(k_ahead, CurvatureAt(set, v.spline, s));
  }
  float target_speed = sqrtf(p.max_lateral_accel / fmaxf(k_ahead, 1e-4f));
  target_speed = fminf(target_speed, v.max_speed);
  if (h.speed_limit > 0.f) target_speed = fminf(target_speed, h.speed_limit);
  if (world_speed_limit > 0.f) target_speed = fminf(target_speed, world_speed_limit);
  if (!h.closed) {
    // Stop at the end: the speed from which max_brake_decel stops exactly there.
    const float to_end = fmaxf(h.length - out.progress, 0.f);
    target_speed = fminf(target_speed, sqrtf(2.f * p.max_brake_decel * to_end));
  }
  out.target_speed = fmaxf(target_speed, 0.f);
  out.throttle = Clamp((out.target_speed - v.speed) * p.speed_gain, 0.f, 1.f);
  out.brake = Clamp((v.speed - out.target_speed) * p.speed_gain, 0.f, 1.f);
  return out;
}

}  // namespace throng
