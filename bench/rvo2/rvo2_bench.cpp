// throng-bench-rvo2: the RVO2 library and Throng's cpu backend side by side on identical
// inputs (issue 19): throng-bench-orca's circle and random scenes and RVO2's Blocks scene
// tiled, the same preferred-velocity rule, ORCA steps only (RVO2: doStep; Throng:
// SolveOrca plus the two-phase apply, as throng-bench-orca times it). Repetitions
// alternate RVO2, Throng, RVO2, Throng in this process; each side builds its world anew
// per repetition, outside the timing.
//
// --home: whole runs of Blocks instead (issue 35): RVO2 walking straight at each agent's
// mirrored goal, against Throng's world with every agent navigating ("blocks_navigate"),
// ticks until everyone is within 1 m of their goal.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/machine.h"
#include "bench/rvo2/input_hash.h"
#include "bench/rvo2/rvo2_side.h"
#include "bench/timing.h"
#include "kernels/backends/cpu_backend.h"
#include "kernels/scenarios/blocks.h"
#include "kernels/scenarios/crowd.h"
#include "kernels/scenarios/scenario.h"
#include "kernels/world/all_home.h"
#include "kernels/world/world.h"

namespace {

using namespace throng;
using Clock = std::chrono::steady_clock;

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Settings {
  int warmup = 5, steps = 50, reps = 3;
  bool plain = false;          // Throng with PlainRvo2Params instead of its default solve
  bool obstacle_scan = false;  // Throng scans every obstacle edge (before the edge grid)
};

// Median ms per step of one RVO2 run.
double TimeRvo2(const scenarios::CrowdScenario& s, const Settings& set, uint64_t* hash) {
  bench::Rvo2Side rvo2(s);
  *hash = bench::HashInputs(rvo2.Record());
  std::vector<double> ms;
  for (int t = 0; t < set.warmup + set.steps; ++t) {
    if (t > 0) rvo2.SetPreferredVelocities();
    const auto t0 = Clock::now();
    rvo2.Step();
    if (t >= set.warmup) ms.push_back(MsSince(t0));
  }
  return Median(ms);
}

// Median ms per step of one Throng cpu run, timed as throng-bench-orca times it.
double TimeThrong(Backend& backend, scenarios::CrowdScenario s, const Settings& set,
                  uint64_t* hash) {
  *hash = bench::HashInputs(bench::RecordOf(s));
  if (set.plain) s.scene.params = PlainRvo2Params(s.scene.params);
  backend.SetObstacles(s.scene.obstacles);
  OrcaResult r;
  std::vector<double> ms;
  for (int t = 0; t < set.warmup + set.steps; ++t) {
    scenarios::UpdatePreferredVelocities(s);
    const auto t0 = Clock::now();
    backend.SolveOrca(s.scene.params, s.scene.agents, {}, &r);
    scenarios::ApplyVelocities(s.scene.agents, r, s.scene.params.time_step);
    if (t >= set.warmup) ms.push_back(MsSince(t0));
  }
  return Median(ms);
}

struct Row {
  std::string scene;
  size_t agents = 0, polygons = 0;
  std::vector<double> rvo2_ms, throng_ms;  // one median per repetition
};

bool RunScene(Backend& backend, const std::string& name, const scenarios::CrowdScenario& s,
              const Settings& set, std::vector<Row>* rows) {
  Row row{name, s.scene.agents.size(), s.scene.obstacles.size(), {}, {}};
  for (int rep = 0; rep < set.reps; ++rep) {
    uint64_t h_rvo2 = 0, h_throng = 0;
    row.rvo2_ms.push_back(TimeRvo2(s, set, &h_rvo2));
    row.throng_ms.push_back(TimeThrong(backend, s, set, &h_throng));
    std::printf("  %-7s %8zu rep %d: rvo2 %9.3f ms  throng %9.3f ms  input hash %016" PRIx64
                " / %016" PRIx64 "%s\n",
                name.c_str(), row.agents, rep, row.rvo2_ms.back(), row.throng_ms.back(), h_rvo2,
                h_throng, h_rvo2 == h_throng ? " (equal)" : " MISMATCH");
    std::fflush(stdout);
    if (h_rvo2 != h_throng) return false;
  }
  rows->push_back(std::move(row));
  return true;
}

// Ticks until every agent of a k x k Blocks tiling is within 1 m of its mirrored goal, on
// RVO2 (straight at the goal) and on Throng's world navigating; 0: not within `limit`.
struct HomeRun {
  int ticks = 0;
  size_t home = 0;
  double seconds = 0;
};

HomeRun Rvo2Home(size_t k, int limit) {
  scenarios::CrowdScenario s = scenarios::Blocks(k, k);
  s.goals = scenarios::BlocksMirroredGoals(s);
  const auto t0 = Clock::now();
  bench::Rvo2Side rvo2(s);
  HomeRun run;
  for (int t = 1; t <= limit; ++t) {
    if (t > 1) rvo2.SetPreferredVelocities();
    rvo2.Step();
    run.home = rvo2.AtGoals(1.f);
    if (run.home == s.scene.agents.size()) {
      run.ticks = t;
      break;
    }
  }
  run.seconds = MsSince(t0) / 1000.0;
  return run;
}

HomeRun ThrongHome(const std::string& scenario, size_t k, int limit) {
  const scenarios::Scenario s = scenarios::MakeScenario(scenario, 100 * k * k, 1);
  const auto t0 = Clock::now();
  const AllHomeRun throng = RunUntilAllHome(s.config, s.initial, BackendKind::kCpu, limit);
  HomeRun run;
  run.ticks = throng.ticks;
  run.home = throng.home;
  run.seconds = MsSince(t0) / 1000.0;
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"RVO2 and Throng's cpu backend side by side on the same inputs"};
  std::vector<std::string> scenes{"circle", "random", "blocks"};
  std::vector<size_t> sizes{1000, 10000, 100000};
  std::vector<size_t> tiles{1, 10, 32};
  uint32_t seed = 1;
  Settings set;
  app.add_option("--scenes", scenes, "circle, random, blocks")->delimiter(',');
  app.add_option("--sizes", sizes, "agent counts of circle and random")->delimiter(',');
  app.add_option("--tiles", tiles, "blocks tilings: k means k x k tiles, 100 agents each")
      ->delimiter(',');
  app.add_option("--seed", seed, "random scene seed (throng-bench-orca's default: 1)");
  app.add_option("--warmup", set.warmup, "untimed steps first");
  app.add_option("--steps", set.steps, "timed steps (median reported)")->check(CLI::PositiveNumber);
  app.add_option("--reps", set.reps, "alternated repetitions (RVO2, Throng, RVO2, ...)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--plain", set.plain, "Throng with PlainRvo2Params (RVO2's rules)");
  bool home = false;
  int home_limit = 10000;
  app.add_flag("--home", home,
               "whole Blocks runs until everyone is home: RVO2 straight, Throng navigating");
  app.add_option("--home-limit", home_limit, "ticks a --home run may take");
  app.add_flag("--obstacle-scan", set.obstacle_scan,
               "Throng scans every obstacle edge instead of its edge grid (same results)");
  CLI11_PARSE(app, argc, argv);

  const bench::MachineInfo m = bench::DescribeMachine();
  std::printf("machine: %s, %s, %d cores, %d OpenMP threads, OMP_WAIT_POLICY %s, %s\n",
              m.hostname.c_str(), m.cpu_model.c_str(), m.cores, m.omp_threads,
              m.omp_wait_policy.c_str(), m.date.c_str());
  std::printf(
      "%d warm-up + %d timed steps, %d repetitions alternated in one process; Throng %s%s\n",
      set.warmup, set.steps, set.reps, set.plain ? "plain-RVO2 rules" : "default solve",
      set.obstacle_scan ? ", obstacle edges scanned" : ", obstacle edge grid");
  if (home) {
    std::printf(
        "Blocks, whole runs: ticks (dt 0.25 s) until every agent is within 1 m of its "
        "mirrored goal (0: not within %d)\n",
        home_limit);
    std::printf("%6s %7s | %22s | %22s\n", "tiles", "agents", "RVO2 straight", "Throng navigating");
    for (size_t k : tiles) {
      const HomeRun a = Rvo2Home(k, home_limit);
      const HomeRun b = ThrongHome("blocks_navigate", k, home_limit);
      std::printf("%3zu x%-2zu %7zu | %6d ticks %4zu home %5.0f s | %6d ticks %4zu home %5.0f s\n",
                  k, k, 100 * k * k, a.ticks, a.home, a.seconds, b.ticks, b.home, b.seconds);
      std::fflush(stdout);
    }
    return 0;
  }
  const std::unique_ptr<Backend> backend = bench::TryCreateBackend("cpu");
  if (!backend) return 1;
  dynamic_cast<CpuBackend&>(*backend).UseEdgeGrid(!set.obstacle_scan);

  std::vector<Row> rows;
  for (const std::string& scene : scenes) {
    if (scene == "blocks") {
      for (size_t k : tiles) {
        if (!RunScene(*backend, scene, scenarios::Blocks(k, k), set, &rows)) return 2;
      }
      continue;
    }
    if (scene != "circle" && scene != "random") {
      std::fprintf(stderr, "unknown scene %s\n", scene.c_str());
      return 1;
    }
    for (size_t n : sizes) {
      const scenarios::CrowdScenario s =
          scene == "circle" ? scenarios::Circle(n) : scenarios::Random(n, seed);
      if (!RunScene(*backend, scene, s, set, &rows)) return 2;
    }
  }

  std::printf(
      "\n| scene | agents | polygons | RVO2 ms/step | Throng ms/step | RVO2 / Throng (range) |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    std::vector<double> ratios;
    for (size_t i = 0; i < r.rvo2_ms.size(); ++i) ratios.push_back(r.rvo2_ms[i] / r.throng_ms[i]);
    const double rvo2 = Median(r.rvo2_ms), throng = Median(r.throng_ms);
    std::printf("| %s | %zu | %zu | %.3f | %.3f | %.2fx (%.2f-%.2f) |\n", r.scene.c_str(), r.agents,
                r.polygons, rvo2, throng, rvo2 / throng,
                *std::min_element(ratios.begin(), ratios.end()),
                *std::max_element(ratios.begin(), ratios.end()));
  }
  return 0;
}
