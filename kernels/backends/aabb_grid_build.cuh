// A box grid (kernels/spatial/aabb_grid.h) built on a backend from boxes already in its
// memory (the cuda backend's forward-agent bodies, every tick; the cpu backend, whose bodies
// are host memory, runs the host's build): Thrust only, so it runs with either backend's
// policy. The same buckets, the same entries in the same order and the same list of big
// items as BuildAabbGrid makes on the host (tests/backends/aabb_grid_build_test.cpp compares
// the two, on the cpu's policy), so a query offers the same candidates in the same order
// whichever built it. Each item writes its (bucket, item)
// pairs at its place in the items' order; a stable sort by bucket keeps the items
// ascending within a bucket, as the host's placement in index order does.
#pragma once

#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdint>

#include "kernels/backends/aabb_grid_buffers.cuh"
#include "kernels/backends/grid_build.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/spatial/aabb_grid.cuh"

namespace throng {

// Item i's cells, as BuildAabbGrid counts them: 0 for a big item (scanned by every query).
struct AabbItemCells {
  const Vec2* lo;
  const Vec2* hi;
  float inv_cell;

  THRONG_HD int64_t Span(int32_t i) const {
    const int64_t w =
        static_cast<int64_t>(AabbCell(hi[i].x, inv_cell)) - AabbCell(lo[i].x, inv_cell) + 1;
    const int64_t h =
        static_cast<int64_t>(AabbCell(hi[i].y, inv_cell)) - AabbCell(lo[i].y, inv_cell) + 1;
    return w * h;
  }
  THRONG_HD int32_t operator()(int32_t i) const {
    const int64_t cells = Span(i);
    return cells > kMaxCellsPerItem ? 0 : static_cast<int32_t>(cells);
  }
};

struct AabbItemIsBig {
  AabbItemCells cells;
  THRONG_HD bool operator()(int32_t i) const { return cells.Span(i) > kMaxCellsPerItem; }
};

// Item i's (bucket, item) pairs from its place `first[i]`, row by row as the host visits
// its cells.
struct AabbEntryFunctor {
  AabbItemCells cells;
  uint32_t bucket_mask;
  const int32_t* first;
  uint32_t* keys;
  int32_t* items;

  THRONG_HD void operator()(int32_t i) const {
    if (cells.Span(i) > kMaxCellsPerItem) return;
    const int32_t x0 = AabbCell(cells.lo[i].x, cells.inv_cell);
    const int32_t x1 = AabbCell(cells.hi[i].x, cells.inv_cell);
    const int32_t y0 = AabbCell(cells.lo[i].y, cells.inv_cell);
    const int32_t y1 = AabbCell(cells.hi[i].y, cells.inv_cell);
    int32_t k = first[i];
    for (int32_t cy = y0; cy <= y1; ++cy) {
      for (int32_t cx = x0; cx <= x1; ++cx) {
        keys[k] = AabbBucket(cx, cy, bucket_mask);
        items[k] = i;
        ++k;
      }
    }
  }
};

// The build's scratch columns, kept between builds.
template <template <class...> class Vector>
struct AabbGridScratch {
  Vector<int32_t> first;
  Vector<uint32_t> keys;
};

// Indexes boxes [lo[k], hi[k]] (backend memory, `count` of them) with cells of side `cell`
// (> 0, finite) into `grid`.
template <class Policy, template <class...> class Vector>
void BuildAabbGridOn(const Policy& policy, const Vec2* lo, const Vec2* hi, int32_t count,
                     float cell, AabbGridScratch<Vector>& scratch, AabbGridBuffers<Vector>* grid) {
  uint32_t buckets = 64;
  while (static_cast<uint64_t>(buckets) < 2 * static_cast<uint64_t>(count)) buckets <<= 1;
  const AabbItemCells cells{lo, hi, 1.f / cell};
  const thrust::counting_iterator<int32_t> items(0);
  const auto n = static_cast<size_t>(count);
  Grow(scratch.first, n);
  thrust::transform(policy, items, items + count, scratch.first.begin(), cells);
  const int64_t total = thrust::reduce(policy, scratch.first.begin(), scratch.first.begin() + n,
                                       int64_t{0}, thrust::plus<int64_t>());
  thrust::exclusive_scan(policy, scratch.first.begin(), scratch.first.begin() + n,
                         scratch.first.begin());
  const auto entries = static_cast<size_t>(total);
  Grow(scratch.keys, entries);
  grid->entries.resize(entries);
  thrust::for_each_n(policy, items, count,
                     AabbEntryFunctor{cells, buckets - 1, Raw(scratch.first), Raw(scratch.keys),
                                      RawOrNull(grid->entries)});
  thrust::stable_sort_by_key(policy, scratch.keys.begin(), scratch.keys.begin() + entries,
                             grid->entries.begin());
  grid->bucket_start.resize(buckets + 1);
  const thrust::counting_iterator<uint32_t> bucket(0);
  thrust::lower_bound(policy, scratch.keys.begin(), scratch.keys.begin() + entries, bucket,
                      bucket + buckets + 1, grid->bucket_start.begin());
  grid->big.resize(n);
  const auto big_end =
      thrust::copy_if(policy, items, items + count, grid->big.begin(), AabbItemIsBig{cells});
  grid->big.resize(static_cast<size_t>(big_end - grid->big.begin()));
  AabbGridView& view = grid->view;
  view.bucket_start = RawOrNull(grid->bucket_start);
  view.entries = RawOrNull(grid->entries);
  view.big = RawOrNull(grid->big);
  view.big_count = static_cast<int32_t>(grid->big.size());
  view.item_count = count;
  view.inv_cell = cells.inv_cell;
  view.bucket_mask = buckets - 1;
}

}  // namespace throng
