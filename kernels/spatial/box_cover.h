// A box cover: a dense raster of one bit per cell over the extent of a set of axis-aligned
// boxes, set where a box overlaps the cell, built on the host (box_cover.cuh reads it).
// Memory is bounded: the cells grow with the extent, so that there are at most
// kMaxBoxCoverCells of them however far apart the boxes lie.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/math/vec.cuh"
#include "kernels/spatial/box_cover.cuh"

namespace throng {

// 2^20 bits: 128 KiB.
constexpr int64_t kMaxBoxCoverCells = int64_t{1} << 20;

struct BoxCoverHost {
  std::vector<uint32_t> words;
  Vec2 origin = {0.f, 0.f};
  float cell = 1.f;  // m
  int32_t nx = 0, ny = 0;

  // The view over `words` wherever the backend keeps them.
  BoxCoverView View(const uint32_t* words_in_backend) const {
    return {words_in_backend, origin, 1.f / cell, nx, ny};
  }
};

// Covers boxes [lo[i], hi[i]] (finite, lo <= hi) with cells of at least `min_cell` m (> 0),
// larger where the extent would need more than kMaxBoxCoverCells. Deterministic.
BoxCoverHost BuildBoxCover(const std::vector<Vec2>& lo, const std::vector<Vec2>& hi,
                           float min_cell);

}  // namespace throng
