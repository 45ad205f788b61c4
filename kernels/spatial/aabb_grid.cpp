#include "kernels/spatial/aabb_grid.h"

#include <algorithm>

namespace throng {

AabbGridHost BuildAabbGrid(const std::vector<Vec2>& lo, const std::vector<Vec2>& hi, float cell) {
  AabbGridHost g;
  g.cell = cell;
  g.item_count = static_cast<int32_t>(lo.size());
  const float inv_cell = 1.f / cell;
  uint32_t buckets = 64;
  while (buckets < 2 * lo.size()) buckets <<= 1;
  g.bucket_mask = buckets - 1;
  g.bucket_start.assign(buckets + 1, 0);
  // Two passes over the same cells: count per bucket, then place. Items stay ascending
  // within each bucket because they are placed in index order.
  auto for_each_cell = [&](size_t i, auto&& f) {
    const int32_t x0 = AabbCell(lo[i].x, inv_cell), x1 = AabbCell(hi[i].x, inv_cell);
    const int32_t y0 = AabbCell(lo[i].y, inv_cell), y1 = AabbCell(hi[i].y, inv_cell);
    for (int32_t cy = y0; cy <= y1; ++cy) {
      for (int32_t cx = x0; cx <= x1; ++cx) f(AabbBucket(cx, cy, g.bucket_mask));
    }
  };
  std::vector<uint8_t> is_big(lo.size(), 0);
  for (size_t i = 0; i < lo.size(); ++i) {
    const int64_t w =
        static_cast<int64_t>(AabbCell(hi[i].x, inv_cell)) - AabbCell(lo[i].x, inv_cell) + 1;
    const int64_t h =
        static_cast<int64_t>(AabbCell(hi[i].y, inv_cell)) - AabbCell(lo[i].y, inv_cell) + 1;
    if (w * h > kMaxCellsPerItem) {
      is_big[i] = 1;
      g.big.push_back(static_cast<int32_t>(i));
      continue;
    }
    for_each_cell(i, [&](uint32_t b) { ++g.bucket_start[b + 1]; });
  }
  for (uint32_t b = 0; b < buckets; ++b) g.bucket_start[b + 1] += g.bucket_start[b];
  g.entries.resize(static_cast<size_t>(g.bucket_start[buckets]));
  std::vector<int32_t> next(g.bucket_start.begin(), g.bucket_start.end() - 1);
  for (size_t i = 0; i < lo.size(); ++i) {
    if (is_big[i]) continue;
    for_each_cell(i, [&](uint32_t b) {
      g.entries[static_cast<size_t>(next[b]++)] = static_cast<int32_t>(i);
    });
  }
  return g;
}

}  // namespace throng
