#include "kernels/scenarios/roads.h"

#include <cmath>
#include <random>

namespace throng::scenarios {

std::vector<SplineDesc> RingRoads(int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  std::vector<SplineDesc> roads;
  for (int i = 0; i < count; ++i) {
    SplineDesc d;
    d.id = static_cast<uint32_t>(i);
    d.closed = true;
    const float r = 30.f + 100.f * unit(rng);
    for (int k = 0; k < 24; ++k) {
      const float a = kTwoPi * static_cast<float>(k) / 24.f;
      const float rr = r * (0.85f + 0.3f * unit(rng));
      d.points.push_back({rr * std::cos(a), rr * std::sin(a), 0.f});
    }
    roads.push_back(d);
  }
  return roads;
}

VehicleColumns VehiclesOn(const std::vector<SplineDesc>& roads, size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  const SplineSet set = BuildSplineSet(roads);
  VehicleColumns v;
  v.Resize(n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t k = static_cast<uint32_t>(rng() % set.size());
    const float s = unit(rng) * set.headers[k].length;
    const SplinePoint at = SampleSpline(set.View(), k, s);
    const Vec3 side = Normalize(Cross(at.tangent, Vec3{0, 0, 1}));
    const Vec3 p = at.position + side * (2.f * unit(rng) - 1.f);
    v.id[i] = static_cast<uint32_t>(i);
    v.spline_id[i] = roads[k].id;
    v.px[i] = p.x;
    v.py[i] = p.y;
    v.pz[i] = p.z;
    v.yaw[i] = std::atan2(at.tangent.y, at.tangent.x) + 0.6f * (unit(rng) - 0.5f);
    v.speed[i] = 20.f * unit(rng);
    v.progress_hint[i] = s + 2.f * unit(rng) - 1.f;
    v.max_speed[i] = 25.f;
  }
  return v;
}

SplineDesc HairpinCourse(bool closed) {
  SplineDesc d;
  d.closed = closed;
  for (int i = 0; i < 24; ++i) d.points.push_back({5.f * i, 0.f, 0.f});
  for (int i = 0; i <= 12; ++i) {
    const float a = -kPi / 2 + kPi * i / 12.f;
    d.points.push_back({120.f + 8.f * std::cos(a), 8.f + 8.f * std::sin(a), 0.f});
  }
  for (int i = 1; i <= 12; ++i) d.points.push_back({120.f - 5.f * i, 16.f, 0.f});
  for (int i = 1; i <= 16; ++i) {
    d.points.push_back({60.f - 2.5f * i, 16.f + 10.f * (1.f - std::cos(kPi * i / 16.f)), 0.f});
  }
  for (int i = 1; i <= 8; ++i) d.points.push_back({20.f - 5.f * i, 36.f, 0.f});
  for (int i = 1; i <= 20; ++i) {
    const float a = kPi / 2 + kPi * i / 20.f;
    d.points.push_back({-20.f + 18.f * std::cos(a), 18.f + 18.f * std::sin(a), 0.f});
  }
  for (int i = 1; i <= 3; ++i) d.points.push_back({-20.f + 5.f * i, 0.f, 0.f});
  return d;
}

}  // namespace throng::scenarios
