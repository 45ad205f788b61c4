// A hashed uniform grid over points on the host, for the world's host-side queries
// (vehicle path checks, collision counts). Hashing keeps memory at O(n) whatever the
// coordinates' spread: far-away points share buckets and are told apart by their cell.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace throng {

class HostGrid {
 public:
  // Indexes points (x[i], y[i]); `cell` is the cell side in metres (> 0).
  void Build(const float* x, const float* y, size_t n, float cell) {
    cell_ = cell;
    size_t buckets = 16;
    while (buckets < 2 * n) buckets <<= 1;
    mask_ = buckets - 1;
    cx_.resize(n);
    cy_.resize(n);
    std::vector<uint32_t> bucket_of(n);
    start_.assign(buckets + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      cx_[i] = CellOf(x[i]);
      cy_[i] = CellOf(y[i]);
      bucket_of[i] = Bucket(cx_[i], cy_[i]);
      ++start_[bucket_of[i] + 1];
    }
    for (size_t b = 0; b < buckets; ++b) start_[b + 1] += start_[b];
    items_.resize(n);
    std::vector<uint32_t> fill(start_.begin(), start_.end() - 1);
    for (size_t i = 0; i < n; ++i) items_[fill[bucket_of[i]]++] = static_cast<uint32_t>(i);
  }

  // Calls f(i) for every point whose cell overlaps the square of half side `reach` around
  // (x, y); the caller applies the exact distance test. Within a cell, points come in
  // index order, so results are deterministic.
  template <class F>
  void ForEachNear(float x, float y, float reach, F&& f) const {
    if (items_.empty()) return;
    const int64_t x0 = CellOf(x - reach), x1 = CellOf(x + reach);
    const int64_t y0 = CellOf(y - reach), y1 = CellOf(y + reach);
    for (int64_t gy = y0; gy <= y1; ++gy) {
      for (int64_t gx = x0; gx <= x1; ++gx) {
        const uint32_t b = Bucket(gx, gy);
        for (uint32_t k = start_[b]; k < start_[b + 1]; ++k) {
          const uint32_t i = items_[k];
          if (cx_[i] == gx && cy_[i] == gy) f(i);
        }
      }
    }
  }

 private:
  int64_t CellOf(float v) const { return static_cast<int64_t>(std::floor(v / cell_)); }
  uint32_t Bucket(int64_t gx, int64_t gy) const {
    const uint64_t h = static_cast<uint64_t>(gx) * 0x9E3779B97F4A7C15ull ^
                       static_cast<uint64_t>(gy) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<uint32_t>((h >> 29) & mask_);
  }

  float cell_ = 1.f;
  size_t mask_ = 0;
  std::vector<int64_t> cx_, cy_;
  std::vector<uint32_t> start_, items_;
};

}  // namespace throng
