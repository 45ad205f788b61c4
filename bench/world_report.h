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

// {"benchmark": "world_tick", "machine": {...}, "commands": [...], "results": [...],
//  "skipped": [...]}. Times in ms, memory in bytes, null where not measured. With
// `previous` (an earlier document of this kind, e.g. from --append), its commands,
// results and skipped backends come first. Throws std::invalid_argument when `previous`
// is not such a document.
std::string ToJson(const MachineInfo& machine, const std::string& command,
                   const std::vector<RunFigures>& runs, const std::vector<Skipped>& skipped,
                   const std::string& previous = "");

}  // namespace throng::bench
