// Forward agents among a scenario's pedestrians (no scenario has both), for the tests of the
// fans that meet the bodies the other tables' preparations leave on the backend.
#pragma once

#include <cstdint>

#include "kernels/scenarios/scenario.h"

namespace throng::testing {

// `s` with the flock's forward agents (`birds` asked for) and fan settings added, without
// their goals (which lie elsewhere) and with heights: the caller places them.
inline scenarios::Scenario WithFlock(scenarios::Scenario s, uint32_t birds) {
  const scenarios::Scenario flock = scenarios::MakeScenario("flock", birds, 3);
  s.config.forward = flock.config.forward;
  ForwardSnapshot& f = s.initial.forward;
  f = flock.initial.forward;
  f.goal_x.clear();
  f.goal_y.clear();
  f.goal_z.clear();
  f.z.resize(f.size());
  return s;
}

// Each forward agent placed 1.5 m behind a pedestrian (the first ones, in order) at a body's
// height, heading at it, so that its fan sees the bodies. The scenario must have at least as
// many pedestrians as forward agents.
inline void PlaceBirdsBehindPedestrians(scenarios::Scenario* s) {
  ForwardSnapshot& f = s->initial.forward;
  const AgentSnapshot& a = s->initial.agents;
  for (size_t i = 0; i < f.size() && i < a.size(); ++i) {
    f.x[i] = a.x[i] - 1.5f;
    f.y[i] = a.y[i];
    f.z[i] = 1.f;
    f.forward_x[i] = 1.f;
    f.forward_y[i] = 0.f;
    if (!f.forward_z.empty()) f.forward_z[i] = 0.f;
  }
}

}  // namespace throng::testing
