// Command-line flags of throng-fuzz, the structure-aware request fuzzer of throngd.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace throng::fuzz {

struct FuzzOptions {
  std::string throngd;      // the server binary to spawn
  int64_t requests = 3000;  // cases to run
  double seconds = 60;      // hard wall limit: stop early when reached
  // Fewer requests judged than this fails the run: a run the wall limit cut short has not
  // tested what it was asked to (0: no minimum).
  int64_t min_requests = 0;
  uint64_t seed = 1;
  int deadline_ms = 2000;   // per call
  std::string report;       // JSON summary, when not empty
  std::string save_dir;     // reproducers of failures, when not empty
  bool keep_going = false;  // restart a crashed child and go on counting
  bool verbose = false;     // a line per case
};

// Parses argv into `out`; an exit code when the program should stop now (--help, or a
// bad flag, after CLI11 printed why).
std::optional<int> ParseFuzzOptions(int argc, char** argv, FuzzOptions* out);

}  // namespace throng::fuzz
