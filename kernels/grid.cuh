// Uniform-grid neighbour index over unbounded coordinates: cells are hashed into a
// power-of-two bucket table, so no agent is ever dropped for being far away. Buckets
// shared by distant cells only add false positives, which the exact per-pair filter
// removes; they never hide a neighbour.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/hd.cuh"

namespace throng {

// Cell coordinates saturate here: agents beyond 2^30 cells share edge cells (more
// candidates, never fewer). Validation keeps coordinates finite.
constexpr float kMaxCellCoord = 1073741824.f;
constexpr uint32_t kEmptyCell = 0xffffffffu;

struct GridSpec {
  float inv_cell;        // 1 / cell size; the cell is at least the largest query radius
  uint32_t bucket_mask;  // bucket count - 1
};

THRONG_HD inline int32_t CellCoord(float p, float inv_cell) {
  float c = floorf(p * inv_cell);
  c = c < -kMaxCellCoord ? -kMaxCellCoord : (c > kMaxCellCoord ? kMaxCellCoord : c);
  return static_cast<int32_t>(c);
}

THRONG_HD inline uint32_t BucketOf(int32_t cx, int32_t cy, uint32_t mask) {
  return ((static_cast<uint32_t>(cx) * 73856093u) ^ (static_cast<uint32_t>(cy) * 19349663u)) & mask;
}

// Sort key: bucket in the high word, the agent's input index in the low word, so the
// sorted order is unique and the same on every backend and run.
struct GridKeyFunctor {
  const float* __restrict__ px;
  const float* __restrict__ py;
  GridSpec grid;
  uint64_t* __restrict__ keys;

  THRONG_HD void operator()(uint32_t i) const {
    const uint32_t b = BucketOf(CellCoord(px[i], grid.inv_cell), CellCoord(py[i], grid.inv_cell),
                                grid.bucket_mask);
    keys[i] = (static_cast<uint64_t>(b) << 32) | i;
  }
};

// [start, end) of each bucket in sorted order; one writer per boundary, no atomics.
// Buckets with no agent keep the start value kEmptyCell written beforehand.
struct CellRangeFunctor {
  const uint64_t* __restrict__ keys;
  uint32_t n;
  uint32_t* __restrict__ cell_start;
  uint32_t* __restrict__ cell_end;

  THRONG_HD void operator()(uint32_t i) const {
    const uint32_t b = static_cast<uint32_t>(keys[i] >> 32);
    if (i == 0 || static_cast<uint32_t>(keys[i - 1] >> 32) != b) cell_start[b] = i;
    if (i + 1 == n || static_cast<uint32_t>(keys[i + 1] >> 32) != b) cell_end[b] = i + 1;
  }
};

// Bucket count for n agents: a power of two, at least 2n, so most buckets hold one cell.
inline uint32_t BucketCountFor(uint32_t n) {
  uint32_t b = 1024;
  while (b < 2 * n && b < (1u << 30)) b <<= 1;
  return b;
}

}  // namespace throng
