// Issue 41's targets for one scene, judged against plain ORCA on the same scene and seeds
// (`throng-bench-flow --targets`; docs/PERFORMANCE.md, "Where issue 41's targets stand").
// Only what one scene's runs can tell: arrivals, the median arrival, pauses, stalls outside
// a queue, bodies and, at a door, its flow. The corridors' speed against density
// (`--fundamental`) and the layer's cost (`throng-bench-orca --layer-cost`) are judged
// where they are measured.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace throng::bench {

// Issue 41's bounds.
constexpr double kMaxPauseS = 10.0;         // no pause between arrivals longer than this
constexpr uint64_t kMaxStallTicks = 300;    // outside a queue behind a moving front
constexpr double kDeepShareOfPlain = 0.01;  // pair-ticks deeper than 1 cm, of plain ORCA's
constexpr double kMaxDeepestM = 0.05;       // the deepest overlap, strictly under
constexpr double kMinDoorFlow = 1.2, kMaxDoorFlow = 2.0;  // persons/(m s), 10% to 90%

// One scene at one size, its seeds taken together.
struct SceneFlow {
  size_t home = 0, walkers = 0;
  double median_s = -1;               // over every walker of every seed; -1: fewer than half home
  double longest_pause_s = 0;         // the longest of any seed
  uint64_t longest_frozen_stall = 0;  // ticks, the longest of any seed
  uint64_t deep_overlaps = 0;         // pair-ticks deeper than 1 cm, summed
  double deepest_m = 0;               // the deepest of any seed
  // Agent-ticks with a body pressed into an obstacle beyond the contact tolerance, or a
  // centre inside one (the world's agents_in_obstacles), summed: judged against plain
  // ORCA's; issue 41's "no centre ever inside" is not told apart from it here.
  uint64_t in_obstacles = 0;
  bool door = false;                  // a bottleneck scene: its flow is judged too
  double door_flow_min = 0, door_flow_max = 0;  // over the seeds; 0: fewer than 90% passed
};

struct TargetVerdict {
  std::string target;  // "home", "median", ...
  bool judged = true;  // false: nothing to judge by (fewer than half home in both runs)
  bool met = false;
  std::string figures;  // Throng's figure against the bound or plain ORCA's
};

// Every target of `throng`'s runs, in a fixed order: home, median, pause, stall, deep,
// deepest, in_obstacles and, for a door, flow.
std::vector<TargetVerdict> JudgeFlowTargets(const SceneFlow& throng, const SceneFlow& plain);

}  // namespace throng::bench
