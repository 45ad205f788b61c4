// Oscillation and stall detection (docs/ALGORITHMS.md §5, "Deadlock and oscillation"): one
// agent's update of what the world remembers of it, and the conditions it flags, as every
// parallel backend runs it (__host__ __device__). The types: agent_conditions.h.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/detection/agent_conditions.h"
#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

// What one agent did this tick, for detection.
struct AgentMotion {
  Vec2 pref, chosen;  // preferred and chosen velocity, m/s
  bool has_goal;
  Vec2 goal;
  float goal_distance;  // from the tick's start position
};

// Set bits of x (a library call on baseline x86-64 without popcnt; the device has its own).
THRONG_HD inline int BitCount(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return static_cast<int>((x * 0x01010101u) >> 24);
#endif
}

// The side of the preferred velocity the chosen one lies on: 1 right (clockwise), -1 left,
// 0 within min_lateral of it or with no preferred direction.
THRONG_HD inline int SideOf(Vec2 pref, Vec2 chosen, float min_lateral) {
  const float pref_len = Length(pref);
  if (pref_len <= 1e-6f) return 0;
  const float lateral = (pref.y * chosen.x - pref.x * chosen.y) / pref_len;
  if (lateral > min_lateral) return 1;
  if (lateral < -min_lateral) return -1;
  return 0;
}

// Updates `m` with this tick and returns the agent's AgentCondition bits.
THRONG_HD inline uint8_t DetectConditions(AgentMemory& m, const DetectionParams& d,
                                          const AgentMotion& a, float dt) {
  uint8_t conditions = 0;

  const int side = SideOf(a.pref, a.chosen, d.oscillation_min_lateral);
  const bool flip = side != 0 && m.last_side != 0 && side != m.last_side;
  if (side != 0) m.last_side = static_cast<int8_t>(side);
  m.flip_history = (m.flip_history << 1) | (flip ? 1u : 0u);
  const uint32_t window = d.oscillation_window >= 32 ? ~0u : (1u << d.oscillation_window) - 1u;
  if (BitCount(m.flip_history & window) >= d.oscillation_flips) conditions |= kAgentOscillating;

  const float pref_speed = Length(a.pref);
  const bool home = a.has_goal && a.goal_distance <= d.goal_tolerance;
  const bool wants_to_move = !home && pref_speed > d.stop_speed;
  if (wants_to_move && Length(a.chosen) < d.stop_speed) conditions |= kAgentStopped;

  if (a.has_goal) {
    if (!(m.goal == a.goal)) {  // a new goal: progress starts over
      m.goal = a.goal;
      m.progress_ref = a.goal_distance;
      m.ticks_without_progress = 0;
    } else if (a.goal_distance <= m.progress_ref - d.stall_min_progress) {
      m.progress_ref = a.goal_distance;
      m.ticks_without_progress = 0;
    } else if (wants_to_move) {
      ++m.ticks_without_progress;
    } else {
      m.ticks_without_progress = 0;
    }
  } else {
    m.goal = Vec2{NAN, 0.f};
    if (!wants_to_move) {
      m.progress_ref = 0.f;
      m.ticks_without_progress = 0;
    } else {
      if (!(fabsf(m.progress_ref) < INFINITY)) m.progress_ref = 0.f;  // not finite
      const float along = Dot(a.chosen, a.pref) / pref_speed;
      m.progress_ref += (along > 0.f ? along : 0.f) * dt;
      if (m.progress_ref >= d.stall_min_progress) {
        m.progress_ref = 0.f;
        m.ticks_without_progress = 0;
      } else {
        ++m.ticks_without_progress;
      }
    }
  }
  if (m.ticks_without_progress >= d.stall_ticks) conditions |= kAgentStalled;
  return conditions;
}

}  // namespace throng
