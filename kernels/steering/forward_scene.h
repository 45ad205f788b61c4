// Forward-moving agents in a world (drones, birds, fish, vehicles off their lanes): the
// cast fan of docs/ALGORITHMS.md §4 against the world's static shapes and every other body,
// in the ground plane or in 3D. Columns in the internal frame (right-handed, Z up), as
// every backend takes them (Backend::SetFanObstacles, Backend::SteerForwardScene).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/math/vec.cuh"
#include "kernels/spatial/aabb_grid.h"
#include "kernels/steering/forward_batch.h"
#include "kernels/steering/forward_scene_types.h"

namespace throng {

// The static shapes as the parallel backends cast against them: every wall, cap and
// sphere an item. Items are numbered walls, then caps, then spheres, in that order, which
// is also the order of the grid's item indices.
struct FanObstacleSet {
  // Obstacle edges standing vertically between z0 and z1; both infinite when the polygon
  // has no height range (a wall at every height).
  std::vector<Vec2> wall_a, wall_b;
  std::vector<float> wall_z0, wall_z1;
  // Faces of prisms (polygons of 3 or more vertices with a height range): the ring of
  // cap k is cap_ring[cap_start[k] .. cap_start[k + 1]), at height cap_z[k], the top face
  // when cap_top[k].
  std::vector<int32_t> cap_start{0};
  std::vector<Vec2> cap_ring;
  std::vector<float> cap_z;
  std::vector<uint8_t> cap_top;
  std::vector<Vec3> sphere_center;
  std::vector<float> sphere_radius;

  size_t walls() const { return wall_a.size(); }
  size_t caps() const { return cap_z.size(); }
  size_t spheres() const { return sphere_center.size(); }
  size_t items() const { return walls() + caps() + spheres(); }
  // Ground-plane bounds of every item, in item order (for the grid).
  void Bounds(std::vector<Vec2>* lo, std::vector<Vec2>* hi) const;
};

// The walls, caps and spheres of the world's shapes (FanShapes' rules).
FanObstacleSet BuildFanObstacleSet(const FanShapes& shapes);

// The cell of the bodies' grid: about one probe reach (each agent's probe length plus its
// radius, `reach`), so a query covers 3 x 3 cells.
float FanGridCell(std::vector<float> reach);

}  // namespace throng
