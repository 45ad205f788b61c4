// Batched spline queries: the operation vehicle followers run for every vehicle each tick.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace throng {

// One query per entry; all columns have the same length.
struct SplineQueries {
  std::vector<uint32_t> spline;   // index into the installed spline set
  std::vector<float> s;           // arc length to sample, m
  std::vector<float> px, py, pz;  // point to project onto the spline
  std::vector<float> s_hint;      // last known progress of that point, m
  float window = 10.f;            // local projection search half-width, m

  size_t size() const { return spline.size(); }
  void Resize(size_t n);
};

struct SplineQueryResults {
  std::vector<float> x, y, z;     // LocationAt(s)
  std::vector<float> tx, ty, tz;  // DirectionAt(s), unit
  std::vector<float> curvature;   // CurvatureAt(s), 1/m
  std::vector<float> progress;    // ProjectOnSpline(p, s_hint, window)

  void Resize(size_t n);
};

}  // namespace throng

namespace throng {

// Throws std::invalid_argument naming the column and index: column lengths differ, a
// spline index >= spline_count, a non-finite value, window <= 0.
void ValidateSplineQueries(const SplineQueries& q, size_t spline_count);

}  // namespace throng
