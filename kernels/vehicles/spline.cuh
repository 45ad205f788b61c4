// Arc-length-parametrised splines, evaluated in O(1) on host and device.
//
// A spline is a centripetal Catmull-Rom curve stored as one cubic per segment
// (p(t) = a + t b + t^2 c + t^3 d, t in [0, 1]) plus a table that maps arc length,
// sampled every `spacing` metres, to (segment, t). A query interpolates t between the
// two nearest samples (cubic Hermite, with dt/ds from the cubic itself, never across a
// segment boundary) and evaluates the cubic, so positions lie exactly on the curve and
// the tangent comes from its analytic derivative.
//
// Curvature is the turning rate averaged over a window about one segment long
// (docs/SPLINES.md): a Catmull-Rom curve is only C1, its pointwise curvature jumps at
// every control point and swings by ~12% around a circle sampled by 16 points, while
// the averaged value is within 0.1% of 1/R and is what speed control and look-ahead need.
#pragma once

#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

// Cold, per-spline data (32 bytes).
struct SplineHeader {
  uint32_t segment_begin;  // first cubic in SplineSetView::coeff (4 Vec3 each)
  uint32_t segment_count;
  uint32_t knot_begin;   // first of segment_count + 1 knots in SplineSetView::knots
  uint32_t table_begin;  // first sample in SplineSetView::table
  uint32_t table_count;  // >= 2; sample k is at s = k * spacing, the last at `length`
  float length;          // m
  float spacing;         // m between table samples
  float speed_limit;     // m/s; 0 = no limit of its own
  uint8_t closed;
  uint8_t pad[3];
};

// A control point as the queries need it (12 bytes).
struct SplineKnot {
  float s;       // arc length of the knot, m (the last knot of a spline is at its length)
  float window;  // curvature averaging window at this knot, m
  // The sharpest curvature of the segment that starts here, over kPeakCurvatureChord
  // (SegmentPeakCurvature); 0 on a spline's last knot. What a follower tracking the line
  // closely actually turns at: the speed limit's bound (docs/SPLINES.md).
  float peak_curvature;  // 1/m
};

// The chord the peak curvature is measured over: the follower's look-ahead scale (0.5 m
// by default), at which it tracks the curve's bends, Catmull-Rom's knot spikes included.
constexpr float kPeakCurvatureChord = 0.5f;  // m
// Sample spacing along a segment for its peak (a quarter chord).
constexpr float kPeakCurvatureStep = 0.125f;  // m

// Arc length -> curve parameter, one per table sample (8 bytes).
struct SplineSample {
  uint32_t segment;
  float t;
};

// A point on a spline with its frame, as the followers need it.
struct SplinePoint {
  Vec3 position;
  Vec3 tangent;     // unit
  float curvature;  // 1/m, >= 0
};

// Raw pointers into a packed set of splines (host or device memory).
struct SplineSetView {
  const SplineHeader* headers = nullptr;
  const Vec3* coeff = nullptr;
  const SplineKnot* knots = nullptr;
  const SplineSample* table = nullptr;
  uint32_t count = 0;
};

// Closed splines wrap, open ones clamp: no query leaves the curve.
THRONG_HD inline float NormalizeArcLength(const SplineHeader& h, float s) {
  if (h.closed) return WrapDistance(s, h.length);
  return Clamp(s, 0.f, h.length);
}

// A segment's cubic (its four coefficients c) at parameter t, in Horner form.
THRONG_HD inline Vec3 CubicAt(const Vec3* c, float t) {
  return c[0] + (c[1] + (c[2] + c[3] * t) * t) * t;
}

THRONG_HD inline Vec3 CubicDerivative(const Vec3* c, float t) {
  return c[1] + (c[2] * 2.f + c[3] * (3.f * t)) * t;
}

// The slopes dt/ds = 1 / |dp/dt| at both ends of the piece of one segment that a table
// interval covers: what ParamAt spends its square roots and divisions on, the same for
// every s in that piece. A search that evaluates many s close together (ProjectOnSpline's
// Newton steps) keeps the last piece's and computes them again only when the piece changes.
struct SplineSlopes {
  uint32_t k = 0xffffffffu, segment = 0xffffffffu;  // the piece: table interval, segment
  float m0 = 0.f, m1 = 0.f;
};

// Where ParamAt interpolates for arc length s (already normalised): table interval k,
// the segment within it, where that segment's part of the interval starts (s0, t0), and
// the interval's end sample.
struct SplinePiece {
  uint32_t k, segment;
  float s0, t0;
  SplineSample hi;
};

THRONG_HD inline SplinePiece PieceAt(const SplineSetView& set, const SplineHeader& h, float s) {
  const float x = s / h.spacing;
  uint32_t k = static_cast<uint32_t>(x);
  if (k > h.table_count - 2) k = h.table_count - 2;
  const SplineSample lo = set.table[h.table_begin + k];
  const SplineSample hi = set.table[h.table_begin + k + 1];
  // Interpolate inside one segment only: t(s) has a kink at every segment boundary.
  const SplineKnot* knot = set.knots + h.knot_begin;
  uint32_t seg = lo.segment;
  float s0 = static_cast<float>(k) * h.spacing, t0 = lo.t;
  while (seg < hi.segment && s >= knot[seg + 1].s) {
    ++seg;
    s0 = knot[seg].s;
    t0 = 0.f;
  }
  return {k, seg, s0, t0, hi};
}

// (segment, t) at arc length s, s already normalised; `slopes` (may be null) holds the
// last piece's slopes, reused when s lies in the same piece. The answer does not depend
// on it.
THRONG_HD inline SplineSample ParamAt(const SplineSetView& set, const SplineHeader& h, float s,
                                      SplineSlopes* slopes = nullptr) {
  const SplinePiece piece = PieceAt(set, h, s);
  const uint32_t k = piece.k, seg = piece.segment;
  const SplineSample hi = piece.hi;
  const SplineKnot* knot = set.knots + h.knot_begin;
  const float s0 = piece.s0, t0 = piece.t0;
  const bool last = seg == hi.segment;
  const float s1 = last ? static_cast<float>(k + 1) * h.spacing : knot[seg + 1].s;
  const float t1 = last ? hi.t : 1.f;
  const float span = s1 - s0;
  if (!(span > 0.f)) return {seg, t0};
  // Cubic Hermite in s, slopes dt/ds = 1 / |dp/dt| taken from the cubic.
  const Vec3* c = set.coeff + 4 * (h.segment_begin + seg);
  float m0, m1;
  if (slopes != nullptr && slopes->k == h.table_begin + k && slopes->segment == seg) {
    m0 = slopes->m0;
    m1 = slopes->m1;
  } else {
    m0 = 1.f / Length(CubicDerivative(c, t0));
    m1 = 1.f / Length(CubicDerivative(c, t1));
    if (slopes != nullptr) *slopes = {h.table_begin + k, seg, m0, m1};
  }
  const float u = Clamp((s - s0) / span, 0.f, 1.f);
  const float u2 = u * u, u3 = u2 * u;
  const float t = (2.f * u3 - 3.f * u2 + 1.f) * t0 + (u3 - 2.f * u2 + u) * span * m0 +
                  (-2.f * u3 + 3.f * u2) * t1 + (u3 - u2) * span * m1;
  return {seg, Clamp(t, 0.f, 1.f)};
}

// Position and unit tangent at arc length s.
THRONG_HD inline void FrameAt(const SplineSetView& set, uint32_t spline, float s, Vec3* position,
                              Vec3* tangent) {
  const SplineHeader& h = set.headers[spline];
  const SplineSample p = ParamAt(set, h, NormalizeArcLength(h, s));
  const Vec3* c = set.coeff + 4 * (h.segment_begin + p.segment);
  const float t = p.t;
  const Vec3 d1 = CubicDerivative(c, t);
  const float speed = Length(d1);
  *position = CubicAt(c, t);
  *tangent = speed > 0.f ? d1 / speed : Vec3{1.f, 0.f, 0.f};
}

// FrameAt's position and unit tangent, and the tangent's derivative along the arc (the
// curvature vector): (P'' - (P''.T) T) / |P'|^2 with P' and P'' the cubic's derivatives.
// `slopes` (may be null) keeps the last piece's slopes between calls (ParamAt): the same
// answer either way.
THRONG_HD inline void BendAt(const SplineSetView& set, uint32_t spline, float s, Vec3* position,
                             Vec3* tangent, Vec3* bend, SplineSlopes* slopes = nullptr) {
  const SplineHeader& h = set.headers[spline];
  const SplineSample p = ParamAt(set, h, NormalizeArcLength(h, s), slopes);
  const Vec3* c = set.coeff + 4 * (h.segment_begin + p.segment);
  const float t = p.t;
  const Vec3 d1 = CubicDerivative(c, t);
  const Vec3 d2 = c[2] * 2.f + c[3] * (6.f * t);
  const float speed_sq = LengthSq(d1);
  *position = CubicAt(c, t);
  if (!(speed_sq > 0.f)) {
    *tangent = Vec3{1.f, 0.f, 0.f};
    *bend = Vec3{0.f, 0.f, 0.f};
    return;
  }
  const float speed = sqrtf(speed_sq);
  *tangent = d1 / speed;
  *bend = (d2 - *tangent * Dot(d2, *tangent)) / speed_sq;
}

// The point at arc length s (FrameAt's position, without the tangent).
THRONG_HD inline Vec3 LocationAt(const SplineSetView& set, uint32_t spline, float s) {
  const SplineHeader& h = set.headers[spline];
  const SplineSample p = ParamAt(set, h, NormalizeArcLength(h, s));
  const Vec3* c = set.coeff + 4 * (h.segment_begin + p.segment);
  const float t = p.t;
  return CubicAt(c, t);
}

THRONG_HD inline Vec3 DirectionAt(const SplineSetView& set, uint32_t spline, float s) {
  Vec3 p, t;
  FrameAt(set, spline, s, &p, &t);
  return t;
}

// Turning angle between the tangents at the ends of a window of `width` centred on s,
// divided by the window's length (clamped at an open spline's ends).
THRONG_HD inline float TurnRateOver(const SplineSetView& set, uint32_t spline, float s,
                                    float width) {
  const SplineHeader& h = set.headers[spline];
  float lo = s - 0.5f * width, hi = s + 0.5f * width;
  if (!h.closed) {
    lo = Clamp(lo, 0.f, h.length);
    hi = Clamp(hi, 0.f, h.length);
  }
  if (!(hi > lo)) return 0.f;
  const Vec3 ta = DirectionAt(set, spline, lo), tb = DirectionAt(set, spline, hi);
  return atan2f(Length(Cross(ta, tb)), Dot(ta, tb)) / (hi - lo);
}

// The turn rate over a window that is the shorter segment at each knot, interpolated in
// between, so it follows the spacing of the control points and varies continuously.
THRONG_HD inline float CurvatureAt(const SplineSetView& set, uint32_t spline, float s) {
  const SplineHeader& h = set.headers[spline];
  s = NormalizeArcLength(h, s);
  const uint32_t seg = PieceAt(set, h, s).segment;  // ParamAt's segment, without its t
  const SplineKnot a = set.knots[h.knot_begin + seg];
  const SplineKnot b = set.knots[h.knot_begin + seg + 1];
  const float w = Lerp(a.window, b.window, Clamp((s - a.s) / (b.s - a.s), 0.f, 1.f));
  return TurnRateOver(set, spline, s, w);
}

// The turn rate over kPeakCurvatureChord: SegmentPeakCurvature's sample.
THRONG_HD inline float ChordCurvatureAt(const SplineSetView& set, uint32_t spline, float s) {
  return TurnRateOver(set, spline, s, kPeakCurvatureChord);
}

// The largest ChordCurvatureAt over segment `segment` of `spline`, sampled at most
// kPeakCurvatureStep apart from its start knot to its end knot (BuildSplineSet stores it).
THRONG_HD inline float SegmentPeakCurvature(const SplineSetView& set, uint32_t spline,
                                            uint32_t segment) {
  const SplineHeader& h = set.headers[spline];
  const float s0 = set.knots[h.knot_begin + segment].s;
  const float s1 = set.knots[h.knot_begin + segment + 1].s;
  const int steps = static_cast<int>(ceilf((s1 - s0) / kPeakCurvatureStep));
  float peak = 0.f;
  for (int j = 0; j <= steps; ++j) {
    const float s = steps > 0 ? s0 + (s1 - s0) * (static_cast<float>(j) / steps) : s0;
    peak = MaxF(peak, ChordCurvatureAt(set, spline, s));
  }
  return peak;
}

// Segments PeakCurvatureAhead walks at most: a speed window of 1000 m/s over a lane of
// 0.5 m segments would otherwise walk 166,000 per vehicle per tick. 256 segments of the
// usual 2-5 m cover far more than a 35 m/s braking window (102 m).
constexpr uint32_t kMaxPeakSegments = 256;

// The largest peak curvature of the segments that [s, s + distance] touches (distance >= 0,
// at most one lap on a closed spline; at most kMaxPeakSegments): a bound on what a follower
// turns at over the distance, where CurvatureAt's samples average the knot spikes away.
THRONG_HD inline float PeakCurvatureAhead(const SplineSetView& set, uint32_t spline, float s,
                                          float distance) {
  const SplineHeader& h = set.headers[spline];
  s = NormalizeArcLength(h, s);
  uint32_t seg = PieceAt(set, h, s).segment;
  const SplineKnot* knot = set.knots + h.knot_begin;
  float peak = knot[seg].peak_curvature;
  // Arc length still ahead past the end of the current segment.
  float left = s + distance - knot[seg + 1].s;
  const uint32_t walk = h.segment_count < kMaxPeakSegments ? h.segment_count : kMaxPeakSegments;
  for (uint32_t i = 1; i < walk && left > 0.f; ++i) {
    if (++seg == h.segment_count) {
      if (!h.closed) break;
      seg = 0;
    }
    peak = MaxF(peak, knot[seg].peak_curvature);
    left -= knot[seg + 1].s - knot[seg].s;
  }
  return peak;
}

THRONG_HD inline SplinePoint SampleSpline(const SplineSetView& set, uint32_t spline, float s) {
  SplinePoint out;
  FrameAt(set, spline, s, &out.position, &out.tangent);
  out.curvature = CurvatureAt(set, spline, s);
  return out;
}

// Where ProjectOnSpline's coarse scan looks: the arc-length table's samples about
// kCoarseProjectionSpacing apart (every sample of a coarser table), at most
// kMaxCoarseProjectionSamples of them across the window (a wider window takes them further
// apart).
constexpr float kCoarseProjectionSpacing = 0.5f;  // m
constexpr int kMaxCoarseProjectionSamples = 64;

// The point at table sample k of spline h, at arc length k * spacing (k may lie outside
// the table on a closed spline: it wraps).
THRONG_HD inline Vec3 TableLocation(const SplineSetView& set, const SplineHeader& h, int64_t k) {
  const int64_t intervals = static_cast<int64_t>(h.table_count) - 1;
  int64_t i = k;
  if (h.closed) i = ((k % intervals) + intervals) % intervals;
  const SplineSample sample = set.table[h.table_begin + static_cast<uint32_t>(i)];
  const Vec3* c = set.coeff + 4 * (h.segment_begin + sample.segment);
  const float t = sample.t;
  return CubicAt(c, t);
}

// Refines a progress value: the arc length in [s_hint - window, s_hint + window] whose
// point is closest to p. Local on purpose: a global search would jump to another leg
// of a hairpin whose legs pass close to each other. A coarse scan of the window (its ends
// and the table's samples in it, which need no interpolation of t(s)) finds the nearest
// stretch; Newton's method on the distance's slope refines it.
THRONG_HD inline float ProjectOnSpline(const SplineSetView& set, uint32_t spline, Vec3 p,
                                       float s_hint, float window) {
  const SplineHeader& h = set.headers[spline];
  constexpr int kRefineSteps = 20;         // bisection alone narrows 1 m to 1e-5 m in 17
  constexpr float kRefineSettled = 1e-5f;  // m: a step this small ends the refinement
  // On a closed spline one lap holds every distance a wider window would meet.
  if (h.closed) {
    s_hint = NormalizeArcLength(h, s_hint);
    window = MinF(window, 0.5f * h.length);
  }
  float lo = s_hint - window;
  float hi = s_hint + window;
  if (!h.closed) {
    lo = Clamp(lo, 0.f, h.length);
    hi = Clamp(hi, 0.f, h.length);
  }
  float best_s = lo;
  float best_d = LengthSq(LocationAt(set, spline, lo) - p);
  const float hi_d = LengthSq(LocationAt(set, spline, hi) - p);
  if (hi_d < best_d) {
    best_d = hi_d;
    best_s = hi;
  }
  // Table samples strictly inside the window, `stride` apart (the window is within a lap
  // of the table: the indices are small, unless the table's spacing is absurdly fine,
  // when the scan is left out and the refinement brackets the whole window).
  const float first_k = floorf(lo / h.spacing) + 1.f;
  const float last_k = ceilf(hi / h.spacing) - 1.f;
  const float spacing_k = kCoarseProjectionSpacing / h.spacing;
  float step = hi - lo;
  if (first_k <= last_k && fabsf(first_k) < 1e9f && fabsf(last_k) < 1e9f && spacing_k < 1e9f) {
    const auto first = static_cast<int64_t>(first_k);
    const auto last = static_cast<int64_t>(last_k);
    int64_t stride = spacing_k >= 1.f ? static_cast<int64_t>(spacing_k) : 1;
    const int64_t span = last - first;
    if (span / stride >= kMaxCoarseProjectionSamples) {
      stride = span / kMaxCoarseProjectionSamples + 1;
    }
    for (int64_t k = first; k <= last; k += stride) {
      const float d = LengthSq(TableLocation(set, h, k) - p);
      if (d < best_d) {
        best_d = d;
        best_s = static_cast<float>(k) * h.spacing;
      }
    }
    step = static_cast<float>(stride) * h.spacing;
  }
  // Newton's method on the distance's slope, safeguarded: the bracket of the coarse
  // samples around the best one holds a minimum, each step's slope says which side of it
  // s lies on and shrinks the bracket, and a step that would leave the bracket, or a
  // point beyond the bend's centre (where the distance curves down), bisects instead.
  // The nearest point met, coarse or refined, is the answer.
  float a = MaxF(best_s - step, lo);
  float b = MinF(best_s + step, hi);
  SplineSlopes slopes;  // the steps soon stay in one piece: its slopes are computed once
  float s = best_s;
  for (int i = 0; i < kRefineSteps; ++i) {
    Vec3 at, tangent, bend;
    BendAt(set, spline, s, &at, &tangent, &bend, &slopes);
    const Vec3 off = p - at;
    const float d = LengthSq(off);
    if (d < best_d) {
      best_d = d;
      best_s = s;
    }
    const float slope = Dot(off, tangent);  // minus half the squared distance's derivative
    if (slope > 0.f) {
      a = s;
    } else {
      b = s;
    }
    const float curve = 1.f - Dot(off, bend);  // half the second derivative
    float next = curve > 0.05f ? s + slope / curve : 0.5f * (a + b);
    if (!(next > a && next < b)) next = 0.5f * (a + b);
    if (fabsf(next - s) <= kRefineSettled) break;
    s = next;
  }
  return NormalizeArcLength(h, best_s);
}

}  // namespace throng
