// throng-bench: whole world ticks (kernels/world/world.h) on the named scenarios of the
// scenario library, per backend and size, or several backends side by side on identical
// inputs (--compare). Prints a table per scenario and size, writes JSON; no assertions.
//
//   throng-bench --scenario town --size 10000 --backend cpu --ticks 100 --warmup 5
//   throng-bench --scenario random,town --sizes 100000,1000000 --compare cpu,cuda --json r.json
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/machine.h"
#include "bench/world_report.h"
#include "bench/world_run.h"
#include "kernels/backends/backend.h"
#include "kernels/scenarios/scenario.h"

namespace {

using namespace throng;

std::string Join(int argc, char** argv) {
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  return command;
}

// Rewritten after every scenario and size, so a run cut short by a timeout keeps what it
// measured.
void WriteJson(const std::string& path, const std::string& json) {
  if (path.empty()) return;
  std::ofstream out(path);
  out << json;
  if (!out) throw std::runtime_error("cannot write " + path);
}

// Runs `once` `repeats` times and keeps the repetition whose tick medians sum lowest (all
// backends of a comparison together, so its ratios stay within one run): on a shared
// machine other processes only ever add time, so the least disturbed repetition is the
// nearest to what the engine costs. Every repetition's medians stay in the figures.
template <class Once>
std::vector<bench::RunFigures> BestOf(int repeats, std::vector<bench::Skipped>& skipped,
                                      Once once) {
  std::vector<bench::RunFigures> best;
  std::vector<std::vector<double>> medians;  // per backend, per repetition
  double best_sum = 0;
  for (int r = 0; r < repeats; ++r) {
    std::vector<bench::Skipped> ignored;  // the first repetition has said it already
    std::vector<bench::RunFigures> runs = once(r == 0 ? &skipped : &ignored);
    double sum = 0;
    medians.resize(runs.size());
    for (size_t b = 0; b < runs.size(); ++b) {
      sum += runs[b].tick_ms.median;
      medians[b].push_back(runs[b].tick_ms.median);
    }
    if (r == 0 || sum < best_sum) {
      best = std::move(runs);
      best_sum = sum;
    }
  }
  for (size_t b = 0; b < best.size(); ++b) best[b].repeat_tick_medians = medians[b];
  return best;
}

// The file's contents, or "" when it does not exist yet.
std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Whole world ticks on the scenario library, per backend and size"};
  std::vector<std::string> scenario_names{"random"};
  std::vector<size_t> sizes{10000};
  std::vector<std::string> backends{"cpu"}, compare;
  uint32_t seed = 1;
  bench::RunOptions options;
  std::string json_path;
  app.add_option(
         "--scenario,--scenarios", scenario_names,
         "circle, random, corridor, crossing, town, flock, drones, or all (comma-separated)")
      ->delimiter(',');
  app.add_option("--size,--sizes", sizes,
                 "pedestrians asked for (forward agents in flock and drones; comma-separated)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", seed, "scenario seed");
  app.add_option("--backend,--backends", backends,
                 "reference, cpu, cuda, auto: each run on its own (comma-separated)")
      ->delimiter(',');
  auto* compare_opt =
      app.add_option("--compare", compare,
                     "backends side by side on identical inputs; the first sets each next "
                     "snapshot and is the one others are compared with")
          ->delimiter(',');
  app.add_option("--ticks", options.ticks, "timed ticks")->check(CLI::PositiveNumber);
  app.add_option("--warmup", options.warmup, "untimed ticks first")->check(CLI::NonNegativeNumber);
  app.add_option("--budget-s", options.budget_s,
                 "stop timing a run after this many seconds of ticks (at least 3; 0 = none)");
  app.add_option("--json", json_path, "write results as JSON to this file");
  bool append = false;
  int repeats = 1;
  bool suggested = false;
  app.add_flag("--suggested-ticks", suggested,
               "time as many ticks as each scenario suggests (long enough for most agents to "
               "arrive: quality runs) instead of --ticks");
  app.add_option("--repeat", repeats,
                 "run each configuration this many times and keep the least disturbed run "
                 "(lowest median tick; for shared machines)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--append", append, "add to the results already in the --json file");
  CLI11_PARSE(app, argc, argv);
  if (scenario_names.size() == 1 && scenario_names[0] == "all") {
    scenario_names = scenarios::ScenarioNames();
  }

  try {
    // Unknown names are usage errors, found before hours of runs rather than after.
    for (const auto& name : compare_opt->count() ? compare : backends) ParseBackendKind(name);
    // Read once, before any run: each write rewrites the file from it.
    const std::string previous = append ? ReadFile(json_path) : "";
    const bench::MachineInfo machine = bench::DescribeMachine();
    const std::string command = Join(argc, argv);
    if (!previous.empty()) bench::ToJson(machine, command, {}, {}, previous);  // fails early
    std::printf("throng-bench on %s (%s, %d cores, %d OpenMP threads, wait policy %s), %s\n",
                machine.hostname.c_str(), machine.cpu_model.c_str(), machine.cores,
                machine.omp_threads, machine.omp_wait_policy.c_str(), machine.date.c_str());
    std::vector<bench::RunFigures> all;
    std::vector<bench::Skipped> skipped;
    for (const std::string& name : scenario_names) {
      for (size_t size : sizes) {
        const auto t0 = std::chrono::steady_clock::now();
        const scenarios::Scenario scenario = scenarios::MakeScenario(name, size, seed);
        std::printf("\n%s %zu: scenario built in %.1f s\n", name.c_str(), size,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        bench::RunOptions run_options = options;
        if (suggested) run_options.ticks = std::max(1, scenario.suggested_ticks);
        std::vector<bench::RunFigures> runs;
        if (compare_opt->count()) {
          runs = BestOf(repeats, skipped, [&](std::vector<bench::Skipped>* skips) {
            return bench::RunCompare(scenario, compare, run_options, skips);
          });
        } else {
          for (const std::string& backend : backends) {
            const auto best = BestOf(repeats, skipped, [&](std::vector<bench::Skipped>* skips) {
              std::vector<bench::RunFigures> one;
              if (auto f = bench::RunSingle(scenario, backend, run_options, skips)) {
                one.push_back(std::move(*f));
              }
              return one;
            });
            runs.insert(runs.end(), best.begin(), best.end());
          }
        }
        bench::PrintRuns(runs);
        all.insert(all.end(), runs.begin(), runs.end());
        WriteJson(json_path, bench::ToJson(machine, command, all, skipped, previous));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "throng-bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
