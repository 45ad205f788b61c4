// Uniform points in a square, at least min_dist apart: dart throwing over a hash grid of
// min_dist cells. Shared by crowd.h's scenes and the world scenarios, which differ only in
// how they draw a coordinate.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "kernels/math/vec.cuh"

namespace throng::scenarios {

// One key per grid cell, for hash maps of cells.
inline int64_t CellKey(int64_t cx, int64_t cy) { return (cx << 32) ^ (cy & 0xffffffff); }

// `draw()` returns one coordinate in [0, side); x is drawn before y. Stops after 1000
// darts per point asked for, so it may return fewer than n points in a square too full.
template <class Draw>
std::vector<Vec2> SpreadPoints(size_t n, float min_dist, Draw&& draw) {
  std::unordered_map<int64_t, std::vector<size_t>> cells;
  std::vector<Vec2> pts;
  pts.reserve(n);
  for (size_t attempts = 0; pts.size() < n && attempts < 1000 * n; ++attempts) {
    const float x = draw();
    const float y = draw();
    const Vec2 p{x, y};
    const int64_t cx = static_cast<int64_t>(std::floor(p.x / min_dist));
    const int64_t cy = static_cast<int64_t>(std::floor(p.y / min_dist));
    bool free = true;
    for (int64_t dy = -1; dy <= 1 && free; ++dy) {
      for (int64_t dx = -1; dx <= 1 && free; ++dx) {
        auto it = cells.find(CellKey(cx + dx, cy + dy));
        if (it == cells.end()) continue;
        for (size_t k : it->second) free = free && LengthSq(pts[k] - p) >= min_dist * min_dist;
      }
    }
    if (!free) continue;
    cells[CellKey(cx, cy)].push_back(pts.size());
    pts.push_back(p);
  }
  return pts;
}

}  // namespace throng::scenarios
