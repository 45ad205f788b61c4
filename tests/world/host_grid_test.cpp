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

// A reach whose square covers more cells than there are points is answered by testing
// every point (D3 of issue 14: 10^8 cells per query hung a world). Same answers.
TEST(HostGridTest, AReachOfMillionsOfCellsTestsEveryPointInstead) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-500.f, 500.f);
  std::vector<float> x(3000), y(3000);
  for (size_t i = 0; i < x.size(); ++i) x[i] = u(rng), y[i] = u(rng);
  ExpectSameAsBruteForce(x, y, 2.f, 300.f);   // 90,000 cells per query, 3,000 points
  ExpectSameAsBruteForce(x, y, 0.01f, 50.f);  // hashed: a 10^8-cell square
}

// Coordinates past what validation allows saturate instead of overflowing (D1: a cell
// index of 3.4e38 / 2 was undefined behaviour, then a crash). Validation keeps the world
// well inside; the grid must not crash whoever calls it.
TEST(HostGridTest, CoordinatesBeyondInt64CellsDoNotCrash) {
  const std::vector<float> x = {0.f, 1.f, 3.4e38f, -3.4e38f, std::nanf("")};
  const std::vector<float> y = {0.f, 3.4e38f, 0.f, -1e30f, 0.f};
  HostGrid grid;
  grid.Build(x.data(), y.data(), x.size(), 2.f);
  std::vector<uint32_t> found;
  grid.ForEachNear(0.f, 0.f, 1.5f, [&](uint32_t i) { found.push_back(i); });
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, std::vector<uint32_t>{0});
}

}  // namespace
}  // namespace throng
