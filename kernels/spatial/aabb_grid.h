// A hashed uniform grid over axis-aligned boxes in the ground plane, built on the host in
// CSR layout, for the cast fan's candidates (kernels/steering/forward_scene.cuh reads it on either
// backend). Hashed rather than dense so that memory stays O(items) however far apart the
// items lie; a box spanning many cells goes to a list every query scans instead of being
// copied into each cell, so a 10 km wall costs one entry, not ten thousand.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/spatial/aabb_grid.cuh"

namespace throng {

struct AabbGridHost {
  float cell = 1.f;  // m
  uint32_t bucket_mask = 0;
  std::vector<int32_t> bucket_start;  // buckets + 1 offsets into entries
  std::vector<int32_t> entries;       // item indices, by bucket, ascending within one
  std::vector<int32_t> big;           // items scanned by every query
  int32_t item_count = 0;
};

// Indexes boxes [lo[i], hi[i]] with cells of side `cell` (> 0, finite). Deterministic.
AabbGridHost BuildAabbGrid(const std::vector<Vec2>& lo, const std::vector<Vec2>& hi, float cell);

}  // namespace throng
