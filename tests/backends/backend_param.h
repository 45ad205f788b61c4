// Value-parameterised tests over backends: readable names, and cuda instances that skip
// visibly where no device is present.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "kernels/backends/backend.h"

namespace throng::testing {

inline std::string BackendParamName(const ::testing::TestParamInfo<BackendKind>& p) {
  return std::string(BackendName(p.param));
}

class BackendParamTest : public ::testing::TestWithParam<BackendKind> {
 protected:
  void SetUp() override {
    if (GetParam() == BackendKind::kCuda && !CudaDeviceAvailable()) {
      GTEST_SKIP() << "no CUDA device here: the cuda instance runs on a GPU machine "
                      "(bench/gpu_check.sh)";
    }
  }
};

}  // namespace throng::testing
