// An Advance stopped inside one of its ticks, for the tests of what a failed Advance leaves:
// the stop checks of one tick are counted on an Advance of one tick first (which stands),
// then the options ask to stop at the last check of the `tick`-th tick of the next Advance,
// after that tick's move.
#pragma once

#include <memory>

#include "kernels/world/world.h"

namespace throng::testing {

// Advances `world` by one tick of `dt` (into `result`) and returns `options` with a stop at
// the last check of an Advance's `tick`-th tick.
inline TickOptions StopAtTheEndOfTick(World& world, float dt, int tick, const TickOptions& options,
                                      TickResult* result) {
  auto checks = std::make_shared<int>(0);
  TickOptions counted = options;
  counted.stop = [checks] { return ++*checks < 0; };
  world.Advance(1, dt, result, counted);
  const int checks_a_tick = *checks;
  *checks = 0;
  TickOptions stopped = options;
  stopped.stop = [checks, checks_a_tick, tick] { return ++*checks >= tick * checks_a_tick; };
  return stopped;
}

}  // namespace throng::testing
