// Forward-moving agents in a world (drones, birds, fish, vehicles off their lanes): the
// cast fan of ALGORITHMS.md §4 against the world's static shapes and every other body,
// in the ground plane or in 3D. Columns in the internal frame (right-handed, Z up), as
// every backend takes them (Backend::SetFanObstacles, Backend::SteerForwardScene).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/spatial/aabb_grid.h"
#include "kernels/steering/forward_batch.h"
#include "kernels/math/vec.cuh"

namespace throng {

enum class FanMode : uint8_t {
  kGround = 0,  // 2D fan in the ground plane at the agent's height; shapes are sliced there
  kCone = 1,    // 3D golden-angle cone
};

// Upright pedestrians and vehicle bodies for the casts (the world has no heights for them).
constexpr float kPedestrianHeight = 1.8f;   // m: a vertical capsule from the feet
constexpr float kVehicleBodyHeight = 1.5f;  // m: a box from the wheels' contact

// The world's static shapes, installed once. Items are numbered walls, then caps, then
// spheres, in that order, which is also the order of the grid's item indices.
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

// This tick's moving bodies: capsules (pedestrians upright, forward agents as spheres with
// p == q) and boxes (vehicle bodies, turned by yaw about Z). Items are capsules then boxes.
struct FanBodies {
  std::vector<Vec3> capsule_p, capsule_q;
  std::vector<float> capsule_radius;
  std::vector<int32_t> capsule_owner;  // the forward agent it is (skipped by its casts), or -1
  std::vector<Vec3> box_center, box_half;
  std::vector<float> box_yaw;

  size_t capsules() const { return capsule_p.size(); }
  size_t boxes() const { return box_center.size(); }
  void Bounds(std::vector<Vec2>* lo, std::vector<Vec2>* hi) const;
};

// One value per forward agent; every column filled (the world applies its defaults).
struct ForwardSceneAgents {
  std::vector<Vec3> position;  // centre, m
  std::vector<Vec3> forward;   // unit (kGround: in the ground plane)
  std::vector<Vec3> goal;      // where has_goal: the fan opens around the way there
  std::vector<uint8_t> has_goal;
  std::vector<float> radius;        // m, > 0
  std::vector<int32_t> probes;      // 1 .. kMaxFanProbes
  std::vector<float> fov;           // rad, half-angle, (0, pi]
  std::vector<float> probe_length;  // m, > 0
  std::vector<float> turn_speed;    // 1/s, >= 0
  std::vector<float> step;          // m the agent moves this tick (speed * dt)

  size_t size() const { return position.size(); }
  void Resize(size_t n);
};

struct ForwardSceneResults {
  std::vector<Vec3> move;            // unit direction to move along this tick
  std::vector<int16_t> probe;        // the chosen probe
  std::vector<float> hit_distance;   // its hit, +inf when free
  std::vector<uint8_t> all_blocked;  // every probe hit: the farthest hit was taken
  std::vector<uint8_t> overlapping;  // the body already overlaps a static shape

  void Resize(size_t n);
};

// The cell of the casts' grids: about one probe reach, so a query covers 3 x 3 cells.
float FanGridCell(const ForwardSceneAgents& agents);

}  // namespace throng
