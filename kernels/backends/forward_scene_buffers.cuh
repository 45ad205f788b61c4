// The forward-agent scene in a backend's memory, written once for both parallel backends:
// Vector is std::vector (cpu) or a device vector (cuda), and `copy(host, backend_vector)`
// is the backend's upload. The host builds the static shapes' grid once
// (kernels/spatial/aabb_grid.h); each tick's agents, bodies and bodies' grid are made here
// (aabb_grid_build.cuh); the functor (kernels/steering/forward_scene.cuh) reads them through
// the views.
#pragma once

#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "kernels/backends/aabb_grid_buffers.cuh"
#include "kernels/backends/aabb_grid_build.cuh"  // AabbGridScratch
#include "kernels/backends/prepare_rows.cuh"
#include "kernels/spatial/aabb_grid.h"
#include "kernels/steering/forward_prepare.cuh"
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

  // This tick's agents and the bodies they meet, made here from `in` (backend memory:
  // forward_prepare.cuh) and indexed in the bodies' grid by `build_grid(lo, hi, cell, grid,
  // scratch)` (the bodies' bounds, in this object's memory: the host's BuildAabbGrid on the
  // cpu, BuildAabbGridOn on a device, which makes the same grid); the last preparation's
  // are what Functor() and the move read. Answers how many rows params.checks refused;
  // where any is, nothing is prepared (no fan runs until a preparation passes).
  template <class Policy, class BuildGrid>
  uint64_t Prepare(const Policy& policy, const ForwardPrepareParams& params,
                   const ForwardPrepareScene& in, BuildGrid build_grid) {
    const size_t n = in.count, capsules = in.pedestrians + n, boxes = in.vehicles;
    for (auto* c : {&position_, &forward_, &goal_}) c->resize(n);
    has_goal_.resize(n);
    for (auto* c : {&radius_, &fov_, &probe_length_, &turn_speed_, &step_}) c->resize(n);
    probes_.resize(n);
    capsule_p_.resize(capsules);
    capsule_q_.resize(capsules);
    capsule_radius_.resize(capsules);
    capsule_owner_.resize(capsules);
    box_center_.resize(boxes);
    box_half_.resize(boxes);
    box_yaw_.resize(boxes);
    lo_.resize(capsules + boxes);
    hi_.resize(capsules + boxes);
    const thrust::counting_iterator<size_t> first(0);
    const ForwardAgentPrepareFunctor prepare{
        params,
        in,
        {RawOrNull(position_), RawOrNull(forward_), RawOrNull(goal_), RawOrNull(has_goal_),
         RawOrNull(radius_), RawOrNull(probes_), RawOrNull(fov_), RawOrNull(probe_length_),
         RawOrNull(turn_speed_), RawOrNull(step_)}};
    const uint64_t refused = PrepareRows(policy, n, prepare, params.checks.on);
    if (refused > 0) {
      prepared_ = 0;
      return refused;
    }
    const FanBodiesOut bodies{
        RawOrNull(capsule_p_),     RawOrNull(capsule_q_),  RawOrNull(capsule_radius_),
        RawOrNull(capsule_owner_), RawOrNull(box_center_), RawOrNull(box_half_),
        RawOrNull(box_yaw_),       RawOrNull(lo_),         RawOrNull(hi_)};
    thrust::for_each_n(policy, first, capsules,
                       FanCapsuleFunctor{in, RawOrNull(position_), RawOrNull(radius_), bodies});
    thrust::for_each_n(policy, first, boxes, FanBoxFunctor{in, capsules, bodies});
    build_grid(lo_, hi_, params.cell, &body_grid_, scratch_);
    move_.resize(n);
    probe_.resize(n);
    hit_.resize(n);
    blocked_.resize(n);
    overlapping_.resize(n);
    const FanBodiesView bodies_view{RawOrNull(capsule_p_),
                                    RawOrNull(capsule_q_),
                                    RawOrNull(capsule_radius_),
                                    RawOrNull(capsule_owner_),
                                    static_cast<int32_t>(capsules),
                                    RawOrNull(box_center_),
                                    RawOrNull(box_half_),
                                    RawOrNull(box_yaw_),
                                    body_grid_.view};
    functor_ = {params.defaults.mode == FanMode::kCone,
                params.dt,
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
                bodies_view,
                RawOrNull(move_),
                RawOrNull(probe_),
                RawOrNull(hit_),
                RawOrNull(blocked_),
                RawOrNull(overlapping_)};
    prepared_ = n;
    return 0;
  }

  // The fan over the last prepared agents (one thread per agent); the answers stay here.
  const ForwardSceneFunctor& Functor() const { return functor_; }
  size_t prepared() const { return prepared_; }

  // The last fan's answers in the caller's frame, written to `out` where its columns are
  // not null, and their sums.
  template <class Policy>
  ForwardSums Answer(const Policy& policy, const Frame& frame,
                     const ForwardSteerOutput& out) const {
    const thrust::counting_iterator<size_t> first(0);
    return thrust::transform_reduce(
        policy, first, first + prepared_,
        ForwardAnswerFunctor{frame, RawOrNull(move_), RawOrNull(probe_), RawOrNull(hit_),
                             RawOrNull(blocked_), RawOrNull(overlapping_), out},
        ForwardSums{}, AddForwardSums{});
  }

  // What the move reads: where each agent is, how far it moves and the fan's direction.
  const Vec3* positions() const { return RawOrNull(position_); }
  const float* steps() const { return RawOrNull(step_); }
  const Vec3* moves() const { return RawOrNull(move_); }

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
  Vector<Vec2> lo_, hi_;  // each body's ground bounds, for its grid
  AabbGridScratch<Vector> scratch_;
  ForwardSceneFunctor functor_{};
  size_t prepared_ = 0;
  Vector<Vec3> move_;
  Vector<int16_t> probe_;
  Vector<float> hit_;
  Vector<uint8_t> blocked_, overlapping_;
};

}  // namespace throng
