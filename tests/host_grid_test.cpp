// The world's host grid finds every point near a query, dense or hashed.
#include "kernels/world/host_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace throng {
namespace {

// Every point within `reach` of each query, by the grid and by brute force.
void ExpectSameAsBruteForce(const std::vector<float>& x, const std::vector<float>& y, float cell,
                            float reach) {
  HostGrid grid;
  grid.Build(x.data(), y.data(), x.size(), cell);
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> pick(0, x.size() - 1);
  for (int q = 0; q < 200; ++q) {
    const size_t c = pick(rng);
    const float qx = x[c] + 0.37f, qy = y[c] - 0.21f;
    std::vector<uint32_t> found, truth;
    grid.ForEachNear(qx, qy, reach, [&](uint32_t i) {
      if (std::hypot(x[i] - qx, y[i] - qy) <= reach) found.push_back(i);
    });
    for (uint32_t i = 0; i < x.size(); ++i) {
      if (std::hypot(x[i] - qx, y[i] - qy) <= reach) truth.push_back(i);
    }
    std::sort(found.begin(), found.end());
    ASSERT_EQ(found, truth) << "query " << q;
  }
}

TEST(HostGridTest, DenseBoxFindsEveryNeighbour) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-50.f, 50.f);
  std::vector<float> x(5000), y(5000);
  for (size_t i = 0; i < x.size(); ++i) x[i] = u(rng), y[i] = u(rng);
  ExpectSameAsBruteForce(x, y, 2.f, 3.f);
}

TEST(HostGridTest, FarOutliersSwitchToHashingAndStillFindEveryNeighbour) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> u(-50.f, 50.f);
  std::vector<float> x(5000), y(5000);
  for (size_t i = 0; i < x.size(); ++i) x[i] = u(rng), y[i] = u(rng);
  x[17] = 4e6f;  // a box of 2e12 cells: the grid must hash, not allocate them
  y[99] = -3e7f;
  ExpectSameAsBruteForce(x, y, 2.f, 3.f);
}

}  // namespace
}  // namespace throng
