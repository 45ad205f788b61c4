// The cpu backend's execution policy (kernels/backends/cpu_policy.h): Thrust's reductions
// called with it must reach its one-region reduction, give Thrust's answer, and give the
// same bits at any thread count.
#include "kernels/backends/cpu_policy.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/backends/light_policy.cuh"

namespace throng {
namespace {

// A sum whose in-place form counts its calls: Thrust's own reduction never calls it.
std::atomic<int64_t> accumulate_calls{0};

struct CountedSum {
  int64_t operator()(int64_t a, int64_t b) const { return a + b; }
  void Accumulate(int64_t& into, int64_t x) const {
    accumulate_calls.fetch_add(1, std::memory_order_relaxed);
    into += x;
  }
};

struct Square {
  int64_t operator()(uint32_t i) const { return static_cast<int64_t>(i) * i; }
};

// Values whose float sum depends on the order of adding.
struct Wobbly {
  float operator()(uint32_t i) const {
    return 1.f / (1.f + static_cast<float>(i % 977)) + 1e4f * (i % 3 == 0);
  }
};

uint32_t Bits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

TEST(CpuPolicyTest, ThrustsTransformReduceReachesTheOneRegionReduction) {
  const thrust::counting_iterator<uint32_t> first(0);
  for (uint32_t n : {0u, 1u, 1023u, 1024u, 1025u, 100000u, 1000003u}) {
    accumulate_calls = 0;
    const int64_t sum = thrust::transform_reduce(cpu_system::par, first, first + n, Square{},
                                                 int64_t{7}, CountedSum{});
    int64_t expected = 7;
    for (uint32_t i = 0; i < n; ++i) expected += static_cast<int64_t>(i) * i;
    EXPECT_EQ(sum, expected) << n;
    // Every element after the first of each piece is added in place.
    const int64_t pieces =
        n == 0 ? 0 : std::max<int64_t>(1, std::min<int64_t>(64, (n + 1023) / 1024));
    EXPECT_GE(accumulate_calls.load(), static_cast<int64_t>(n) - pieces) << n;
  }
}

TEST(CpuPolicyTest, ThrustsReduceGivesTheSameAnswer) {
  std::vector<int64_t> values(300007);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i % 1000) - 500;
  int64_t expected = -3;
  for (int64_t v : values) expected += v;
  accumulate_calls = 0;
  EXPECT_EQ(
      thrust::reduce(cpu_system::par, values.begin(), values.end(), int64_t{-3}, CountedSum{}),
      expected);
  EXPECT_GT(accumulate_calls.load(), 0);
}

TEST(CpuPolicyTest, AFloatSumHasTheSameBitsAtAnyThreadCount) {
  const thrust::counting_iterator<uint32_t> first(0);
  const int threads_before = omp_get_max_threads();
  for (uint32_t n : {5000u, 262147u}) {
    std::vector<uint32_t> bits;
    for (int threads : {1, 2, 3, 8}) {
      omp_set_num_threads(threads);
      bits.push_back(Bits(thrust::transform_reduce(cpu_system::par, first, first + n, Wobbly{}, 0.f,
                                                   thrust::plus<float>())));
    }
    for (size_t k = 1; k < bits.size(); ++k) EXPECT_EQ(bits[k], bits[0]) << n << " " << k;
    // And it is a sum: within float rounding of one taken in double.
    double exact = 0.0;
    for (uint32_t i = 0; i < n; ++i) exact += Wobbly{}(i);
    float got;
    std::memcpy(&got, &bits[0], sizeof got);
    EXPECT_NEAR(got, exact, 1e-5 * exact) << n;
  }
  omp_set_num_threads(threads_before);
}

// Records, for every element, whether it ran inside a parallel region.
struct RecordRegion {
  int* in_region;
  void operator()(uint32_t i) const { in_region[i] = omp_in_parallel() ? 1 : 0; }
};

TEST(CpuPolicyTest, ALightPassBelowItsThresholdRunsOnTheCallingThreadAndAboveItInParallel) {
  const int threads_before = omp_get_max_threads();
  omp_set_num_threads(2);
  const thrust::counting_iterator<uint32_t> first(0);
  const auto n = static_cast<uint32_t>(cpu_system::kLightSerialBelow);
  std::vector<int> small(n - 1, -1), large(n, -1);
  thrust::for_each_n(Light(cpu_system::par), first, n - 1, RecordRegion{small.data()});
  thrust::for_each_n(Light(cpu_system::par), first, n, RecordRegion{large.data()});
  std::vector<int> plain(16, -1);
  thrust::for_each_n(cpu_system::par, first, 16, RecordRegion{plain.data()});
  omp_set_num_threads(threads_before);
  for (uint32_t i = 0; i + 1 < n; ++i) ASSERT_EQ(small[i], 0) << i;  // every element, no region
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(large[i], 1) << i;
  for (int v : plain) EXPECT_EQ(v, 1);  // a pass that is not light always takes its region
}

// Counts the elements that ran inside a parallel region (a reduction's f).
struct InRegion {
  uint32_t operator()(uint32_t) const { return omp_in_parallel() ? 1u : 0u; }
};

// A light reduction below the threshold runs its pieces on the calling thread, in the
// same order: the same sum; at or above it, and without Light, it takes its region.
TEST(CpuPolicyTest, ALightReductionBelowItsThresholdRunsOnTheCallingThread) {
  const int threads_before = omp_get_max_threads();
  omp_set_num_threads(2);
  const thrust::counting_iterator<uint32_t> first(0);
  const auto n = static_cast<uint32_t>(cpu_system::kLightSerialBelow);
  const uint32_t small = thrust::transform_reduce(Light(cpu_system::par), first, first + n - 1,
                                                  InRegion{}, 0u, thrust::plus<uint32_t>());
  const uint32_t large = thrust::transform_reduce(Light(cpu_system::par), first, first + n,
                                                  InRegion{}, 0u, thrust::plus<uint32_t>());
  const uint32_t plain = thrust::transform_reduce(cpu_system::par, first, first + n - 1, InRegion{},
                                                  0u, thrust::plus<uint32_t>());
  std::vector<float> values(n - 1);
  for (uint32_t i = 0; i + 1 < n; ++i) values[i] = 1.f / static_cast<float>(i + 3);
  const float light_sum = thrust::reduce(Light(cpu_system::par), values.begin(), values.end(), 0.f,
                                         thrust::plus<float>());
  const float sum =
      thrust::reduce(cpu_system::par, values.begin(), values.end(), 0.f, thrust::plus<float>());
  omp_set_num_threads(threads_before);
  EXPECT_EQ(small, 0u);     // every element on the calling thread
  EXPECT_EQ(large, n);      // every element in the region
  EXPECT_EQ(plain, n - 1);  // a reduction that is not light always takes its region
  EXPECT_EQ(std::memcmp(&light_sum, &sum, sizeof sum), 0);  // the same pieces, the same bits
}

}  // namespace
}  // namespace throng
