// Whole world ticks for throng-bench: one scenario on one backend, or several backends
// side by side on identical inputs, with timings, memory and quality figures.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/scenarios/scenario.h"
#include "kernels/world/world_types.h"

namespace throng::bench {

struct Summary {
  double median = 0, p90 = 0, mean = 0, min = 0, max = 0;
};
Summary Summarise(std::vector<double> samples);

// Over every tick a world ran (warm-up included): quality is not a timing.
struct Quality {
  uint64_t ticks = 0;
  uint64_t agent_overlaps = 0, vehicle_overlaps = 0, agents_in_obstacles = 0;
  uint64_t forward_in_obstacles = 0;                     // forward-agent-ticks
  uint64_t status_count[kSolveStatusCount] = {0, 0, 0};  // ok, safe_stop, emergency
  uint64_t oscillating = 0, stalled = 0;                 // agent-ticks flagged
  size_t agents_with_goals = 0;
  size_t agents_at_goal = 0;  // within kGoalTolerance of their goal after the last tick
};
constexpr float kGoalTolerance = 0.1f;  // m

// Agent i walks to a goal: the snapshot has goals and i is neither scripted
// (non-cooperative) nor moved by its preferred velocity.
inline bool WalksToGoal(const AgentSnapshot& a, size_t i) {
  return a.has_goals() &&
         (a.flags.empty() ||
          !(a.flags[i] & (kSnapshotUsesPreferredVelocity | kSnapshotNonCooperative)));
}

// Agent i stands within kGoalTolerance of its goal (goals in the positions' frame).
inline bool AtGoal(const AgentSnapshot& a, size_t i) {
  const double dx = a.x[i] - a.goal_x[i], dy = a.y[i] - a.goal_y[i];
  const double dz = (a.z.empty() ? 0.f : a.z[i]) - (a.goal_z.empty() ? 0.f : a.goal_z[i]);
  return std::sqrt(dx * dx + dy * dy + dz * dz) <= kGoalTolerance;
}

// How far a backend's outputs are from the first backend's on the same snapshots, over
// the timed ticks. A value counts as differing when it is more than kAgreementTolerance
// away (m/s for velocities, the unit range for steering, throttle and brake).
struct Agreement {
  uint64_t agent_ticks = 0, agent_ticks_differing = 0;
  double velocity_max_abs = 0;  // largest |v - v_first| over agents and ticks, m/s
  uint64_t vehicle_ticks = 0, vehicle_ticks_differing = 0;
  double steering_max_abs = 0, throttle_max_abs = 0, brake_max_abs = 0;
};
constexpr double kAgreementTolerance = 1e-3;

struct RunFigures {
  std::string scenario, backend, mode;  // mode: "single" or "compare"
  size_t size = 0, agents = 0, vehicles = 0, forward = 0;
  uint32_t seed = 0;
  int warmup = 0, ticks = 0;  // ticks: timed ticks actually run
  float dt = 0;
  Summary tick_ms;  // wall clock around World::Step
  std::array<Summary, kStageCount> stage_ms;
  // Per tick: the wall time outside the backend's calls (TickStats::backend_ms), its share
  // of the tick, and the tick over its ORCA solve (TickStats::orca_solve_ms; none when no
  // tick solved). Issue 37's targets: at most 2%, at most 1.25.
  Summary host_only_ms, host_only_share;
  std::optional<Summary> tick_per_orca;
  // Per tick, the time inside each of the backend's calls (TickStats::backend_call_ms):
  // where the tick goes beyond its ORCA solve.
  std::array<Summary, kBackendCallCount> call_ms;
  // Bytes each stage copied between host and backend in a timed tick (the most of any):
  // TickStats::stage_bytes_*, 0 on the cpu backend.
  std::array<uint64_t, kStageCount> stage_bytes_to_backend{}, stage_bytes_to_host{};
  double agents_per_s = 0;  // (agents + vehicles) * ticks / timed seconds
  // (agents + vehicles) / median tick: what a quiet machine sustains, as one slow tick in
  // ten from another process on a shared machine weighs on the figure above
  double agents_per_s_at_median = 0;
  uint64_t peak_host_bytes = 0;
  // cuda only: held above the baseline taken after a warm-up launch (bench/world_run.cpp)
  std::optional<uint64_t> device_bytes;
  // cuda only: what the first launches reserved (modules, per-thread local memory)
  std::optional<uint64_t> device_warmup_bytes;
  Quality quality;
  // compare mode: against the first backend of the list
  std::string against;
  double speedup = 1;  // first backend's median tick / this one's
  std::optional<Agreement> agreement;
  // --repeat: the median tick of every repetition, the kept one included
  std::vector<double> repeat_tick_medians;
};

struct RunOptions {
  int warmup = 5;
  int ticks = 100;
  double budget_s = 0;  // > 0: stop timing after this many seconds (at least 3 ticks)
};

struct Skipped {
  std::string backend, reason;
};

// Runs `scenario` on `backend` with integration: warm-up ticks, then timed ticks, each
// stepping the world's own integrated state. Returns nullopt (and fills `skipped`) when
// the backend is not available here.
std::optional<RunFigures> RunSingle(const scenarios::Scenario& scenario, const std::string& backend,
                                    const RunOptions& options, std::vector<Skipped>* skipped);

// Every available backend steps the same snapshot each tick; the first backend's
// integrated state is the next snapshot for all. Figures per backend, in list order.
std::vector<RunFigures> RunCompare(const scenarios::Scenario& scenario,
                                   const std::vector<std::string>& backends,
                                   const RunOptions& options, std::vector<Skipped>* skipped);

}  // namespace throng::bench
