// The reference's linear programs: RVO2 2.0's linearProgram1/2/3 written afresh, in double.
#include <algorithm>
#include <cmath>

#include "kernels/reference/orca_ref.h"

namespace throng::reference {
namespace lp {

bool LinearProgram1(const std::vector<Line>& lines, size_t line_no, double radius,
                    Vec2d opt_velocity, bool direction_opt, Vec2d* result) {
  const Line& line = lines[line_no];
  const double dot_product = Dot(line.point, line.direction);
  const double discriminant =
      dot_product * dot_product + radius * radius - Dot(line.point, line.point);
  if (discriminant < 0.0) return false;  // the speed disc misses line line_no entirely

  const double sqrt_discriminant = std::sqrt(discriminant);
  double t_left = -dot_product - sqrt_discriminant;
  double t_right = -dot_product + sqrt_discriminant;

  for (size_t i = 0; i < line_no; ++i) {
    const double denominator = Det(line.direction, lines[i].direction);
    const double numerator = Det(lines[i].direction, line.point - lines[i].point);
    if (std::fabs(denominator) <= kEpsilon) {
      // Lines line_no and i are (almost) parallel: either i excludes all of line_no or
      // none of it.
      if (numerator < 0.0) return false;
      continue;
    }
    const double t = numerator / denominator;
    if (denominator >= 0.0) {
      t_right = std::min(t_right, t);  // line i bounds line line_no on the right
    } else {
      t_left = std::max(t_left, t);  // line i bounds line line_no on the left
    }
    if (t_left > t_right) return false;
  }

  if (direction_opt) {
    const double t = Dot(opt_velocity, line.direction) > 0.0 ? t_right : t_left;
    *result = line.point + t * line.direction;
  } else {
    // Closest point of the feasible segment to opt_velocity.
    const double t = std::clamp(Dot(line.direction, opt_velocity - line.point), t_left, t_right);
    *result = line.point + t * line.direction;
  }
  return true;
}

size_t LinearProgram2(const std::vector<Line>& lines, double radius, Vec2d opt_velocity,
                      bool direction_opt, Vec2d* result) {
  if (direction_opt) {
    *result = radius * opt_velocity;  // opt_velocity is a unit direction here
  } else if (Dot(opt_velocity, opt_velocity) > radius * radius) {
    *result = (radius / std::sqrt(Dot(opt_velocity, opt_velocity))) * opt_velocity;
  } else {
    *result = opt_velocity;
  }

  for (size_t i = 0; i < lines.size(); ++i) {
    if (Det(lines[i].direction, lines[i].point - *result) > 0.0) {
      // The optimum so far violates line i: the new optimum lies on line i.
      const Vec2d previous = *result;
      if (!LinearProgram1(lines, i, radius, opt_velocity, direction_opt, result)) {
        *result = previous;
        return i;
      }
    }
  }
  return lines.size();
}

void LinearProgram3(const std::vector<Line>& lines, size_t num_obstacle_lines, size_t begin_line,
                    double radius, Vec2d* result) {
  double distance = 0.0;  // largest violation of the agent lines so far
  for (size_t i = begin_line; i < lines.size(); ++i) {
    if (Det(lines[i].direction, lines[i].point - *result) <= distance) continue;

    // Line i is violated more than the current worst: solve, over the obstacle lines and
    // the bisectors of line i with each earlier agent line, for the point that goes
    // furthest into line i's allowed side.
    std::vector<Line> projected(lines.begin(),
                                lines.begin() + static_cast<std::ptrdiff_t>(num_obstacle_lines));
    for (size_t j = num_obstacle_lines; j < i; ++j) {
      Line bisector;
      const double determinant = Det(lines[i].direction, lines[j].direction);
      if (std::fabs(determinant) <= kEpsilon) {
        if (Dot(lines[i].direction, lines[j].direction) > 0.0) continue;  // same direction
        bisector.point = 0.5 * (lines[i].point + lines[j].point);         // opposite
      } else {
        bisector.point = lines[i].point +
                         (Det(lines[j].direction, lines[i].point - lines[j].point) / determinant) *
                             lines[i].direction;
      }
      const Vec2d d = lines[j].direction - lines[i].direction;
      bisector.direction = (1.0 / std::sqrt(Dot(d, d))) * d;
      projected.push_back(bisector);
    }

    const Vec2d previous = *result;
    const Vec2d inward = {-lines[i].direction.y, lines[i].direction.x};
    if (LinearProgram2(projected, radius, inward, true, result) < projected.size()) {
      // In exact arithmetic impossible (previous is feasible here); keep previous.
      *result = previous;
    }
    distance = Det(lines[i].direction, lines[i].point - *result);
  }
}

}  // namespace lp
}  // namespace throng::reference
