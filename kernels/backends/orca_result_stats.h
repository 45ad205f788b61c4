// Host-side tallies shared by the parallel backends after a solve.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/orca/orca_agent.cuh"
#include "kernels/orca/orca_types.h"

namespace throng {

inline void TallyAudit(const std::vector<uint16_t>& audit_missed, size_t n, OrcaResult* out) {
  out->audited_agents = 0;
  out->audited_false_negatives = 0;
  for (size_t i = 0; i < n; ++i) {
    if (audit_missed[i] == kNotAudited) continue;
    ++out->audited_agents;
    out->audited_false_negatives += audit_missed[i];
  }
}

}  // namespace throng
