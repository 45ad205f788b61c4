// How long a world takes until every pedestrian is home: the measure of the tests and the
// RVO2 benchmark that judge a way of walking by whether a crowd gets there (RVO2's Blocks
// tile, with navigation or right of way).
#pragma once

#include <cmath>
#include <cstddef>

#include "kernels/world/world.h"

namespace throng {

struct AllHomeRun {
  int ticks = 0;    // the first tick at which everyone was home; 0 if not within the limit
  size_t home = 0;  // pedestrians home after the last tick run
};

// Pedestrians within `radius` of their goals.
inline size_t PedestriansHome(const AgentSnapshot& a, float radius) {
  size_t home = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    home += std::hypot(a.x[i] - a.goal_x[i], a.y[i] - a.goal_y[i]) < radius;
  }
  return home;
}

// Steps `initial` once, then advances tick by tick until every pedestrian is within 1 m of
// its goal or `limit` ticks have passed.
inline AllHomeRun RunUntilAllHome(const WorldConfig& config, const Snapshot& initial,
                                  BackendKind backend, int limit) {
  World world(config, backend);
  TickOptions integrate;
  integrate.integrate = true;
  TickResult r;
  world.Step(initial, integrate, &r);
  AllHomeRun run;
  for (int t = 1; t <= limit; ++t) {
    world.Advance(1, initial.dt, &r);
    const AgentSnapshot& a = world.state().agents;
    run.home = PedestriansHome(a, 1.f);
    if (run.home == a.size()) {
      run.ticks = t;
      break;
    }
  }
  return run;
}

}  // namespace throng
