#include "bench/flow_targets.h"

#include <cstdio>

namespace throng::bench {
namespace {

std::string Format(const char* format, double a, double b) {
  char text[96];
  std::snprintf(text, sizeof text, format, a, b);
  return text;
}

}  // namespace

std::vector<TargetVerdict> JudgeFlowTargets(const SceneFlow& throng, const SceneFlow& plain) {
  std::vector<TargetVerdict> out;
  out.push_back({"home", true, throng.home >= plain.home,
                 Format("%.0f / %.0f", double(throng.home), double(plain.home))});
  // A median needs half the walkers home; where Throng has it and plain ORCA has not,
  // Throng is earlier.
  TargetVerdict median{"median", true, false, ""};
  if (throng.median_s < 0 && plain.median_s < 0) {
    median.judged = false;
    median.figures = "- / -";
  } else {
    median.met = throng.median_s >= 0 && (plain.median_s < 0 || throng.median_s <= plain.median_s);
    median.figures = Format("%.1f / %.1f s", throng.median_s, plain.median_s);
  }
  out.push_back(median);
  out.push_back({"pause", true, throng.longest_pause_s <= kMaxPauseS,
                 Format("%.1f s (at most %.0f)", throng.longest_pause_s, kMaxPauseS)});
  out.push_back({"stall", true, throng.longest_frozen_stall <= kMaxStallTicks,
                 Format("%.0f ticks (at most %.0f)", double(throng.longest_frozen_stall),
                        double(kMaxStallTicks))});
  // At most 1/100 of plain ORCA's, compared in integers: 0 when plain ORCA has none.
  out.push_back({"deep", true, throng.deep_overlaps * 100 <= plain.deep_overlaps,
                 Format("%.0f / %.0f", double(throng.deep_overlaps), double(plain.deep_overlaps))});
  out.push_back({"deepest", true, throng.deepest_m < kMaxDeepestM,
                 Format("%.2f cm (under %.0f)", 100 * throng.deepest_m, 100 * kMaxDeepestM)});
  out.push_back({"in_obstacles", true, throng.in_obstacles <= plain.in_obstacles,
                 Format("%.0f / %.0f", double(throng.in_obstacles), double(plain.in_obstacles))});
  if (throng.door) {
    out.push_back({"door_flow", true,
                   throng.door_flow_min >= kMinDoorFlow && throng.door_flow_max <= kMaxDoorFlow,
                   Format("%.2f-%.2f", throng.door_flow_min, throng.door_flow_max)});
  }
  return out;
}

}  // namespace throng::bench
