// Independent reference for spline queries: double precision, computed directly from
// the Barry-Goldman pyramid (no cubic coefficients, no arc-length table).
#pragma once

#include <vector>

#include "kernels/vehicles/spline_desc.h"

namespace throng::reference {

struct P3 {
  double x = 0, y = 0, z = 0;
};

class ReferenceSpline {
 public:
  // Uses the same validation and duplicate collapsing as the engine (that part is input
  // cleaning, not geometry).
  ReferenceSpline(const SplineDesc& desc, size_t index = 0);

  double length() const { return total_length_; }
  bool closed() const { return closed_; }

  P3 LocationAt(double s) const;
  P3 DirectionAt(double s) const;  // unit tangent
  double CurvatureAt(double s) const;
  // The largest peak curvature (turn over a kPeakCurvatureChord chord, sampled every
  // kPeakCurvatureStep within a segment) of the segments [s, s + distance] touches.
  double PeakCurvatureAhead(double s, double distance) const;
  // Arc length near s_hint (within +-window) whose point is closest to p.
  double Project(const P3& p, double s_hint, double window) const;

 private:
  P3 Point(long j) const;
  P3 Evaluate(size_t segment, double t) const;  // pyramid, t in [0, 1]
  double Speed(size_t segment, double t) const;
  double SegmentLength(size_t segment, double t) const;
  void Locate(double s, size_t* segment, double* t) const;
  double Normalize(double s) const;

  std::vector<P3> points_;
  bool closed_ = false;
  std::vector<double> segment_start_;  // arc length at each segment's start
  std::vector<double> segment_length_;
  double total_length_ = 0;
  void ComputeSegmentPeaks();
  double TurnRateOver(double at, double width) const;
  std::vector<double> segment_peak_;  // per segment, filled by the constructor
};

}  // namespace throng::reference
