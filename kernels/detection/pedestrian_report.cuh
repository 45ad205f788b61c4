// What the world reports of each pedestrian after its ORCA solve, as one per-agent pass that
// the parallel backends run (Backend::ReportPedestrians): its results in the caller's
// frame, the detectors' flags with its kept memory updated (agent_conditions.cuh),
// re-routing, and its share of the tick's sums, which a reduction adds up. The types:
// pedestrian_report_types.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/detection/agent_conditions.cuh"
#include "kernels/detection/pedestrian_report_types.h"
#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

struct AddPedestrianSums {
  THRONG_HD PedestrianSums operator()(const PedestrianSums& a, const PedestrianSums& b) const {
    PedestrianSums s = a;
    Accumulate(s, b);
    return s;
  }

  // b added into s field by field: the cpu's reduction (kernels/backends/cpu_policy.h)
  // keeps its running sum in place instead of copying the whole struct each agent.
  THRONG_HD void Accumulate(PedestrianSums& s, const PedestrianSums& b) const {
    s.candidates += b.candidates;
    s.neighbors += b.neighbors;
    s.solved += b.solved;
    for (int k = 0; k < kSolveStatusCount; ++k) s.status_count[k] += b.status_count[k];
    s.jam_steps += b.jam_steps;
    s.constraints_sum += b.constraints_sum;
    s.constraints_max =
        s.constraints_max > b.constraints_max ? s.constraints_max : b.constraints_max;
    s.deviation_sum += b.deviation_sum;
    s.deviation_max = s.deviation_max > b.deviation_max ? s.deviation_max : b.deviation_max;
    s.oscillating += b.oscillating;
    s.stalled += b.stalled;
    s.stall_episodes += b.stall_episodes;
    s.stopped += b.stopped;
    s.reroutes += b.reroutes;
    s.longest_stall_ticks = s.longest_stall_ticks > b.longest_stall_ticks ? s.longest_stall_ticks
                                                                          : b.longest_stall_ticks;
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
    out.vx[i] = v.x;
    out.vy[i] = v.y;
    out.vz[i] = v.z;
    if (out.pref_vx != nullptr) {  // the local columns, when asked for
      const Vec3 pref = params.frame.ToExternal({in.pref_vx[i], in.pref_vy[i], 0.f});
      out.pref_vx[i] = pref.x;
      out.pref_vy[i] = pref.y;
      out.pref_vz[i] = pref.z;
      out.constraints[i] = in.constraints[i];
    }
    out.status[i] = in.status[i];
    out.flags[i] = 0;
    if (in.flags[i] & kAgentNonCooperative) {
      out.memory[i] = AgentMemory{};
      return s;
    }
    AgentMemory memory = in.memory[i];
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
    out.memory[i] = memory;
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
