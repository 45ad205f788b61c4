// Reading an AabbGridHost (kernels/spatial/aabb_grid.h) on either backend: the cells a query box
// covers, hashed to buckets, or every item when the box covers too many cells. An item
// may be offered more than once (it sits in several cells, or two cells share a bucket);
// callers take minima, which repeats do not change.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

// An item covering more cells than this is scanned by every query.
constexpr int kMaxCellsPerItem = 64;
// A query covering more cells than this scans every item once instead.
constexpr int kMaxCellsPerQuery = 256;

struct AabbGridView {
  const int32_t* bucket_start = nullptr;
  const int32_t* entries = nullptr;
  const int32_t* big = nullptr;
  int32_t big_count = 0;
  int32_t item_count = 0;
  float inv_cell = 1.f;
  uint32_t bucket_mask = 0;
};

// Cell coordinate, clamped so that any float (positions are bounded by validation, but
// a query box grown by a probe length may not be) maps into int32 range. NaN maps to 0.
THRONG_HD inline int32_t AabbCell(float x, float inv_cell) {
  const float c = floorf(x * inv_cell);
  if (!(c > -1.0e9f)) return c < 0.f ? -1000000000 : 0;
  if (c > 1.0e9f) return 1000000000;
  return static_cast<int32_t>(c);
}

THRONG_HD inline uint32_t AabbBucket(int32_t cx, int32_t cy, uint32_t mask) {
  // Two large odd multipliers: neighbouring cells land in different buckets.
  return (static_cast<uint32_t>(cx) * 73856093u ^ static_cast<uint32_t>(cy) * 19349663u) & mask;
}

template <class F>
THRONG_HD inline void ForEachAabbCandidate(const AabbGridView& g, Vec2 lo, Vec2 hi, F&& f) {
  if (g.item_count == 0) return;
  const int32_t x0 = AabbCell(lo.x, g.inv_cell), x1 = AabbCell(hi.x, g.inv_cell);
  const int32_t y0 = AabbCell(lo.y, g.inv_cell), y1 = AabbCell(hi.y, g.inv_cell);
  const int64_t cells = (static_cast<int64_t>(x1) - x0 + 1) * (static_cast<int64_t>(y1) - y0 + 1);
  if (cells > kMaxCellsPerQuery || g.bucket_start == nullptr) {  // one pass over all
    for (int32_t i = 0; i < g.item_count; ++i) f(i);
    return;
  }
  for (int32_t k = 0; k < g.big_count; ++k) f(g.big[k]);
  for (int32_t cy = y0; cy <= y1; ++cy) {
    for (int32_t cx = x0; cx <= x1; ++cx) {
      const uint32_t b = AabbBucket(cx, cy, g.bucket_mask);
      for (int32_t e = g.bucket_start[b]; e < g.bucket_start[b + 1]; ++e) f(g.entries[e]);
    }
  }
}

}  // namespace throng
