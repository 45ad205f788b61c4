// The forward-agent scene in a backend's memory, written once for both parallel backends:
// Vector is std::vector (cpu) or a device vector (cuda), and `copy(host, backend_vector)`
// is the backend's upload. The host builds the grids (kernels/spatial/aabb_grid.h); the functor
// (kernels/steering/forward_scene.cuh) reads them through the views.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "kernels/backends/aabb_grid_buffers.cuh"
#include "kernels/spatial/aabb_grid.h"
#include "kernels/steering/forward_scene.cuh"
#include "kernels/steering/forward_scene.h"

namespace throng {

template <template <class...> class Vector>
class ForwardSceneBuffers {
 public:
  // The world's static shapes, indexed with cells of `cell` m.
  template <class Copy>
  void SetStatic(const FanObstacleSet& s, float cell, Copy copy) {
    copy(s.wall_a, wall_a_);
    copy(s.wall_b, wall_b_);
    copy(s.wall_z0, wall_z0_);
    copy(s.wall_z1, wall_z1_);
    copy(s.cap_start, cap_start_);
    copy(s.cap_ring, cap_ring_);
    copy(s.cap_z, cap_z_);
    copy(s.cap_top, cap_top_);
    copy(s.sphere_center, sphere_center_);
    copy(s.sphere_radius, sphere_radius_);
    std::vector<Vec2> lo, hi;
    s.Bounds(&lo, &hi);
    static_grid_.Set(BuildAabbGrid(lo, hi, cell), copy);
    statics_ = {RawOrNull(wall_a_),
                RawOrNull(wall_b_),
                RawOrNull(wall_z0_),
                RawOrNull(wall_z1_),
                static_cast<int32_t>(s.walls()),
                RawOrNull(cap_start_),
                RawOrNull(cap_ring_),
                RawOrNull(cap_z_),
                RawOrNull(cap_top_),
                static_cast<int32_t>(s.caps()),
                RawOrNull(sphere_center_),
                RawOrNull(sphere_radius_),
                static_grid_.view};
  }

  // One tick's agents and bodies; returns the functor that writes into this object's
  // result buffers (Download them with Results()).
  template <class Copy>
  ForwardSceneFunctor Prepare(FanMode mode, float dt, const ForwardSceneAgents& a,
                              const FanBodies& b, Copy copy) {
    copy(b.capsule_p, capsule_p_);
    copy(b.capsule_q, capsule_q_);
    copy(b.capsule_radius, capsule_radius_);
    copy(b.capsule_owner, capsule_owner_);
    copy(b.box_center, box_center_);
    copy(b.box_half, box_half_);
    copy(b.box_yaw, box_yaw_);
    std::vector<Vec2> lo, hi;
    b.Bounds(&lo, &hi);
    body_grid_.Set(BuildAabbGrid(lo, hi, FanGridCell(a)), copy);
    const FanBodiesView bodies{RawOrNull(capsule_p_),
                               RawOrNull(capsule_q_),
                               RawOrNull(capsule_radius_),
                               RawOrNull(capsule_owner_),
                               static_cast<int32_t>(b.capsules()),
                               RawOrNull(box_center_),
                               RawOrNull(box_half_),
                               RawOrNull(box_yaw_),
                               body_grid_.view};
    copy(a.position, position_);
    copy(a.forward, forward_);
    copy(a.goal, goal_);
    copy(a.has_goal, has_goal_);
    copy(a.radius, radius_);
    copy(a.probes, probes_);
    copy(a.fov, fov_);
    copy(a.probe_length, probe_length_);
    copy(a.turn_speed, turn_speed_);
    copy(a.step, step_);
    const size_t n = a.size();
    move_.resize(n);
    probe_.resize(n);
    hit_.resize(n);
    blocked_.resize(n);
    overlapping_.resize(n);
    return {mode == FanMode::kCone,
            dt,
            RawOrNull(position_),
            RawOrNull(forward_),
            RawOrNull(goal_),
            RawOrNull(has_goal_),
            RawOrNull(radius_),
            RawOrNull(probes_),
            RawOrNull(fov_),
            RawOrNull(probe_length_),
            RawOrNull(turn_speed_),
            RawOrNull(step_),
            statics_,
            bodies,
            RawOrNull(move_),
            RawOrNull(probe_),
            RawOrNull(hit_),
            RawOrNull(blocked_),
            RawOrNull(overlapping_)};
  }

  // `download(backend_vector, host)` for each result column.
  template <class Download>
  void Results(ForwardSceneResults* out, Download download) {
    download(move_, out->move);
    download(probe_, out->probe);
    download(hit_, out->hit_distance);
    download(blocked_, out->all_blocked);
    download(overlapping_, out->overlapping);
  }

 private:
  Vector<Vec2> wall_a_, wall_b_, cap_ring_;
  Vector<float> wall_z0_, wall_z1_, cap_z_, sphere_radius_;
  Vector<int32_t> cap_start_;
  Vector<uint8_t> cap_top_;
  Vector<Vec3> sphere_center_;
  AabbGridBuffers<Vector> static_grid_, body_grid_;
  FanStaticView statics_{};
  Vector<Vec3> capsule_p_, capsule_q_, box_center_, box_half_;
  Vector<float> capsule_radius_, box_yaw_;
  Vector<int32_t> capsule_owner_;
  Vector<Vec3> position_, forward_, goal_;
  Vector<uint8_t> has_goal_;
  Vector<float> radius_, fov_, probe_length_, turn_speed_, step_;
  Vector<int32_t> probes_;
  Vector<Vec3> move_;
  Vector<int16_t> probe_;
  Vector<float> hit_;
  Vector<uint8_t> blocked_, overlapping_;
};

}  // namespace throng
