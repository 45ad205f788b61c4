// Shared by the benchmark drivers: backend creation that skips what this machine lacks,
// and medians of repeated timed calls.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/backends/cuda_required.h"

namespace throng::bench {

// The named backend, or null after printing why it is skipped here (no CUDA device, ...).
// With THRONG_REQUIRE_CUDA set, a cuda lane that cannot run throws instead: a GPU check
// must not pass without the GPU.
inline std::unique_ptr<Backend> TryCreateBackend(const std::string& name) {
  try {
    return CreateBackend(ParseBackendKind(name));
  } catch (const std::exception& e) {
    if (name == "cuda" && CudaRequired()) throw;
    std::printf("%-10s skipped: %s\n", name.c_str(), e.what());
    return nullptr;
  }
}

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  int repeats = 0;
};

// Calls `run` once untimed (allocations, first touch), then `repeats` times timed.
template <class F>
Timing TimeRepeated(int repeats, F&& run) {
  run();
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), repeats};
}

}  // namespace throng::bench
