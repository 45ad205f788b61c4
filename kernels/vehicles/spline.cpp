#include "kernels/vehicles/spline.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "kernels/input/input_limits.h"

namespace throng {
namespace {

struct D3 {
  double x, y, z;
};
D3 ToD(Vec3 v) { return {v.x, v.y, v.z}; }
D3 operator+(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 operator-(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 operator*(D3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double Norm(D3 a) { return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }

// Centripetal Catmull-Rom segment P1 -> P2 as a cubic in t in [0, 1] (Hermite form of
// the Barry-Goldman pyramid with knot spacing |P_{i+1} - P_i|^0.5).
void SegmentCoefficients(D3 p0, D3 p1, D3 p2, D3 p3, D3 out[4]) {
  const double d01 = std::sqrt(Norm(p1 - p0));
  const double d12 = std::sqrt(Norm(p2 - p1));
  const double d23 = std::sqrt(Norm(p3 - p2));
  D3 m1 = (p1 - p0) * (1.0 / d01) - (p2 - p0) * (1.0 / (d01 + d12)) + (p2 - p1) * (1.0 / d12);
  D3 m2 = (p2 - p1) * (1.0 / d12) - (p3 - p1) * (1.0 / (d12 + d23)) + (p3 - p2) * (1.0 / d23);
  m1 = m1 * d12;
  m2 = m2 * d12;
  out[0] = p1;
  out[1] = m1;
  out[2] = p1 * -3.0 + p2 * 3.0 - m1 * 2.0 - m2;
  out[3] = p1 * 2.0 - p2 * 2.0 + m1 + m2;
}

double SpeedAt(const D3 c[4], double t) {
  const D3 d1 = c[1] + (c[2] * 2.0 + c[3] * (3.0 * t)) * t;
  return Norm(d1);
}

// Arc length of a cubic from 0 to t: 5-point Gauss-Legendre over 8 sub-intervals.
double ArcLength(const D3 c[4], double t) {
  static constexpr double kNodes[5] = {-0.9061798459386640, -0.5384693101056831, 0.0,
                                       0.5384693101056831, 0.9061798459386640};
  static constexpr double kWeights[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                         0.4786286704993665, 0.2369268850561891};
  constexpr int kPieces = 8;
  const double h = t / kPieces;
  double sum = 0.0;
  for (int p = 0; p < kPieces; ++p) {
    const double mid = (p + 0.5) * h;
    for (int i = 0; i < 5; ++i) sum += kWeights[i] * SpeedAt(c, mid + 0.5 * h * kNodes[i]);
  }
  return 0.5 * h * sum;
}

// t in [0, 1] with ArcLength(c, t) == s, by safeguarded Newton.
double ParamForLength(const D3 c[4], double s, double seg_len) {
  double lo = 0.0, hi = 1.0;
  double t = seg_len > 0.0 ? s / seg_len : 0.0;
  for (int i = 0; i < 40; ++i) {
    const double f = ArcLength(c, t) - s;
    if (std::fabs(f) < 1e-9) break;
    if (f > 0)
      hi = t;
    else
      lo = t;
    const double speed = SpeedAt(c, t);
    double next = speed > 0.0 ? t - f / speed : 0.5 * (lo + hi);
    if (next <= lo || next >= hi) next = 0.5 * (lo + hi);
    t = next;
  }
  return t;
}

std::string Where(size_t index) { return "splines[" + std::to_string(index) + "]"; }

[[noreturn]] void ThrowLaneTooLong(size_t index, double length) {
  char text[96];
  std::snprintf(text, sizeof text, ": %.6g m long, beyond the limit of %g m per lane", length,
                static_cast<double>(kMaxLaneLength));
  throw std::invalid_argument(Where(index) + text);
}

[[noreturn]] void ThrowLanesTooLong(size_t index) {
  throw LimitExceeded("splines: more than " +
                      std::to_string(static_cast<long>(kMaxTotalLaneLength / 1000)) +
                      " km of lanes in all (the limit per world), reached at " + Where(index));
}

}  // namespace

std::vector<Vec3> CleanControlPoints(const SplineDesc& desc, size_t index) {
  if (!std::isfinite(desc.speed_limit) || desc.speed_limit < 0.f) {
    throw std::invalid_argument(Where(index) + ".speed_limit: must be finite and >= 0");
  }
  std::vector<Vec3> pts;
  pts.reserve(desc.points.size());
  for (size_t k = 0; k < desc.points.size(); ++k) {
    const Vec3 p = desc.points[k];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
      throw std::invalid_argument(Where(index) + ".points[" + std::to_string(k) +
                                  "]: coordinate is not finite");
    }
    if (!pts.empty() && pts.back() == p) continue;  // duplicate consecutive point
    pts.push_back(p);
  }
  if (desc.closed && pts.size() > 1 && pts.front() == pts.back()) pts.pop_back();
  const size_t needed = desc.closed ? 3 : 2;
  if (pts.size() < needed) {
    throw std::invalid_argument(Where(index) + ".points: needs at least " + std::to_string(needed) +
                                " distinct points, has " + std::to_string(pts.size()));
  }
  return pts;
}

void ValidateSplineIds(const std::vector<SplineDesc>& descs) {
  for (size_t i = 0; i < descs.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (descs[j].id == descs[i].id) {
        throw std::invalid_argument(Where(i) + ".id: " + std::to_string(descs[i].id) +
                                    " is already used by " + Where(j));
      }
    }
  }
}

SplineSet BuildSplineSet(const std::vector<SplineDesc>& descs, float table_spacing) {
  if (!(table_spacing > 0.f)) throw std::invalid_argument("spline table spacing must be > 0");
  ValidateSplineIds(descs);
  // The control polygon is never longer than the curve through its points: a world whose
  // polygons alone exceed the limits is refused before any table is allocated.
  double polygons = 0.0;
  for (size_t i = 0; i < descs.size(); ++i) {
    double polygon = 0.0;
    for (size_t k = 1; k < descs[i].points.size(); ++k) {
      polygon += Norm(ToD(descs[i].points[k]) - ToD(descs[i].points[k - 1]));
    }
    if (polygon > kMaxLaneLength) ThrowLaneTooLong(i, polygon);
    polygons += polygon;
    if (polygons > kMaxTotalLaneLength) ThrowLanesTooLong(i);
  }
  SplineSet set;
  double all_lanes = 0.0;  // m, checked before each table is filled (memory is bounded)
  for (size_t i = 0; i < descs.size(); ++i) {
    const std::vector<Vec3> pts = CleanControlPoints(descs[i], i);
    const size_t n = pts.size();
    const size_t segments = descs[i].closed ? n : n - 1;
    // Control point j, with phantom end points mirrored on open splines.
    auto point = [&](long j) -> D3 {
      if (descs[i].closed) return ToD(pts[static_cast<size_t>((j % static_cast<long>(n) + n) % n)]);
      if (j < 0) return ToD(pts[0]) * 2.0 - ToD(pts[1]);
      if (j >= static_cast<long>(n)) return ToD(pts[n - 1]) * 2.0 - ToD(pts[n - 2]);
      return ToD(pts[static_cast<size_t>(j)]);
    };

    SplineHeader h{};
    h.segment_begin = static_cast<uint32_t>(set.coeff.size() / 4);
    h.segment_count = static_cast<uint32_t>(segments);
    h.closed = descs[i].closed ? 1 : 0;
    h.speed_limit = descs[i].speed_limit;

    std::vector<std::array<D3, 4>> cubics(segments);
    std::vector<double> seg_len(segments);
    double total = 0.0;
    for (size_t s = 0; s < segments; ++s) {
      const long j = static_cast<long>(s);
      SegmentCoefficients(point(j - 1), point(j), point(j + 1), point(j + 2), cubics[s].data());
      seg_len[s] = ArcLength(cubics[s].data(), 1.0);
      total += seg_len[s];
      for (const D3& c : cubics[s]) {
        set.coeff.push_back(
            {static_cast<float>(c.x), static_cast<float>(c.y), static_cast<float>(c.z)});
      }
    }

    if (!(total <= kMaxLaneLength)) ThrowLaneTooLong(i, total);
    all_lanes += total;
    if (all_lanes > kMaxTotalLaneLength) ThrowLanesTooLong(i);

    // Curve parameter at any arc length (wrapped or clamped), in double.
    std::vector<double> seg_start(segments, 0.0);
    for (size_t k = 1; k < segments; ++k) seg_start[k] = seg_start[k - 1] + seg_len[k - 1];
    auto normalize = [&](double s) {
      if (h.closed) {
        s = std::fmod(s, total);
        return s < 0 ? s + total : s;
      }
      return std::clamp(s, 0.0, total);
    };
    // Samples come in increasing s: the segment search resumes where the last one ended
    // (from the start it was O(samples x segments): 19 s for a 100,000-point lane).
    size_t cursor = 0;
    auto locate = [&](double s, size_t* seg, double* t) {
      s = normalize(s);
      if (cursor + 1 < segments && s < seg_start[cursor]) cursor = 0;
      while (cursor + 1 < segments && s >= seg_start[cursor + 1]) ++cursor;
      *seg = cursor;
      *t = ParamForLength(cubics[cursor].data(), s - seg_start[cursor], seg_len[cursor]);
    };
    // Curvature averaging window at each knot: the shorter adjacent segment.
    h.knot_begin = static_cast<uint32_t>(set.knots.size());
    for (size_t k = 0; k <= segments; ++k) {
      const bool has_prev = h.closed || k > 0;
      const bool has_next = k < segments;
      const double prev = has_prev ? seg_len[(k + segments - 1) % segments] : seg_len[0];
      const double next = has_next ? seg_len[k % segments] : seg_len[segments - 1];
      const double s = k < segments ? seg_start[k] : total;
      set.knots.push_back({static_cast<float>(s), static_cast<float>(std::min(prev, next)), 0.f});
    }

    // Uniform samples in arc length; the last sample sits exactly at the end.
    const size_t intervals =
        std::max<size_t>(1, static_cast<size_t>(std::ceil(total / table_spacing)));
    h.length = static_cast<float>(total);
    h.spacing = static_cast<float>(total / intervals);
    h.table_begin = static_cast<uint32_t>(set.table.size());
    h.table_count = static_cast<uint32_t>(intervals + 1);
    for (size_t k = 0; k <= intervals; ++k) {
      const double s = total * static_cast<double>(k) / static_cast<double>(intervals);
      size_t seg;
      double t;
      if (k == intervals) {
        seg = segments - 1;
        t = 1.0;
      } else {
        locate(s, &seg, &t);
      }
      set.table.push_back({static_cast<uint32_t>(seg), static_cast<float>(t)});
    }
    set.headers.push_back(h);
    set.ids.push_back(descs[i].id);
    // The segments' peaks, from the queries the followers run (float, as they see it).
    const SplineSetView view = set.View();
    const uint32_t spline = static_cast<uint32_t>(set.headers.size() - 1);
    for (uint32_t k = 0; k < h.segment_count; ++k) {
      set.knots[h.knot_begin + k].peak_curvature = SegmentPeakCurvature(view, spline, k);
    }
  }
  return set;
}

}  // namespace throng
