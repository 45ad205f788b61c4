// Which obstacle edges constrain an agent (docs/ORCA.md, "Obstacles"): the edges it is
// strictly right of within its obstacle range, closest kMaxObstacleLinesLimit by
// (dist_sq, index). Two ways with one result: a scan of every edge, and a query of the
// edge grid (kernels/orca/obstacle_grid.cuh) that visits only the cells near the agent.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/obstacle_grid.cuh"
#include "kernels/orca/orca_types.h"

namespace throng::orca {

// Obstacle vertices as structure of arrays (host or device memory), built once per world
// by BuildObstacleVertices. Vertex k with next[k] is edge k.
struct ObstacleView {
  const Vec2* point = nullptr;
  const Vec2* unit_dir = nullptr;  // unit direction to the successor
  const uint8_t* convex = nullptr;
  const int32_t* next = nullptr;
  const int32_t* prev = nullptr;
  int count = 0;
  EdgeGridView grid = {};  // no grid: edges are scanned
};

namespace detail {

struct EdgeCandidate {
  float dist_sq;
  int index;
};

// Squared distance from c to segment [a, b] (RVO2's distSqPointLineSegment).
THRONG_HD inline float DistSqPointSegment(Vec2 a, Vec2 b, Vec2 c) {
  const float r = Dot(c - a, b - a) / LengthSq(b - a);
  if (r < 0.f) return LengthSq(c - a);
  if (r > 1.f) return LengthSq(c - b);
  return LengthSq(c - (a + r * (b - a)));
}

// The edge's squared distance when p is strictly right of it and within range_sq, else
// -1 (left of or on the edge: its back side; NaN distances fail the range test).
THRONG_HD inline float EdgeDistSqIfFacing(Vec2 p, float range_sq, const ObstacleView& obs, int k) {
  const Vec2 p1 = obs.point[k];
  const Vec2 p2 = obs.point[obs.next[k]];
  if (!(Det(p2 - p1, p - p1) < 0.f)) return -1.f;
  const float dist_sq = DistSqPointSegment(p1, p2, p);
  return dist_sq < range_sq ? dist_sq : -1.f;
}

// Every edge in index order. Indices arrive increasing, so a tie in dist_sq keeps the
// earlier edge first and a full list only takes strictly closer edges: the list is the
// first kMaxObstacleLinesLimit edges by (dist_sq, index). Returns the count.
THRONG_HD inline int SelectObstacleEdgesScan(Vec2 p, float range_sq, const ObstacleView& obstacles,
                                             EdgeCandidate* out) {
  int count = 0;
  for (int k = 0; k < obstacles.count; ++k) {
    const float dist_sq = EdgeDistSqIfFacing(p, range_sq, obstacles, k);
    if (dist_sq < 0.f) continue;
    if (count == kMaxObstacleLinesLimit && !(dist_sq < out[count - 1].dist_sq)) continue;
    int i = count < kMaxObstacleLinesLimit ? count++ : count - 1;
    while (i > 0 && dist_sq < out[i - 1].dist_sq) {
      out[i] = out[i - 1];
      --i;
    }
    out[i] = {dist_sq, k};
  }
  return count;
}

// (d, k) before c in the (dist_sq, index) order.
THRONG_HD inline bool EdgeBefore(float d, int k, const EdgeCandidate& c) {
  return d < c.dist_sq || (d == c.dist_sq && k < c.index);
}

// Inserts (d, k) into the list sorted by (dist_sq, index), kept to the first
// kMaxObstacleLinesLimit, in any arrival order. An edge met again (from another cell)
// has the same d, so it is either still in the list, right before its insertion point,
// and skipped, or was left out or pushed out by kMaxObstacleLinesLimit entries before it,
// which are all still there: either way it changes nothing.
THRONG_HD inline void InsertEdgeCandidate(float d, int k, EdgeCandidate* out, int* count) {
  const int n = *count;
  if (n == kMaxObstacleLinesLimit && !EdgeBefore(d, k, out[n - 1])) return;
  int i = n;
  while (i > 0 && EdgeBefore(d, k, out[i - 1])) --i;
  if (i > 0 && out[i - 1].index == k) return;  // already in the list
  for (int j = n < kMaxObstacleLinesLimit ? n : n - 1; j > i; --j) out[j] = out[j - 1];
  out[i] = {d, k};
  if (n < kMaxObstacleLinesLimit) *count = n + 1;
}

// The grid's cells that overlap the square of side 2 * (range + pad) around p, one
// contiguous run of edge_index per row; the same list as the scan (see EdgeGridCell and
// InsertEdgeCandidate for why). Falls back to the scan when there is no grid, when the
// range is not finite, or when the cells hold more entries than there are edges.
THRONG_HD inline int SelectObstacleEdges(Vec2 p, float range_sq, const ObstacleView& obstacles,
                                         EdgeCandidate* out) {
  const EdgeGridCells cells = EdgeGridCellsNear(obstacles.grid, p, sqrtf(range_sq));
  if (!cells.valid || cells.entries > obstacles.count) {
    return SelectObstacleEdgesScan(p, range_sq, obstacles, out);
  }
  const EdgeGridView& g = obstacles.grid;
  int count = 0;
  for (int cy = cells.cy0; cy <= cells.cy1; ++cy) {
    const int end = g.cell_start[cy * g.nx + cells.cx1 + 1];
    for (int e = g.cell_start[cy * g.nx + cells.cx0]; e < end; ++e) {
      const int k = g.edge_index[e];
      const float dist_sq = EdgeDistSqIfFacing(p, range_sq, obstacles, k);
      if (dist_sq >= 0.f) InsertEdgeCandidate(dist_sq, k, out, &count);
    }
  }
  return count;
}

}  // namespace detail
}  // namespace throng::orca
