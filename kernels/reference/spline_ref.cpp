#include "kernels/reference/spline_ref.h"

#include <algorithm>
#include <cmath>

namespace throng::reference {
namespace {

P3 Add(P3 a, P3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
P3 Sub(P3 a, P3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
P3 Scale(P3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double Dist(P3 a, P3 b) {
  const P3 d = Sub(a, b);
  return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}
double Len(P3 a) { return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }
P3 Cross(P3 a, P3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// Lerp between two pyramid nodes over knot interval [ta, tb] at knot time t.
P3 Blend(P3 a, P3 b, double ta, double tb, double t) {
  return Add(Scale(a, (tb - t) / (tb - ta)), Scale(b, (t - ta) / (tb - ta)));
}

constexpr double kDerivStep = 1e-5;  // in segment parameter t

// The peak curvature's definition (docs/SPLINES.md): the turn over a 0.5 m chord, sampled
// every 0.125 m of a segment, over at most 256 segments ahead.
constexpr double kPeakCurvatureChord = 0.5;   // m
constexpr double kPeakCurvatureStep = 0.125;  // m
constexpr size_t kMaxPeakSegments = 256;

}  // namespace

ReferenceSpline::ReferenceSpline(const SplineDesc& desc, size_t index) : closed_(desc.closed) {
  for (const Vec3& v : CleanControlPoints(desc, index)) points_.push_back({v.x, v.y, v.z});
  const size_t segments = closed_ ? points_.size() : points_.size() - 1;
  double start = 0;
  for (size_t s = 0; s < segments; ++s) {
    segment_start_.push_back(start);
    segment_length_.push_back(SegmentLength(s, 1.0));
    start += segment_length_.back();
  }
  total_length_ = start;
  ComputeSegmentPeaks();
}

P3 ReferenceSpline::Point(long j) const {
  const long n = static_cast<long>(points_.size());
  if (closed_) return points_[static_cast<size_t>(((j % n) + n) % n)];
  if (j < 0) return Sub(Scale(points_[0], 2), points_[1]);
  if (j >= n) return Sub(Scale(points_[n - 1], 2), points_[n - 2]);
  return points_[static_cast<size_t>(j)];
}

// Barry and Goldman's pyramidal formulation of centripetal Catmull-Rom.
P3 ReferenceSpline::Evaluate(size_t segment, double u) const {
  const long j = static_cast<long>(segment);
  const P3 p0 = Point(j - 1), p1 = Point(j), p2 = Point(j + 1), p3 = Point(j + 2);
  const double t0 = 0;
  const double t1 = t0 + std::sqrt(Dist(p0, p1));
  const double t2 = t1 + std::sqrt(Dist(p1, p2));
  const double t3 = t2 + std::sqrt(Dist(p2, p3));
  const double t = t1 + (t2 - t1) * u;
  const P3 a1 = Blend(p0, p1, t0, t1, t);
  const P3 a2 = Blend(p1, p2, t1, t2, t);
  const P3 a3 = Blend(p2, p3, t2, t3, t);
  const P3 b1 = Blend(a1, a2, t0, t2, t);
  const P3 b2 = Blend(a2, a3, t1, t3, t);
  return Blend(b1, b2, t1, t2, t);
}

double ReferenceSpline::Speed(size_t segment, double t) const {
  return Len(Scale(Sub(Evaluate(segment, t + kDerivStep), Evaluate(segment, t - kDerivStep)),
                   0.5 / kDerivStep));
}

// Adaptive Simpson over |dp/dt|.
double ReferenceSpline::SegmentLength(size_t segment, double t_end) const {
  if (t_end <= 0) return 0;
  auto f = [&](double t) { return Speed(segment, t); };
  auto simpson = [](double a, double b, double fa, double fm, double fb) {
    return (b - a) / 6.0 * (fa + 4 * fm + fb);
  };
  auto run = [&](auto&& self, double a, double b, double fa, double fm, double fb, double whole,
                 double eps, int depth) -> double {
    const double m = 0.5 * (a + b);
    const double flm = f(0.5 * (a + m)), frm = f(0.5 * (m + b));
    const double left = simpson(a, m, fa, flm, fm), right = simpson(m, b, fm, frm, fb);
    if (depth <= 0 || std::fabs(left + right - whole) <= 15 * eps) {
      return left + right + (left + right - whole) / 15;
    }
    return self(self, a, m, fa, flm, fm, left, eps / 2, depth - 1) +
           self(self, m, b, fm, frm, fb, right, eps / 2, depth - 1);
  };
  const double fa = f(0), fm = f(0.5 * t_end), fb = f(t_end);
  const double whole = simpson(0, t_end, fa, fm, fb);
  // 1e-9 relative (absolute below 1 m): an absolute 1e-9 m on a 45 km segment is below
  // double's resolution there, and the recursion then ran to its full depth (2^30 calls).
  return run(run, 0, t_end, fa, fm, fb, whole, 1e-9 * std::fmax(1.0, std::fabs(whole)), 24);
}

double ReferenceSpline::Normalize(double s) const {
  if (closed_) {
    s = std::fmod(s, total_length_);
    if (s < 0) s += total_length_;
    return s;
  }
  return std::fmin(std::fmax(s, 0.0), total_length_);
}

void ReferenceSpline::Locate(double s, size_t* segment, double* t) const {
  s = Normalize(s);
  // The last segment starting at or before s (binary search: the constructor's peaks
  // query every 0.125 m of the spline).
  const size_t seg =
      static_cast<size_t>(std::upper_bound(segment_start_.begin() + 1, segment_start_.end(), s) -
                          segment_start_.begin() - 1);
  const double target = s - segment_start_[seg];
  // Newton on the arc length, kept inside a shrinking bracket.
  double lo = 0, hi = 1, u = target / segment_length_[seg];
  for (int i = 0; i < 50; ++i) {
    const double f = SegmentLength(seg, u) - target;
    if (std::fabs(f) < 1e-10) break;
    if (f < 0)
      lo = u;
    else
      hi = u;
    double next = u - f / Speed(seg, u);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    u = next;
  }
  *segment = seg;
  *t = u;
}

P3 ReferenceSpline::LocationAt(double s) const {
  size_t seg;
  double t;
  Locate(s, &seg, &t);
  return Evaluate(seg, t);
}

P3 ReferenceSpline::DirectionAt(double s) const {
  size_t seg;
  double t;
  Locate(s, &seg, &t);
  const P3 d = Sub(Evaluate(seg, t + kDerivStep), Evaluate(seg, t - kDerivStep));
  return Scale(d, 1.0 / Len(d));
}

// Turning angle between the tangents at the ends of a window of `width` centred on `at`,
// over the window's length (clamped at an open spline's ends).
double ReferenceSpline::TurnRateOver(double at, double width) const {
  double a = at - 0.5 * width, b = at + 0.5 * width;
  if (!closed_) {
    a = std::clamp(a, 0.0, total_length_);
    b = std::clamp(b, 0.0, total_length_);
  }
  if (!(b > a)) return 0.0;
  const P3 ta = DirectionAt(a), tb = DirectionAt(b);
  const double turn = std::atan2(Len(Cross(ta, tb)), ta.x * tb.x + ta.y * tb.y + ta.z * tb.z);
  return turn / (b - a);
}

// The turn rate over a window that is the shorter segment at each control point,
// interpolated in between (docs/SPLINES.md).
double ReferenceSpline::CurvatureAt(double s) const {
  const size_t n = segment_length_.size();
  auto knot_window = [&](size_t k) {
    const double prev = (closed_ || k > 0) ? segment_length_[(k + n - 1) % n] : segment_length_[0];
    const double next = k < n ? segment_length_[k % n] : segment_length_[n - 1];
    return std::min(prev, next);
  };
  const double at = Normalize(s);
  size_t seg = 0;
  while (seg + 1 < n && at >= segment_start_[seg + 1]) ++seg;
  const double frac = (at - segment_start_[seg]) / segment_length_[seg];
  const double w = knot_window(seg) + (knot_window(seg + 1) - knot_window(seg)) * frac;
  return TurnRateOver(at, w);
}

// Once, in the constructor: queries then only read (they run on many threads at once).
void ReferenceSpline::ComputeSegmentPeaks() {
  for (size_t seg = 0; seg < segment_length_.size(); ++seg) {
    const double len = segment_length_[seg];
    const long steps = static_cast<long>(std::ceil(len / kPeakCurvatureStep));
    double peak = 0;
    for (long j = 0; j <= steps; ++j) {
      const double at = segment_start_[seg] + (steps > 0 ? len * j / steps : 0.0);
      peak = std::max(peak, TurnRateOver(at, kPeakCurvatureChord));
    }
    segment_peak_.push_back(peak);
  }
}

double ReferenceSpline::PeakCurvatureAhead(double s, double distance) const {
  const size_t n = segment_length_.size();
  const double at = Normalize(s);
  size_t seg = 0;
  while (seg + 1 < n && at >= segment_start_[seg + 1]) ++seg;
  double peak = segment_peak_[seg];
  double end = segment_start_[seg] + segment_length_[seg];  // of the segments taken so far
  const size_t walk = std::min<size_t>(n, kMaxPeakSegments);
  for (size_t i = 1; i < walk && end < at + distance; ++i) {
    if (++seg == n) {
      if (!closed_) break;
      seg = 0;
    }
    peak = std::max(peak, segment_peak_[seg]);
    end += segment_length_[seg];
  }
  return peak;
}

double ReferenceSpline::Project(const P3& p, double s_hint, double window) const {
  double lo = s_hint - window, hi = s_hint + window;
  if (!closed_) {
    lo = Normalize(lo);
    hi = Normalize(hi);
  }
  // Search in the curve parameter u = segment + t, so no arc-length inversion happens
  // inside the loops; only the two window ends and the answer convert.
  const double segments = static_cast<double>(segment_length_.size());
  auto param_of = [&](double s) {
    size_t seg;
    double t;
    Locate(s, &seg, &t);
    return static_cast<double>(seg) + t;
  };
  double u_lo = param_of(lo), u_hi = param_of(hi);
  if (closed_) {
    const double turns = std::floor((lo - Normalize(lo)) / total_length_ + 0.5);
    u_lo += turns * segments;
    const double turns_hi = std::floor((hi - Normalize(hi)) / total_length_ + 0.5);
    u_hi += turns_hi * segments;
  }
  auto point_at = [&](double u) {
    double seg = std::floor(u);
    double t = u - seg;
    if (closed_) {
      seg = std::fmod(std::fmod(seg, segments) + segments, segments);
    } else if (seg >= segments) {
      seg = segments - 1;
      t = 1;
    }
    return Evaluate(static_cast<size_t>(seg), t);
  };
  const int steps = 2000;
  const double step = (u_hi - u_lo) / steps;
  double best = u_lo, best_d = Dist(point_at(u_lo), p);
  for (int i = 1; i <= steps; ++i) {
    const double u = u_lo + step * i;
    const double d = Dist(point_at(u), p);
    if (d < best_d) {
      best_d = d;
      best = u;
    }
  }
  double a = std::fmax(best - step, u_lo), b = std::fmin(best + step, u_hi);
  for (int i = 0; i < 100; ++i) {
    const double m1 = a + (b - a) / 3, m2 = b - (b - a) / 3;
    if (Dist(point_at(m1), p) <= Dist(point_at(m2), p))
      b = m2;
    else
      a = m1;
  }
  double u = 0.5 * (a + b);
  if (closed_) u = std::fmod(std::fmod(u, segments) + segments, segments);
  const size_t seg = std::min(static_cast<size_t>(u), segment_length_.size() - 1);
  return Normalize(segment_start_[seg] + SegmentLength(seg, u - static_cast<double>(seg)));
}

}  // namespace throng::reference
