// Value-parameterised tests over backends: readable names, and cuda instances that skip
// visibly where no device is present.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "kernels/backends/backend.h"
#include "kernels/backends/cuda_required.h"

namespace throng::testing {

inline std::string BackendParamName(const ::testing::TestParamInfo<BackendKind>& p) {
  return std::string(BackendName(p.param));
}

// Skips the calling test when no CUDA device can be used, or fails it when
// THRONG_REQUIRE_CUDA asks for the GPU (CudaRequired: bench/gpu_check.sh).
#define THRONG_SKIP_WITHOUT_CUDA()                                                     \
  do {                                                                                 \
    if (!::throng::CudaDeviceAvailable()) {                                            \
      if (::throng::CudaRequired()) {                                                  \
        FAIL() << "THRONG_REQUIRE_CUDA is set but no CUDA device can be used";         \
      }                                                                                \
      GTEST_SKIP() << "no CUDA device here: the cuda instance runs on a GPU machine "  \
                      "(bench/gpu_check.sh)";                                          \
    }                                                                                  \
  } while (0)

class BackendParamTest : public ::testing::TestWithParam<BackendKind> {
 protected:
  void SetUp() override {
    if (GetParam() == BackendKind::kCuda) THRONG_SKIP_WITHOUT_CUDA();
  }
};

// Over scenarios (by name) and backends: "<scenario>_<backend>" names.
using ScenarioBackend = std::tuple<std::string, BackendKind>;

inline std::string ScenarioBackendName(const ::testing::TestParamInfo<ScenarioBackend>& p) {
  std::string name = std::get<0>(p.param);
  name += '_';
  name += BackendName(std::get<1>(p.param));
  return name;
}

class ScenarioBackendTest : public ::testing::TestWithParam<ScenarioBackend> {
 protected:
  void SetUp() override {
    if (backend() == BackendKind::kCuda) THRONG_SKIP_WITHOUT_CUDA();
  }
  const std::string& scene() const { return std::get<0>(GetParam()); }
  BackendKind backend() const { return std::get<1>(GetParam()); }
};

}  // namespace throng::testing
