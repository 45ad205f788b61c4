#include "tests/service/fuzz/fuzzer.h"

#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>

#include "tests/service/fuzz/raw_call.h"

namespace throng::fuzz {
namespace {

using grpc::StatusCode;
using Clock = std::chrono::steady_clock;

constexpr int kStateDeadlineMs = 5000;  // GetWorld around a case (big states take a while)
constexpr int kLockCheckDeadlineMs = 2000;
constexpr double kHangMarginS = 1.0;
// A base world that took one of these is re-created: a huge state makes every later
// GetWorld slow, and a tick near the top leaves no valid next one.
constexpr uint64_t kRenewAgents = 5000;
constexpr uint64_t kRenewTick = uint64_t{1} << 52;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string Describe(const grpc::Status& s) {
  return std::string(s.ok() ? "OK" : "code " + std::to_string(s.error_code())) +
         (s.error_message().empty() ? "" : ": " + s.error_message().substr(0, 300));
}

bool Refused(StatusCode code) {
  return code != StatusCode::OK && code != StatusCode::DEADLINE_EXCEEDED &&
         code != StatusCode::CANCELLED;
}

}  // namespace

Fuzzer::Fuzzer(std::string throngd, int deadline_ms, uint64_t seed)
    : child_(std::move(throngd)), deadline_ms_(deadline_ms), maker_(seed) {}

std::unique_ptr<grpc::ClientContext> Fuzzer::Context(int ms) const {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(ms));
  return context;
}

void Fuzzer::Start() {
  child_.Start();
  worlds_.clear();
  for (WorldKind kind : {WorldKind::kLanes, WorldKind::kObstacles, WorldKind::kLanesAndObstacles}) {
    BaseWorld w;
    w.scene = MakeBaseScene(kind, maker_.rng());
    CreateBaseWorld(w);
    worlds_.push_back(std::move(w));
  }
}

void Fuzzer::CreateBaseWorld(BaseWorld& w) {
  v1::CreateWorldRequest create;
  *create.mutable_config() = w.scene.config;
  v1::WorldInfo info;
  auto status = child_.stub().CreateWorld(Context(kStateDeadlineMs).get(), create, &info);
  if (!status.ok()) throw std::runtime_error("cannot create a base world: " + Describe(status));
  w.id = info.world_id();
  // One valid tick, so that Advance has a state to start from.
  const auto step = MakeBaseStep(w.scene, w.id, 1, maker_.rng());
  v1::StepResponse out;
  status = child_.stub().Step(Context(kStateDeadlineMs).get(), step, &out);
  if (!status.ok())
    throw std::runtime_error("a base world's first tick failed: " + Describe(status));
}

void Fuzzer::DeleteStrayWorlds() {
  std::set<std::string> ours;
  for (const auto& w : worlds_) ours.insert(w.id);
  v1::ListWorldsResponse list;
  if (!child_.stub().ListWorlds(Context(kStateDeadlineMs).get(), {}, &list).ok()) return;
  for (const auto& info : list.worlds()) {
    if (ours.count(info.world_id())) continue;
    v1::DeleteWorldRequest del;
    del.set_world_id(info.world_id());
    v1::DeleteWorldResponse out;
    child_.stub().DeleteWorld(Context(kStateDeadlineMs).get(), del, &out);
  }
}

Verdict Fuzzer::Fail(Oracle oracle, std::string detail) const {
  Verdict v;
  v.failed = true;
  v.oracle = oracle;
  v.detail = std::move(detail);
  return v;
}

bool Fuzzer::FetchState(int world, v1::GetWorldResponse* state, Verdict* v, bool renew) {
  BaseWorld& w = worlds_[world];
  v1::GetWorldRequest get;
  get.set_world_id(w.id);
  get.set_include_state(true);
  state->Clear();
  const auto status = child_.stub().GetWorld(Context(kStateDeadlineMs).get(), get, state);
  if (!child_.Alive()) {
    *v = Fail(Oracle::kCrash, "throngd " + child_.Exit());
    return false;
  }
  if (status.error_code() == StatusCode::UNAVAILABLE) {
    *v = Fail(Oracle::kCrash, "GetWorld of a base world: " + Describe(status));
    return false;
  }
  if (status.error_code() == StatusCode::DEADLINE_EXCEEDED) {
    *v = Fail(Oracle::kHang, "GetWorld of a base world: " + Describe(status));
    return false;
  }
  if (!status.ok() && status.error_code() != StatusCode::NOT_FOUND) {
    *v = Fail(
        status.error_code() == StatusCode::INTERNAL ? Oracle::kInternal : Oracle::kChangedWorld,
        "GetWorld of a base world: " + Describe(status));
    return false;
  }
  const bool worn = status.ok() && (state->info().agents() > kRenewAgents ||
                                    state->info().last_tick() > kRenewTick);
  if (renew && (!status.ok() || worn)) {
    if (status.ok()) {
      v1::DeleteWorldRequest del;
      del.set_world_id(w.id);
      v1::DeleteWorldResponse out;
      child_.stub().DeleteWorld(Context(kStateDeadlineMs).get(), del, &out);
    }
    DeleteStrayWorlds();
    CreateBaseWorld(w);
    return FetchState(world, state, v, false);
  }
  if (!status.ok()) {
    *v = Fail(Oracle::kChangedWorld, "base world " + w.id + " vanished: " + Describe(status));
    return false;
  }
  return true;
}

Verdict Fuzzer::RunOne(FuzzCase* c) {
  const CaseClass klass = maker_.PickClass();
  const int world = maker_.PickWorld(static_cast<int>(worlds_.size()));
  v1::GetWorldResponse before;
  Verdict v;
  if (!FetchState(world, &before, &v, true)) return v;
  WorldView view;
  view.index = world;
  view.scene = &worlds_[world].scene;
  view.id = worlds_[world].id;
  view.next_tick = before.info().has_state() ? before.tick() + 1 : 1;
  *c = maker_.Make(klass, view);
  switch (c->method) {
    case Method::kStep:
      return RunStep(*c, before);
    case Method::kStepRaw:
      return RunRaw(*c, before);
    case Method::kStream:
      return RunStream(*c, std::move(before));
    case Method::kSolve:
      return RunSolve(*c);
    case Method::kCreateWorld:
      return RunCreate(*c);
    case Method::kAdvance:
      return RunAdvance(*c, before);
    case Method::kGetWorld:
    case Method::kDeleteWorld:
      return RunGetOrDelete(*c, before);
  }
  return v;
}

Verdict Fuzzer::Judge(const FuzzCase& c, const grpc::Status& status, double seconds,
                      const v1::GetWorldResponse* before, const std::string& ok_problem) {
  Verdict v;
  const StatusCode code = status.error_code();
  const auto done = [&](Verdict out) {
    out.code = code;
    out.message = status.error_message();
    out.seconds = seconds;
    return out;
  };
  if (code == StatusCode::UNAVAILABLE) {
    // The connection drops before the child is reaped: give it a moment to say how it died.
    for (int k = 0; k < 50 && child_.Alive(); ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  if (!child_.Alive()) return done(Fail(Oracle::kCrash, "throngd " + child_.Exit()));
  if (code == StatusCode::UNAVAILABLE) {
    return done(Fail(Oracle::kCrash, "throngd alive but unreachable: " + Describe(status)));
  }
  if (seconds > deadline_ms_ / 1e3 + kHangMarginS) {
    return done(Fail(Oracle::kHang, "the call took " + std::to_string(seconds) + " s, deadline " +
                                        std::to_string(deadline_ms_) + " ms: " + Describe(status)));
  }
  // gRPC's own failure to parse is INTERNAL, and only the raw class sends unparseable bytes.
  if (code == StatusCode::INTERNAL && !(c.method == Method::kStepRaw && IsParseFailure(status))) {
    return done(Fail(Oracle::kInternal, Describe(status)));
  }
  const bool has_world = c.world >= 0 && before != nullptr;
  if (code == StatusCode::DEADLINE_EXCEEDED && has_world) {
    v1::GetWorldRequest get;
    get.set_world_id(worlds_[c.world].id);
    v1::GetWorldResponse out;
    const auto s = child_.stub().GetWorld(Context(kLockCheckDeadlineMs).get(), get, &out);
    if (s.error_code() == StatusCode::DEADLINE_EXCEEDED) {
      return done(Fail(Oracle::kHang, "after DEADLINE_EXCEEDED the world is still locked"));
    }
    if (!child_.Alive()) return done(Fail(Oracle::kCrash, "throngd " + child_.Exit()));
    if (s.error_code() == StatusCode::UNAVAILABLE) {
      return done(Fail(Oracle::kCrash, "GetWorld after DEADLINE_EXCEEDED: " + Describe(s)));
    }
  }
  if (status.ok() && !ok_problem.empty()) return done(Fail(Oracle::kWrongOk, ok_problem));
  if (Refused(code) && has_world) {
    v1::GetWorldResponse after;
    Verdict fetch;
    if (!FetchState(c.world, &after, &fetch)) return done(fetch);
    const std::string diff = StateDifference(*before, after);
    if (!diff.empty()) {
      return done(Fail(Oracle::kChangedWorld,
                       "refused (" + Describe(status) + ") but the world changed:\n" + diff));
    }
  }
  return done(v);
}

Verdict Fuzzer::RunStep(const FuzzCase& c, const v1::GetWorldResponse& before) {
  v1::StepResponse out;
  const auto start = Clock::now();
  const auto status = child_.stub().Step(Context(deadline_ms_).get(), c.step, &out);
  const double seconds = Since(start);
  const std::string problem =
      status.ok() ? CheckOkResponse(out, c.step.agents(), RuleOfConfig(before.config())) : "";
  return Judge(c, status, seconds, &before, problem);
}

Verdict Fuzzer::RunRaw(const FuzzCase& c, const v1::GetWorldResponse& before) {
  std::string bytes;
  const auto start = Clock::now();
  const auto status = RawUnaryCall(child_.generic(), Context(deadline_ms_).get(),
                                   "/throng.v1.Simulation/Step", c.raw, &bytes);
  const double seconds = Since(start);
  std::string problem;
  if (status.ok()) {
    v1::StepResponse out;
    v1::StepRequest sent;
    if (!out.ParseFromString(bytes)) {
      problem = "an OK response that does not parse";
    } else if (sent.ParseFromString(c.raw)) {
      // The flips may have named another world: then only explicit max_speed columns count.
      SpeedRule rule = RuleOfConfig(before.config());
      if (sent.world_id() != worlds_[c.world].id) rule.default_max_speed = 1e30f;
      problem = CheckOkResponse(out, sent.agents(), rule);
    }
  }
  return Judge(c, status, seconds, &before, problem);
}

Verdict Fuzzer::RunStream(const FuzzCase& c, v1::GetWorldResponse before) {
  const int n = static_cast<int>(c.stream.size());
  auto context = Context(n * (deadline_ms_ + kStateDeadlineMs));
  auto stream = child_.stub().StreamSteps(context.get());
  Verdict v;
  const auto abandon = [&] {
    context->TryCancel();
    stream->Finish();
  };
  for (int k = 0; k < n; ++k) {
    if (k > 0 && !FetchState(c.world, &before, &v)) {
      abandon();
      return v;
    }
    const auto start = Clock::now();
    v1::StepResponse out;
    const bool ok = stream->Write(c.stream[k]) && stream->Read(&out);
    const double seconds = Since(start);
    if (!ok) {
      const auto status = stream->Finish();
      v = Judge(c, status, seconds, &before, "");
      if (!v.failed && status.ok()) {
        v = Fail(Oracle::kWrongOk,
                 "the stream ended OK without answering request " + std::to_string(k));
      }
      if (v.failed) v.detail = "request " + std::to_string(k) + ": " + v.detail;
      return v;
    }
    const std::string problem =
        CheckOkResponse(out, c.stream[k].agents(), RuleOfConfig(before.config()));
    v = Judge(c, grpc::Status::OK, seconds, &before, problem);
    if (v.failed) {
      v.detail = "request " + std::to_string(k) + ": " + v.detail;
      abandon();
      return v;
    }
  }
  if (!FetchState(c.world, &before, &v)) {
    abandon();
    return v;
  }
  const auto start = Clock::now();
  stream->WritesDone();
  const auto status = stream->Finish();
  return Judge(c, status, Since(start), &before, "");
}

Verdict Fuzzer::RunSolve(const FuzzCase& c) {
  v1::StepResponse out;
  const auto start = Clock::now();
  const auto status = child_.stub().Solve(Context(deadline_ms_).get(), c.solve, &out);
  const double seconds = Since(start);
  const std::string problem =
      status.ok() ? CheckOkResponse(out, c.solve.agents(), RuleOfConfig(c.solve.config())) : "";
  return Judge(c, status, seconds, nullptr, problem);
}

Verdict Fuzzer::RunCreate(const FuzzCase& c) {
  v1::WorldInfo info;
  const auto start = Clock::now();
  const auto status = child_.stub().CreateWorld(Context(deadline_ms_).get(), c.create, &info);
  const Verdict v = Judge(c, status, Since(start), nullptr, "");
  if (status.ok()) {
    v1::DeleteWorldRequest del;
    del.set_world_id(info.world_id());
    v1::DeleteWorldResponse out;
    child_.stub().DeleteWorld(Context(kStateDeadlineMs).get(), del, &out);
  } else if (status.error_code() == StatusCode::DEADLINE_EXCEEDED && !v.failed) {
    DeleteStrayWorlds();  // it may have been created after the client gave up
  }
  return v;
}

Verdict Fuzzer::RunAdvance(const FuzzCase& c, const v1::GetWorldResponse& before) {
  v1::AdvanceResponse out;
  const auto start = Clock::now();
  const auto status = child_.stub().Advance(Context(deadline_ms_).get(), c.advance, &out);
  const double seconds = Since(start);
  // Advance moves the world's own state: its columns say each agent's max speed.
  const std::string problem =
      status.ok() ? CheckOkResponse(out.last(), before.agents(), RuleOfConfig(before.config()))
                  : "";
  return Judge(c, status, seconds, &before, problem);
}

Verdict Fuzzer::RunGetOrDelete(const FuzzCase& c, const v1::GetWorldResponse& before) {
  const auto start = Clock::now();
  grpc::Status status;
  if (c.method == Method::kGetWorld) {
    v1::GetWorldResponse out;
    status = child_.stub().GetWorld(Context(deadline_ms_).get(), c.get, &out);
  } else {
    v1::DeleteWorldResponse out;
    status = child_.stub().DeleteWorld(Context(deadline_ms_).get(), c.del, &out);
  }
  return Judge(c, status, Since(start), &before, "");
}

}  // namespace throng::fuzz
