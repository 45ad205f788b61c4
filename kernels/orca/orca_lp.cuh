// ORCA's 2D linear programs (RVO2 2.0's linearProgram1/2/3) in float, on fixed-capacity
// line arrays, for host and device. Same branches and operation order as RVO2 so that
// results can be compared with a reference that follows RVO2 in double.
#pragma once

#include "kernels/math/hd.cuh"
#include "kernels/math/local_array.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/orca_types.h"

namespace throng::orca {

// A half-plane of velocities: v is allowed iff Det(direction, point - v) <= 0, i.e. v lies
// on the left of `direction` through `point`. `direction` has unit length. 16 bytes.
struct Line {
  Vec2 point;
  Vec2 direction;
};

// Most lines one agent's solve can hold: one per obstacle edge plus one per neighbour.
constexpr int kMaxLines = kMaxObstacleLinesLimit + kMaxNeighborsLimit;

// RVO2's RVO_EPSILON: below this |Det| two lines count as parallel.
constexpr float kLpEpsilon = 1e-5f;

namespace lp_detail {
// std::min/std::max semantics (first argument kept on ties and NaN), device-callable.
THRONG_HD inline float Min(float a, float b) { return b < a ? b : a; }
THRONG_HD inline float Max(float a, float b) { return a < b ? b : a; }
}  // namespace lp_detail

// Optimises on line `line_no` subject to lines [0, line_no) and the disc |v| <= radius.
// direction_opt: opt_velocity is a unit direction to go as far as possible in; otherwise
// the point closest to opt_velocity is wanted. Returns false if the feasible part of the
// line is empty; *result is written only on success.
THRONG_HD inline bool LinearProgram1(const Line* lines, int line_no, float radius,
                                     Vec2 opt_velocity, bool direction_opt, Vec2* result) {
  const Line& line = lines[line_no];
  const float dot_product = Dot(line.point, line.direction);
  const float discriminant = dot_product * dot_product + radius * radius - LengthSq(line.point);
  if (discriminant < 0.f) return false;  // the speed disc lies wholly outside this line

  const float sqrt_discriminant = sqrtf(discriminant);
  float t_left = -dot_product - sqrt_discriminant;
  float t_right = -dot_product + sqrt_discriminant;

  for (int i = 0; i < line_no; ++i) {
    const float denominator = Det(line.direction, lines[i].direction);
    const float numerator = Det(lines[i].direction, line.point - lines[i].point);
    if (fabsf(denominator) <= kLpEpsilon) {
      // (Nearly) parallel: line_no is either wholly allowed or wholly cut away by line i.
      if (numerator < 0.f) return false;
      continue;
    }
    const float t = numerator / denominator;
    if (denominator >= 0.f) {
      t_right = lp_detail::Min(t_right, t);  // line i bounds line line_no on the right
    } else {
      t_left = lp_detail::Max(t_left, t);  // line i bounds line line_no on the left
    }
    if (t_left > t_right) return false;
  }

  if (direction_opt) {
    *result = Dot(opt_velocity, line.direction) > 0.f ? line.point + t_right * line.direction
                                                      : line.point + t_left * line.direction;
  } else {
    const float t = Dot(line.direction, opt_velocity - line.point);
    if (t < t_left) {
      *result = line.point + t_left * line.direction;
    } else if (t > t_right) {
      *result = line.point + t_right * line.direction;
    } else {
      *result = line.point + t * line.direction;
    }
  }
  return true;
}

// Incremental 2D LP over lines [0, line_count) and the disc |v| <= radius. Returns
// line_count on success, else the index of the first line that could not be satisfied;
// then *result holds the optimum of the lines before it (RVO2's partial result, the
// starting point of LinearProgram3).
THRONG_HD inline int LinearProgram2(const Line* lines, int line_count, float radius,
                                    Vec2 opt_velocity, bool direction_opt, Vec2* result) {
  if (direction_opt) {
    *result = opt_velocity * radius;  // opt_velocity is a unit direction here
  } else if (LengthSq(opt_velocity) > radius * radius) {
    *result = Normalize(opt_velocity) * radius;
  } else {
    *result = opt_velocity;
  }

  for (int i = 0; i < line_count; ++i) {
    if (Det(lines[i].direction, lines[i].point - *result) > 0.f) {
      // The current optimum violates line i: the new optimum lies on line i.
      const Vec2 temp_result = *result;
      if (!LinearProgram1(lines, i, radius, opt_velocity, direction_opt, result)) {
        *result = temp_result;
        return i;
      }
    }
  }
  return line_count;
}

// Infeasible case: keeps lines [0, num_obst_lines) hard and minimises the largest violation
// of the other lines, starting at line begin_line with *result from LinearProgram2.
// Requires line_count <= kLineCap: the projected lines live in a fixed local array of that
// many (the caller's own line capacity: a GPU thread's stack holds it).
template <int kLineCap = kMaxLines>
THRONG_HD inline void LinearProgram3(const Line* lines, int line_count, int num_obst_lines,
                                     int begin_line, float radius, Vec2* result) {
  // RVO2 rebuilds "obstacle lines + projected lines" for every violated line; the obstacle
  // prefix never changes, so it is copied once and only the tail is rebuilt.
  LocalArray<Line, kLineCap> proj_storage;
  Line* const proj_lines = proj_storage.data();
  for (int k = 0; k < num_obst_lines; ++k) proj_lines[k] = lines[k];

  float distance = 0.f;
  for (int i = begin_line; i < line_count; ++i) {
    // Written as !(>) so that a NaN skips the line exactly as in RVO2.
    if (!(Det(lines[i].direction, lines[i].point - *result) > distance)) continue;

    // The result violates line i more than the worst so far: re-optimise along the
    // bisectors of line i with every earlier agent line.
    int proj_count = num_obst_lines;
    for (int j = num_obst_lines; j < i; ++j) {
      Line line;
      const float determinant = Det(lines[i].direction, lines[j].direction);
      if (fabsf(determinant) <= kLpEpsilon) {
        if (Dot(lines[i].direction, lines[j].direction) > 0.f) {
          continue;  // same direction: line j adds no bound
        }
        line.point = 0.5f * (lines[i].point + lines[j].point);  // opposite: midline
      } else {
        line.point = lines[i].point +
                     (Det(lines[j].direction, lines[i].point - lines[j].point) / determinant) *
                         lines[i].direction;
      }
      line.direction = Normalize(lines[j].direction - lines[i].direction);
      proj_lines[proj_count++] = line;
    }

    const Vec2 temp_result = *result;
    const Vec2 opt = {-lines[i].direction.y, lines[i].direction.x};
    if (LinearProgram2(proj_lines, proj_count, radius, opt, true, result) < proj_count) {
      // In exact arithmetic the old result is feasible here; a failure is round-off, and
      // RVO2 keeps the old result.
      *result = temp_result;
    }
    distance = Det(lines[i].direction, lines[i].point - *result);
  }
}

}  // namespace throng::orca
