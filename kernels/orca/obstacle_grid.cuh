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

// The grid's cells that overlap the square of side 2 * (range + pad) around p: columns
// [cx0, cx1] of rows [cy0, cy1], holding `entries` edge indices in all. `valid` is false
// when there is no grid or the range or p is not finite: the caller scans every edge.
struct EdgeGridCells {
  int cx0 = 0, cx1 = -1, cy0 = 0, cy1 = -1;
  int64_t entries = 0;
  bool valid = false;
};

THRONG_HD inline EdgeGridCells EdgeGridCellsNear(const EdgeGridView& g, Vec2 p, float range) {
  EdgeGridCells cells;
  const float reach = range + kEdgeGridPad * (range + fabsf(p.x) + fabsf(p.y) + g.extent);
  if (g.cell_start == nullptr || !(reach < INFINITY) || !(fabsf(p.x) + fabsf(p.y) < INFINITY)) {
    return cells;
  }
  cells.cx0 = EdgeGridCell(p.x - reach, g.origin.x, g.inv_cell, g.nx);
  cells.cx1 = EdgeGridCell(p.x + reach, g.origin.x, g.inv_cell, g.nx);
  cells.cy0 = EdgeGridCell(p.y - reach, g.origin.y, g.inv_cell, g.ny);
  cells.cy1 = EdgeGridCell(p.y + reach, g.origin.y, g.inv_cell, g.ny);
  // Two loads per row to size the work first: a query over most of the world reads no
  // more than a scan would.
  for (int cy = cells.cy0; cy <= cells.cy1; ++cy) {
    cells.entries += g.cell_start[cy * g.nx + cells.cx1 + 1] - g.cell_start[cy * g.nx + cells.cx0];
  }
  cells.valid = true;
  return cells;
}

// Calls f(k) for every edge k within `range` of p (and for some beyond it, some twice):
// the edges of the grid's cells around p, or all edge_count edges in index order where
// there is no grid or its cells hold more entries than a scan reads.
template <class F>
THRONG_HD inline void ForEachEdgeNear(const EdgeGridView& g, int edge_count, Vec2 p, float range,
                                      F&& f) {
  const EdgeGridCells cells = EdgeGridCellsNear(g, p, range);
  if (!cells.valid || cells.entries > edge_count) {
    for (int k = 0; k < edge_count; ++k) f(k);
    return;
  }
  for (int cy = cells.cy0; cy <= cells.cy1; ++cy) {
    const int end = g.cell_start[cy * g.nx + cells.cx1 + 1];
    for (int e = g.cell_start[cy * g.nx + cells.cx0]; e < end; ++e) f(g.edge_index[e]);
  }
}

}  // namespace throng::orca
