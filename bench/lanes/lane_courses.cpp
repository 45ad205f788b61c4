#include "bench/lanes/lane_courses.h"

#include <cmath>
#include <stdexcept>

#include "bench/lanes/lane_roads.h"
#include "bench/lanes/lane_turtle.h"
#include "kernels/math/scalar.cuh"
#include "kernels/scenarios/roads.h"

namespace throng::lanes {
namespace {

// tests/vehicles/vehicle_test.cpp's course (scenarios::HairpinCourse), closed.
SplineDesc HairpinCourse() {
  SplineDesc d = scenarios::HairpinCourse(true);
  d.id = 1;
  return d;
}

// Two chicanes on the long sides of a stadium: each swerves 30 degrees left, 60 right and
// 30 left on R = 15 m arcs (a 3.6 m side step), and the other side steps back.
SplineDesc ChicaneCourse() {
  Turtle t(2.f);
  const float a = kPi / 6.f, r = 15.f;
  // Started in the middle of the first straight (its first half closes the loop).
  t.Straight(60.f);
  t.Arc(r, a);
  t.Arc(r, -2.f * a);
  t.Arc(r, a);
  t.Straight(60.f);
  t.Arc(30.f, kPi);
  t.Straight(80.f);
  t.Arc(r, -a);
  t.Arc(r, 2.f * a);
  t.Arc(r, -a);
  t.Straight(60.f);
  t.Arc(30.f, kPi);
  t.Straight(20.f);
  return t.Closed(2);
}

// An ellipse 500 m by 300 m (radius 90 m at the ends, 417 m on the sides), points every
// ~5 m, started on a near-straight flank (curvature changes smoothly everywhere).
SplineDesc BigLoopCourse() {
  SplineDesc d;
  d.id = 3;
  d.closed = true;
  const int n = 256;
  for (int i = 0; i < n; ++i) {
    const double t = -0.5 * kPi + 2.0 * kPi * i / n;  // from the bottom flank's middle
    d.points.push_back({static_cast<float>(250.0 * std::cos(t)),
                        static_cast<float>(150.0 + 150.0 * std::sin(t)), 0.f});
  }
  return d;
}

// A hill: an 8% ramp up, a left curve (R = 40 m) that keeps climbing at 4%, the ramp
// down and a descending curve; the curves are banked (Course::bank).
SplineDesc HillCourse() {
  Turtle t(2.f);
  // Started in the middle of the ramp up (its first half closes the loop).
  t.Straight(50.f, 0.08f);
  t.Arc(40.f, kPi, 0.04f);
  t.Straight(100.f, -0.08f);
  t.Arc(40.f, kPi, -0.04f);
  t.Straight(50.f, 0.08f);
  return t.Closed(4);
}

Course Lap(const char* name, SplineDesc lane, float bank, bool tuning) {
  Course c;
  c.name = name;
  c.lane = std::move(lane);
  c.bank = bank;
  c.tuning = tuning;
  return c;
}

std::vector<Course> Build() {
  std::vector<Course> all{
      Lap("hairpin", HairpinCourse(), 0.f, true),
      Lap("chicane", ChicaneCourse(), 0.f, true),
      Lap("big_loop", BigLoopCourse(), 0.f, false),
      Lap("hill", HillCourse(), 0.1f, false),
  };
  for (Course& road : OpenRoads(kRandomRoads)) all.push_back(std::move(road));
  return all;
}

}  // namespace

const std::vector<Course>& AllCourses() {
  static const std::vector<Course> courses = Build();
  return courses;
}

const Course& CourseNamed(const std::string& name) {
  for (const Course& c : AllCourses()) {
    if (c.name == name) return c;
  }
  throw std::invalid_argument("no course named '" + name + "'");
}

}  // namespace throng::lanes
