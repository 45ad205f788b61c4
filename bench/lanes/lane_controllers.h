// Lane-keeping controllers for the closed-loop harness: Throng's follower and the two
// classic baselines people would otherwise use, pure pursuit and Stanley. The baselines
// live here, in the benchmark and test code, not in the product.
#pragma once

#include <memory>
#include <string>

#include "kernels/vehicles/bicycle.cuh"
#include "kernels/vehicles/vehicle.cuh"

namespace throng::lanes {

// One steering decision per tick. `follower` is the shared speed loop's output for this
// state (progress, throttle, brake: every controller drives the same speed profile).
class LaneController {
 public:
  virtual ~LaneController() = default;
  virtual std::string name() const = 0;
  // Steering in [-1, 1], +1 full right (the follower's convention).
  virtual float Steering(const SplineSetView& set, const VehicleState& v,
                         const FollowerOutput& follower) const = 0;
};

// Throng's three-factor follower with the given parameters.
std::unique_ptr<LaneController> MakeThrong(const FollowerParams& params, std::string name);

// Pure pursuit (Coulter 1992) from the rear axle: look-ahead ld = gain * speed + base along
// the lane, wheel angle atan(2 L sin(alpha) / ld). Gains as in PythonRobotics
// (Sakai et al.): gain 0.1 s, base 2 m.
struct PurePursuitGains {
  float gain = 0.1f;  // s
  float base = 2.f;   // m
};
std::unique_ptr<LaneController> MakePurePursuit(const PurePursuitGains& gains,
                                                const BicycleParams& bike);

// Stanley (Hoffmann et al. 2007): heading error at the front axle plus
// atan(k * cte_front / (softening + speed)). Gains as in PythonRobotics: k = 0.5,
// softening 0 (a 0.1 m/s floor keeps a standing start finite).
struct StanleyGains {
  float k = 0.5f;
  float softening = 0.f;  // m/s
};
std::unique_ptr<LaneController> MakeStanley(const StanleyGains& gains, const BicycleParams& bike);

}  // namespace throng::lanes
