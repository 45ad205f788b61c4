// What Backend::ReportPedestrians reads and writes: after the ORCA solve, each pedestrian's
// results in the caller's frame, the detectors' flags and memory, and the tick's sums. The
// rule every parallel backend runs: pedestrian_report.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/detection/agent_conditions.h"
#include "kernels/input/column_source.h"
#include "kernels/math/frame.cuh"
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
  // kThisTick: the scene's agent columns (px to flags) are rows [0, count) of the last
  // SolveOrca's agents, its answer (vx to neighbors) rows [0, count) of that solve's
  // results, and vz, goal, has_goal and navigates the last PreparePedestrians' own outputs.
  ColumnSource columns = ColumnSource::kHost;
  // kLastTick: the scene's memory is the memory the kept tick's ReportPedestrians wrote
  // (Backend::KeepPedestrians), row for row (the same agents in the same order).
  ColumnSource memory = ColumnSource::kHost;
  // false: the results (PedestrianReportOutput's vx to flags) stay on the backend, for the
  // move that reads them there; a backend with memory of its own leaves the host's rows as
  // they were (the cpu and the reference write them anyway).
  bool results_to_host = true;
  // false: the memory written stays on the backend, where the next tick's report reads it
  // (kLastTick) and Backend::FetchKeptPedestrians copies it to the host once kept.
  bool memory_to_host = true;
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
  const AgentMemory* memory;  // last tick's, read only
  size_t count;
};

// Per pedestrian, in the caller's frame (AgentResults' columns), and its memory after this
// tick (a non-cooperative agent's starts over). `memory` may be the scene's, updated in
// place. The local columns (pref_v*, constraints) are all null when not wanted.
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

}  // namespace throng
