// The pedestrians' report, one agent after another, written from the definitions (the
// frames of docs/ALGORITHMS.md §6, the detectors of §5, re-routing in docs/NAVIGATION.md,
// the sums of PedestrianSums), not from the engine's per-agent rule
// (kernels/detection/pedestrian_report.cuh). The detectors are defined on the float
// velocities a solve returns, so this works in float too, and its flags, memory and sums
// can be held to the parallel backends' bit for bit.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/reference/frame_ref.h"
#include "kernels/reference/reference_backend.h"

namespace throng::reference {
namespace {

struct F2 {
  float x, y;
};

float Norm(F2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }

// The detectors' update of one agent's memory; returns its condition bits.
uint8_t Detect(const DetectionParams& d, F2 pref, F2 chosen, bool has_goal, F2 goal,
               float goal_distance, float dt, AgentMemory& m) {
  uint8_t bits = 0;
  // Oscillation: the side of the preferred velocity the chosen one lies on, and how often
  // it changed within the window.
  const float pref_speed = Norm(pref);
  int side = 0;
  if (pref_speed > 1e-6f) {
    const float lateral = (pref.y * chosen.x - pref.x * chosen.y) / pref_speed;
    side =
        lateral > d.oscillation_min_lateral ? 1 : (lateral < -d.oscillation_min_lateral ? -1 : 0);
  }
  const bool changed = side != 0 && m.last_side != 0 && side != m.last_side;
  if (side != 0) m.last_side = static_cast<int8_t>(side);
  m.flip_history = (m.flip_history << 1) | (changed ? 1u : 0u);
  const uint32_t window =
      d.oscillation_window >= 32 ? 0xffffffffu : (1u << d.oscillation_window) - 1u;
  if (std::popcount(m.flip_history & window) >= d.oscillation_flips) bits |= kAgentOscillating;

  // Stopped: it wants to move (not home, a preferred speed above stop_speed) and was
  // given less than stop_speed.
  const bool home = has_goal && goal_distance <= d.goal_tolerance;
  const bool wants = !home && pref_speed > d.stop_speed;
  if (wants && Norm(chosen) < d.stop_speed) bits |= kAgentStopped;

  // Stalled: stall_ticks in a row without stall_min_progress of progress, toward the goal
  // (the best distance so far) or, without one, along the preferred direction.
  if (has_goal) {
    const bool same_goal = m.goal.x == goal.x && m.goal.y == goal.y;
    if (!same_goal) {
      m.goal = {goal.x, goal.y};
      m.progress_ref = goal_distance;
      m.ticks_without_progress = 0;
    } else if (goal_distance <= m.progress_ref - d.stall_min_progress) {
      m.progress_ref = goal_distance;
      m.ticks_without_progress = 0;
    } else if (wants) {
      m.ticks_without_progress += 1;
    } else {
      m.ticks_without_progress = 0;
    }
  } else {
    m.goal = {std::numeric_limits<float>::quiet_NaN(), 0.f};
    if (!wants) {
      m.progress_ref = 0.f;
      m.ticks_without_progress = 0;
    } else {
      if (!std::isfinite(m.progress_ref)) m.progress_ref = 0.f;
      const float along = (chosen.x * pref.x + chosen.y * pref.y) / pref_speed;
      m.progress_ref += (along > 0.f ? along : 0.f) * dt;
      if (m.progress_ref >= d.stall_min_progress) {
        m.progress_ref = 0.f;
        m.ticks_without_progress = 0;
      } else {
        m.ticks_without_progress += 1;
      }
    }
  }
  if (m.ticks_without_progress >= d.stall_ticks) bits |= kAgentStalled;
  return bits;
}

}  // namespace

PedestrianSums ReferenceBackend::ReportPedestrians(const PedestrianReportParams& params,
                                                   const PedestrianReportScene& scene,
                                                   const PedestrianReportOutput& out) {
  PedestrianSums sums;
  for (size_t i = 0; i < scene.count; ++i) {
    sums.candidates += scene.candidates[i];
    sums.neighbors += scene.neighbors[i];
    float v[3];
    ToCaller(params.frame, scene.vx[i], scene.vy[i], scene.vz[i], v);
    out.vx[i] = v[0];
    out.vy[i] = v[1];
    out.vz[i] = v[2];
    if (out.pref_vx != nullptr) {
      float pref[3];
      ToCaller(params.frame, scene.pref_vx[i], scene.pref_vy[i], 0.f, pref);
      out.pref_vx[i] = pref[0];
      out.pref_vy[i] = pref[1];
      out.pref_vz[i] = pref[2];
      out.constraints[i] = scene.constraints[i];
    }
    out.status[i] = scene.status[i];
    out.flags[i] = 0;
    if (scene.flags[i] & kAgentNonCooperative) {  // not solved: its memory starts over
      out.memory[i] = AgentMemory{};
      continue;
    }
    const F2 p{scene.px[i], scene.py[i]};
    const F2 wanted{scene.pref_vx[i], scene.pref_vy[i]};
    const F2 chosen{scene.vx[i], scene.vy[i]};
    const F2 goal{scene.goal[i].x, scene.goal[i].y};
    const float goal_distance = Norm({goal.x - p.x, goal.y - p.y});
    AgentMemory memory = scene.memory[i];
    uint8_t bits = Detect(params.detection, wanted, chosen, scene.has_goal[i] != 0, goal,
                          goal_distance, params.dt, memory);
    // Re-routing: a navigating agent takes a new route at each whole stall_ticks without
    // progress.
    const int stall = params.detection.stall_ticks;
    if (params.reroute && scene.navigates[i] && memory.ticks_without_progress > 0 &&
        memory.ticks_without_progress % stall == 0) {
      if (memory.route != std::numeric_limits<uint32_t>::max()) memory.route += 1;
      bits |= kAgentRerouted;
    }
    out.memory[i] = memory;
    out.flags[i] = bits;

    sums.solved += 1;
    sums.status_count[scene.status[i]] += 1;
    if (scene.solve_flags[i] & kSolveJamStep) sums.jam_steps += 1;
    sums.constraints_sum += scene.constraints[i];
    if (scene.constraints[i] > sums.constraints_max) sums.constraints_max = scene.constraints[i];
    const float deviation = Norm({chosen.x - wanted.x, chosen.y - wanted.y});
    sums.deviation_sum += static_cast<uint64_t>(deviation * kDeviationUnits);
    if (deviation > sums.deviation_max) sums.deviation_max = deviation;
    if (bits & kAgentOscillating) sums.oscillating += 1;
    if (bits & kAgentStopped) sums.stopped += 1;
    if (bits & kAgentRerouted) sums.reroutes += 1;
    if (bits & kAgentStalled) {
      sums.stalled += 1;
      const auto waited = static_cast<uint64_t>(memory.ticks_without_progress);
      if (waited == static_cast<uint64_t>(stall)) sums.stall_episodes += 1;
      if (waited > sums.longest_stall_ticks) sums.longest_stall_ticks = waited;
    }
  }
  return sums;
}

}  // namespace throng::reference
