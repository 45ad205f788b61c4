// World::Advance steps the kept state in place and, after its first tick, copies nothing
// (docs/WORLD.md, "One tick"): it must give, bit for bit, what a caller gets by stepping a
// copy of the state tick after tick, on every scenario, with pedestrians, vehicles and
// forward agents; also after a caller's own Step changed columns integration never writes.
// A stopped Advance changes nothing, and the next one goes on as if the stop had not been.
// On cpu and, where a GPU is, on cuda: there Advance's ticks read what the tick before left
// on the device (docs/ARCHITECTURE.md, "Columns a tick keeps on the backend") while a
// caller's Step sends its copy, so the two paths must agree bit for bit there too.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "kernels/input/stop_request.h"
#include "kernels/scenarios/scenario.h"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"
#include "tests/world/tick_hash.h"

namespace throng {
namespace {

constexpr int kTicks = 30;

// A world stepped once on the scenario's initial snapshot (integrated).
std::unique_ptr<World> Started(const scenarios::Scenario& s, BackendKind backend) {
  auto world = std::make_unique<World>(s.config, backend);
  TickOptions options;
  options.integrate = true;
  TickResult r;
  world->Step(s.initial, options, &r);
  return world;
}

// What a caller does without Advance: a copy of the state, a tick on, stepped integrated.
void StepACopy(World& world, float dt, TickResult* r) {
  Snapshot next = world.state();
  ++next.tick;
  next.dt = dt;
  TickOptions options;
  options.integrate = true;
  world.Step(next, options, r);
}

uint64_t Hash(const World& world, const TickResult& r) {
  Fnv1a h;
  MixTick(world, r, &h);
  return h.h;
}

class WorldAdvanceTest : public testing::ScenarioBackendTest {
 protected:
  std::unique_ptr<World> Started(const scenarios::Scenario& s) const {
    return throng::Started(s, backend());
  }
};

TEST_P(WorldAdvanceTest, ManyTicksInOneCallAreStepsOfACopyBitForBit) {
  const scenarios::Scenario s = scenarios::MakeScenario(scene(), 150, 11);
  const std::unique_ptr<World> one_by_one = Started(s), at_once = Started(s);
  TickResult a, b;
  for (int k = 0; k < kTicks; ++k) StepACopy(*one_by_one, s.initial.dt, &a);
  at_once->Advance(kTicks, s.initial.dt, &b);
  EXPECT_EQ(at_once->state().tick, one_by_one->state().tick);
  EXPECT_EQ(at_once->state().dt, one_by_one->state().dt);
  EXPECT_EQ(Hash(*at_once, b), Hash(*one_by_one, a));
  EXPECT_EQ(at_once->totals().ticks, one_by_one->totals().ticks);
  EXPECT_EQ(at_once->totals().stall_episodes, one_by_one->totals().stall_episodes);
}

// A caller's Step between Advances, not integrated, changes what integration never writes
// (every agent's max speed, and the last agent gone): the next Advance runs on the
// caller's columns, not on what its spare snapshot held from before.
TEST_P(WorldAdvanceTest, AdvanceAfterACallersStepRunsOnTheCallersColumns) {
  const scenarios::Scenario s = scenarios::MakeScenario(scene(), 150, 11);
  const std::unique_ptr<World> advanced = Started(s), stepped = Started(s);
  TickResult a, b;
  advanced->Advance(5, s.initial.dt, &a);
  for (int k = 0; k < 5; ++k) StepACopy(*stepped, s.initial.dt, &b);
  Snapshot changed = advanced->state();
  ++changed.tick;
  if (changed.agents.size() > 0) {
    changed.agents.max_speed.assign(changed.agents.size(), 0.8f);
    VisitAgentColumns(changed.agents, [](const ColumnInfo&, auto& column) {
      if (!column.empty()) column.pop_back();
    });
  }
  advanced->Step(changed, TickOptions{}, &a);
  stepped->Step(changed, TickOptions{}, &b);
  advanced->Advance(kTicks, s.initial.dt, &a);
  for (int k = 0; k < kTicks; ++k) StepACopy(*stepped, s.initial.dt, &b);
  EXPECT_EQ(advanced->state().agents.size(), changed.agents.size());
  EXPECT_EQ(advanced->state().agents.max_speed, changed.agents.max_speed);
  EXPECT_EQ(Hash(*advanced, a), Hash(*stepped, b));
}

// An integrated Step copies only the columns integration does not write into the next
// state (SizeNextState): one that changes such columns (max speeds, goals, one agent and
// one vehicle fewer) after the world's spare snapshot held others gets its own columns
// back in the state, every column the length of its batch, and the moved columns are the
// tick's own.
TEST_P(WorldAdvanceTest, AnIntegratedStepKeepsTheCallersColumns) {
  const scenarios::Scenario s = scenarios::MakeScenario(scene(), 150, 11);
  const std::unique_ptr<World> world = Started(s);
  TickResult r;
  world->Advance(3, s.initial.dt, &r);
  Snapshot changed = world->state();
  ++changed.tick;
  auto drop_last = [](const ColumnInfo&, auto& column) {
    if (!column.empty()) column.pop_back();
  };
  if (changed.agents.size() > 0) {
    changed.agents.max_speed.assign(changed.agents.size(), 0.9f);
    for (float& g : changed.agents.goal_x) g += 1.f;
    VisitAgentColumns(changed.agents, drop_last);
  }
  if (changed.vehicles.size() > 0) {
    changed.vehicles.max_speed.assign(changed.vehicles.size(), 7.f);
    VisitVehicleColumns(changed.vehicles, drop_last);
  }
  TickOptions options;
  options.integrate = true;
  world->Step(changed, options, &r);
  const Snapshot& state = world->state();
  EXPECT_EQ(state.tick, changed.tick);
  EXPECT_EQ(state.agents.max_speed, changed.agents.max_speed);
  EXPECT_EQ(state.agents.goal_x, changed.agents.goal_x);
  EXPECT_EQ(state.agents.id, changed.agents.id);
  EXPECT_EQ(state.vehicles.max_speed, changed.vehicles.max_speed);
  EXPECT_EQ(state.vehicles.id, changed.vehicles.id);
  VisitAgentColumns(state.agents, [&](const ColumnInfo& info, const auto& column) {
    if (!column.empty()) {
      EXPECT_EQ(column.size(), changed.agents.size()) << info.name;
    }
  });
  VisitVehicleColumns(state.vehicles, [&](const ColumnInfo& info, const auto& column) {
    if (!column.empty()) {
      EXPECT_EQ(column.size(), changed.vehicles.size()) << info.name;
    }
  });
  // The moved columns are this tick's: each pedestrian moved by its result velocity (x is
  // x in every frame), which the next state keeps.
  const float dt = changed.dt;
  for (size_t i = 0; i < changed.agents.size(); ++i) {
    ASSERT_EQ(state.agents.x[i], changed.agents.x[i] + r.agents.vx[i] * dt) << i;
    ASSERT_EQ(state.agents.vx[i], r.agents.vx[i]) << i;
  }
}

// A stop in the middle of a later tick (the spare snapshot half written) changes nothing:
// the state is the last finished tick's, tick and dt included, and the next Advance goes on
// exactly as an Advance that was never stopped. Another dt on the way, too.
TEST_P(WorldAdvanceTest, AStoppedAdvanceChangesNothingAndTheNextGoesOn) {
  const scenarios::Scenario s = scenarios::MakeScenario(scene(), 150, 11);
  const std::unique_ptr<World> stopped = Started(s), straight = Started(s);
  const uint64_t start = stopped->state().tick;
  // How often one tick asks whether to stop, to stop the fourth tick half way.
  int asks_per_tick = 0;
  {
    const std::unique_ptr<World> probe = Started(s);
    TickResult r;
    probe->Advance(1, s.initial.dt, &r, [&] { return ++asks_per_tick < 0; });
  }
  ASSERT_GT(asks_per_tick, 2);
  int asked = 0;
  const int stop_at = 3 * asks_per_tick + asks_per_tick / 2;
  TickResult a, b;
  EXPECT_THROW(stopped->Advance(10, 2 * s.initial.dt, &a, [&] { return ++asked > stop_at; }),
               TickCancelled);
  const uint64_t finished = stopped->state().tick - start;
  ASSERT_GE(finished, 1u) << "the stop must fall in a tick after the first";
  ASSERT_LT(finished, 10u);
  for (uint64_t k = 0; k < finished; ++k) StepACopy(*straight, 2 * s.initial.dt, &b);
  EXPECT_EQ(stopped->state().tick, straight->state().tick);
  EXPECT_EQ(stopped->state().dt, straight->state().dt);
  EXPECT_EQ(stopped->state().agents.x, straight->state().agents.x);
  EXPECT_EQ(stopped->state().vehicles.x, straight->state().vehicles.x);
  EXPECT_EQ(stopped->state().forward.x, straight->state().forward.x);
  stopped->Advance(kTicks, s.initial.dt, &a);
  for (int k = 0; k < kTicks; ++k) StepACopy(*straight, s.initial.dt, &b);
  EXPECT_EQ(Hash(*stopped, a), Hash(*straight, b));
}

INSTANTIATE_TEST_SUITE_P(Scenarios, WorldAdvanceTest,
                         ::testing::Combine(::testing::ValuesIn(scenarios::ScenarioNames()),
                                            ::testing::Values(BackendKind::kCpu,
                                                              BackendKind::kCuda)),
                         testing::ScenarioBackendName);

}  // namespace
}  // namespace throng
