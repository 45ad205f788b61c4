#include "bench/lanes/lane_courses.h"

#include <cmath>
#include <stdexcept>

#include "kernels/math/scalar.cuh"
#include "kernels/scenarios/roads.h"

namespace throng::lanes {
namespace {

// A turtle that lays control points every `spacing` metres along straights and arcs,
// climbing at a given grade. Courses built from pieces that close (total turn 2 pi,
// opposite legs equal) end where they started.
class Turtle {
 public:
  explicit Turtle(float spacing) : spacing_(spacing) { points_.push_back({0.f, 0.f, 0.f}); }

  void Straight(float length, float grade = 0.f) { Piece(length, 0.f, grade); }
  // turn > 0 turns left (counter-clockwise) on a circle of `radius`.
  void Arc(float radius, float turn, float grade = 0.f) {
    Piece(radius * std::fabs(turn), turn / (radius * std::fabs(turn)), grade);
  }

  SplineDesc Closed(uint32_t id) {
    SplineDesc d;
    d.id = id;
    d.closed = true;
    d.points = points_;
    d.points.pop_back();  // the last point is the first again
    return d;
  }

 private:
  void Piece(float length, float curvature, float grade) {
    const int steps = std::max(1, static_cast<int>(std::lround(length / spacing_)));
    const double ds = length / steps;
    for (int i = 0; i < steps; ++i) {
      // Exact arc step: chord along the mean heading.
      const double turn = curvature * ds;
      const double mid = yaw_ + 0.5 * turn;
      const double chord = curvature != 0.f ? 2.0 * std::sin(0.5 * turn) / curvature : ds;
      x_ += chord * std::cos(mid);
      y_ += chord * std::sin(mid);
      z_ += grade * ds;
      yaw_ += turn;
      points_.push_back({static_cast<float>(x_), static_cast<float>(y_), static_cast<float>(z_)});
    }
  }

  float spacing_;
  double x_ = 0, y_ = 0, z_ = 0, yaw_ = 0;
  std::vector<Vec3> points_;
};

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

std::vector<Course> Build() {
  return {
      {"hairpin", HairpinCourse(), 0.f, true},
      {"chicane", ChicaneCourse(), 0.f, true},
      {"big_loop", BigLoopCourse(), 0.f, false},
      {"hill", HillCourse(), 0.1f, false},
  };
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
