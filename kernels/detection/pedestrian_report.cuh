// What the world reports of each pedestrian after its ORCA solve, as one per-agent pass that
// every backend runs (Backend::ReportPedestrians): its results in the caller's frame, the
// detectors' flags with its kept memory updated (agent_conditions.cuh), re-routing, and
// its share of the tick's sums, which a reduction adds up.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/detection/agent_conditions.cuh"
#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/orca_types.h"

namespace throng {

struct PedestrianReportParams {
  Frame frame;  // the caller's
  DetectionParams detection;
  float dt = 0.f;
  // Navigation re-routes agents (navigation.reroute_every > 0): each stall_ticks without
  // progress, a navigating agent takes a new route (docs/NAVIGATION.md, "Re-routing").
  bool reroute = false;
};

// The first `count` agents of an ORCA solve, the pedestrians (vehicle discs follow them in
// its columns and are not read), in the internal frame; the caller's memory.
struct PedestrianReportScene {
  // The solve's agents (AgentColumns)
  const float* px;
  const float* py;
  const float* pref_vx;
  const float* pref_vy;
  const uint8_t* flags;  // AgentFlag bits: non-cooperative agents are not solved
  // Its answer (OrcaResult)
  const float* vx;
  const float* vy;
  const uint8_t* status;
  const uint16_t* constraints;
  const uint8_t* solve_flags;
  const uint16_t* candidates;
  const uint16_t* neighbors;
  // The world's, per pedestrian
  const float* vz;   // vertical speed, kept as the snapshot gave it
  const Vec2* goal;  // where progress is measured to, where has_goal
  const uint8_t* has_goal;
  const uint8_t* navigates;  // its behaviour is BEHAVIOR_NAVIGATE
  size_t count;
};

// Per pedestrian, in the caller's frame (AgentResults' columns), and the kept memory,
// updated in place (a non-cooperative agent's starts over).
struct PedestrianReportOutput {
  float* vx;
  float* vy;
  float* vz;
  float* pref_vx;
  float* pref_vy;
  float* pref_vz;
  uint8_t* status;
  uint16_t* constraints;
  uint8_t* flags;  // AgentCondition bits
  AgentMemory* memory;
};

// The tick's sums over the pedestrians (TickStats): integers only, so that any order of
// adding them up gives the same bits on every backend and thread count. The velocity
// deviation is summed in units of 2^-20 m/s (kDeviationUnits a m/s).
struct PedestrianSums {
  uint64_t candidates = 0, neighbors = 0;  // every pedestrian
  uint64_t solved = 0;                     // the cooperative ones; the rest only theirs
  uint64_t status_count[kSolveStatusCount] = {0, 0, 0};
  uint64_t jam_steps = 0;
  uint64_t constraints_sum = 0;
  uint32_t constraints_max = 0;
  uint64_t deviation_sum = 0;  // 2^-20 m/s
  float deviation_max = 0.f;   // m/s
  uint64_t oscillating = 0, stalled = 0, stall_episodes = 0, stopped = 0, reroutes = 0;
  uint64_t longest_stall_ticks = 0;
};

constexpr float kDeviationUnits = 1048576.f;  // PedestrianSums::deviation_sum a m/s

struct AddPedestrianSums {
  THRONG_HD PedestrianSums operator()(const PedestrianSums& a, const PedestrianSums& b) const {
    PedestrianSums s;
    s.candidates = a.candidates + b.candidates;
    s.neighbors = a.neighbors + b.neighbors;
    s.solved = a.solved + b.solved;
    for (int k = 0; k < kSolveStatusCount; ++k) {
      s.status_count[k] = a.status_count[k] + b.status_count[k];
    }
    s.jam_steps = a.jam_steps + b.jam_steps;
    s.constraints_sum = a.constraints_sum + b.constraints_sum;
    s.constraints_max =
        a.constraints_max > b.constraints_max ? a.constraints_max : b.constraints_max;
    s.deviation_sum = a.deviation_sum + b.deviation_sum;
    s.deviation_max = a.deviation_max > b.deviation_max ? a.deviation_max : b.deviation_max;
    s.oscillating = a.oscillating + b.oscillating;
    s.stalled = a.stalled + b.stalled;
    s.stall_episodes = a.stall_episodes + b.stall_episodes;
    s.stopped = a.stopped + b.stopped;
    s.reroutes = a.reroutes + b.reroutes;
    s.longest_stall_ticks = a.longest_stall_ticks > b.longest_stall_ticks ? a.longest_stall_ticks
                                                                          : b.longest_stall_ticks;
    return s;
  }
};

// Pedestrian i's results, flags and memory; returns its share of the sums.
struct PedestrianReportFunctor {
  PedestrianReportParams params;
  PedestrianReportScene in;
  PedestrianReportOutput out;

  THRONG_HD PedestrianSums operator()(size_t i) const {
    PedestrianSums s;
    s.candidates = in.candidates[i];
    s.neighbors = in.neighbors[i];
    const Vec3 v = params.frame.ToExternal({in.vx[i], in.vy[i], in.vz[i]});
    const Vec3 pref = params.frame.ToExternal({in.pref_vx[i], in.pref_vy[i], 0.f});
    out.vx[i] = v.x;
    out.vy[i] = v.y;
    out.vz[i] = v.z;
    out.pref_vx[i] = pref.x;
    out.pref_vy[i] = pref.y;
    out.pref_vz[i] = pref.z;
    out.status[i] = in.status[i];
    out.constraints[i] = in.constraints[i];
    out.flags[i] = 0;
    AgentMemory& memory = out.memory[i];
    if (in.flags[i] & kAgentNonCooperative) {
      memory = AgentMemory{};
      return s;
    }
    AgentMotion motion;
    motion.pref = {in.pref_vx[i], in.pref_vy[i]};
    motion.chosen = {in.vx[i], in.vy[i]};
    motion.has_goal = in.has_goal[i] != 0;
    motion.goal = in.goal[i];
    motion.goal_distance = Length(in.goal[i] - Vec2{in.px[i], in.py[i]});
    uint8_t flags = DetectConditions(memory, params.detection, motion, params.dt);
    const int stall = params.detection.stall_ticks;
    if (params.reroute && in.navigates[i] && memory.ticks_without_progress > 0 &&
        memory.ticks_without_progress % stall == 0) {
      if (memory.route < UINT32_MAX) ++memory.route;
      flags |= kAgentRerouted;
    }
    out.flags[i] = flags;

    s.solved = 1;
    s.status_count[in.status[i]] = 1;  // a SolveStatus, < kSolveStatusCount
    s.jam_steps = (in.solve_flags[i] & kSolveJamStep) ? 1 : 0;
    s.constraints_sum = in.constraints[i];
    s.constraints_max = in.constraints[i];
    const float deviation = Length(motion.chosen - motion.pref);
    // Scaled by a power of two, exactly; the fraction of a unit is dropped.
    s.deviation_sum = static_cast<uint64_t>(deviation * kDeviationUnits);
    s.deviation_max = deviation;
    s.oscillating = (flags & kAgentOscillating) ? 1 : 0;
    s.stopped = (flags & kAgentStopped) ? 1 : 0;
    s.reroutes = (flags & kAgentRerouted) ? 1 : 0;
    if (flags & kAgentStalled) {
      s.stalled = 1;
      // The counter grows by one a tick, so it equals stall_ticks on a stall's first tick.
      const auto waited = static_cast<uint64_t>(memory.ticks_without_progress);
      s.stall_episodes = waited == static_cast<uint64_t>(stall) ? 1 : 0;
      s.longest_stall_ticks = waited;
    }
    return s;
  }
};

}  // namespace throng
