#include "bench/evacuation.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "bench/body_depth.h"
#include "kernels/world/world.h"

namespace throng::bench {

void KeepAgents(const std::vector<uint8_t>& keep, AgentSnapshot* agents) {
  VisitAgentColumns(*agents, [&](const ColumnInfo&, auto& column) {
    if (column.empty()) return;
    size_t kept = 0;
    for (size_t i = 0; i < column.size(); ++i) {
      if (keep[i]) column[kept++] = column[i];
    }
    column.resize(kept);
  });
}

EvacuationFigures RunEvacuation(const scenarios::Scenario& scenario, BackendKind backend,
                                int max_ticks) {
  Vec2 lo, hi;
  if (!scenarios::EvacuationRoom(scenario, &lo, &hi)) {
    throw std::invalid_argument("scenario \"" + scenario.name + "\" is not an evacuation");
  }
  constexpr double kDeep = 0.01;  // m, issue 41's visible overlap
  World world(scenario.config, backend);
  EvacuationFigures f;
  f.people = scenario.initial.agents.size();
  Snapshot snapshot = scenario.initial;
  TickOptions options;
  options.integrate = true;
  TickResult result;
  double ms = 0, out_sum = 0;
  std::vector<uint8_t> keep;
  std::vector<float> radius;
  for (int k = 0; k < max_ticks && !snapshot.agents.x.empty(); ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    world.Step(snapshot, options, &result);
    ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    f.ticks = k + 1;
    snapshot = world.state();
    ++snapshot.tick;
    AgentSnapshot& a = snapshot.agents;
    radius = a.radius.empty() ? std::vector<float>(a.size(), scenario.config.agent_defaults.radius)
                              : a.radius;
    const BodyDepths depths = MeasureBodyDepths(a.x, a.y, radius, kDeep);
    f.deep_overlaps += depths.deep_pairs;
    f.deepest = std::max(f.deepest, depths.deepest);
    keep.assign(a.size(), 1);
    for (size_t i = 0; i < a.size(); ++i) {
      if (a.x[i] >= lo.x && a.x[i] <= hi.x && a.y[i] >= lo.y && a.y[i] <= hi.y) continue;
      keep[i] = 0;
      ++f.out;
      f.out_left += a.x[i] < lo.x;
      f.out_right += a.x[i] > hi.x;
      f.last_out_s = f.ticks * static_cast<double>(snapshot.dt);
      out_sum += f.last_out_s;
    }
    KeepAgents(keep, &a);
  }
  f.mean_out_s = f.out > 0 ? out_sum / static_cast<double>(f.out) : 0;
  f.in_obstacles = world.totals().agents_in_obstacles;
  f.ms_per_tick = f.ticks > 0 ? ms / f.ticks : 0;
  return f;
}

}  // namespace throng::bench
