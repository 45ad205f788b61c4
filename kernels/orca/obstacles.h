// Obstacle polygons turned into RVO2's vertex records (RVOSimulator::addObstacle), once
// per world, as structure of arrays that the per-agent solve reads through ObstacleView.
// Host only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/orca/obstacle_select.cuh"  // ObstacleView
#include "kernels/orca/orca_types.h"
#include "kernels/math/vec.cuh"

namespace throng {

// One entry per vertex, polygons in input order, vertices in input order; vertex k and
// next[k] form edge k. Indices are global over all polygons.
struct ObstacleVertices {
  std::vector<Vec2> point;
  std::vector<Vec2> unit_dir;   // unit direction to the successor
  std::vector<uint8_t> convex;  // 1 for two-vertex walls, else leftOf(prev, cur, next) >= 0
  std::vector<int32_t> next;
  std::vector<int32_t> prev;

  size_t size() const { return point.size(); }
};

// Validates and converts. Throws std::invalid_argument naming the offending index, e.g.
// "obstacles[3].vertices[2]: zero-length edge to the next vertex", for a polygon with
// fewer than 2 vertices, a non-finite coordinate or a zero-length edge.
ObstacleVertices BuildObstacleVertices(const std::vector<Polygon>& polygons);

// Host-memory view without an edge grid (the solve scans every edge; obstacle_grid.h adds
// one); valid while `vertices` lives and is not resized.
inline orca::ObstacleView ViewOf(const ObstacleVertices& vertices) {
  return {vertices.point.data(),
          vertices.unit_dir.data(),
          vertices.convex.data(),
          vertices.next.data(),
          vertices.prev.data(),
          static_cast<int>(vertices.size()),
          /*grid=*/{}};
}

// Every edge as a segment (two points per edge), for casts. A two-vertex wall yields its
// segment twice (once per direction), which a cast does not mind.
inline std::vector<Vec2> EdgeSegments(const ObstacleVertices& vertices) {
  std::vector<Vec2> segments;
  segments.reserve(2 * vertices.size());
  for (size_t k = 0; k < vertices.size(); ++k) {
    segments.push_back(vertices.point[k]);
    segments.push_back(vertices.point[static_cast<size_t>(vertices.next[k])]);
  }
  return segments;
}

}  // namespace throng
