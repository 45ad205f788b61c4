// Input checks for ORCA solves, shared by every backend and the reference: a bad snapshot
// is rejected before anything runs, with the column and index in the message. What a
// valid input is has one definition (the input contract); what the solve makes of it is
// each backend's own.
#pragma once

#include <vector>

#include "kernels/orca/orca_types.h"

namespace throng {

// Throws std::invalid_argument, e.g. "params.time_horizon: must be finite and > 0",
// "agents.radius[12]: must be finite and > 0", "agents.id[7]: 31 repeats agents.id[2]",
// "agents.px: has 9 values, expected 10".
void ValidateOrcaParams(const OrcaParams& params);
// Every polygon has 2 vertices or more, finite coordinates and edges of positive, finite
// float length: everything the solve divides by, checked before any vertex is built so a
// bad world is rejected whole ("obstacles[3].vertices[1]: zero-length edge to the next
// vertex").
void ValidateObstacles(const std::vector<Polygon>& polygons);
void ValidateAgents(const AgentColumns& agents);

}  // namespace throng
