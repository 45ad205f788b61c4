// The fuzz loop's engine: a throngd child with a few valid base worlds; each case is
// drawn, sent, and judged by the oracles (oracles.h) plus the two the runner watches
// itself: the child dying (crash) and a call outliving its deadline (hang).
#pragma once

#include <grpcpp/grpcpp.h>

#include <string>
#include <vector>

#include "tests/service/fuzz/base_worlds.h"
#include "tests/service/fuzz/case_maker.h"
#include "tests/service/fuzz/fuzz_case.h"
#include "tests/service/fuzz/oracles.h"
#include "tests/service/fuzz/throngd_child.h"

namespace throng::fuzz {

struct Verdict {
  bool failed = false;
  Oracle oracle = Oracle::kCrash;
  std::string detail;                            // why it failed
  grpc::StatusCode code = grpc::StatusCode::OK;  // the case's call (a stream's last)
  std::string message;
  double seconds = 0;
};

// Not thread-safe.
class Fuzzer {
 public:
  Fuzzer(std::string throngd, int deadline_ms, uint64_t seed);

  // Starts (or restarts) the child and creates the base worlds; throws std::runtime_error
  // when that fails (a broken set-up, not a finding).
  void Start();
  // Draws one case into `c`, runs it and judges it.
  Verdict RunOne(FuzzCase* c);
  // The child's process id (-1 when it is not running), for a watchdog.
  pid_t child_pid() const { return child_.pid(); }

 private:
  struct BaseWorld {
    BaseScene scene;
    std::string id;
  };

  void CreateBaseWorld(BaseWorld& w);
  void DeleteStrayWorlds();
  // The world's state with everything (GetWorld with include_state); a failure verdict
  // when that call fails. Worlds grown huge or at the end of their ticks are re-created.
  bool FetchState(int world, v1::GetWorldResponse* state, Verdict* v, bool renew = false);

  Verdict RunStep(const FuzzCase& c, const v1::GetWorldResponse& before);
  Verdict RunRaw(const FuzzCase& c, const v1::GetWorldResponse& before);
  Verdict RunStream(const FuzzCase& c, v1::GetWorldResponse before);
  Verdict RunSolve(const FuzzCase& c);
  Verdict RunCreate(const FuzzCase& c);
  Verdict RunAdvance(const FuzzCase& c, const v1::GetWorldResponse& before);
  Verdict RunGetOrDelete(const FuzzCase& c, const v1::GetWorldResponse& before);

  // The oracles after one call: crash, hang, INTERNAL, a world still locked after a
  // deadline, `ok_check` on OK, and an unchanged world after a refusal.
  Verdict Judge(const FuzzCase& c, const grpc::Status& status, double seconds,
                const v1::GetWorldResponse* before, const std::string& ok_problem);
  Verdict Fail(Oracle oracle, std::string detail) const;

  std::unique_ptr<grpc::ClientContext> Context(int ms) const;

  ThrongdChild child_;
  int deadline_ms_;
  CaseMaker maker_;
  std::vector<BaseWorld> worlds_;
};

}  // namespace throng::fuzz
