// A turtle that lays lane control points every `spacing` metres along straights and arcs,
// climbing at a given grade: the lane courses' pen (bench/lanes/lane_courses.cpp,
// lane_roads.cpp). Courses built from pieces that close (total turn 2 pi, opposite legs
// equal) end where they started.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/vehicles/spline.h"

namespace throng::lanes {

class Turtle {
 public:
  explicit Turtle(float spacing) : spacing_(spacing) { points_.push_back({0.f, 0.f, 0.f}); }

  void Straight(float length, float grade = 0.f) { Piece(length, 0.f, grade); }
  // turn > 0 turns left (counter-clockwise) on a circle of `radius`.
  void Arc(float radius, float turn, float grade = 0.f) {
    Piece(radius * std::fabs(turn), turn / (radius * std::fabs(turn)), grade);
  }
  // Continues through `points` (absolute, already spaced like the pen's): a curve drawn
  // elsewhere, joined to the pieces before and after it. The turtle ends at the last one,
  // heading `end_yaw` (the curve's own tangent there).
  void Through(const std::vector<Vec3>& points, double end_yaw) {
    for (const Vec3& p : points) points_.push_back(p);
    const Vec3 b = points_.back();
    x_ = b.x, y_ = b.y, z_ = b.z;
    yaw_ = end_yaw;
  }
  Vec3 position() const { return points_.back(); }

  SplineDesc Closed(uint32_t id) const {
    SplineDesc d = Open(id);
    d.closed = true;
    d.points.pop_back();  // the last point is the first again
    return d;
  }
  SplineDesc Open(uint32_t id) const {
    SplineDesc d;
    d.id = id;
    d.points = points_;
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

}  // namespace throng::lanes
