// A world rebuilt from its configuration and restored from what another kept
// (World::Kept, World::Restore: what ExportWorld and ImportWorld carry) continues bit for
// bit: every scenario, with pedestrians, vehicles and forward agents, tick after tick.
// A bad kept state is refused by name and changes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "kernels/scenarios/scenario.h"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"
#include "tests/world/ran_world.h"
#include "tests/world/tick_hash.h"

namespace throng {
namespace {

using testing::RanWorld;

constexpr int kBefore = 40, kAfter = 40;

// One more tick of each world: whether the two agree bit for bit (results and state).
bool NextTickAgrees(World& a, World& b, float dt, uint64_t* tick = nullptr) {
  TickResult ra, rb;
  a.Advance(1, dt, &ra);
  b.Advance(1, dt, &rb);
  Fnv1a ha, hb;
  MixTick(a, ra, &ha);
  MixTick(b, rb, &hb);
  if (tick) *tick = ra.tick;
  return ha.h == hb.h;
}

// On cpu and, where a GPU is, on cuda, whose world keeps the memory on the device until
// Kept() brings it home (docs/ARCHITECTURE.md, "Columns a tick keeps on the backend").
class WorldRestoreTest : public testing::ScenarioBackendTest {};

TEST_P(WorldRestoreTest, ARestoredWorldContinuesBitForBit) {
  const scenarios::Scenario s = scenarios::MakeScenario(scene(), 150, 11);
  const std::unique_ptr<World> ran = RanWorld(s, kBefore, backend());
  World& original = *ran;

  World restored(s.config, backend());
  restored.Restore(original.Kept());
  EXPECT_EQ(restored.totals().ticks, static_cast<uint64_t>(kBefore));
  EXPECT_EQ(restored.state().tick, original.state().tick);
  // The per-id memory travels with the state (TheMemoryIsWhatMakesItExact shows it matters).
  const WorldKept kept = original.Kept();
  EXPECT_EQ(kept.memory.agent_ids.size(), s.initial.agents.size());
  EXPECT_EQ(kept.memory.vehicle_ids.size(), s.initial.vehicles.size());

  for (int t = 0; t < kAfter; ++t) {
    uint64_t tick = 0;
    ASSERT_TRUE(NextTickAgrees(original, restored, s.initial.dt, &tick))
        << scene() << ": tick " << tick << " differs after the restore";
  }
  EXPECT_EQ(original.totals().status_count[0], restored.totals().status_count[0]);
  EXPECT_EQ(original.totals().stall_episodes, restored.totals().stall_episodes);
  EXPECT_EQ(original.totals().time_stopped_s, restored.totals().time_stopped_s);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, WorldRestoreTest,
                         ::testing::Combine(::testing::ValuesIn(scenarios::ScenarioNames()),
                                            ::testing::Values(BackendKind::kCpu,
                                                              BackendKind::kCuda)),
                         testing::ScenarioBackendName);

// Without the memory, the town's vehicles (steering lag, the motion they read) and the
// crowd's stall counters start over: the continuation differs, so the test above would
// catch a restore that dropped it.
TEST(WorldRestore, TheMemoryIsWhatMakesItExact) {
  const scenarios::Scenario s = scenarios::MakeScenario("town", 150, 11);
  const std::unique_ptr<World> original = RanWorld(s, kBefore);
  WorldKept forgetful = original->Kept();
  forgetful.memory = {};
  World restored(s.config, BackendKind::kCpu);
  restored.Restore(forgetful);
  bool differs = false;
  for (int t = 0; t < kAfter && !differs; ++t) {
    differs = !NextTickAgrees(*original, restored, s.initial.dt);
  }
  EXPECT_TRUE(differs);
}

std::string RefusalOf(World& world, const WorldKept& kept) {
  try {
    world.Restore(kept);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(WorldRestore, ABadKeptStateIsRefusedAndChangesNothing) {
  const scenarios::Scenario s = scenarios::MakeScenario("town", 100, 2);
  const std::unique_ptr<World> ran = RanWorld(s, 1);
  World& world = *ran;
  const WorldKept good = world.Kept();
  ASSERT_FALSE(good.memory.agents.empty());
  ASSERT_FALSE(good.memory.vehicles.empty());

  WorldKept bad = good;
  bad.memory.agents[3].last_side = 7;
  EXPECT_EQ(RefusalOf(world, bad), "memory.agents[3].last_side: must be -1, 0 or 1");
  bad = good;
  bad.memory.agents[2].ticks_without_progress = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(RefusalOf(world, bad),
            "memory.agents[2].ticks_without_progress: must be within [0, 2^30]");
  bad = good;
  bad.memory.agents[0].progress_ref = std::nanf("");
  EXPECT_EQ(RefusalOf(world, bad),
            "memory.agents[0].progress_ref: must be within [0, 8e6] m or infinite");
  bad = good;
  bad.memory.agent_ids[1] = bad.memory.agent_ids[0];
  EXPECT_NE(RefusalOf(world, bad).find("appears twice"), std::string::npos);
  bad = good;
  bad.memory.vehicles.pop_back();
  EXPECT_NE(RefusalOf(world, bad).find("memory.vehicle: "), std::string::npos);
  bad = good;
  bad.memory.vehicles[1].wheel_angle = 3.f;
  EXPECT_EQ(RefusalOf(world, bad), "memory.vehicles[1].wheel_angle: must be within 1.5 rad");
  bad = good;
  bad.memory.vehicles[0].last_dt = 1e9f;
  EXPECT_EQ(RefusalOf(world, bad), "memory.vehicles[0].last_dt: must be 0 or within [0.001, 10] s");
  bad = good;
  bad.state.agents.x[2] = std::numeric_limits<float>::infinity();
  EXPECT_NE(RefusalOf(world, bad).find("agents.x[2]"), std::string::npos);
  bad = good;
  bad.has_state = false;
  EXPECT_EQ(RefusalOf(world, bad), "totals.ticks: 1 ticks but no state");
  bad = good;
  bad.totals.time_stopped_s = -1;
  EXPECT_EQ(RefusalOf(world, bad), "totals.time_stopped_s: must be finite and >= 0");

  // Nothing changed: the world goes on as if no restore had been tried.
  World control(s.config, BackendKind::kCpu);
  control.Restore(good);
  for (int t = 0; t < 5; ++t) EXPECT_TRUE(NextTickAgrees(world, control, s.initial.dt));
  EXPECT_EQ(world.totals().ticks, 6u);
}

}  // namespace
}  // namespace throng
