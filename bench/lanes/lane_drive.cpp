#include "bench/lanes/lane_drive.h"

#include <cmath>
#include <vector>

#include "kernels/math/frame.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/vehicles/turn_before_move.h"

namespace throng::lanes {
namespace {

constexpr float kLostCte = 10.f;          // m: off the road
constexpr float kOnLine = 0.2f;           // m
constexpr float kStayOnLine = 3.f;        // s within kOnLine that count as arrived
constexpr float kOvershootWindow = 10.f;  // s
constexpr float kOffLineSettle = 5.f;     // s excluded from the off-line lap's RMS

// Road height under the vehicle: the centre line's, plus the bank across the lane (the
// outside of a curve higher). Cross-track error with the projected normal ignores it.
float RoadHeight(const Course& course, const SplineSetView& set, float s, float cte) {
  const Vec3 centre = LocationAt(set, 0, s);
  if (course.bank == 0.f) return centre.z;
  const Vec2 a = Ground(DirectionAt(set, 0, s - 1.f)), b = Ground(DirectionAt(set, 0, s + 1.f));
  const float turn = a.x * b.y - a.y * b.x;  // > 0: the lane turns left
  if (std::fabs(turn) < 1e-4f) return centre.z;
  // Left turn: the outside is on the right (cte > 0) and higher.
  return centre.z + std::tan(course.bank) * (turn > 0.f ? cte : -cte);
}

// The imposed loop's target at time t (SpeedControl).
float ImposedTarget(const DriveSetup& setup, float t) {
  if (setup.speed_control != SpeedControl::kImposedRamp) return setup.set_speed;
  const float phase = std::fmod(t / kImposedRampPeriod, 1.f);  // 0 -> up -> 0.5 -> down -> 1
  const float up = phase < 0.5f ? 2.f * phase : 2.f * (1.f - phase);
  return setup.set_speed * (0.5f + 0.5f * up);
}

}  // namespace

DriveResult DriveLap(const Course& course, const SplineSetView& set,
                     const LaneController& controller, const DriveSetup& setup) {
  BicycleParams bike;
  bike.steering_time_constant = setup.steering_lag;
  const FollowerParams& speed_loop = setup.speed_loop;  // the same for every controller
  const float length = set.headers[0].length - (course.lane.closed ? 0.f : course.run_out);
  const bool imposed = setup.speed_control != SpeedControl::kFollower;

  VehicleState v{};
  const SplinePoint start = SampleSpline(set, 0, 0.f);
  const Vec3 right = Normalize(Cross(start.tangent, Vec3{0.f, 0.f, 1.f}));
  v.yaw = YawOf(Ground(start.tangent));
  v.position = start.position;
  if (setup.off_line) {
    v.position = v.position + right * setup.off_line_offset;
    v.yaw = WrapAngle(v.yaw - setup.off_line_angle);  // clockwise: turned away, to the right
  }
  v.spline = 0;
  v.max_speed = setup.set_speed;
  v.progress_hint = 0.f;
  // The start speed is one the speed loop allows from there: its window (what it must
  // see to stop) grows with the speed, so come down from the set speed until it does.
  v.speed = setup.set_speed;
  for (int i = 0; i < 20 && !imposed; ++i) {
    v.speed = fminf(v.speed, FollowSpline(set, v, speed_loop, 0.f).target_speed);
  }
  if (imposed) v.speed = ImposedTarget(setup, 0.f);
  if (!setup.off_line) {
    // Already driving the lane: the wheels at the angle its curvature needs (a start with
    // them straight on a curve at the curvature speed would be a lateral-acceleration
    // transient of the harness, not of the controller).
    const Vec2 a = Ground(DirectionAt(set, 0, -1.f)), b = Ground(DirectionAt(set, 0, 1.f));
    const float left_curvature = std::atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y) / 2.f;
    v.wheel_angle = -std::atan(bike.wheelbase * left_curvature);
  }

  DriveResult r;
  double sum_sq = 0, sum_speed = 0;
  int samples = 0, ticks = 0, above_safe = 0;
  float travelled = 0.f, last_progress = 0.f;
  std::vector<float> early_cte;  // off-line starts: |cte| per tick for the settling time
  const float initial_side = setup.off_line ? 1.f : 0.f;
  const int max_ticks = static_cast<int>(10.f * length / 1.f / setup.dt);  // 1 m/s, 10 laps
  while (travelled < length && ticks < max_ticks) {
    const float t = ticks * setup.dt;
    const FollowerOutput f = FollowSpline(set, v, speed_loop, 0.f);
    const float steering = controller.Steering(set, v, f);
    if (!std::isfinite(steering) || !std::isfinite(f.cte) || std::fabs(f.cte) > kLostCte) {
      return r;  // completed stays false
    }
    float step = f.progress - last_progress;
    if (step < -0.5f * length) step += length;
    if (step > 0.5f * length) step -= length;
    travelled += step;
    last_progress = f.progress;

    const float e = std::fabs(f.cte);
    if (setup.off_line && t <= kOvershootWindow + kStayOnLine) {
      early_cte.push_back(e);
      if (t <= kOvershootWindow) r.overshoot = fmaxf(r.overshoot, -f.cte * initial_side);
    }
    if (!setup.off_line || t >= kOffLineSettle) {
      sum_sq += static_cast<double>(f.cte) * f.cte;
      r.max_cte = fmaxf(r.max_cte, e);
      ++samples;
    }
    sum_speed += v.speed;
    r.max_speed = fmaxf(r.max_speed, v.speed);
    above_safe += v.speed > f.target_speed + 0.5f;

    float throttle = f.throttle, brake = f.brake;
    if (imposed) {
      const float accel = kImposedSpeedGain * (ImposedTarget(setup, t) - v.speed);
      throttle = Clamp(accel / bike.max_accel, 0.f, 1.f);
      brake = Clamp(-accel / bike.max_brake, 0.f, 1.f);
    }
    v.progress_hint = f.progress;
    const Vec3 from = v.position;
    const float yaw_before = v.yaw, speed_before = v.speed;
    StepBicycle(v, steering, throttle, brake, bike, setup.dt);
    if (setup.integration != Integration::kTurnFirst) {
      // The bicycle's turn and travel this tick, moved along another heading.
      const float turn = WrapAngle(v.yaw - yaw_before);
      const float d = v.speed * setup.dt;
      float chord = d, heading = yaw_before;  // kMoveFirst: along the old heading
      if (setup.integration == Integration::kExactArc) {
        if (std::fabs(turn) > 1e-6f) chord = d * std::sin(0.5f * turn) / (0.5f * turn);
        heading = yaw_before + 0.5f * turn;
      }
      v.position.x = from.x + chord * std::cos(heading);
      v.position.y = from.y + chord * std::sin(heading);
    }
    if (setup.read_turn_before_move) {
      v.turn_before_move =
          UpdateTurnBeforeMove(v.turn_before_move, Ground(from), yaw_before, Ground(v.position),
                               v.yaw, fmaxf(speed_before, v.speed) * setup.dt);
    }
    r.max_lateral_accel =
        fmaxf(r.max_lateral_accel,
              std::fabs(v.speed * v.speed * std::tan(v.wheel_angle) / bike.wheelbase));
    v.position.z = RoadHeight(course, set, f.progress, f.cte);
    ++ticks;
  }
  r.completed = travelled >= length;
  // Settled: the first tick after which kStayOnLine seconds stay within kOnLine.
  const size_t stay = static_cast<size_t>(kStayOnLine / setup.dt);
  size_t inside = 0;  // consecutive ticks within kOnLine ending at i
  for (size_t i = 0; i < early_cte.size(); ++i) {
    inside = early_cte[i] <= kOnLine ? inside + 1 : 0;
    if (inside > stay) {
      r.time_to_line = static_cast<float>(i + 1 - inside) * setup.dt;
      break;
    }
  }
  r.rms_cte = samples ? static_cast<float>(std::sqrt(sum_sq / samples)) : 0.f;
  r.mean_speed = ticks ? static_cast<float>(sum_speed / ticks) : 0.f;
  r.above_safe_share = ticks ? static_cast<float>(above_safe) / ticks : 0.f;
  return r;
}

}  // namespace throng::lanes
