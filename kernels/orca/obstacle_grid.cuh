// A uniform grid over obstacle edges (built once per world by BuildEdgeGrid, host side),
// as the per-agent solve reads it on either backend. Cells hold edge indices in CSR
// layout: cell (cx, cy) is edge_index[cell_start[c] .. cell_start[c + 1]), c = cy*nx + cx,
// ascending. An edge is in every cell that a float box around a piece of it touches
// (docs/ORCA.md, "Obstacle edge grid"), so it may be in several cells.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"

namespace throng::orca {

struct EdgeGridView {
  const int32_t* cell_start = nullptr;  // nx * ny + 1 offsets; null: no grid, scan all edges
  const int32_t* edge_index = nullptr;
  Vec2 origin{0.f, 0.f};  // lower-left corner of cell (0, 0)
  float inv_cell = 0.f;   // 1 / cell side
  int nx = 0, ny = 0;
  // Largest |vertex coordinate| plus the longest edge: the scale of the rounding in an
  // edge's distance, which the query pads for.
  float extent = 0.f;
};

// Relative pad of a query square: float distance tests err by a few 1e-7 of the
// coordinates' size; 1e-5 of (range + |p| + extent) covers that a hundred times over.
constexpr float kEdgeGridPad = 1e-5f;

// Column (or row) of coordinate x, clamped to [0, n). Build and query both use it: it is
// monotone in x (a rounded subtraction and a product with a positive constant are), which
// is what makes the query's cell range meet every cell range an edge was put into.
// NaN maps to 0; callers keep NaN away.
THRONG_HD inline int EdgeGridCell(float x, float origin, float inv_cell, int n) {
  const float c = floorf((x - origin) * inv_cell);
  if (!(c >= 0.f)) return 0;
  if (!(c < static_cast<float>(n))) return n - 1;
  return static_cast<int>(c);
}

}  // namespace throng::orca
