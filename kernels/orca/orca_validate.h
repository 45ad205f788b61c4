// Input checks for ORCA solves, shared by every backend: a bad snapshot is rejected
// before anything runs, with the column and index in the message.
#pragma once

#include "kernels/orca/orca_types.h"

namespace throng {

// Throws std::invalid_argument, e.g. "params.time_horizon: must be finite and > 0",
// "agents.radius[12]: must be finite and > 0", "agents.id[7]: 31 repeats agents.id[2]",
// "agents.px: has 9 values, expected 10".
void ValidateOrcaParams(const OrcaParams& params);
void ValidateAgents(const AgentColumns& agents);

}  // namespace throng
