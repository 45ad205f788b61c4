// The world's ColumnSource promises (kernels/input/column_source.h): every call of a tick it
// marks kThisTick reads exactly what the earlier calls left. ChainCheckBackend checks each
// such call on the cpu, where a broken promise would otherwise change nothing; the cuda
// backend reads its own copies there and would answer differently.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "kernels/backends/cpu_backend.h"
#include "kernels/scenarios/scenario.h"
#include "kernels/world/world.h"
#include "tests/world/birds_among_people.h"
#include "tests/world/chain_check_backend.h"
#include "tests/world/stop_in_tick.h"
#include "tests/world/tick_hash.h"

namespace throng {
namespace {

using testing::ChainCheckBackend;
using testing::PlaceBirdsBehindPedestrians;
using testing::StopAtTheEndOfTick;
using testing::WithFlock;

constexpr size_t kAgents = 120;
constexpr int kTicks = 12;

struct ChainRun {
  uint64_t hash = 0;
  int checked_calls = 0;
  int fetches = 0;
};

// The kept per-id memory, as Kept() gives it (brought home from the backend first).
void MixKeptMemory(const World& world, Fnv1a* hash) {
  const KeptMemory memory = world.Kept().memory;
  hash->Column(memory.agent_ids);
  for (const AgentMemory& m : memory.agents) {  // field by field: the struct has padding
    hash->Bytes(&m.flip_history, sizeof m.flip_history);
    hash->Bytes(&m.last_side, sizeof m.last_side);
    hash->Bytes(&m.ticks_without_progress, sizeof m.ticks_without_progress);
    hash->Bytes(&m.progress_ref, sizeof m.progress_ref);
    hash->Bytes(&m.goal, sizeof m.goal);
    hash->Bytes(&m.route, sizeof m.route);
  }
  hash->Column(memory.vehicle_ids);
  if (!memory.vehicles.empty()) {  // nine floats: no padding
    hash->Bytes(memory.vehicles.data(), memory.vehicles.size() * sizeof(VehicleMemory));
  }
}

// A Step, then Advance tick by tick (integrating) and several ticks at once, an Advance
// stopped after the move of its third tick, a Step on the state with a pedestrian's and a
// vehicle's position changed by the caller, one more Advance, a Step without the first agent and
// the first vehicle (new memory rows), and a Step that does not integrate and asks for the debug
// columns; the kept memory after some of them.
ChainRun RunScenario(const scenarios::Scenario& s, std::unique_ptr<Backend> backend) {
  auto* checker = dynamic_cast<ChainCheckBackend*>(backend.get());
  World world(s.config, std::move(backend));
  TickOptions options;
  options.integrate = true;
  TickResult r;
  Fnv1a hash;
  world.Step(s.initial, options, &r);
  MixTick(world, r, &hash);
  MixKeptMemory(world, &hash);
  for (int t = 1; t < kTicks / 2; ++t) {
    world.Advance(1, s.initial.dt, &r, options);
    MixTick(world, r, &hash);
  }
  // The ticks before the last leave their results, memory and next state on the backend.
  world.Advance(kTicks / 2, s.initial.dt, &r, options);
  MixTick(world, r, &hash);
  // Stopped at the last check of its third tick, after that tick's move: the two before
  // stand, and what they left on the backend only comes home.
  const TickOptions stopped = StopAtTheEndOfTick(world, s.initial.dt, 3, options, &r);
  MixTick(world, r, &hash);
  EXPECT_THROW(world.Advance(4, s.initial.dt, &r, stopped), TickCancelled);
  MixTick(world, TickResult{}, &hash);  // the stopped tick's results are not the world's
  MixKeptMemory(world, &hash);
  world.Advance(2, s.initial.dt, &r, options);
  MixTick(world, r, &hash);
  Snapshot next = world.state();
  ++next.tick;
  if (!next.agents.x.empty()) next.agents.x[0] += 0.01f;  // the caller's changes
  if (!next.vehicles.x.empty()) next.vehicles.x[0] += 0.01f;
  world.Step(next, options, &r);
  MixTick(world, r, &hash);
  world.Advance(1, s.initial.dt, &r, options);
  MixTick(world, r, &hash);
  next = world.state();
  ++next.tick;
  const auto without_the_first = [](const auto&, auto& column) {
    if (!column.empty()) column.erase(column.begin());
  };
  VisitAgentColumns(next.agents, without_the_first);
  VisitVehicleColumns(next.vehicles, without_the_first);
  world.Step(next, options, &r);
  MixTick(world, r, &hash);
  next = world.state();
  ++next.tick;
  options.integrate = false;
  options.debug = true;  // the follower's debug columns come back
  world.Step(next, options, &r);
  MixTick(world, r, &hash);
  MixKeptMemory(world, &hash);
  return {hash.h, checker != nullptr ? checker->checked_calls() : 0,
          checker != nullptr ? checker->fetches() : 0};
}

class WorldChainTest : public ::testing::TestWithParam<std::string> {};

TEST_P(WorldChainTest, EveryCallMarkedThisTickReadsWhatTheCallsBeforeItLeft) {
  const scenarios::Scenario s = scenarios::MakeScenario(GetParam(), kAgents, 3);
  ChainRun checked;
  ASSERT_NO_THROW(checked = RunScenario(s, std::make_unique<ChainCheckBackend>()));
  const ChainRun plain = RunScenario(s, std::make_unique<CpuBackend>());
  EXPECT_EQ(checked.hash, plain.hash);  // the decorator changes nothing
  // Report, move and contacts on every integrating tick at least.
  EXPECT_GE(checked.checked_calls, 3 * (kTicks - 1)) << GetParam();
  // What only the backend held came home: at least for each Kept(), with navigation
  // targets too (their re-routing asks the backend, and the host reads no memory or state).
  EXPECT_GE(checked.fetches, 3) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Scenarios, WorldChainTest, ::testing::ValuesIn(scenarios::ScenarioNames()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// Pedestrians beside forward agents, whose fans meet the pedestrians' bodies on the backend:
// the fans' preparation reads what the pedestrians' left there. (No scenario has both.)
// Each forward agent flies at a body's height 1.5 m behind a pedestrian, so its fan sees
// the bodies: where it reads the host's stale columns instead (tried) its casts meet NaN
// bodies and the hash differs.
TEST(WorldChainForwardTest, PedestriansBesideForwardAgentsKeepThePromises) {
  scenarios::Scenario s = WithFlock(scenarios::MakeScenario("corridor", 60, 3), 20);
  ASSERT_GE(s.initial.agents.size(), s.initial.forward.size());
  ASSERT_GT(s.initial.forward.size(), 0u);
  PlaceBirdsBehindPedestrians(&s);
  ChainRun checked;
  ASSERT_NO_THROW(checked = RunScenario(s, std::make_unique<ChainCheckBackend>()));
  EXPECT_EQ(checked.hash, RunScenario(s, std::make_unique<CpuBackend>()).hash);
}

// Vehicles beside forward agents, whose fans meet the vehicles' boxes at their heights on
// the backend: the fans' preparation reads the bodies and heights the vehicles' left there.
// (No scenario has both.) Each forward agent flies at a box's height 4 m behind a vehicle,
// heading at it: where it reads the host's stale columns instead (tried) its casts meet
// boxes at NaN heights and the hash differs.
TEST(WorldChainVehiclesTest, VehiclesBesideForwardAgentsKeepThePromises) {
  scenarios::Scenario s = WithFlock(scenarios::MakeScenario("town", 60, 3), 20);
  ForwardSnapshot& f = s.initial.forward;
  const VehicleSnapshot& v = s.initial.vehicles;
  ASSERT_GE(v.size(), f.size());
  ASSERT_GT(f.size(), 0u);
  for (size_t i = 0; i < f.size(); ++i) {
    const float cx = std::cos(v.yaw[i]), cy = std::sin(v.yaw[i]);
    f.x[i] = v.x[i] - 4.f * cx;
    f.y[i] = v.y[i] - 4.f * cy;
    f.z[i] = (v.z.empty() ? 0.f : v.z[i]) + 0.5f;
    f.forward_x[i] = cx;
    f.forward_y[i] = cy;
    if (!f.forward_z.empty()) f.forward_z[i] = 0.f;
  }
  ChainRun checked;
  ASSERT_NO_THROW(checked = RunScenario(s, std::make_unique<ChainCheckBackend>()));
  EXPECT_EQ(checked.hash, RunScenario(s, std::make_unique<CpuBackend>()).hash);
}

// Vehicles of their own sizes (cars and trucks): the world lays their discs out from the
// snapshot's sizes, which must give each prepared body's own disc count.
TEST(WorldChainVehiclesTest, VehiclesOfTheirOwnSizesAreLaidOutAsTheirBodies) {
  scenarios::Scenario s = scenarios::MakeScenario("town", 60, 3);
  VehicleSnapshot& v = s.initial.vehicles;
  ASSERT_GT(v.size(), 2u);
  ASSERT_TRUE(v.length.empty());
  v.length.assign(v.size(), 4.5f);
  v.width.assign(v.size(), 1.9f);
  for (size_t i = 0; i < v.size(); i += 3) {  // every third a truck
    v.length[i] = 12.f;
    v.width[i] = 2.5f;
  }
  ChainRun checked;
  ASSERT_NO_THROW(checked = RunScenario(s, std::make_unique<ChainCheckBackend>()));
  EXPECT_EQ(checked.hash, RunScenario(s, std::make_unique<CpuBackend>()).hash);
}

// Vehicles in a world with a navigation target: the navigation's steering runs on the
// backend between the preparation and the discs, and the solve still reads its agents
// there, the vehicles' discs included. (No scenario has both.)
TEST(WorldChainVehiclesTest, TheDiscsStayOnTheBackendBesideNavigation) {
  scenarios::Scenario s = scenarios::MakeScenario("town", 60, 3);
  ASSERT_GT(s.initial.vehicles.size(), 0u);
  ASSERT_TRUE(s.config.navigation_targets.empty());
  const Vec3 p =
      s.config.frame.ToInternal({s.initial.agents.x[0], s.initial.agents.y[0],
                                 s.initial.agents.z.empty() ? 0.f : s.initial.agents.z[0]});
  auto external = [&](float dx, float dy) {
    return s.config.frame.ToExternal({p.x + dx, p.y + dy, 0.f});
  };
  s.config.navigation_targets.push_back(
      {9,
       {external(-1, -1), external(1, -1), external(1, 1), external(-1, 1)},
       {external(-10, -10), external(10, 10)}});
  ChainRun checked;
  ASSERT_NO_THROW(checked = RunScenario(s, std::make_unique<ChainCheckBackend>()));
  EXPECT_EQ(checked.hash, RunScenario(s, std::make_unique<CpuBackend>()).hash);
}

// The checker itself: a column changed on the host between the preparation and a solve
// that says it reads the preparation's columns is caught.
TEST(ChainCheckBackendTest, CatchesAColumnChangedBetweenTwoCalls) {
  ChainCheckBackend backend;
  const size_t n = 3;
  const float x[n] = {0.f, 2.f, 4.f}, y[n] = {0.f, 0.f, 1.f};
  PedestrianPrepareScene scene{};
  scene.x = x;
  scene.y = y;
  scene.count = n;
  AgentColumns agents;
  agents.Resize(n);
  std::vector<float> z(n), vz(n);
  std::vector<Vec2> goal(n);
  std::vector<uint8_t> has_goal(n), navigates(n);
  PedestrianPrepareParams params{};
  backend.PreparePedestrians(
      params, scene,
      {agents.Out(0), z.data(), vz.data(), goal.data(), has_goal.data(), navigates.data()});
  OrcaParams orca;
  orca.time_step = 0.1f;
  OrcaRunOptions options;
  options.agents = ColumnSource::kThisTick;
  OrcaResult out;
  EXPECT_NO_THROW(backend.SolveOrca(orca, agents, options, &out));
  agents.pref_vx[1] += 0.5f;  // as a host stage that steers someone would
  try {
    backend.SolveOrca(orca, agents, options, &out);
    FAIL() << "a changed column went unseen";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("prepare.pref_vx"), std::string::npos) << e.what();
  }
  options.agents = ColumnSource::kHost;  // read from the host: nothing promised
  EXPECT_NO_THROW(backend.SolveOrca(orca, agents, options, &out));
}

}  // namespace
}  // namespace throng
