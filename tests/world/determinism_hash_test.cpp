// Committed determinism hashes (as Box2D's determinism test keeps them): every scenario,
// run for a fixed number of ticks on each backend, must give the hash committed in
// determinism_hashes.h. Repeats being bit-identical (world_scenario_test.cpp) cannot see a
// change that alters results deterministically; this test does. A change that alters
// results on purpose updates the hashes in the same commit:
//
//   scripts/update_determinism_hashes [BUILD_DIR]
//
// The hashes cover every result column and every column of the world's state
// (kernels/world/column_tables.h), tick by tick, and the tick's counts. They hold for
// one kind of machine (x86-64, Debian 12's compiler and libm); docs/BUILDING.md says when
// to expect them to move.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/scenarios/scenario.h"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"
#include "tests/world/determinism_hashes.h"
#include "tests/world/tick_hash.h"

namespace throng {
namespace {

constexpr size_t kAgents = 200;
constexpr uint32_t kSeed = 5;
constexpr int kTicks = 60;

uint64_t HashRun(const std::string& scenario_name, BackendKind backend) {
  const scenarios::Scenario s = scenarios::MakeScenario(scenario_name, kAgents, kSeed);
  World world(s.config, backend);
  TickOptions options;
  options.integrate = true;
  options.local_results = true;  // every result column is hashed
  TickResult r;
  Fnv1a hash;
  world.Step(s.initial, options, &r);
  MixTick(world, r, &hash);
  for (int t = 1; t < kTicks; ++t) {
    world.Advance(1, s.initial.dt, &r, options);
    MixTick(world, r, &hash);
  }
  return hash.h;
}

const DeterminismHash* Committed(const std::string& scenario, BackendKind backend) {
  for (const DeterminismHash& d : kDeterminismHashes) {
    if (scenario == d.scenario && BackendName(backend) == d.backend) return &d;
  }
  return nullptr;
}

class DeterminismHashTest : public testing::ScenarioBackendTest {};

TEST_P(DeterminismHashTest, MatchesTheCommittedHash) {
  const auto& [scenario, backend] = GetParam();
  const uint64_t got = HashRun(scenario, backend);
  // scripts/update_determinism_hashes reads these lines.
  std::printf("determinism-hash: {\"%s\", \"%s\", 0x%016" PRIx64 "ull},\n", scenario.c_str(),
              std::string(BackendName(backend)).c_str(), got);
  if (std::getenv("THRONG_PRINT_HASHES") != nullptr) return;
  const DeterminismHash* want = Committed(scenario, backend);
  ASSERT_NE(want, nullptr) << "no committed hash for " << scenario << " on "
                           << BackendName(backend)
                           << ": run scripts/update_determinism_hashes and commit it";
  EXPECT_EQ(got, want->hash) << scenario << " on " << BackendName(backend)
                             << " no longer gives the committed results. If the change is "
                                "meant, run scripts/update_determinism_hashes and commit the "
                                "new hashes with it";
}

INSTANTIATE_TEST_SUITE_P(Scenarios, DeterminismHashTest,
                         ::testing::Combine(::testing::ValuesIn(scenarios::ScenarioNames()),
                                            ::testing::Values(BackendKind::kCpu,
                                                              BackendKind::kReference,
                                                              BackendKind::kCuda)),
                         testing::ScenarioBackendName);

}  // namespace
}  // namespace throng
