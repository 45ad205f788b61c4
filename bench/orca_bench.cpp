// throng-bench-orca: whole ORCA steps (grid, neighbours, solve, re-validation, apply) on
// the circle and random scenarios, per backend and size, with quality figures and an
// optional plain-RVO2 baseline run on identical inputs. Prints a table, writes JSON.
// --layer-cost times the jam layer against no layer on the same inputs, tick by tick.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "bench/timing.h"
#include "kernels/backends/backend.h"
#include "kernels/backends/cpu_backend.h"
#include "kernels/scenarios/blocks.h"
#include "kernels/scenarios/crowd.h"

namespace {

using namespace throng;

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Figures {
  std::string backend, scenario, variant;
  size_t agents = 0;
  int ticks = 0;
  double grid = 0, neighbors = 0, solve = 0, revalidate = 0, transfer = 0, apply = 0, total = 0,
         p90_total = 0;
  uint64_t colliding_pair_steps = 0;
  float min_ratio = 1e9f;
  uint64_t statuses[kSolveStatusCount] = {0, 0, 0};
  size_t at_goal = 0;
  // --layer-cost: the step with the layer off, on the same inputs each tick, and the median
  // of the per-tick ratios (layer on / off).
  double off_total = 0, off_solve = 0, off_revalidate = 0, cost_ratio = 0;
};

// Overrides of the throng variant's OrcaParams, for measuring one rule at a time.
struct ParamOverrides {
  float contact_margin_ratio = -1.f;  // < 0: the default
  int revalidate_passes = 0;          // 0: the default
  bool no_revalidate_fallback = false;
  bool no_jam_step = false;
  int right_of_way = -1;   // < 0: the default
  int headway_speed = -1;  // < 0: the default
  float follower_weight = -1.f;  // < 0: the default
  int standing_detour = -1;      // < 0: the default
  int corner_lines = -1;         // < 0: the default
  int squeeze_step = -1;         // < 0: the default
  // Issue 41's "layer off": every rule of the jam layer switched off.
  static void LayerOff(OrcaParams* p) {
    p->jam_step = false;
    p->right_of_way = false;
    p->headway_speed = false;
    p->follower_weight = 0.f;
    p->standing_detour = false;
    p->squeeze_step = false;
  }
  void Apply(OrcaParams* p) const {
    if (no_jam_step) p->jam_step = false;
    if (right_of_way >= 0) p->right_of_way = right_of_way != 0;
    if (headway_speed >= 0) p->headway_speed = headway_speed != 0;
    if (follower_weight >= 0.f) p->follower_weight = follower_weight;
    if (standing_detour >= 0) p->standing_detour = standing_detour != 0;
    if (corner_lines >= 0) p->corner_lines = corner_lines != 0;
    if (squeeze_step >= 0) p->squeeze_step = squeeze_step != 0;
    if (contact_margin_ratio >= 0.f) p->contact_margin_ratio = contact_margin_ratio;
    if (revalidate_passes > 0) p->revalidate_passes = revalidate_passes;
    if (no_revalidate_fallback) p->revalidate_fallback = false;
  }
};

Figures Run(Backend& backend, scenarios::CrowdScenario s, int warmup, int ticks, bool baseline,
            bool measure_overlaps, const ParamOverrides& overrides, bool layer_cost) {
  using Clock = std::chrono::steady_clock;
  Figures f;
  f.agents = s.scene.agents.size();
  f.ticks = ticks;
  if (baseline) {
    s.scene.params = PlainRvo2Params(s.scene.params);
  } else {
    overrides.Apply(&s.scene.params);
  }
  backend.SetObstacles(s.scene.obstacles);
  OrcaParams off_params = s.scene.params;
  ParamOverrides::LayerOff(&off_params);
  std::vector<double> grid, neighbors, solve, revalidate, transfer, apply, total;
  std::vector<double> off_total, off_solve, off_revalidate, ratio;
  OrcaResult r, r_off;
  for (int t = 0; t < warmup + ticks; ++t) {
    scenarios::UpdatePreferredVelocities(s);
    // With --layer-cost each timed tick also solves its inputs without the layer, before
    // the real solve on even ticks and after it on odd ones (whichever runs second finds
    // the pipeline's buffers warm); the crowd moves on the layer's velocities.
    const bool pair = layer_cost && t >= warmup;
    auto solve_off = [&] {
      const auto a = Clock::now();
      backend.SolveOrca(off_params, s.scene.agents, {}, &r_off);
      off_total.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      off_solve.push_back(r_off.times.solve_ms);
      off_revalidate.push_back(r_off.times.revalidate_ms);
    };
    if (pair && t % 2 == 0) solve_off();
    const auto t0 = Clock::now();
    backend.SolveOrca(s.scene.params, s.scene.agents, {}, &r);
    const auto t1 = Clock::now();
    if (pair && t % 2 != 0) solve_off();  // before the move: on the same inputs
    const auto t_apply = Clock::now();
    scenarios::ApplyVelocities(s.scene.agents, r, s.scene.params.time_step);
    const auto t2 = Clock::now();
    if (t < warmup) continue;
    grid.push_back(r.times.grid_ms);
    neighbors.push_back(r.times.neighbors_ms);
    solve.push_back(r.times.solve_ms);
    revalidate.push_back(r.times.revalidate_ms);
    transfer.push_back(r.times.upload_ms + r.times.download_ms);
    apply.push_back(std::chrono::duration<double, std::milli>(t2 - t_apply).count());
    total.push_back(std::chrono::duration<double, std::milli>((t1 - t0) + (t2 - t_apply)).count());
    if (pair) {
      // The off step has no apply: compare the solves alone.
      const double on = std::chrono::duration<double, std::milli>(t1 - t0).count();
      ratio.push_back(off_total.back() > 0 ? on / off_total.back() : 0);
    }
    for (int k = 0; k < kSolveStatusCount; ++k) f.statuses[k] += r.status_count[k];
    if (measure_overlaps) {
      const scenarios::OverlapStats o = scenarios::MeasureOverlaps(s.scene.agents);
      f.colliding_pair_steps += o.pairs;
      f.min_ratio = std::min(f.min_ratio, o.min_distance_ratio);
    }
  }
  f.grid = Median(grid);
  f.neighbors = Median(neighbors);
  f.solve = Median(solve);
  f.revalidate = Median(revalidate);
  f.transfer = Median(transfer);
  f.apply = Median(apply);
  f.total = Median(total);
  std::sort(total.begin(), total.end());
  f.p90_total = total.empty() ? 0 : total[total.size() * 9 / 10];
  f.at_goal = scenarios::AgentsAtGoal(s);
  f.off_total = Median(off_total);
  f.off_solve = Median(off_solve);
  f.off_revalidate = Median(off_revalidate);
  f.cost_ratio = Median(ratio);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ORCA step benchmark (RVO2's circle and random scenarios)"};
  std::vector<std::string> backends{"cpu"};
  std::vector<std::string> scenario_names{"random", "circle"};
  std::vector<size_t> sizes{1000, 10000, 100000};
  int ticks = 20, warmup = 3;
  uint32_t seed = 1;
  bool baseline = false, overlaps = true, obstacle_scan = false, layer_cost = false;
  std::string json_path;
  ParamOverrides overrides;
  app.add_option("--backends", backends, "reference, cpu, cuda")->delimiter(',');
  // Anything else was run as the random scene under the name asked for.
  app.add_option("--scenarios", scenario_names, "circle, random, blocks")
      ->delimiter(',')
      ->check(CLI::IsMember({"circle", "random", "blocks"}));
  app.add_option("--sizes", sizes, "agent counts")->delimiter(',');
  app.add_option("--ticks", ticks, "timed ticks (medians reported)")->check(CLI::PositiveNumber);
  app.add_option("--warmup", warmup, "untimed ticks first");
  app.add_option("--seed", seed, "random scenario seed");
  app.add_flag("--baseline", baseline, "also run the plain-RVO2 baseline on the same inputs");
  app.add_flag("!--no-overlaps", overlaps, "skip the per-tick overlap count");
  app.add_flag("--layer-cost", layer_cost,
               "throng variant: also solve each timed tick's inputs with the jam layer off "
               "(jam step, right of way, headway speed, standing detour) and print the median of "
               "the per-tick ratios of the two solves (issue 41's cost)");
  app.add_option("--json", json_path, "write results as JSON to this file");
  app.add_flag("--obstacle-scan", obstacle_scan,
               "cpu: scan every obstacle edge instead of the edge grid (same results)");
  app.add_option("--contact-margin-ratio", overrides.contact_margin_ratio,
                 "throng variant: contact_margin_ratio (fraction of the radius sum)");
  app.add_option("--revalidate-passes", overrides.revalidate_passes,
                 "throng variant: revalidate_passes");
  app.add_flag("--no-revalidate-fallback", overrides.no_revalidate_fallback,
               "throng variant: revalidate_fallback = false");
  app.add_flag("--no-jam-step", overrides.no_jam_step, "throng variant: jam_step = false");
  // A rule's switch: 0 or 1, unset the default.
  auto add_switch = [&app](const char* option, int* value, const std::string& field) {
    app.add_option(option, *value, "throng variant: " + field + ", 0 or 1 (unset: the default)")
        ->check(CLI::Range(0, 1));
  };
  add_switch("--right-of-way", &overrides.right_of_way, "right_of_way");
  add_switch("--headway-speed", &overrides.headway_speed, "headway_speed");
  add_switch("--standing-detour", &overrides.standing_detour, "standing_detour");
  add_switch("--corner-lines", &overrides.corner_lines, "corner_lines");
  add_switch("--squeeze-step", &overrides.squeeze_step, "squeeze_step");
  app.add_option("--follower-weight", overrides.follower_weight,
                 "throng variant: follower_weight, 0 to 10 (unset: the default)")
      ->check(CLI::Range(0.0, 10.0));
  CLI11_PARSE(app, argc, argv);

  std::vector<Figures> all;
  std::printf("%-9s %-7s %-8s %8s %6s %8s %8s %8s %8s %8s %8s %9s %9s %10s %8s %8s %s\n", "backend",
              "scene", "variant", "agents", "ticks", "grid_ms", "nbr_ms", "solve_ms", "reval_ms",
              "xfer_ms", "apply_ms", "tick_ms", "p90_ms", "pair_steps", "min_d/R", "at_goal",
              "ok/safe_stop/emergency");
  for (const std::string& backend_name : backends) {
    const std::unique_ptr<Backend> backend = bench::TryCreateBackend(backend_name);
    if (!backend) continue;
    if (auto* cpu = dynamic_cast<CpuBackend*>(backend.get())) cpu->UseEdgeGrid(!obstacle_scan);
    for (const std::string& scene : scenario_names) {
      for (size_t n : sizes) {
        for (int variant = 0; variant < (baseline ? 2 : 1); ++variant) {
          // blocks: RVO2's Blocks scene tiled to about n agents (100 per tile).
          scenarios::CrowdScenario s = scene == "circle"   ? scenarios::Circle(n)
                                       : scene == "blocks" ? scenarios::BlocksForAgents(n)
                                                           : scenarios::Random(n, seed);
          Figures f = Run(*backend, std::move(s), warmup, ticks, variant == 1, overlaps, overrides,
                          layer_cost && variant == 0);
          f.backend = backend_name;
          f.scenario = scene;
          f.variant = variant == 1 ? "rvo2" : "throng";
          std::printf(
              "%-9s %-7s %-8s %8zu %6d %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %9.3f %9.3f %10llu "
              "%8.4f %8zu %llu/%llu/%llu\n",
              f.backend.c_str(), f.scenario.c_str(), f.variant.c_str(), f.agents, f.ticks, f.grid,
              f.neighbors, f.solve, f.revalidate, f.transfer, f.apply, f.total, f.p90_total,
              static_cast<unsigned long long>(f.colliding_pair_steps),
              f.min_ratio > 1e8f ? 1.0 : f.min_ratio, f.at_goal,
              static_cast<unsigned long long>(f.statuses[0]),
              static_cast<unsigned long long>(f.statuses[1]),
              static_cast<unsigned long long>(f.statuses[2]));
          if (layer_cost && variant == 0) {
            std::printf(
                "%-9s %-7s %-8s %8zu layer off on the same inputs: solve %.3f ms, reval %.3f "
                "ms, step %.3f ms; layer on / off, median of %d ticks: %.3f\n",
                f.backend.c_str(), f.scenario.c_str(), "cost", f.agents, f.off_solve,
                f.off_revalidate, f.off_total, f.ticks, f.cost_ratio);
          }
          std::fflush(stdout);
          all.push_back(f);
        }
      }
    }
  }
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << "{\n  \"benchmark\": \"orca_steps\",\n  \"results\": [";
    for (size_t i = 0; i < all.size(); ++i) {
      const Figures& f = all[i];
      out << (i ? "," : "") << "\n    {\"backend\": \"" << f.backend << "\", \"scenario\": \""
          << f.scenario << "\", \"variant\": \"" << f.variant << "\", \"agents\": " << f.agents
          << ", \"ticks\": " << f.ticks << ", \"median_ms\": {\"grid\": " << f.grid
          << ", \"neighbors\": " << f.neighbors << ", \"solve\": " << f.solve
          << ", \"revalidate\": " << f.revalidate << ", \"transfer\": " << f.transfer
          << ", \"apply\": " << f.apply << ", \"tick\": " << f.total
          << "}, \"p90_tick_ms\": " << f.p90_total
          << ", \"colliding_pair_steps\": " << f.colliding_pair_steps
          << ", \"statuses\": {\"ok\": " << f.statuses[0] << ", \"safe_stop\": " << f.statuses[1]
          << ", \"emergency\": " << f.statuses[2] << "}, \"at_goal\": " << f.at_goal;
      if (f.cost_ratio > 0) {
        out << ", \"layer_off_median_ms\": {\"solve\": " << f.off_solve
            << ", \"revalidate\": " << f.off_revalidate << ", \"step\": " << f.off_total
            << "}, \"layer_cost_ratio\": " << f.cost_ratio;
      }
      out << "}";
    }
    out << "\n  ]\n}\n";
  }
  return 0;
}
