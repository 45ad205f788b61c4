// A world's forward agents made ready for the fan and answered, written once for both
// parallel backends (Backend::PrepareForwardScene, SteerForwardScene; the types:
// forward_prepare_types.h): each agent in the internal frame with the world's defaults, every
// other body of the tick as a capsule or a box with its ground bounds (the bodies' grid
// indexes them), and the fan's answers in the caller's frame with their sums.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/math/column_or.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/steering/forward_prepare_types.h"
#include "kernels/steering/forward_value_rules.h"

namespace throng {

// The fan's agent columns (ForwardSceneAgents' columns).
struct ForwardAgentsOut {
  Vec3* position;
  Vec3* forward;
  Vec3* goal;
  uint8_t* has_goal;
  float* radius;
  int32_t* probes;
  float* fov;
  float* probe_length;
  float* turn_speed;
  float* step;
};

// The scene's bounded float columns in ForwardBoundedColumn order (absent ones null).
THRONG_HD inline void ForwardBoundedColumns(const ForwardPrepareScene& in,
                                            const float* columns[kForwardBoundedColumns]) {
  columns[kForwardX] = in.x;
  columns[kForwardY] = in.y;
  columns[kForwardZ] = in.z;
  columns[kForwardHeadingX] = in.forward_x;
  columns[kForwardHeadingY] = in.forward_y;
  columns[kForwardHeadingZ] = in.forward_z;
  columns[kForwardSpeed] = in.speed;
  columns[kForwardGoalX] = in.goal_x;
  columns[kForwardGoalY] = in.goal_y;
  columns[kForwardGoalZ] = in.goal_z;
}

// Whether row i passes ForwardChecks: its present bounded values within their bounds, its
// present settings valid, its speed at least the floor, its heading one the world's fan
// mode can steer.
THRONG_HD inline bool ForwardRowPasses(const ForwardChecks& checks, const Frame& frame,
                                       FanMode mode, const ForwardPrepareScene& in, size_t i) {
  const float* columns[kForwardBoundedColumns];
  ForwardBoundedColumns(in, columns);
  bool pass = true;
  for (int k = 0; k < kForwardBoundedColumns; ++k) {
    if (columns[k] == nullptr) continue;
    const float v = columns[k][i];
    pass = pass & (v >= checks.bounds[k].min) & (v <= checks.bounds[k].max);
  }
  pass = pass && ForwardSpeedValid(in.speed[i]);
  pass = pass && (in.radius == nullptr || FanRadiusValid(in.radius[i]));
  pass = pass && (in.probes == nullptr || FanProbesValid(in.probes[i]));
  pass = pass && (in.half_angle == nullptr || FanHalfAngleValid(in.half_angle[i]));
  pass = pass && (in.probe_length == nullptr || FanLengthValid(in.probe_length[i]));
  pass = pass && (in.turn_speed == nullptr || FanTurnSpeedValid(in.turn_speed[i]));
  return pass &&
         ForwardHeadingFault(frame, mode == FanMode::kCone, in.forward_x[i], in.forward_y[i],
                             ColumnOr(in.forward_z, i, 0.f)) == HeadingFault::kNone;
}

// Agent i: where it is and where it heads in the internal frame (a ground fan keeps its
// height: its heading loses its vertical part), its goal, its settings or the world's, and
// how far it moves this tick.
struct ForwardAgentPrepareFunctor {
  ForwardPrepareParams params;
  ForwardPrepareScene in;
  ForwardAgentsOut out;

  // Prepares row i and answers 0, or answers 1 where params.checks refuse it and writes
  // nothing for it (the world rejects the tick).
  THRONG_HD uint32_t operator()(size_t i) const {
    if (params.checks.on &&
        !ForwardRowPasses(params.checks, params.frame, params.defaults.mode, in, i)) {
      return 1u;
    }
    Prepare(i);
    return 0u;
  }

  THRONG_HD void Prepare(size_t i) const {
    const Frame frame = params.frame;
    const ForwardDefaults& d = params.defaults;
    out.position[i] = frame.ToInternal({in.x[i], in.y[i], ColumnOr(in.z, i, 0.f)});
    Vec3 heading =
        frame.ToInternal({in.forward_x[i], in.forward_y[i], ColumnOr(in.forward_z, i, 0.f)});
    if (d.mode == FanMode::kGround) heading.z = 0.f;
    out.forward[i] = Normalize(heading);
    const bool has_goal = in.goal_x != nullptr;
    out.has_goal[i] = has_goal ? 1 : 0;
    out.goal[i] = has_goal
                      ? frame.ToInternal({in.goal_x[i], in.goal_y[i], ColumnOr(in.goal_z, i, 0.f)})
                      : Vec3{};
    out.radius[i] = ColumnOr(in.radius, i, d.radius);
    out.probes[i] = in.probes != nullptr ? static_cast<int32_t>(in.probes[i]) : d.probes;
    out.fov[i] = ColumnOr(in.half_angle, i, d.half_angle);
    out.probe_length[i] = ColumnOr(in.probe_length, i, d.probe_length);
    out.turn_speed[i] = ColumnOr(in.turn_speed, i, d.turn_speed);
    out.step[i] = in.speed[i] * params.dt;
  }
};

// The bodies' columns (FanBodies' columns), and each item's ground bounds: capsules first,
// then boxes.
struct FanBodiesOut {
  Vec3* capsule_p;
  Vec3* capsule_q;
  float* capsule_radius;
  int32_t* capsule_owner;
  Vec3* box_center;
  Vec3* box_half;
  float* box_yaw;
  Vec2* lo;
  Vec2* hi;
};

// Capsule k: pedestrian k upright from its feet (k < pedestrians), else forward agent
// k - pedestrians as a sphere, which its own casts skip.
struct FanCapsuleFunctor {
  ForwardPrepareScene in;  // the pedestrians' columns
  const Vec3* agent_position;
  const float* agent_radius;
  FanBodiesOut out;

  THRONG_HD void operator()(size_t k) const {
    Vec3 p, q;
    float r;
    int32_t owner = -1;
    if (k < in.pedestrians) {
      r = in.pedestrian_radius[k];
      const float x = in.pedestrian_x[k], y = in.pedestrian_y[k], z = in.pedestrian_z[k];
      p = {x, y, z + r};
      q = {x, y, z + MaxF(kPedestrianHeight - r, r)};
    } else {
      const size_t i = k - in.pedestrians;
      p = q = agent_position[i];
      r = agent_radius[i];
      owner = static_cast<int32_t>(i);
    }
    out.capsule_p[k] = p;
    out.capsule_q[k] = q;
    out.capsule_radius[k] = r;
    out.capsule_owner[k] = owner;
    out.lo[k] = {MinF(p.x, q.x) - r, MinF(p.y, q.y) - r};
    out.hi[k] = {MaxF(p.x, q.x) + r, MaxF(p.y, q.y) + r};
  }
};

// Box b: vehicle b's body standing on its wheels, bounded by its footprint's circle (the
// same at any yaw); its bounds follow the capsules'.
struct FanBoxFunctor {
  ForwardPrepareScene in;  // the vehicles' columns
  size_t capsules;
  FanBodiesOut out;

  THRONG_HD void operator()(size_t b) const {
    const VehicleBody body = in.vehicle_bodies[b];
    const Vec2 c = body.centre();
    const float half_height = 0.5f * kVehicleBodyHeight;
    const Vec3 half{0.5f * body.length, 0.5f * body.width, half_height};
    out.box_center[b] = {c.x, c.y, in.vehicle_z[b] + half_height};
    out.box_half[b] = half;
    out.box_yaw[b] = atan2f(body.heading.y, body.heading.x);
    const float r = hypotf(half.x, half.y);
    out.lo[capsules + b] = {c.x - r, c.y - r};
    out.hi[capsules + b] = {c.x + r, c.y + r};
  }
};

// Agent i's answer in the caller's frame (written where `out` has columns: a backend that
// keeps them leaves `out`'s pointers null until the host asks), and its share of the sums.
struct ForwardAnswerFunctor {
  Frame frame;
  const Vec3* move;
  const int16_t* probe;
  const float* hit;
  const uint8_t* blocked;
  const uint8_t* overlapping;
  ForwardSteerOutput out;

  THRONG_HD ForwardSums operator()(size_t i) const {
    if (out.move_x != nullptr) {
      const Vec3 m = frame.ToExternal(move[i]);
      out.move_x[i] = m.x;
      out.move_y[i] = m.y;
      out.move_z[i] = m.z;
      out.probe[i] = static_cast<uint16_t>(probe[i]);
      out.hit_distance[i] = hit[i];
      out.all_blocked[i] = blocked[i];
    }
    return {blocked[i], overlapping[i]};
  }
};

struct AddForwardSums {
  THRONG_HD ForwardSums operator()(const ForwardSums& a, const ForwardSums& b) const {
    return {a.blocked + b.blocked, a.in_obstacles + b.in_obstacles};
  }
};

}  // namespace throng
