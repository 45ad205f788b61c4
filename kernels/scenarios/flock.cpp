#include "kernels/scenarios/flock.h"

#include <cmath>
#include <random>

#include "kernels/math/scalar.cuh"

namespace throng::scenarios {

Flock RandomFlock(uint32_t seed, size_t n, int obstacle_count, float side) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  Flock f;
  for (int k = 0; k < obstacle_count; ++k) {
    const Vec2 c{side * unit(rng), side * unit(rng)};
    const float h = 0.5f + 3.f * unit(rng);
    if (k % 3 == 0) {
      f.obstacles.push_back({{c, c + Vec2{6.f * unit(rng) - 3.f, 6.f * unit(rng) - 3.f}}});
    } else {
      f.obstacles.push_back({{c + Vec2{-h, -h}, c + Vec2{h, -h}, c + Vec2{h, h}, c + Vec2{-h, h}}});
    }
  }
  f.agents.Resize(n);
  for (size_t i = 0; i < n; ++i) {
    const float heading = kTwoPi * unit(rng);
    f.agents.id[i] = static_cast<uint32_t>(i);
    f.agents.px[i] = side * unit(rng);
    f.agents.py[i] = side * unit(rng);
    f.agents.fx[i] = std::cos(heading) * (0.5f + unit(rng));
    f.agents.fy[i] = std::sin(heading) * (0.5f + unit(rng));
    f.agents.radius[i] = 0.2f + 1.3f * unit(rng);
  }
  return f;
}

}  // namespace throng::scenarios
