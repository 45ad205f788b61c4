// A world (cpu unless asked) that has run a scenario for a while, for tests that go on from there
// (restores, re-routes).
#pragma once

#include <memory>

#include "kernels/scenarios/scenario.h"
#include "kernels/world/world.h"

namespace throng::testing {

// A world of the scenario, stepped on its initial snapshot (integrated) and advanced
// until it has run `ticks` ticks.
inline std::unique_ptr<World> RanWorld(const scenarios::Scenario& s, int ticks,
                                       BackendKind backend = BackendKind::kCpu) {
  auto world = std::make_unique<World>(s.config, backend);
  TickOptions options;
  options.integrate = true;
  TickResult r;
  world->Step(s.initial, options, &r);
  if (ticks > 1) world->Advance(ticks - 1, s.initial.dt, &r);
  return world;
}

}  // namespace throng::testing
