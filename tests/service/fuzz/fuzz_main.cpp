// throng-fuzz: sends structure-aware mutated requests to a throngd child over loopback and
// fails (exit 1) on a crash, a hang, a wrong OK, a world changed by a refused call, or an
// INTERNAL from a handler, printing the reproducer. Bounded by --requests and --seconds.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <thread>

#include "tests/service/fuzz/fuzzer.h"
#include "tests/service/fuzz/options.h"
#include "tests/service/fuzz/tally.h"

namespace {

using throng::fuzz::FuzzOptions;
using Clock = std::chrono::steady_clock;

// Every call has a deadline, so the loop cannot stall; should the client itself wedge,
// this still ends the run (and its child) well after the wall limit, as a failure.
void StartWatchdog(const FuzzOptions& o, const throng::fuzz::Fuzzer& fuzzer,
                   const std::atomic<bool>& finished) {
  const double limit_s = o.seconds + 4.0 * o.deadline_ms / 1e3 + 30.0;
  std::thread([limit_s, &fuzzer, &finished] {
    const auto end = Clock::now() + std::chrono::duration<double>(limit_s);
    while (Clock::now() < end) {
      if (finished) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    if (finished) return;
    std::cerr << "throng-fuzz: watchdog: no end " << limit_s << " s after the start\n"
              << "throng-fuzz: 0 passed, 1 failed" << std::endl;
    if (fuzzer.child_pid() > 0) kill(fuzzer.child_pid(), SIGKILL);
    _exit(1);
  }).detach();
}

}  // namespace

int main(int argc, char** argv) {
  FuzzOptions o;
  if (auto code = throng::fuzz::ParseFuzzOptions(argc, argv, &o)) return *code;
  const auto start = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

  throng::fuzz::Fuzzer fuzzer(o.throngd, o.deadline_ms, o.seed);
  std::atomic<bool> finished{false};
  StartWatchdog(o, fuzzer, finished);
  throng::fuzz::Tally tally;
  std::string stopped = "after --requests";
  try {
    fuzzer.Start();
    for (int64_t i = 0; i < o.requests; ++i) {
      if (elapsed() >= o.seconds) {
        stopped = "at the --seconds limit";
        break;
      }
      throng::fuzz::FuzzCase c;
      const double case_start = elapsed();
      const auto verdict = fuzzer.RunOne(&c);
      tally.Add(c, verdict, elapsed() - case_start);
      if (o.verbose) {
        std::cout << i << " " << CaseClassName(c.klass) << " " << MethodName(c.method) << " ["
                  << c.what.substr(0, 120) << "] code " << verdict.code << " "
                  << elapsed() - case_start << " s\n";
      }
      if (!verdict.failed) continue;
      std::cout << "throng-fuzz: FAILED, request " << i << " (seed " << o.seed << ")\n"
                << throng::fuzz::ReproducerText(c, verdict, 4000) << std::endl;
      if (!o.save_dir.empty()) {
        std::cout << "saved " << SaveReproducer(o.save_dir, tally.failed(), c, verdict) << "\n";
      }
      if (!o.keep_going) {
        stopped = "at the first failure";
        break;
      }
      using throng::fuzz::Oracle;
      if (verdict.oracle == Oracle::kCrash || verdict.oracle == Oracle::kHang) fuzzer.Start();
    }
  } catch (const std::exception& e) {
    finished = true;
    std::cerr << "throng-fuzz: set-up failed: " << e.what() << std::endl;
    tally.Print(std::cout);
    return 2;
  }
  finished = true;
  std::cout << "stopped " << stopped << " in " << elapsed() << " s\n";
  tally.Print(std::cout);
  if (!o.report.empty()) {
    std::ofstream(o.report) << tally.Json({{"seed", std::to_string(o.seed)},
                                           {"requests", std::to_string(o.requests)},
                                           {"seconds_limit", std::to_string(o.seconds)},
                                           {"deadline_ms", std::to_string(o.deadline_ms)},
                                           {"seconds", std::to_string(elapsed())},
                                           {"stopped", stopped}})
                            << "\n";
  }
  if (tally.failed() > 0) return 1;
  const int64_t judged = tally.passed() + tally.failed();
  if (judged < o.min_requests) {
    std::cout << "throng-fuzz: FAILED, only " << judged << " requests judged ("
              << "--min-requests " << o.min_requests << ", stopped " << stopped << ")\n";
    return 1;
  }
  return 0;
}
