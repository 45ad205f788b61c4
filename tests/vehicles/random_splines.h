// Seeded random splines for equivalence tests: random walks of control points (turns up
// to 45 degrees either way, segments 2 to 20 m, ramps), every third a closed wobbly loop.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/vehicles/spline.h"

namespace throng::testing {

inline std::vector<SplineDesc> RandomSplines(std::mt19937& rng, int count, uint32_t first_id,
                                             bool speed_limits) {
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  std::vector<SplineDesc> out;
  for (int i = 0; i < count; ++i) {
    SplineDesc d;
    d.id = first_id + static_cast<uint32_t>(i);
    d.closed = i % 3 == 0;
    if (speed_limits && i % 4 == 1) d.speed_limit = 5.f + 20.f * unit(rng);
    const int n = 4 + static_cast<int>(unit(rng) * 12);
    if (d.closed) {
      // The radius varies per point, within bounds that keep the loop simple.
      const float r = 20.f + 60.f * unit(rng);
      for (int k = 0; k < n; ++k) {
        const float a = kTwoPi * (static_cast<float>(k) + 0.4f * unit(rng)) / static_cast<float>(n);
        const float rr = r * (0.8f + 0.4f * unit(rng));
        d.points.push_back({rr * std::cos(a), rr * std::sin(a), 2.f * unit(rng)});
      }
    } else {
      Vec3 p{100.f * unit(rng), 100.f * unit(rng), 0.f};
      float heading = kTwoPi * unit(rng);
      for (int k = 0; k < n; ++k) {
        d.points.push_back(p);
        heading += (unit(rng) - 0.5f) * kPi / 2;
        const float len = 2.f + 18.f * unit(rng);
        p = p + Vec3{len * std::cos(heading), len * std::sin(heading),
                     0.15f * len * (unit(rng) - 0.5f)};
      }
    }
    out.push_back(d);
  }
  return out;
}

}  // namespace throng::testing
