// throng-bench-vehicles: spline following (Backend::FollowSplines) for fleets of 10k to 1M
// vehicles on a ring-road network, per backend. Prints medians and vehicles per second,
// writes JSON; no timed assertions.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "bench/timing.h"
#include "kernels/backends/backend.h"
#include "kernels/scenarios/flock.h"
#include "kernels/scenarios/roads.h"

int main(int argc, char** argv) {
  CLI::App app{"Spline following benchmark (three-factor follower, batched)"};
  std::vector<std::string> backends{"cpu"};
  std::vector<size_t> sizes{10000, 100000, 1000000};
  int repeats = 11;
  std::vector<size_t> fan_sizes{10000, 100000};
  std::string json_path;
  bool plain = false;
  app.add_option("--backends", backends, "reference, cpu, cuda")->delimiter(',');
  app.add_option("--fan-sizes", fan_sizes, "cast-fan agent counts (0 to skip)")->delimiter(',');
  app.add_option("--sizes", sizes, "vehicle counts")->delimiter(',');
  app.add_option("--repeats", repeats, "timed repetitions (median reported)")
      ->check(CLI::PositiveNumber);
  app.add_option("--json", json_path, "write results as JSON to this file");
  app.add_flag(
      "--plain", plain,
      "the plain formula of docs/ALGORITHMS.md 1 (PlainFollowerParams) instead of the defaults");
  CLI11_PARSE(app, argc, argv);

  const auto roads = throng::scenarios::RingRoads(64, 7);
  const throng::FollowerParams follower =
      plain ? throng::PlainFollowerParams() : throng::FollowerParams{};
  std::string json = "{\n  \"benchmark\": \"spline_following\",\n  \"results\": [";
  bool first = true;
  std::printf("%-10s %10s %12s %12s %16s\n", "backend", "vehicles", "median_ms", "min_ms",
              "vehicles_per_s");
  for (const std::string& name : backends) {
    const std::unique_ptr<throng::Backend> backend = throng::bench::TryCreateBackend(name);
    if (!backend) continue;
    backend->SetSplines(roads);
    for (size_t n : sizes) {
      const throng::VehicleColumns fleet = throng::scenarios::VehiclesOn(roads, n, 11);
      throng::FollowerResults out;
      const int reps =
          backend->kind() == throng::BackendKind::kReference ? std::min(repeats, 3) : repeats;
      const throng::bench::Timing t = throng::bench::TimeRepeated(
          reps, [&] { backend->FollowSplines(follower, 0.f, fleet, {}, &out); });
      const double median = t.median_ms;
      std::printf("%-10s %10zu %12.3f %12.3f %16.0f\n", name.c_str(), n, median, t.min_ms,
                  static_cast<double>(n) / (median / 1e3));
      std::fflush(stdout);
      json += std::string(first ? "" : ",") + "\n    {\"backend\": \"" + name +
              "\", \"vehicles\": " + std::to_string(n) +
              ", \"median_ms\": " + std::to_string(median) +
              ", \"repeats\": " + std::to_string(reps) + "}";
      first = false;
    }
  }
  // Cast-fan steering: 9 probes of 10 m against 40 obstacles (132 edges) per agent.
  std::printf("\n%-10s %10s %12s %12s %16s\n", "backend", "fan_agents", "median_ms", "min_ms",
              "agents_per_s");
  for (const std::string& name : backends) {
    const std::unique_ptr<throng::Backend> backend = throng::bench::TryCreateBackend(name);
    if (!backend) continue;
    for (size_t n : fan_sizes) {
      if (n == 0) continue;
      const throng::scenarios::Flock flock = throng::scenarios::RandomFlock(5, n);
      backend->SetObstacles(flock.obstacles);
      throng::FanResults out;
      const int reps =
          backend->kind() == throng::BackendKind::kReference ? std::min(repeats, 3) : repeats;
      const throng::bench::Timing t = throng::bench::TimeRepeated(
          reps, [&] { backend->SteerForward(throng::FanParams{}, 0.1f, flock.agents, &out); });
      std::printf("%-10s %10zu %12.3f %12.3f %16.0f\n", name.c_str(), n, t.median_ms, t.min_ms,
                  static_cast<double>(n) / (t.median_ms / 1e3));
      std::fflush(stdout);
      json += std::string(first ? "" : ",") + "\n    {\"backend\": \"" + name +
              "\", \"fan_agents\": " + std::to_string(n) +
              ", \"median_ms\": " + std::to_string(t.median_ms) +
              ", \"repeats\": " + std::to_string(reps) + "}";
      first = false;
    }
  }
  json += "\n  ]\n}\n";
  if (!json_path.empty()) std::ofstream(json_path) << json;
  return 0;
}
