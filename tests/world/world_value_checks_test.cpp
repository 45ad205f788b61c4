// The agents' values are checked by the backend's preparation, which reads them anyway
// (ValidateSnapshot's agent_values_on_backend, AgentChecksForPreparation; docs/WORLD.md,
// "Where the checks run"): a Step refuses every fault the host's checks refuse, placed in
// a late row, with the host's message, on every backend, and leaves the world as it was;
// and the preparation is asked for the checks exactly where the host leaves the values to
// it. The vehicles' values likewise, by their preparation.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/scenarios/scenario.h"
#include "kernels/world/column_tables.h"
#include "kernels/world/world.h"
#include "kernels/world/world_validate.h"
#include "tests/backends/backend_param.h"
#include "tests/backends/cpu_forwarding_backend.h"
#include "tests/world/refused_as_the_host.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

// Past the cpu's one-thread passes; the reference, one agent after another and its solve
// against every other agent, takes a smaller crowd.
size_t CrowdSize(BackendKind backend) { return backend == BackendKind::kReference ? 150 : 4200; }

// Walkers on a grid 2 m apart arriving at goals 5 m ahead, with every optional column.
Snapshot Crowd(size_t count) {
  Snapshot s;
  s.tick = 1;
  s.dt = 0.1f;
  AgentSnapshot& a = s.agents;
  for (size_t i = 0; i < count; ++i) {
    const auto x = static_cast<float>(i % 70) * 2.f, y = static_cast<float>(i / 70) * 2.f;
    a.id.push_back(static_cast<uint32_t>(3 * i + 1));
    a.x.push_back(x);
    a.y.push_back(y);
    a.z.push_back(0.f);
    a.vx.push_back(0.5f);
    a.vy.push_back(0.f);
    a.vz.push_back(0.f);
    a.radius.push_back(0.2f);
    a.max_speed.push_back(1.3f);
    a.goal_x.push_back(x + 5.f);
    a.goal_y.push_back(y);
    a.goal_z.push_back(0.f);
    a.pref_vx.push_back(0.f);
    a.pref_vy.push_back(0.f);
    a.pref_vz.push_back(0.f);
    a.flags.push_back(i % 9 == 0 ? kSnapshotNonCooperative : 0);
    a.behavior.push_back(static_cast<uint8_t>(AgentBehavior::kArrive));
  }
  return s;
}

struct Fault {
  std::string name;
  std::function<void(AgentSnapshot&)> apply;
};

// Each ruled float column with the values its rule refuses, then the checks by hand, each in
// row `late` (in the last thread's slice on the cpu).
std::vector<Fault> Faults(size_t late) {
  std::vector<Fault> faults;
  const AgentSnapshot shape = Crowd(late + 3).agents;
  size_t j = 0;
  VisitAgentColumns(shape, [&](const ColumnInfo& column, const auto& values) {
    const size_t at = j++;
    if constexpr (std::is_same_v<std::decay_t<decltype(values)>, std::vector<float>>) {
      std::vector<float> bad;
      switch (column.rule.kind) {
        case ColumnRule::Kind::kBounded:
          bad = {NAN, INFINITY, 2.f * column.rule.bound, -2.f * column.rule.bound};
          break;
        case ColumnRule::Kind::kSize:
          bad = {NAN, 2.f * column.rule.bound, 0.f, -1.f, 1e-4f};
          break;
        case ColumnRule::Kind::kNonNegative:
          bad = {NAN, 2.f * column.rule.bound, -1.f};
          break;
        default:
          break;
      }
      for (const float value : bad) {
        faults.push_back({std::string(column.name) + " = " + std::to_string(value),
                          [at, value, late](AgentSnapshot& a) {
                            size_t k = 0;
                            VisitAgentColumns(a, [&](const ColumnInfo&, auto& c) {
                              using T = typename std::decay_t<decltype(c)>::value_type;
                              if (k++ == at) c[late] = static_cast<T>(value);
                            });
                          }});
      }
    }
  });
  auto own = [](AgentBehavior b) { return static_cast<uint8_t>(b); };
  faults.push_back({"unknown flag bits", [=](AgentSnapshot& a) { a.flags[late] = 4; }});
  faults.push_back({"behaviour 9", [=](AgentSnapshot& a) { a.behavior[late] = 9; }});
  faults.push_back({"flee told to use its preferred velocity", [=](AgentSnapshot& a) {
                      a.behavior[late] = own(AgentBehavior::kFlee);
                      a.flags[late] = kSnapshotUsesPreferredVelocity;
                    }});
  faults.push_back({"navigate in a world without targets",
                    [=](AgentSnapshot& a) { a.behavior[late] = own(AgentBehavior::kNavigate); }});
  faults.push_back({"seek without goals", [=](AgentSnapshot& a) {
                      a.goal_x.clear();
                      a.goal_y.clear();
                      a.goal_z.clear();
                      for (uint8_t& b : a.behavior) b = own(AgentBehavior::kPreferredVelocity);
                      a.behavior[late] = own(AgentBehavior::kSeek);
                    }});
  return faults;
}

// After the faults the world steps `good` as a world that never saw them.
void ExpectGoesOnAsAFreshWorld(World& world, World& fresh, const Snapshot& good, TickResult* a,
                               TickResult* b) {
  StepBothAfterTheFaults(world, fresh, good, a, b);
  EXPECT_EQ(a->agents.vx, b->agents.vx);
  EXPECT_EQ(a->agents.vy, b->agents.vy);
}

class WorldValueChecksTest : public BackendParamTest {};

TEST_P(WorldValueChecksTest, EveryFaultIsRefusedWithTheHostsMessageAndChangesNothing) {
  const WorldConfig config;
  TickOptions integrate;
  integrate.integrate = true;
  const size_t n = CrowdSize(GetParam());
  Snapshot good = Crowd(n);
  World world(config, GetParam());
  TickResult r;
  world.Step(good, integrate, &r);
  const Snapshot before = world.state();
  good.tick = 2;
  const std::vector<Fault> faults = Faults(n - 3);
  EXPECT_GE(faults.size(), 50u);
  for (const Fault& fault : faults) {
    SCOPED_TRACE(fault.name);
    Snapshot bad = good;
    fault.apply(bad.agents);
    ExpectRefusedAsTheHostRefuses(config, world, bad, before.tick);
    ASSERT_EQ(world.state().tick, before.tick);
  }
  EXPECT_EQ(world.state().agents.x, before.agents.x);
  EXPECT_EQ(world.state().agents.vx, before.agents.vx);

  // The next good tick gives what a world that never saw the faults gives, and so does an
  // Advance after it.
  World fresh(config, GetParam());
  TickResult a, b;
  ExpectGoesOnAsAFreshWorld(world, fresh, good, &a, &b);
  world.Advance(3, 0.1f, &a);
  fresh.Advance(3, 0.1f, &b);
  EXPECT_EQ(a.agents.vx, b.agents.vx);
  EXPECT_EQ(world.state().agents.x, fresh.state().agents.x);
}

// A world with a navigation target: every fault above but navigation itself, and a
// navigating row that names an unknown target or has no target column; a quarter of the
// crowd navigates.
TEST_P(WorldValueChecksTest, InAWorldWithTargetsTheFaultsAndTheTargetsAreRefusedAlike) {
  WorldConfig config;
  config.navigation_targets = {NavigationTarget(5, {{50.f, 0.f, 0.f}})};
  TickOptions integrate;
  integrate.integrate = true;
  const size_t n = CrowdSize(GetParam());
  Snapshot good = Crowd(n);
  good.agents.target.assign(n, 5);
  for (size_t i = 0; i < n; i += 4) {
    good.agents.behavior[i] = static_cast<uint8_t>(AgentBehavior::kNavigate);
  }
  World world(config, GetParam());
  TickResult r;
  world.Step(good, integrate, &r);
  good.tick = 2;
  const size_t late = n - 3;
  std::vector<Fault> faults;
  for (Fault& f : Faults(late)) {
    if (f.name != "navigate in a world without targets") faults.push_back(std::move(f));
  }
  const auto navigate = static_cast<uint8_t>(AgentBehavior::kNavigate);
  faults.push_back({"target 9, not the world's", [=](AgentSnapshot& a) {
                      a.behavior[late] = navigate;
                      a.target[late] = 9;
                    }});
  faults.push_back({"navigate without a target column", [=](AgentSnapshot& a) {
                      a.target.clear();
                      for (size_t i = 0; i < a.size(); i += 4) {
                        a.behavior[i] = static_cast<uint8_t>(AgentBehavior::kArrive);
                      }
                      a.behavior[late] = navigate;
                    }});
  for (const Fault& fault : faults) {
    SCOPED_TRACE(fault.name);
    Snapshot bad = good;
    fault.apply(bad.agents);
    ExpectRefusedAsTheHostRefuses(config, world, bad, 1);
  }
  // The next good tick goes on as in a world that never saw the faults.
  World fresh(config, GetParam());
  TickResult a, b;
  ExpectGoesOnAsAFreshWorld(world, fresh, good, &a, &b);
}

// The vehicles' values are checked by their preparation likewise: in the town, each ruled
// float column's refused values, a spline that is not a lane and a profile past the
// world's, in a late vehicle, are refused with the host's message, the world unchanged.
TEST_P(WorldValueChecksTest, TheVehiclesFaultsAreRefusedWithTheHostsMessage) {
  const scenarios::Scenario town = scenarios::MakeScenario("town", 200, 3);
  WorldConfig config = town.config;
  config.vehicle_profiles.resize(1);
  TickOptions integrate;
  integrate.integrate = true;
  Snapshot good = town.initial;
  const size_t m = good.vehicles.size();
  ASSERT_GE(m, 20u);
  good.vehicles.profile.assign(m, 0);
  World world(config, GetParam());
  TickResult r;
  world.Step(good, integrate, &r);
  const Snapshot before = world.state();
  ++good.tick;
  const size_t late = m - 2;
  std::vector<std::pair<std::string, std::function<void(VehicleSnapshot&)>>> faults;
  size_t j = 0;
  VisitVehicleColumns(good.vehicles, [&](const ColumnInfo& column, const auto& values) {
    const size_t at = j++;
    if constexpr (std::is_same_v<std::decay_t<decltype(values)>, std::vector<float>>) {
      std::vector<float> bad;
      switch (column.rule.kind) {
        case ColumnRule::Kind::kBounded:
          bad = {NAN, INFINITY, 2.f * column.rule.bound};
          break;
        case ColumnRule::Kind::kSize:
          bad = {NAN, 0.f, 2.f * column.rule.bound};
          break;
        case ColumnRule::Kind::kNonNegative:
          bad = {NAN, -1.f};
          break;
        default:
          break;
      }
      // An optional column the town leaves out comes in with good values (1 m where the rule
      // is a size) and the fault in the late row.
      const float fill = column.rule.kind == ColumnRule::Kind::kSize ? 1.f : 0.f;
      for (const float value : bad) {
        faults.push_back({std::string(column.name) + " = " + std::to_string(value),
                          [at, value, late, fill](VehicleSnapshot& v) {
                            size_t k = 0;
                            VisitVehicleColumns(v, [&](const ColumnInfo&, auto& c) {
                              using T = typename std::decay_t<decltype(c)>::value_type;
                              if (k++ != at) return;
                              if (c.empty()) c.assign(v.size(), static_cast<T>(fill));
                              c[late] = static_cast<T>(value);
                            });
                          }});
      }
    }
  });
  faults.push_back({"spline 999999", [=](VehicleSnapshot& v) { v.spline_id[late] = 999999; }});
  faults.push_back({"profile 2 of 1", [=](VehicleSnapshot& v) { v.profile[late] = 2; }});
  EXPECT_GE(faults.size(), 20u);
  for (const auto& [name, apply] : faults) {
    SCOPED_TRACE(name);
    Snapshot bad = good;
    apply(bad.vehicles);
    ExpectRefusedAsTheHostRefuses(config, world, bad, before.tick);
  }
  EXPECT_EQ(world.state().vehicles.x, before.vehicles.x);
  // The next good tick goes on as in a world that never saw the faults.
  World fresh(config, GetParam());
  TickResult a, b;
  StepBothAfterTheFaults(world, fresh, good, &a, &b);
  EXPECT_EQ(a.vehicles.steering, b.vehicles.steering);
  EXPECT_EQ(a.vehicles.throttle, b.vehicles.throttle);
  EXPECT_EQ(a.agents.vx, b.agents.vx);
}

INSTANTIATE_TEST_SUITE_P(Backends, WorldValueChecksTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference,
                                           BackendKind::kCuda),
                         BackendParamName);

// Records whether each preparation was asked for the checks.
class ChecksRecordingBackend : public testing::CpuForwardingBackend {
 public:
  explicit ChecksRecordingBackend(std::vector<bool>* asked) : asked_(asked) {}
  uint64_t PreparePedestrians(const PedestrianPrepareParams& params,
                              const PedestrianPrepareScene& scene,
                              const PedestrianPrepareOutput& out) override {
    asked_->push_back(params.checks.on);
    return CpuForwardingBackend::PreparePedestrians(params, scene, out);
  }

 private:
  std::vector<bool>* asked_;
};

// A Step's snapshot is checked by the preparation, and so is an Advance's first tick (the
// state the Step left); the ticks after it prepare the world's own moved state, checked
// when it came in. A world with navigation targets likewise (the steering checks the
// navigating rows' targets).
TEST(WorldValueChecksOnTheBackendTest, AskedForExactlyWhereTheHostLeavesTheValuesToIt) {
  TickOptions integrate;
  integrate.integrate = true;
  Snapshot s = Crowd(CrowdSize(BackendKind::kCpu));
  std::vector<bool> asked;
  {
    World world(WorldConfig{}, std::make_unique<ChecksRecordingBackend>(&asked));
    TickResult r;
    world.Step(s, integrate, &r);
    world.Advance(3, 0.1f, &r);
  }
  EXPECT_EQ(asked, (std::vector<bool>{true, true, false, false}));
  asked.clear();
  {
    WorldConfig navigating;
    navigating.navigation_targets = {NavigationTarget(5, {{50.f, 0.f, 0.f}})};
    World world(navigating, std::make_unique<ChecksRecordingBackend>(&asked));
    TickResult r;
    world.Step(s, integrate, &r);
  }
  EXPECT_EQ(asked, (std::vector<bool>{true}));
}

}  // namespace
}  // namespace throng
