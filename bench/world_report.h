// throng-bench's output: a table on stdout and a JSON document for bench/results/.
#pragma once

#include <string>
#include <vector>

#include "bench/machine.h"
#include "bench/world_run.h"

namespace throng::bench {

// One scenario's runs (a single backend, or every backend of a comparison), as a table:
// tick and per-stage medians and p90s, throughput, memory, quality, agreement.
void PrintRuns(const std::vector<RunFigures>& runs);

// {"benchmark": "world_tick", "machine": {...}, "command": ..., "results": [...],
//  "skipped": [...]}. Times in ms, memory in bytes, null where not measured.
std::string ToJson(const MachineInfo& machine, const std::string& command,
                   const std::vector<RunFigures>& runs, const std::vector<Skipped>& skipped);

}  // namespace throng::bench
