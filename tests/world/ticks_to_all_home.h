// How long a scenario takes until every pedestrian is home, for tests that judge a rule by
// whether a crowd gets there (RVO2's Blocks tile, with navigation or right of way).
#pragma once

#include <cmath>
#include <cstddef>

#include "kernels/scenarios/scenario.h"
#include "kernels/world/world.h"

namespace throng::testing {

// Steps `s`'s first snapshot, then advances tick by tick: the first tick at which every
// pedestrian is within 1 m of its goal, or 0 if none within `limit` ticks.
inline int TicksToAllHome(const scenarios::Scenario& s, BackendKind backend, int limit) {
  World world(s.config, backend);
  TickOptions integrate;
  integrate.integrate = true;
  TickResult r;
  world.Step(s.initial, integrate, &r);
  for (int t = 1; t <= limit; ++t) {
    world.Advance(1, s.initial.dt, &r);
    const AgentSnapshot& a = world.state().agents;
    size_t home = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      home += std::hypot(a.x[i] - a.goal_x[i], a.y[i] - a.goal_y[i]) < 1.f;
    }
    if (home == a.size()) return t;
  }
  return 0;
}

}  // namespace throng::testing
