// Open roads for lane keeping at a speed the caller imposes (issue 34): courses the
// follower was never tuned on. Each starts with a lead-in straight (where an off-line
// start settles) and ends with a run-out that is not measured (look-ahead room, and the
// follower's stop at an open end).
#pragma once

#include <cstdint>
#include <vector>

#include "bench/lanes/lane_courses.h"

namespace throng::lanes {

constexpr float kRoadLeadIn = 200.f;  // m: 8 s at 90 km/h
constexpr float kRoadRunOut = 120.f;  // m: a 35 m/s stop at 6 m/s^2 is 102 m

// s_bends (four reversing 20 m arcs), hairpin_turn (one 180-degree, 12 m turn),
// lane_change (3.5 m left over 50 m, and back 100 m on), then `random_count` natural cubic
// splines through 5-10 random points (random_1, random_2, ..., by seed).
std::vector<Course> OpenRoads(int random_count);

// A natural cubic spline (zero curvature at both ends) through 5-10 points drawn from
// `seed`, parametrised by chord length, redrawn until its largest curvature is between
// 0.03 and 0.1 1/m; sampled about every 2 m, with the lead-in and run-out straights along
// its end tangents.
SplineDesc RandomRoad(uint32_t seed, uint32_t id);

}  // namespace throng::lanes
