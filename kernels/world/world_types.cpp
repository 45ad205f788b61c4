#include "kernels/world/world_types.h"

#include <algorithm>

#include "kernels/steering/pedestrian_prepare.cuh"

namespace throng {

std::string_view StageName(Stage stage) {
  static constexpr std::string_view kNames[kStageCount] = {
      "validate", "upload",    "grid",  "preferred", "candidates", "orca",
      "vehicles", "integrate", "stats", "download",  "forward"};
  const auto i = static_cast<size_t>(stage);
  return i < kStageCount ? kNames[i] : std::string_view("unknown");
}

std::string_view BackendCallName(BackendCall call) {
  static constexpr std::string_view kNames[kBackendCallCount] = {
      "solve", "prepare", "report", "move",    "ready",    "drive",    "discs", "fly",
      "brake", "follow",  "paths",  "forward", "contacts", "navigate", "setup"};
  const auto i = static_cast<size_t>(call);
  return i < kBackendCallCount ? kNames[i] : std::string_view("unknown");
}

std::string_view AgentBehaviorName(AgentBehavior behavior) {
  static constexpr std::string_view kNames[kAgentBehaviorCount] = {
      "by columns", "arrive", "seek", "flee", "preferred velocity", "navigate"};
  const auto i = static_cast<size_t>(behavior);
  return i < kAgentBehaviorCount ? kNames[i] : std::string_view("unknown");
}

AgentBehavior EffectiveBehavior(const AgentSnapshot& a, size_t i, AgentBehavior world_default) {
  return ResolveBehavior(a.behavior.empty() ? 0 : a.behavior[i], a.flags.empty() ? 0 : a.flags[i],
                         world_default, a.has_goals());
}

PedestrianPrepareScene PedestrianSceneOf(const AgentSnapshot& a) {
  auto optional = [](const auto& column) { return column.empty() ? nullptr : column.data(); };
  return {a.x.data(),
          a.y.data(),
          optional(a.z),
          optional(a.vx),
          optional(a.vy),
          optional(a.vz),
          optional(a.radius),
          optional(a.max_speed),
          optional(a.flags),
          optional(a.behavior),
          optional(a.goal_x),
          optional(a.goal_y),
          optional(a.goal_z),
          optional(a.pref_vx),
          optional(a.pref_vy),
          optional(a.pref_vz),
          a.size()};
}

double TickStats::total_ms() const {
  double sum = 0;
  for (double ms : stage_ms) sum += ms;
  return sum;
}

void WorldTotals::Add(const TickStats& stats) {
  ++ticks;
  for (int i = 0; i < kSolveStatusCount; ++i) status_count[i] += stats.status_count[i];
  oscillating += stats.oscillating;
  stalled += stats.stalled;
  stall_episodes += stats.stall_episodes;
  jam_steps += stats.jam_steps;
  reroutes += stats.reroutes;
  longest_stall_ticks = std::max(longest_stall_ticks, stats.longest_stall_ticks);
  agent_overlaps += stats.agent_overlaps;
  vehicle_overlaps += stats.vehicle_overlaps;
  agents_in_obstacles += stats.agents_in_obstacles;
  forward_in_obstacles += stats.forward_in_obstacles;
  time_stopped_s += stats.time_stopped_s;
}

}  // namespace throng
