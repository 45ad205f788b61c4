// The forward-agent scene's shapes as every backend takes them (Backend::SetFanObstacles),
// and its agents, bodies and results as the columns of one tick's fans (the parallel
// backends hold the same columns in their own memory, forward_prepare.cuh; the reference
// holds these): types only, so the reference can read them without the engine's code.
// Internal frame (right-handed, Z up).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/math/vec.cuh"

namespace throng {

enum class FanMode : uint8_t {
  kGround = 0,  // 2D fan in the ground plane at the agent's height; shapes are sliced there
  kCone = 1,    // 3D golden-angle cone
};

// Upright pedestrians and vehicle bodies for the casts (the world has no heights for them).
constexpr float kPedestrianHeight = 1.8f;   // m: a vertical capsule from the feet
constexpr float kVehicleBodyHeight = 1.5f;  // m: a box from the wheels' contact

// The static shapes forward agents meet, as the world describes them (internal frame).
// A polygon stands as walls along its edges (a two-vertex polygon is one wall) at every
// height, or, where its height range is bounded, as a prism from base to top closed by
// its two caps (three vertices or more). Each backend builds what it casts against:
// FanObstacleSet on cpu and cuda (kernels/steering/forward_scene.h), its own faces in
// kernels/reference.
struct FanPolygon {
  std::vector<Vec2> ring;
  bool bounded = false;
  float base = 0.f, top = 0.f;  // m, when bounded
};
struct FanSphere {
  Vec3 center;
  float radius = 1.f;
};
struct FanShapes {
  std::vector<FanPolygon> polygons;
  std::vector<FanSphere> spheres;
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

}  // namespace throng
