// Navigation fields' types (docs/NAVIGATION.md), shared by the engine and the reference:
// the grid, a target, the parameters, the per-cell costs and a field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/math/vec.cuh"

namespace throng {

// A square-celled grid over the world's ground plane (internal frame). Cell (ix, iy) covers
// [origin + (ix, iy) * cell, origin + (ix + 1, iy + 1) * cell); values sit at its centre.
struct NavGridSpec {
  Vec2 origin{0.f, 0.f};
  float cell = 0.25f;  // m
  int32_t nx = 0, ny = 0;

  size_t cells() const { return static_cast<size_t>(nx) * static_cast<size_t>(ny); }
  size_t Index(int32_t ix, int32_t iy) const {
    return static_cast<size_t>(iy) * static_cast<size_t>(nx) + static_cast<size_t>(ix);
  }
  Vec2 Centre(int32_t ix, int32_t iy) const {
    return {origin.x + (static_cast<float>(ix) + 0.5f) * cell,
            origin.y + (static_cast<float>(iy) + 0.5f) * cell};
  }
};

// Where agents go: one vertex is a point, three or more a polygon (any cell whose centre is
// inside is the target). Internal frame.
struct NavTarget {
  uint32_t id = 0;
  std::vector<Vec2> shape;
};

struct NavFieldParams {
  float cell = 0.25f;      // m, the grid's cell
  float clearance = 0.2f;  // m kept from every obstacle edge: the agents' radius
  // Paths keep off walls: a cell within `wall_comfort` of an edge (beyond the clearance)
  // costs up to 1 + wall_cost per metre instead of 1, falling linearly to 1 at
  // `wall_comfort`, so the shortest path rounds a corner at some distance instead of
  // grazing it.
  float wall_comfort = 1.f;  // m
  float wall_cost = 1.f;
  float margin = 4.f;  // m of open ground around the obstacles and targets
  // Re-routing (docs/NAVIGATION.md, "Re-routing"): a navigating agent that has made no
  // progress for DetectionParams::stall_ticks takes a new route, its target's crowd field:
  // the costs above plus `density_cost` per metre for each person per m^2 around a cell,
  // from the positions of a tick no more than `reroute_every` ticks old. 0: no re-routing.
  float density_cost = 1.f;
  int reroute_every = 50;  // ticks
  // An agent that has its own goal (goal columns) heads along the field turned toward the
  // goal by up to `goal_cone` (docs/NAVIGATION.md, "In a world"): a polygon target's field
  // leads everyone to its nearest point, and the cone lets a group fan out toward their
  // own spots instead of queueing for that one. 0: the field's way only.
  float goal_cone = 0.52f;  // rad (30 degrees)
};

// The grid, which cells agents cannot stand in, and the cost of crossing each other cell
// (per metre, >= 1). Built once per set of obstacles.
struct NavCosts {
  NavGridSpec spec;
  std::vector<uint8_t> blocked;  // 1: within the clearance of an edge, or inside a polygon
  std::vector<float> cost;       // per metre; meaningless where blocked
};

// One target's field as a world keeps it: per cell, the heading that descends the
// cost-weighted distance to the target fastest, in one byte (docs/NAVIGATION.md, "Storage"):
// 0 to kNavHeadings - 1 the angle from the first axis in steps of 360 / kNavHeadings
// degrees, kNavNoHeading where the distance is infinite or flat (at the target itself).
// The distances themselves are marched again when a client asks for them.
constexpr int kNavHeadings = 240;  // 1.5 degree steps: every multiple of 45 degrees exact
constexpr uint8_t kNavNoHeading = 255;
struct NavField {
  NavGridSpec spec;
  std::vector<uint8_t> heading;
};

// One target's distances over the grid (+inf where blocked or cut off), for drawing.
struct NavDistanceGrid {
  NavGridSpec spec;
  std::vector<float> distance;
};

}  // namespace throng
