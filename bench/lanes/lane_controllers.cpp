#include "bench/lanes/lane_controllers.h"

#include <cmath>

#include "kernels/math/frame.cuh"
#include "kernels/math/scalar.cuh"

namespace throng::lanes {
namespace {

class ThrongController : public LaneController {
 public:
  ThrongController(const FollowerParams& p, std::string name) : p_(p), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  float Steering(const SplineSetView& set, const VehicleState& v,
                 const FollowerOutput&) const override {
    return FollowSpline(set, v, p_, 0.f).steering;
  }

 private:
  FollowerParams p_;
  std::string name_;
};

class PurePursuit : public LaneController {
 public:
  PurePursuit(const PurePursuitGains& g, const BicycleParams& b) : g_(g), b_(b) {}
  std::string name() const override { return "pure_pursuit"; }
  float Steering(const SplineSetView& set, const VehicleState& v,
                 const FollowerOutput& f) const override {
    const float ld = g_.gain * v.speed + g_.base;
    const Vec3 target = LocationAt(set, v.spline, f.progress + ld);
    const Vec2 to = Ground(target - v.position);
    // alpha counter-clockwise from the heading; the wheel angle (left) is atan(2 L sin a / ld).
    const float alpha = ShortestSignedAngle(v.yaw, YawOf(to));
    const float left = std::atan2(2.f * b_.wheelbase * std::sin(alpha), Length(to));
    return Clamp(-left / b_.max_steer_angle, -1.f, 1.f);
  }

 private:
  PurePursuitGains g_;
  BicycleParams b_;
};

class Stanley : public LaneController {
 public:
  Stanley(const StanleyGains& g, const BicycleParams& b) : g_(g), b_(b) {}
  std::string name() const override { return "stanley"; }
  float Steering(const SplineSetView& set, const VehicleState& v,
                 const FollowerOutput& f) const override {
    const Vec3 front = v.position + Vec3{std::cos(v.yaw), std::sin(v.yaw), 0.f} * b_.wheelbase;
    const float s = ProjectOnSpline(set, v.spline, front, f.progress + b_.wheelbase, 6.f);
    Vec3 at, tangent;
    FrameAt(set, v.spline, s, &at, &tangent);
    const float cte = CrossTrackError(front, at, tangent);  // > 0: right of the line
    const float heading_error = ShortestSignedAngle(v.yaw, YawOf(Ground(tangent)));  // ccw
    const float speed = std::fmax(v.speed, 0.1f);
    const float left = heading_error + std::atan(g_.k * cte / (g_.softening + speed));
    return Clamp(-left / b_.max_steer_angle, -1.f, 1.f);
  }

 private:
  StanleyGains g_;
  BicycleParams b_;
};

}  // namespace

std::unique_ptr<LaneController> MakeThrong(const FollowerParams& params, std::string name) {
  return std::make_unique<ThrongController>(params, std::move(name));
}
std::unique_ptr<LaneController> MakePurePursuit(const PurePursuitGains& gains,
                                                const BicycleParams& bike) {
  return std::make_unique<PurePursuit>(gains, bike);
}
std::unique_ptr<LaneController> MakeStanley(const StanleyGains& gains, const BicycleParams& bike) {
  return std::make_unique<Stanley>(gains, bike);
}

}  // namespace throng::lanes
