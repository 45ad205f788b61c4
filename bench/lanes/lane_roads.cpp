#include "bench/lanes/lane_roads.h"

#include <cmath>
#include <random>
#include <string>

#include "bench/lanes/lane_turtle.h"
#include "kernels/math/scalar.cuh"

namespace throng::lanes {
namespace {

constexpr float kPen = 2.f;  // m between control points

// One coordinate of a natural cubic spline over knots t (increasing): the second
// derivatives m solve the tridiagonal system with m_0 = m_n = 0 (Thomas algorithm).
class NaturalCubic {
 public:
  NaturalCubic(std::vector<double> t, std::vector<double> v)
      : t_(std::move(t)), v_(std::move(v)), m_(t_.size(), 0.0) {
    const size_t n = t_.size() - 1;
    std::vector<double> c(n + 1, 0.0), d(n + 1, 0.0);  // forward sweep
    for (size_t i = 1; i < n; ++i) {
      const double h0 = t_[i] - t_[i - 1], h1 = t_[i + 1] - t_[i];
      const double rhs = 6.0 * ((v_[i + 1] - v_[i]) / h1 - (v_[i] - v_[i - 1]) / h0);
      const double diag = 2.0 * (h0 + h1) - h0 * c[i - 1];
      c[i] = h1 / diag;
      d[i] = (rhs - h0 * d[i - 1]) / diag;
    }
    for (size_t i = n - 1; i >= 1; --i) m_[i] = d[i] - c[i] * m_[i + 1];
  }
  // Value, first and second derivative at x in [t_0, t_n].
  void At(double x, double* v, double* d1, double* d2) const {
    size_t i = 0;
    while (i + 2 < t_.size() && x > t_[i + 1]) ++i;
    const double h = t_[i + 1] - t_[i], a = t_[i + 1] - x, b = x - t_[i];
    const double ca = v_[i] / h - m_[i] * h / 6.0, cb = v_[i + 1] / h - m_[i + 1] * h / 6.0;
    *v = m_[i] * a * a * a / (6 * h) + m_[i + 1] * b * b * b / (6 * h) + ca * a + cb * b;
    *d1 = -m_[i] * a * a / (2 * h) + m_[i + 1] * b * b / (2 * h) - ca + cb;
    *d2 = m_[i] * a / h + m_[i + 1] * b / h;
  }
  double front() const { return t_.front(); }
  double back() const { return t_.back(); }

 private:
  std::vector<double> t_, v_, m_;
};

// Uniform in [lo, hi) from the generator's raw bits (the same on every standard library).
double Uniform(std::mt19937& rng, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(rng() >> 8) / 16777216.0;
}

struct Drawn {
  std::vector<Vec3> points;  // about kPen apart, starting at the origin heading +X
  double end_yaw = 0;        // rad, the tangent at the last point
  double max_curvature = 0;
};

Drawn DrawRoad(std::mt19937& rng) {
  const int n = 5 + static_cast<int>(rng() % 6);
  std::vector<double> x{0.0}, y{0.0};
  for (int i = 1; i < n; ++i) {
    x.push_back(x.back() + Uniform(rng, 40.0, 80.0));
    y.push_back(y.back() + Uniform(rng, -30.0, 30.0));
  }
  std::vector<double> t{0.0};
  for (int i = 1; i < n; ++i) t.push_back(t.back() + std::hypot(x[i] - x[i - 1], y[i] - y[i - 1]));
  const NaturalCubic sx(t, x), sy(t, y);
  // Rotated so that the road leaves the origin along +X (the lead-in's direction).
  double x0, dx0, ddx0, y0, dy0, ddy0;
  sx.At(0.0, &x0, &dx0, &ddx0);
  sy.At(0.0, &y0, &dy0, &ddy0);
  const double start_yaw = std::atan2(dy0, dx0), c = std::cos(-start_yaw), s = std::sin(-start_yaw);
  Drawn d;
  const int samples = static_cast<int>(std::ceil(t.back() / kPen));
  for (int i = 0; i <= samples; ++i) {
    const double u = t.back() * i / samples;
    double px, dx, ddx, py, dy, ddy;
    sx.At(u, &px, &dx, &ddx);
    sy.At(u, &py, &dy, &ddy);
    const double k = (dx * ddy - dy * ddx) / std::pow(dx * dx + dy * dy, 1.5);
    d.max_curvature = std::max(d.max_curvature, std::fabs(k));
    const double rx = px - x0, ry = py - y0;
    d.points.push_back(
        {static_cast<float>(c * rx - s * ry), static_cast<float>(s * rx + c * ry), 0.f});
    d.end_yaw = std::atan2(dy, dx) - start_yaw;
  }
  return d;
}

}  // namespace

SplineDesc RandomRoad(uint32_t seed, uint32_t id) {
  std::mt19937 rng(seed);
  Drawn d = DrawRoad(rng);
  for (int tries = 0; tries < 10000 && (d.max_curvature < 0.03 || d.max_curvature > 0.1); ++tries) {
    d = DrawRoad(rng);
  }
  Turtle t(kPen);
  t.Straight(kRoadLeadIn);
  const Vec3 join = t.position();
  std::vector<Vec3> curve;
  for (size_t i = 1; i < d.points.size(); ++i) curve.push_back(join + d.points[i]);
  t.Through(curve, d.end_yaw);
  t.Straight(kRoadRunOut);
  return t.Open(id);
}

std::vector<Course> OpenRoads(int random_count) {
  std::vector<Course> roads;
  auto add = [&](std::string name, SplineDesc lane) {
    Course c;
    c.name = std::move(name);
    c.lane = std::move(lane);
    c.run_out = kRoadRunOut;
    roads.push_back(std::move(c));
  };
  {
    Turtle t(kPen);
    const float a = kPi / 3.f, r = 20.f;
    t.Straight(kRoadLeadIn);
    t.Arc(r, a);
    t.Arc(r, -2.f * a);
    t.Arc(r, 2.f * a);
    t.Arc(r, -a);
    t.Straight(kRoadRunOut);
    add("s_bends", t.Open(10));
  }
  {
    Turtle t(kPen);
    t.Straight(kRoadLeadIn);
    t.Arc(12.f, kPi);
    t.Straight(kRoadRunOut);
    add("hairpin_turn", t.Open(11));
  }
  {
    // 3.5 m over 50 m on a half cosine (curvature up to 1.75 (pi / 50)^2 = 0.007 1/m), a
    // 100 m straight, and back.
    Turtle t(kPen);
    t.Straight(kRoadLeadIn);
    auto shift = [&](float by) {
      const Vec3 from = t.position();
      std::vector<Vec3> curve;
      for (int i = 1; i <= 25; ++i) {
        const float x = 2.f * i;
        curve.push_back(from + Vec3{x, 0.5f * by * (1.f - std::cos(kPi * x / 50.f)), 0.f});
      }
      t.Through(curve, 0.0);
    };
    shift(3.5f);
    t.Straight(100.f);
    shift(-3.5f);
    t.Straight(kRoadRunOut);
    add("lane_change", t.Open(12));
  }
  for (int i = 1; i <= random_count; ++i) {
    add("random_" + std::to_string(i), RandomRoad(static_cast<uint32_t>(i), 100 + i));
  }
  return roads;
}

}  // namespace throng::lanes
