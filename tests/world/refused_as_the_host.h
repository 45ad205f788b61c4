// A Step the backend's checks refuse gives the host's message (docs/WORLD.md, "Where the
// checks run"), and the world goes on as one that never saw it: shared by the tests of each
// table's checks.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/world/world.h"
#include "kernels/world/world_validate.h"

namespace throng {

// A Step of `bad` is refused with the message the host's checks, one by one, give it (the
// world has ticked once, at `last_tick`), and the world has still ticked once.
inline void ExpectRefusedAsTheHostRefuses(const WorldConfig& config, World& world,
                                          const Snapshot& bad, uint64_t last_tick) {
  std::string host;
  try {
    ValidateSnapshot(config, bad, true, last_tick);
  } catch (const std::invalid_argument& e) {
    host = e.what();
  }
  ASSERT_NE(host, "") << "the host's checks accept this fault";
  TickOptions integrate;
  integrate.integrate = true;
  try {
    TickResult untouched;
    world.Step(bad, integrate, &untouched);
    ADD_FAILURE() << "the world accepted it";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), host);
  }
  ASSERT_EQ(world.totals().ticks, 1u);
}

// After the faults: `world` (ticked once, at `good.tick - 1`) and `fresh`, a world that never
// saw them, given the first tick, step `good` alike (`a` and `b`: their results, for the
// caller to compare).
inline void StepBothAfterTheFaults(World& world, World& fresh, Snapshot good, TickResult* a,
                                   TickResult* b) {
  TickOptions integrate;
  integrate.integrate = true;
  --good.tick;
  fresh.Step(good, integrate, b);
  ++good.tick;
  world.Step(good, integrate, a);
  fresh.Step(good, integrate, b);
}

}  // namespace throng
