#include "tests/service/fuzz/options.h"

#include <CLI/CLI.hpp>

namespace throng::fuzz {

std::optional<int> ParseFuzzOptions(int argc, char** argv, FuzzOptions* o) {
  CLI::App app{"throng-fuzz: mutated requests against a throngd child, checked by oracles",
               "throng-fuzz"};
  o->throngd = THRONGD_PATH;
  app.add_option("--throngd", o->throngd, "throngd binary to spawn")->capture_default_str();
  app.add_option("--requests", o->requests, "Requests to send")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
      ->capture_default_str();
  app.add_option("--seconds", o->seconds, "Wall-clock limit; stops early when reached")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  app.add_option("--min-requests", o->min_requests,
                 "Fail when fewer requests than this were judged (a run cut short by --seconds)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40))
      ->capture_default_str();
  app.add_option("--seed", o->seed, "Random seed (a run is repeatable from its seed)")
      ->capture_default_str();
  app.add_option("--deadline-ms", o->deadline_ms, "Deadline of each call, ms")
      ->check(CLI::Range(50, 600000))
      ->capture_default_str();
  app.add_option("--report", o->report, "Write a JSON summary to this file");
  app.add_option("--save-dir", o->save_dir, "Save each failure's reproducer in this folder");
  app.add_flag("--keep-going", o->keep_going,
               "After a failure (a crash: restart the child) go on to --requests");
  app.add_flag("--verbose", o->verbose, "Print a line per case: class, call, mutation, code, time");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return std::nullopt;
}

}  // namespace throng::fuzz
