// Parallel backends against the independent reference, and determinism, on seeded
// random scenes (docs/ORCA.md is the contract both follow).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/backends/backend.h"
#include "tests/backends/backend_param.h"
#include "tests/orca/orca_scenes.h"

namespace throng {
namespace {

class OrcaEquivalenceTest : public testing::BackendParamTest {};

// Velocity tolerance: float against double through the same branches; an agent whose
// solve sits on a branch boundary (a near-tie in neighbour order, a near-parallel line)
// can legitimately take the other branch, so a small share of mismatches is allowed and
// every one is counted and printed.
constexpr float kVelocityTolerance = 1e-3f;  // m/s
constexpr double kMaxMismatchShare = 1e-3;   // 99.9% of agents must match
constexpr float kLargeDifference = 0.1f;     // m/s: a mismatch this large is counted apart

// What a comparison of one backend with the reference counts, over many scenes.
struct Tally {
  size_t agents = 0, velocity_mismatches = 0, large_mismatches = 0, status_mismatches = 0;
  size_t count_mismatches = 0, flag_mismatches = 0, constraint_mismatches = 0;
  size_t kept_mismatches = 0;  // agents whose kept neighbours are not the same set
  // Scenes where the shrunk scan answered differently from the full one (must be none),
  // and the candidates each read.
  size_t shrunk_mismatches = 0;
  uint64_t candidates_read = 0, candidates_all = 0;
  size_t emergencies = 0, emergency_mismatches = 0;
  float worst = 0.f, worst_feasible = 0.f;  // worst_feasible: outside the reference's emergencies
  uint64_t statuses[kSolveStatusCount] = {0, 0, 0};  // the reference's

  double Share() const {
    return static_cast<double>(velocity_mismatches) / static_cast<double>(agents);
  }

  // Solves `scene` on both and counts; a non-finite velocity, or a cooperative agent above
  // its speed, fails the test there.
  void Compare(Backend& parallel, Backend& reference, const OrcaScene& scene, uint32_t seed) {
    parallel.SetObstacles(scene.obstacles);
    reference.SetObstacles(scene.obstacles);
    OrcaResult got, want;
    OrcaRunOptions run;
    run.record_kept = true;
    run.count_every_candidate = true;  // counts comparable with the reference's
    parallel.SolveOrca(scene.params, scene.agents, run, &got);
    reference.SolveOrca(scene.params, scene.agents, run, &want);
    // The default scan, shrunk to each full list (docs/ORCA.md), keeps the same neighbours
    // and so answers the same, bit for bit, having read at most as many candidates.
    OrcaResult shrunk;
    run.count_every_candidate = false;
    parallel.SolveOrca(scene.params, scene.agents, run, &shrunk);
    shrunk_mismatches += shrunk.vx != got.vx || shrunk.vy != got.vy ||
                         shrunk.status != got.status || shrunk.kept_ids != got.kept_ids ||
                         shrunk.neighbors != got.neighbors ||
                         shrunk.constraints != got.constraints ||
                         shrunk.solve_flags != got.solve_flags;
    for (size_t i = 0; i < got.candidates.size(); ++i) {
      EXPECT_LE(shrunk.candidates[i], got.candidates[i]) << "seed " << seed << " agent " << i;
      EXPECT_GE(shrunk.candidates[i], shrunk.neighbors[i]) << "seed " << seed << " agent " << i;
      candidates_read += shrunk.candidates[i];
      candidates_all += got.candidates[i];
    }
    const size_t n = scene.agents.size();
    const auto k = static_cast<size_t>(scene.params.max_neighbors);
    ASSERT_EQ(got.vx.size(), n);
    ASSERT_EQ(got.kept_ids.size(), n * k);
    ASSERT_EQ(want.kept_ids.size(), n * k);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(std::isfinite(got.vx[i]) && std::isfinite(got.vy[i]))
          << "seed " << seed << " agent " << i;
      if (!(scene.agents.flags[i] & kAgentNonCooperative)) {
        EXPECT_LE(std::hypot(got.vx[i], got.vy[i]), scene.agents.max_speed[i] * 1.001f)
            << "seed " << seed << " agent " << i << " status " << int(got.status[i]) << " flags "
            << int(got.solve_flags[i]) << " ref " << std::hypot(want.vx[i], want.vy[i]);
      }
      const float d = std::hypot(got.vx[i] - want.vx[i], got.vy[i] - want.vy[i]);
      const bool emergency = want.status[i] == static_cast<uint8_t>(SolveStatus::kEmergency);
      worst = std::max(worst, d);
      if (!emergency) worst_feasible = std::max(worst_feasible, d);
      velocity_mismatches += d > kVelocityTolerance;
      large_mismatches += d > kLargeDifference;
      emergencies += emergency;
      emergency_mismatches += emergency && d > kVelocityTolerance;
      status_mismatches += got.status[i] != want.status[i];
      count_mismatches +=
          got.neighbors[i] != want.neighbors[i] || got.candidates[i] != want.candidates[i];
      flag_mismatches += got.solve_flags[i] != want.solve_flags[i];
      constraint_mismatches += got.constraints[i] != want.constraints[i];
      // The same neighbours kept, in whatever order each backend keeps them.
      std::vector<uint32_t> a(got.kept_ids.begin() + i * k, got.kept_ids.begin() + (i + 1) * k);
      std::vector<uint32_t> b(want.kept_ids.begin() + i * k, want.kept_ids.begin() + (i + 1) * k);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      kept_mismatches += a != b;
    }
    for (int s = 0; s < kSolveStatusCount; ++s) statuses[s] += want.status_count[s];
    agents += n;
  }

  void Print(const char* what, BackendKind kind, int scenes) const {
    std::printf(
        "[ figures  ] %s vs reference, %s: %zu agents in %d scenes, velocity mismatches %zu "
        "(%.4f%%, tolerance %.0e m/s), %zu above %.1f m/s, largest %.3g m/s, %.3g m/s outside "
        "emergencies (emergencies: %zu of %zu differ); status mismatches %zu, neighbour-count "
        "%zu, kept-neighbour sets %zu, solve-flag %zu, constraint-count %zu; reference statuses "
        "ok %llu, safe_stop %llu, emergency %llu\n",
        std::string(BackendName(kind)).c_str(), what, agents, scenes, velocity_mismatches,
        100.0 * Share(), kVelocityTolerance, large_mismatches, kLargeDifference, worst,
        worst_feasible, emergency_mismatches, emergencies, status_mismatches, count_mismatches,
        kept_mismatches, flag_mismatches, constraint_mismatches,
        static_cast<unsigned long long>(statuses[0]), static_cast<unsigned long long>(statuses[1]),
        static_cast<unsigned long long>(statuses[2]));
    std::printf("[ figures  ] %s, %s: the shrunk scan read %llu of %llu candidates (%.1f%%), "
                "%zu scenes answered differently from the full scan\n",
                std::string(BackendName(kind)).c_str(), what,
                static_cast<unsigned long long>(candidates_read),
                static_cast<unsigned long long>(candidates_all),
                candidates_all ? 100.0 * candidates_read / candidates_all : 0.0, shrunk_mismatches);
  }
};

TEST_P(OrcaEquivalenceTest, matches_the_reference_on_200_random_scenes) {
  auto parallel = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  std::mt19937 sizes(99);
  Tally t;
  for (uint32_t seed = 1; seed <= 200; ++seed) {
    // 100 to 5,000 agents, log-uniform so that most scenes stay quick.
    const size_t n = static_cast<size_t>(100.0 * std::pow(50.0, (sizes() % 1000) / 999.0));
    t.Compare(*parallel, *reference, testing::RandomOrcaScene(seed, n), seed);
    if (HasFatalFailure()) return;
  }
  t.Print("squares and walls", GetParam(), 200);
  EXPECT_LE(t.Share(), kMaxMismatchShare);
  // Bounded in size and kind too, about 2x the figures measured on 2026-12-03 (cpu: 121
  // velocity mismatches, 10 of them above 0.1 m/s, largest 1.84 m/s in an emergency and
  // 1.0 m/s elsewhere; statuses 0; neighbour counts 2; solve flags 1; constraint counts 0).
  EXPECT_EQ(t.status_mismatches, 0u);
  EXPECT_EQ(t.shrunk_mismatches, 0u);
  EXPECT_LT(t.candidates_read, t.candidates_all) << "the scenes must let the scan shrink";
  EXPECT_LE(t.large_mismatches, 20u);
  EXPECT_LE(t.count_mismatches, 5u);
  EXPECT_LE(t.kept_mismatches, 2u);  // measured 0 (2026-12-03)
  EXPECT_LE(t.flag_mismatches, 3u);
  EXPECT_LE(t.constraint_mismatches, 5u);
  // The scenes must exercise every outcome, or the comparison proves little.
  EXPECT_GT(t.statuses[1], 0u);
  EXPECT_GT(t.statuses[2], 0u);
}

// Rotated rectangles and concave stars, and every rule parameter varied by seed
// (testing::RandomShapeScene): the same comparison on 100 scenes of 100 to 2,000 agents.
TEST_P(OrcaEquivalenceTest,
       matches_the_reference_with_rotated_and_star_obstacles_and_varied_rules) {
  auto parallel = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  std::mt19937 sizes(7);
  Tally t;
  for (uint32_t seed = 1; seed <= 100; ++seed) {
    const size_t n = static_cast<size_t>(100.0 * std::pow(20.0, (sizes() % 1000) / 999.0));
    t.Compare(*parallel, *reference, testing::RandomShapeScene(seed, n), seed);
    if (HasFatalFailure()) return;
  }
  t.Print("rotated and star obstacles, rules varied", GetParam(), 100);
  // Measured on cpu (2026-12-03): 25 mismatches (0.04%), 3 above 0.1 m/s, largest
  // 0.62 m/s, no status apart. With shorten_horizon off in every scene, 9 statuses differ
  // (a safe-stop test on a near-tie); the bound allows that. Before the reference took
  // rvo2_fallback as the fallback alone, 18% of these agents differed.
  EXPECT_LE(t.Share(), kMaxMismatchShare);
  EXPECT_LE(t.large_mismatches, 6u);
  EXPECT_LE(t.status_mismatches, 10u);
  EXPECT_EQ(t.shrunk_mismatches, 0u);
  EXPECT_LE(t.kept_mismatches, 2u);  // measured 0 (2026-12-03)
  EXPECT_GT(t.statuses[1], 0u);
  EXPECT_GT(t.statuses[2], 0u);
}

uint64_t Hash(const OrcaResult& r) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  mix(r.vx.data(), r.vx.size() * 4);
  mix(r.vy.data(), r.vy.size() * 4);
  mix(r.status.data(), r.status.size());
  mix(r.solve_flags.data(), r.solve_flags.size());
  mix(r.neighbors.data(), r.neighbors.size() * 2);
  return h;
}

TEST_P(OrcaEquivalenceTest, repeated_runs_are_bit_identical_with_any_thread_count) {
  const OrcaScene scene = testing::RandomOrcaScene(4242, 5000);
  auto backend = CreateBackend(GetParam());
  backend->SetObstacles(scene.obstacles);
  const int threads_before = omp_get_max_threads();
  uint64_t first = 0;
  for (int threads : {1, 2, 3, 4}) {
    omp_set_num_threads(threads);
    for (int repeat = 0; repeat < 2; ++repeat) {
      OrcaResult r;
      backend->SolveOrca(scene.params, scene.agents, {}, &r);
      const uint64_t h = Hash(r);
      if (first == 0) first = h;
      EXPECT_EQ(h, first) << threads << " threads, repeat " << repeat;
    }
  }
  omp_set_num_threads(threads_before);
}

TEST_P(OrcaEquivalenceTest, audit_finds_no_false_negatives) {
  const OrcaScene scene = testing::RandomOrcaScene(77, 3000);
  auto backend = CreateBackend(GetParam());
  backend->SetObstacles(scene.obstacles);
  OrcaResult r;
  OrcaRunOptions options;
  options.audit_every = 7;
  backend->SolveOrca(scene.params, scene.agents, options, &r);
  EXPECT_GT(r.audited_agents, 3000u / 7 - 200);  // non-cooperative agents are not audited
  EXPECT_EQ(r.audited_false_negatives, 0u);
}

// Far from the origin floats are coarse: the grid's cell bounds and its cell lookup round
// apart, and a trimmed scan must still never drop a candidate. Every agent is audited.
TEST_P(OrcaEquivalenceTest, audit_finds_no_false_negatives_far_from_the_origin) {
  auto backend = CreateBackend(GetParam());
  backend->SetObstacles({});
  // Up to the coordinate limit (kernels/input/input_limits.h: 2,000 km), where a float steps by
  // 0.125 m: cells and wrapped buckets must still miss nobody.
  for (const float offset : {4e5f, 1.2e6f, -1.9e6f}) {
    OrcaScene scene = testing::RandomOrcaScene(31, 2000);
    for (size_t i = 0; i < scene.agents.size(); ++i) {
      scene.agents.px[i] += offset;
      scene.agents.py[i] -= offset;
    }
    scene.params.neighbor_dist = 15.f;
    OrcaResult r;
    OrcaRunOptions options;
    options.audit_every = 1;
    backend->SolveOrca(scene.params, scene.agents, options, &r);
    EXPECT_GT(r.audited_agents, 1800u) << "offset " << offset;
    EXPECT_EQ(r.audited_false_negatives, 0u) << "offset " << offset;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, OrcaEquivalenceTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
