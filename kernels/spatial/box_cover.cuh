// Reading a box cover (kernels/spatial/box_cover.h) on either backend: could a query box
// meet any of the covered boxes? A "no" is certain; a "yes" sends the caller to its exact
// test. Most of a town's pedestrians walk far from every building, and this answers them
// with a bit or four instead of a hashed grid's bucket walk.
#pragma once

#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

// Cells of side 1 / inv_cell from `origin`, nx by ny, one bit each (row-major, 32 to a
// word): set where some covered box overlaps the cell. nx == 0: nothing is covered.
struct BoxCoverView {
  const uint32_t* words = nullptr;
  Vec2 origin = {0.f, 0.f};
  float inv_cell = 1.f;
  int32_t nx = 0, ny = 0;
};

// A query covering more cells than this is answered "yes" without reading them.
constexpr int64_t kMaxBoxCoverQueryCells = 64;

// Where x lies along one axis, in cells from the origin: the same map for the boxes
// covered and the boxes queried, so a point in both lies in a cell both reach. Cell k
// holds the positions this maps into [k, k + 1); it is never negative for a covered box.
THRONG_HD inline float BoxCoverPlace(float x, float origin, float inv_cell) {
  return (x - origin) * inv_cell;
}

// Whether the box [lo, hi] may overlap one of the covered boxes: false only when none
// can. A NaN corner answers true (the caller's exact test decides). No floor: the places
// are clamped to [0, n) before truncation, where truncating is flooring.
THRONG_HD inline bool BoxCoverMayMeet(const BoxCoverView& cover, Vec2 lo, Vec2 hi) {
  if (cover.nx == 0) return false;
  const float x0 = BoxCoverPlace(lo.x, cover.origin.x, cover.inv_cell);
  const float x1 = BoxCoverPlace(hi.x, cover.origin.x, cover.inv_cell);
  const float y0 = BoxCoverPlace(lo.y, cover.origin.y, cover.inv_cell);
  const float y1 = BoxCoverPlace(hi.y, cover.origin.y, cover.inv_cell);
  if (!(x0 <= x1) || !(y0 <= y1)) return true;
  const float nx = static_cast<float>(cover.nx), ny = static_cast<float>(cover.ny);
  if (x1 < 0.f || y1 < 0.f || x0 >= nx || y0 >= ny) return false;
  const int32_t cx0 = x0 > 0.f ? static_cast<int32_t>(x0) : 0;
  const int32_t cy0 = y0 > 0.f ? static_cast<int32_t>(y0) : 0;
  const int32_t cx1 = x1 < nx ? static_cast<int32_t>(x1) : cover.nx - 1;
  const int32_t cy1 = y1 < ny ? static_cast<int32_t>(y1) : cover.ny - 1;
  if (int64_t{cx1 - cx0 + 1} * (cy1 - cy0 + 1) > kMaxBoxCoverQueryCells) return true;
  for (int32_t cy = cy0; cy <= cy1; ++cy) {
    for (int32_t cx = cx0; cx <= cx1; ++cx) {
      const int32_t bit = cy * cover.nx + cx;
      if ((cover.words[bit >> 5] >> (bit & 31)) & 1u) return true;
    }
  }
  return false;
}

}  // namespace throng
