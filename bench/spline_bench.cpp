// throng-bench-splines: batched spline queries (what vehicle followers run each tick) per
// backend and size. Prints a table of medians and writes JSON; no timed assertions.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "kernels/backend.h"

namespace {

using throng::BackendKind;

// A town-sized road network: closed loops of 200 to 800 m with 24 control points each.
std::vector<throng::SplineDesc> Roads(int count, std::mt19937& rng) {
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  std::vector<throng::SplineDesc> roads;
  for (int i = 0; i < count; ++i) {
    throng::SplineDesc d;
    d.id = static_cast<uint32_t>(i);
    d.closed = true;
    const float r = 30.f + 100.f * unit(rng);
    for (int k = 0; k < 24; ++k) {
      const float a = throng::kTwoPi * static_cast<float>(k) / 24.f;
      const float rr = r * (0.85f + 0.3f * unit(rng));
      d.points.push_back({rr * std::cos(a), rr * std::sin(a), 0.f});
    }
    roads.push_back(d);
  }
  return roads;
}

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
  app.add_option("--repeats", repeats, "timed repetitions (median reported)")->check(CLI::PositiveNumber);
  app.add_option("--json", json_path, "write results as JSON to this file");
  CLI11_PARSE(app, argc, argv);

  std::mt19937 rng(42);
  const auto roads = Roads(32, rng);
  const throng::SplineSet set = throng::BuildSplineSet(roads);
  std::string json = "{\n  \"benchmark\": \"spline_queries\",\n  \"results\": [";
  bool first = true;
  std::printf("%-10s %10s %12s %12s %14s\n", "backend", "queries", "median_ms", "min_ms", "queries_per_s");
  for (const std::string& name : backends) {
    std::unique_ptr<throng::Backend> backend;
    try {
      backend = throng::CreateBackend(throng::ParseBackendKind(name));
    } catch (const std::exception& e) {
      std::printf("%-10s skipped: %s\n", name.c_str(), e.what());
      continue;
    }
    backend->SetSplines(roads);
    for (size_t n : sizes) {
      const throng::SplineQueries q = Queries(n, set, rng);
      throng::SplineQueryResults out;
      backend->QuerySplines(q, &out);  // warm-up: allocations, first-touch, JIT
      const int reps = backend->kind() == BackendKind::kReference ? std::min(repeats, 3) : repeats;
      std::vector<double> ms;
      for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        backend->QuerySplines(q, &out);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
      std::sort(ms.begin(), ms.end());
      const double median = ms[ms.size() / 2];
      std::printf("%-10s %10zu %12.3f %12.3f %14.0f\n", name.c_str(), n, median, ms.front(),
                  static_cast<double>(n) / (median / 1e3));
      std::fflush(stdout);
      json += std::string(first ? "" : ",") + "\n    {\"backend\": \"" + name + "\", \"queries\": " +
              std::to_string(n) + ", \"median_ms\": " + std::to_string(median) +
              ", \"min_ms\": " + std::to_string(ms.front()) + ", \"repeats\": " + std::to_string(reps) + "}";
      first = false;
    }
  }
  json += "\n  ]\n}\n";
  if (!json_path.empty()) std::ofstream(json_path) << json;
  return 0;
}
