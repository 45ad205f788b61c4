#pragma once

#include "kernels/backend.h"

namespace throng {

class CpuBackend final : public Backend {
 public:
  BackendKind kind() const override { return BackendKind::kCpu; }
  void SetSplines(const std::vector<SplineDesc>& splines) override;
  void QuerySplines(const SplineQueries& q, SplineQueryResults* out) override;

 private:
  SplineSet splines_;
};

}  // namespace throng
