// The obstacle edge grid (kernels/orca/obstacle_grid.cuh), built on the host once per world
// when obstacles are set; the cuda backend uploads its two arrays beside the vertices.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/orca/obstacle_grid.cuh"
#include "kernels/orca/obstacles.h"

namespace throng {

// Cell side and caps (docs/ORCA.md, "Obstacle edge grid"): the side is the median edge
// length, so a typical edge lies in one to four cells, but at least large enough that the
// grid has at most kEdgeGridCellsPerEdge cells per edge and kEdgeGridMaxAxisCells columns
// or rows. Memory is then O(edges) for cell_start and, per edge, about (length / side + 1)
// pieces of up to 3 x 3 cells in edge_index.
constexpr int kEdgeGridCellsPerEdge = 4;
constexpr int kEdgeGridMaxAxisCells = 1024;

struct EdgeGrid {
  std::vector<int32_t> cell_start;  // nx * ny + 1; empty when there are no edges
  std::vector<int32_t> edge_index;
  Vec2 origin{0.f, 0.f};
  float cell = 0.f;  // side, m
  int nx = 0, ny = 0;
  float extent = 0.f;

  // Host-memory view; the cuda backend makes its own from device copies.
  orca::EdgeGridView View() const;
};

EdgeGrid BuildEdgeGrid(const ObstacleVertices& vertices);

// Vertices and grid together, as the solve reads them.
inline orca::ObstacleView ViewOf(const ObstacleVertices& vertices, const EdgeGrid& grid) {
  orca::ObstacleView view = ViewOf(vertices);
  view.grid = grid.View();
  return view;
}

}  // namespace throng
