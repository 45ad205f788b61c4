// Random search over the follower's steering parameters on the tuning courses
// (throng-bench-lanes --search): how the defaults were chosen, rerunnable.
#pragma once

#include <vector>

#include "bench/lanes/lane_courses.h"
#include "kernels/vehicles/vehicle.cuh"

namespace throng::lanes {

struct SearchSetup {
  std::vector<const Course*> courses;  // tuning courses
  std::vector<float> speeds, lags;
  float dt = 1.f / 60.f;
  float min_max_yaw_delta = 0.1f;  // rad: the stiffest yaw gain tried
  int trials = 200;
  unsigned seed = 1;
};

// Prints each improvement; returns the parameters with the lowest worst-cell score (the
// on-line RMS over the better baseline's, with max |cte| over the baselines' smaller max
// as a second term).
FollowerParams SearchFollower(const FollowerParams& start, const SearchSetup& setup);

}  // namespace throng::lanes
