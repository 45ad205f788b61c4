// The forward agents' values are checked by their preparation, which reads them anyway
// (ValidateSnapshot's forward_values_on_backend, ForwardChecksForPreparation; docs/WORLD.md,
// "Where the checks run"): in a flock (a ground fan) and among drones (a cone), a Step
// refuses every fault the host's checks refuse, placed in a late row, with the host's
// message, on every backend, and leaves the world as it was; the values at the rules' edges
// pass; and the preparation is asked for the checks exactly where the host leaves the
// values to it.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/scenarios/scenario.h"
#include "kernels/world/column_tables.h"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"
#include "tests/backends/cpu_forwarding_backend.h"
#include "tests/world/refused_as_the_host.h"

namespace throng {
namespace {

struct Fault {
  std::string name;
  std::function<void(ForwardSnapshot&)> apply;
};

// A good value for each optional column the scenes leave out, so that the fault is in one
// row of a column every row has: the agent's own place for the goals, the world's defaults
// for the fan's settings.
void FillOptionalColumns(ForwardSnapshot& f) {
  const size_t n = f.size();
  f.radius.assign(n, 0.4f);
  f.goal_x = f.x;
  f.goal_y = f.y;
  f.goal_z.assign(n, 5.f);
  f.probes.assign(n, 9);
  f.half_angle.assign(n, 1.f);
  f.probe_length.assign(n, 8.f);
  f.turn_speed.assign(n, 3.f);
}

// Each bounded float column with the values its rule refuses, then the rules by hand, each
// in row `late`; `ground`: the world's fan stays in the ground plane.
std::vector<Fault> Faults(const ForwardSnapshot& shape, size_t late, bool ground) {
  std::vector<Fault> faults;
  size_t j = 0;
  VisitForwardColumns(shape, [&](const ColumnInfo& column, const auto& values) {
    const size_t at = j++;
    if constexpr (std::is_same_v<std::decay_t<decltype(values)>, std::vector<float>>) {
      if (column.rule.kind != ColumnRule::Kind::kBounded) return;
      for (const float value : {NAN, INFINITY, 2.f * column.rule.bound, -2.f * column.rule.bound}) {
        faults.push_back({std::string(column.name) + " = " + std::to_string(value),
                          [at, value, late](ForwardSnapshot& f) {
                            size_t k = 0;
                            VisitForwardColumns(f, [&](const ColumnInfo&, auto& c) {
                              using T = typename std::decay_t<decltype(c)>::value_type;
                              if (k++ == at) c[late] = static_cast<T>(value);
                            });
                          }});
      }
    }
  });
  auto set = [&](std::string name, std::vector<float> ForwardSnapshot::*column,
                 std::vector<float> values) {
    for (const float v : values) {
      faults.push_back(
          {name + " = " + std::to_string(v), [=](ForwardSnapshot& f) { (f.*column)[late] = v; }});
    }
  };
  set("speed", &ForwardSnapshot::speed, {0.f, -1.f, 1e-4f});
  set("radius", &ForwardSnapshot::radius, {NAN, 0.f, 1e-4f, 200.f, -1.f});
  set("half_angle", &ForwardSnapshot::half_angle, {NAN, 0.f, -1.f, 3.15f, INFINITY});
  set("probe_length", &ForwardSnapshot::probe_length, {NAN, 0.f, 2e4f, -8.f});
  set("turn_speed", &ForwardSnapshot::turn_speed, {NAN, -1.f, 2e3f, INFINITY});
  for (const uint32_t probes : {0u, 65u, 4000000000u}) {
    faults.push_back({"probes = " + std::to_string(probes),
                      [=](ForwardSnapshot& f) { f.probes[late] = probes; }});
  }
  faults.push_back({"no heading", [=](ForwardSnapshot& f) {
                      f.forward_x[late] = f.forward_y[late] = f.forward_z[late] = 0.f;
                    }});
  faults.push_back({"a heading too short to be one", [=](ForwardSnapshot& f) {
                      f.forward_x[late] = 1e-7f;
                      f.forward_y[late] = f.forward_z[late] = 0.f;
                    }});
  if (ground) {
    faults.push_back({"straight up in a ground fan", [=](ForwardSnapshot& f) {
                        f.forward_x[late] = f.forward_y[late] = 0.f;
                        f.forward_z[late] = 1.f;
                      }});
  }
  return faults;
}

// The values at the edges of the rules, each accepted by the host and the backend.
std::vector<Fault> Edges(size_t late, bool ground) {
  std::vector<Fault> edges = {
      {"half_angle = float(pi)", [=](ForwardSnapshot& f) { f.half_angle[late] = 3.14159274f; }},
      {"probes = 64", [=](ForwardSnapshot& f) { f.probes[late] = 64; }},
      {"probes = 1", [=](ForwardSnapshot& f) { f.probes[late] = 1; }},
      {"speed = 0.001", [=](ForwardSnapshot& f) { f.speed[late] = 1e-3f; }},
      {"radius = 100", [=](ForwardSnapshot& f) { f.radius[late] = 100.f; }},
      {"turn_speed = 0", [=](ForwardSnapshot& f) { f.turn_speed[late] = 0.f; }},
      {"probe_length = 10000", [=](ForwardSnapshot& f) { f.probe_length[late] = 1e4f; }},
  };
  if (!ground) {
    edges.push_back({"straight up in a cone", [=](ForwardSnapshot& f) {
                       f.forward_x[late] = f.forward_y[late] = 0.f;
                       f.forward_z[late] = 1.f;
                     }});
  }
  return edges;
}

class ForwardValueChecksTest : public testing::ScenarioBackendTest {};

TEST_P(ForwardValueChecksTest, EveryFaultIsRefusedWithTheHostsMessageAndChangesNothing) {
  const bool ground = scene() == "flock";
  const scenarios::Scenario scenario = scenarios::MakeScenario(scene(), 300, 2);
  const WorldConfig& config = scenario.config;
  TickOptions integrate;
  integrate.integrate = true;
  Snapshot good = scenario.initial;
  FillOptionalColumns(good.forward);
  const size_t late = good.forward.size() - 3;
  World world(config, backend());
  TickResult r;
  world.Step(good, integrate, &r);
  const Snapshot before = world.state();
  ++good.tick;
  const std::vector<Fault> faults = Faults(good.forward, late, ground);
  EXPECT_GE(faults.size(), 60u);
  for (const Fault& fault : faults) {
    SCOPED_TRACE(fault.name);
    Snapshot bad = good;
    fault.apply(bad.forward);
    ExpectRefusedAsTheHostRefuses(config, world, bad, before.tick);
  }
  EXPECT_EQ(world.state().forward.x, before.forward.x);
  EXPECT_EQ(world.state().forward.forward_x, before.forward.forward_x);

  // The next good tick goes on as in a world that never saw the faults, and so does an
  // Advance after it.
  World fresh(config, backend());
  TickResult a, b;
  StepBothAfterTheFaults(world, fresh, good, &a, &b);
  EXPECT_EQ(a.forward.move_x, b.forward.move_x);
  EXPECT_EQ(a.forward.probe, b.forward.probe);
  world.Advance(3, 0.1f, &a);
  fresh.Advance(3, 0.1f, &b);
  EXPECT_EQ(a.forward.move_x, b.forward.move_x);
  EXPECT_EQ(world.state().forward.x, fresh.state().forward.x);

  // The values at the rules' edges pass both checks.
  good.tick = world.state().tick + 1;
  for (const Fault& edge : Edges(late, ground)) {
    SCOPED_TRACE(edge.name);
    Snapshot fine = good;
    edge.apply(fine.forward);
    EXPECT_NO_THROW(ValidateSnapshot(config, fine, true, good.tick - 1));
    TickResult accepted;
    TickOptions look;
    try {
      World edge_world(config, backend());
      edge_world.Step(fine, look, &accepted);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "refused: " << e.what();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ForwardValueChecksTest,
                         ::testing::Combine(::testing::Values("flock", "drones"),
                                            ::testing::Values(BackendKind::kCpu,
                                                              BackendKind::kReference,
                                                              BackendKind::kCuda)),
                         testing::ScenarioBackendName);

// Records whether each forward preparation was asked for the checks.
class ForwardChecksRecordingBackend : public testing::CpuForwardingBackend {
 public:
  explicit ForwardChecksRecordingBackend(std::vector<bool>* asked) : asked_(asked) {}
  uint64_t PrepareForwardScene(const ForwardPrepareParams& params,
                               const ForwardPrepareScene& scene) override {
    asked_->push_back(params.checks.on);
    return CpuForwardingBackend::PrepareForwardScene(params, scene);
  }

 private:
  std::vector<bool>* asked_;
};

// A Step's forward agents are checked by the preparation, and so are an Advance's first
// tick's (the state the Step left); the ticks after it prepare the world's own moved state,
// checked when it came in; a Step after them is checked again.
TEST(ForwardValueChecksOnTheBackendTest, AskedForExactlyWhereTheHostLeavesTheValuesToIt) {
  const scenarios::Scenario flock = scenarios::MakeScenario("flock", 100, 1);
  TickOptions integrate;
  integrate.integrate = true;
  std::vector<bool> asked;
  World world(flock.config, std::make_unique<ForwardChecksRecordingBackend>(&asked));
  TickResult r;
  world.Step(flock.initial, integrate, &r);
  world.Advance(3, 0.1f, &r);
  Snapshot next = world.state();
  ++next.tick;
  world.Step(next, integrate, &r);
  EXPECT_EQ(asked, (std::vector<bool>{true, true, false, false, true}));
}

}  // namespace
}  // namespace throng
