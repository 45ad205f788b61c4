// BuildAabbGridOn (kernels/backends/aabb_grid_build.cuh), the box grid the cuda backend builds
// for the forward agents' bodies every tick, run here with the cpu's policy: it must make the
// host's BuildAabbGrid to the entry, so a query offers the same candidates in the same order
// whichever backend built the grid.
#include "kernels/backends/aabb_grid_build.cuh"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "kernels/backends/cpu_policy.h"
#include "kernels/spatial/aabb_grid.h"

namespace throng {
namespace {

// Small boxes (most in one to four cells), long walls (more cells than an item may span:
// the big list), boxes on cell borders and far out (clamped cells), and repeats.
void RandomBoxes(size_t count, uint32_t seed, std::vector<Vec2>* lo, std::vector<Vec2>* hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> at(-300.f, 300.f), small(0.f, 3.f), large(20.f, 200.f);
  for (size_t i = 0; i < count; ++i) {
    Vec2 a{at(rng), at(rng)};
    if (i % 7 == 0) a = {std::floor(a.x), std::floor(a.y)};  // on a border
    const bool big = i % 13 == 0;
    Vec2 b{a.x + (big ? large(rng) : small(rng)), a.y + (big ? small(rng) : small(rng))};
    if (i % 101 == 0) {
      a = {-2e9f, 1e9f};
      b = {-2e9f + 1.f, 1e9f};
    }
    lo->push_back(a);
    hi->push_back(b);
    if (i % 17 == 0) {
      lo->push_back(a);
      hi->push_back(b);
    }
  }
}

void ExpectTheHostsGrid(const std::vector<Vec2>& lo, const std::vector<Vec2>& hi, float cell) {
  const AabbGridHost host = BuildAabbGrid(lo, hi, cell);
  AabbGridScratch<std::vector> scratch;
  AabbGridBuffers<std::vector> built;
  BuildAabbGridOn(cpu_system::par, lo.data(), hi.data(), static_cast<int32_t>(lo.size()), cell,
                  scratch, &built);
  EXPECT_EQ(built.bucket_start, host.bucket_start);
  EXPECT_EQ(built.entries, host.entries);
  EXPECT_EQ(built.big, host.big);
  EXPECT_EQ(built.view.item_count, host.item_count);
  EXPECT_EQ(built.view.bucket_mask, host.bucket_mask);
  EXPECT_EQ(built.view.big_count, static_cast<int32_t>(host.big.size()));
  EXPECT_EQ(built.view.inv_cell, 1.f / host.cell);
}

TEST(AabbGridBuildTest, MakesTheHostsGridEntryForEntry) {
  for (const size_t count : {0u, 1u, 31u, 32u, 33u, 1000u, 20000u}) {
    for (const float cell : {1.f, 2.5f, 10.f}) {
      SCOPED_TRACE(::testing::Message() << count << " boxes, cell " << cell);
      std::vector<Vec2> lo, hi;
      RandomBoxes(count, static_cast<uint32_t>(count) + 7, &lo, &hi);
      ExpectTheHostsGrid(lo, hi, cell);
    }
  }
}

// Built again over fewer boxes, the scratch and the grid's columns left from a larger build
// must not leak into it.
TEST(AabbGridBuildTest, ABuildOverFewerBoxesLeavesNothingOfTheLast) {
  std::vector<Vec2> lo, hi, few_lo, few_hi;
  RandomBoxes(5000, 3, &lo, &hi);
  RandomBoxes(40, 4, &few_lo, &few_hi);
  AabbGridScratch<std::vector> scratch;
  AabbGridBuffers<std::vector> built;
  BuildAabbGridOn(cpu_system::par, lo.data(), hi.data(), static_cast<int32_t>(lo.size()), 2.f,
                  scratch, &built);
  BuildAabbGridOn(cpu_system::par, few_lo.data(), few_hi.data(),
                  static_cast<int32_t>(few_lo.size()), 2.f, scratch, &built);
  const AabbGridHost host = BuildAabbGrid(few_lo, few_hi, 2.f);
  EXPECT_EQ(built.bucket_start, host.bucket_start);
  EXPECT_EQ(built.entries, host.entries);
  EXPECT_EQ(built.big, host.big);
}

}  // namespace
}  // namespace throng
