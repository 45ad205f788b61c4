// throng-bench-splines: batched spline queries (what vehicle followers run each tick) per
// backend and size. Prints a table of medians and writes JSON; no timed assertions.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bench/timing.h"
#include "kernels/backends/backend.h"
#include "kernels/scenarios/roads.h"

namespace {

using throng::BackendKind;

throng::SplineQueries Queries(size_t n, const throng::SplineSet& set, std::mt19937& rng) {
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  throng::SplineQueries q;
  q.Resize(n);
  q.window = 5.f;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t k = static_cast<uint32_t>(rng() % set.size());
    const float s = unit(rng) * set.headers[k].length;
    const throng::Vec3 p = throng::LocationAt(set.View(), k, s);
    q.spline[i] = k;
    q.s[i] = s + 8.f;  // a look-ahead point
    q.px[i] = p.x + unit(rng) - 0.5f;
    q.py[i] = p.y + unit(rng) - 0.5f;
    q.pz[i] = p.z;
    q.s_hint[i] = s + 1.f;
  }
  return q;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Batched spline query benchmark (vehicle following's spline work)"};
  std::vector<std::string> backends{"cpu"};
  std::vector<size_t> sizes{10000, 100000};
  int repeats = 11;
  std::string json_path;
  app.add_option("--backends", backends, "backends to run: reference, cpu, cuda")->delimiter(',');
  app.add_option("--sizes", sizes, "query counts")->delimiter(',');
  app.add_option("--repeats", repeats, "timed repetitions (median reported)")
      ->check(CLI::PositiveNumber);
  app.add_option("--json", json_path, "write results as JSON to this file");
  CLI11_PARSE(app, argc, argv);

  std::mt19937 rng(42);
  const auto roads = throng::scenarios::RingRoads(32, 42);
  const throng::SplineSet set = throng::BuildSplineSet(roads);
  std::string json = "{\n  \"benchmark\": \"spline_queries\",\n  \"results\": [";
  bool first = true;
  std::printf("%-10s %10s %12s %12s %14s\n", "backend", "queries", "median_ms", "min_ms",
              "queries_per_s");
  for (const std::string& name : backends) {
    const std::unique_ptr<throng::Backend> backend = throng::bench::TryCreateBackend(name);
    if (!backend) continue;
    backend->SetSplines(roads);
    for (size_t n : sizes) {
      const throng::SplineQueries q = Queries(n, set, rng);
      throng::SplineQueryResults out;
      const int reps =
          backend->kind() == throng::BackendKind::kReference ? std::min(repeats, 3) : repeats;
      const throng::bench::Timing t =
          throng::bench::TimeRepeated(reps, [&] { backend->QuerySplines(q, &out); });
      const double median = t.median_ms;
      std::printf("%-10s %10zu %12.3f %12.3f %14.0f\n", name.c_str(), n, median, t.min_ms,
                  static_cast<double>(n) / (median / 1e3));
      std::fflush(stdout);
      json += std::string(first ? "" : ",") + "\n    {\"backend\": \"" + name +
              "\", \"queries\": " + std::to_string(n) +
              ", \"median_ms\": " + std::to_string(median) +
              ", \"min_ms\": " + std::to_string(t.min_ms) +
              ", \"repeats\": " + std::to_string(reps) + "}";
      first = false;
    }
  }
  json += "\n  ]\n}\n";
  if (!json_path.empty()) std::ofstream(json_path) << json;
  return 0;
}
