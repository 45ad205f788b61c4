// The neighbour grid (kernels/spatial/grid.cuh) built on a backend, written once for
// every pass that needs one (the ORCA pipeline, the contact count): each point's bucket,
// a stable sort of the input indices by bucket, and each bucket's first sorted slot.
#pragma once

#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/memory.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <cstdint>

#include "kernels/backends/light_policy.cuh"
#include "kernels/backends/raw_pointer.cuh"
#include "kernels/spatial/grid.cuh"

namespace throng {

template <class V>
void Grow(V& v, size_t n) {
  if (v.size() < n) v.resize(n);
}

// Afterwards buckets[0, n) holds the sorted buckets, order[slot] the input index of each
// sorted slot ((bucket, index) order: the same on every backend and run), and offsets[b]
// (BucketCount(grid) + 1 entries) the first slot whose bucket is >= b.
template <class Policy, class Vector32>
void SortIntoGrid(const Policy& policy, const float* px, const float* py, uint32_t n,
                  const GridSpec& grid, Vector32& buckets, Vector32& order, Vector32& offsets) {
  const uint32_t bucket_count = BucketCount(grid);
  Grow(buckets, n);
  Grow(order, n);
  Grow(offsets, bucket_count + 1);
  const thrust::counting_iterator<uint32_t> first(0);
  thrust::for_each_n(Light(policy), first, n,
                     GridKeyFunctor{px, py, grid, Raw(buckets), Raw(order)});
  thrust::stable_sort_by_key(policy, buckets.begin(), buckets.begin() + n, order.begin());
  // offsets[b] = first sorted index with bucket >= b: starts of non-empty buckets, then
  // a minimum scan from the right fills the empty ones.
  thrust::fill(Light(policy), offsets.begin(), offsets.begin() + bucket_count + 1, n);
  thrust::for_each_n(Light(policy), first, n, BucketStartFunctor{Raw(buckets), Raw(offsets)});
  const auto reversed = thrust::make_reverse_iterator(offsets.begin() + bucket_count + 1);
  thrust::inclusive_scan(policy, reversed, reversed + bucket_count + 1, reversed,
                         thrust::minimum<uint32_t>());
}

// Points sorted into a grid by SortIntoGrid, with the grid: a pass that needs the same
// points (the path check after the ORCA solve) reads them instead of sorting them again.
// Backend memory. count 0: none.
struct GridPointsView {
  const float* x = nullptr;
  const float* y = nullptr;
  const float* radius = nullptr;
  const float* vx = nullptr;
  const float* vy = nullptr;
  const uint32_t* input_index = nullptr;  // each slot's row in the columns that were sorted
  const uint32_t* offsets = nullptr;      // BucketCount(grid) + 1 entries
  GridSpec grid{};
  uint32_t count = 0;
  float r_max = 0.f;  // the largest radius
};

}  // namespace throng
