// A uniform grid over points on the host, for the world's host-side queries (vehicle
// path checks, collision counts). Dense (row-major cells, neighbouring cells side by side
// in memory) when the points' bounding box has at most 4n cells; hashed otherwise, which
// keeps memory at O(n) whatever the coordinates' spread: far-away points share buckets
// and are told apart by their cell.
#pragma once

#include <algorithm>
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
    std::vector<int64_t> cx(n), cy(n);
    for (size_t i = 0; i < n; ++i) {
      cx[i] = CellOf(x[i]);
      cy[i] = CellOf(y[i]);
    }
    size_t buckets = 16;
    dense_ = false;
    if (n > 0) {
      const auto [lo_x, hi_x] = std::minmax_element(cx.begin(), cx.end());
      const auto [lo_y, hi_y] = std::minmax_element(cy.begin(), cy.end());
      x0_ = *lo_x;
      y0_ = *lo_y;
      width_ = *hi_x - x0_ + 1;
      height_ = *hi_y - y0_ + 1;
      const double cells = static_cast<double>(width_) * static_cast<double>(height_);
      dense_ = cells <= 4.0 * static_cast<double>(n) + 64.0;
      if (dense_) buckets = static_cast<size_t>(width_ * height_);
    }
    if (!dense_) {
      while (buckets < 2 * n) buckets <<= 1;
      mask_ = buckets - 1;
    }
    std::vector<uint32_t> bucket_of(n);
    start_.assign(buckets + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      bucket_of[i] = Bucket(cx[i], cy[i]);
      ++start_[bucket_of[i] + 1];
    }
    for (size_t b = 0; b < buckets; ++b) start_[b + 1] += start_[b];
    // Slots in bucket order, each with its cell: a bucket scan reads contiguous memory.
    items_.resize(n);
    slot_cx_.resize(n);
    slot_cy_.resize(n);
    std::vector<uint32_t> fill(start_.begin(), start_.end() - 1);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t k = fill[bucket_of[i]]++;
      items_[k] = static_cast<uint32_t>(i);
      slot_cx_[k] = cx[i];
      slot_cy_[k] = cy[i];
    }
  }

  // Every point, bucket by bucket: queries made in this order find their neighbours'
  // buckets still in cache.
  const std::vector<uint32_t>& order() const { return items_; }

  // Calls f(i) for every point whose cell overlaps the square of half side `reach` around
  // (x, y); the caller applies the exact distance test. The order is deterministic: cell
  // by cell, index order within a cell. A square of more cells than there are points is
  // not walked cell by cell: every point is tested against it instead, so one query
  // costs at most O(points) whatever the reach (a 10 km reach over 2 m cells would
  // otherwise visit 10^8 empty cells).
  template <class F>
  void ForEachNear(float x, float y, float reach, F&& f) const {
    if (items_.empty()) return;
    int64_t x0 = CellOf(x - reach), x1 = CellOf(x + reach);
    int64_t y0 = CellOf(y - reach), y1 = CellOf(y + reach);
    if (dense_) {  // cells outside the box hold nothing
      x0 = std::max(x0, x0_);
      y0 = std::max(y0, y0_);
      x1 = std::min(x1, x0_ + width_ - 1);
      y1 = std::min(y1, y0_ + height_ - 1);
    }
    if (x1 < x0 || y1 < y0) return;
    const double cells =
        (static_cast<double>(x1 - x0) + 1.0) * (static_cast<double>(y1 - y0) + 1.0);
    if (cells > static_cast<double>(items_.size())) {
      for (size_t k = 0; k < items_.size(); ++k) {
        if (slot_cx_[k] >= x0 && slot_cx_[k] <= x1 && slot_cy_[k] >= y0 && slot_cy_[k] <= y1) {
          f(items_[k]);
        }
      }
      return;
    }
    for (int64_t gy = y0; gy <= y1; ++gy) {
      for (int64_t gx = x0; gx <= x1; ++gx) {
        const uint32_t b = Bucket(gx, gy);
        for (uint32_t k = start_[b]; k < start_[b + 1]; ++k) {
          if (slot_cx_[k] == gx && slot_cy_[k] == gy) f(items_[k]);
        }
      }
    }
  }

 private:
  // Saturates far out (validation keeps coordinates within kMaxCoordinate, so only a
  // caller that skipped it gets there): a float cast beyond int64 is undefined behaviour,
  // and NaN lands on the low edge.
  int64_t CellOf(float v) const {
    constexpr double kMaxCell = 1e15;
    const double c = std::floor(static_cast<double>(v) / cell_);
    if (!(c >= -kMaxCell)) return static_cast<int64_t>(-kMaxCell);
    return static_cast<int64_t>(std::min(c, kMaxCell));
  }
  uint32_t Bucket(int64_t gx, int64_t gy) const {
    if (dense_) return static_cast<uint32_t>((gy - y0_) * width_ + (gx - x0_));
    const uint64_t h = static_cast<uint64_t>(gx) * 0x9E3779B97F4A7C15ull ^
                       static_cast<uint64_t>(gy) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<uint32_t>((h >> 29) & mask_);
  }

  float cell_ = 1.f;
  bool dense_ = false;
  int64_t x0_ = 0, y0_ = 0, width_ = 0, height_ = 0;  // dense: the cells' box
  size_t mask_ = 0;
  std::vector<int64_t> slot_cx_, slot_cy_;  // cell of each slot
  std::vector<uint32_t> start_, items_;
};

}  // namespace throng
