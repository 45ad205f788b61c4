// Test courses for lane keeping: (issue 18) today's straights + hairpin + S-bend, a
// chicane, a large smooth loop and a hill with climbing, banked curves, all closed; (issue
// 34) open roads, bench/lanes/lane_roads.h. Shared by
// throng-bench-lanes and tests/vehicles/lane_keeping_test.cpp.
#pragma once

#include <string>
#include <vector>

#include "kernels/vehicles/spline.h"

namespace throng::lanes {

struct Course {
  std::string name;
  SplineDesc lane;      // closed: arc length 0 is at least 50 m from a bend; open: a lead-in
  float run_out = 0.f;  // m at the end of an open lane that a lap does not drive
  float bank = 0.f;     // rad, the road's cross slope in curves (the outside edge higher)
  bool tuning = false;  // used to choose the follower's defaults (the rest are held out)
};

// Built once (the control points are the same on every call): the four closed laps of
// issue 18, then the open roads of bench/lanes/lane_roads.h with kRandomRoads random ones.
constexpr int kRandomRoads = 5;
const std::vector<Course>& AllCourses();
const Course& CourseNamed(const std::string& name);  // throws std::invalid_argument

}  // namespace throng::lanes
