// Many clients at once, racing calls on one world, and graceful shutdown with calls in
// flight.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "grpc/health/v1/health.grpc.pb.h"
#include "proto/convert.h"
#include "tests/service/service_test_util.h"
#include "tests/service/throngd_process.h"

namespace throng::service::testing {
namespace {

using grpc::StatusCode;

TEST(ConcurrencyTest, many_clients_on_different_worlds_equal_serial_runs) {
  ThrongdProcess server;
  ASSERT_NE(server.port(), 0);
  constexpr int kClients = 6, kTicks = 8;
  std::vector<v1::StepResponse> got(kClients * kTicks);
  std::vector<std::string> ids(kClients);
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      auto stub = server.Stub();  // a channel per client
      auto scene = MakeTestScene(20 + c, c % 3, static_cast<uint32_t>(c));
      ids[c] = CreateWorld(*stub, scene.config);
      TickOptions options;
      options.integrate = true;
      const bool stream = c % 2 == 0;
      auto context = Context();
      auto writer = stream ? stub->StreamSteps(context.get()) : nullptr;
      for (int t = 0; t < kTicks; ++t) {
        scene.snapshot.tick = static_cast<uint64_t>(t + 1);
        auto request = StepRequest(ids[c], scene.snapshot, options);
        auto& out = got[c * kTicks + t];
        if (stream) {
          ASSERT_TRUE(writer->Write(request));
          ASSERT_TRUE(writer->Read(&out));
        } else {
          const auto status = stub->Step(Context().get(), request, &out);
          ASSERT_TRUE(status.ok()) << status.error_message();
        }
      }
      if (stream) {
        writer->WritesDone();
        EXPECT_TRUE(writer->Finish().ok());
      }
    });
  }
  for (auto& t : clients) t.join();

  for (int c = 0; c < kClients; ++c) {
    auto scene = MakeTestScene(20 + c, c % 3, static_cast<uint32_t>(c));
    World engine(scene.config, BackendKind::kCpu);
    TickOptions options;
    options.integrate = true;
    for (int t = 0; t < kTicks; ++t) {
      scene.snapshot.tick = static_cast<uint64_t>(t + 1);
      EXPECT_TRUE(
          SameResponse(got[c * kTicks + t], EngineStep(engine, scene.snapshot, options, "")))
          << "client " << c << " tick " << t + 1;
    }
  }
}

// Racing Steps on one world: each accepted tick is later than the one before, the rest are
// rejected for their tick, and every answer equals a serial run of the accepted ticks.
TEST(ConcurrencyTest, racing_steps_on_one_world_run_in_tick_order) {
  ThrongdProcess server;
  ASSERT_NE(server.port(), 0);
  auto stub = server.Stub();
  const auto scene = MakeTestScene(30, 2);
  const std::string id = CreateWorld(*stub, scene.config);
  constexpr int kThreads = 6, kCalls = 8;
  std::atomic<uint64_t> next_tick{1};
  std::mutex mu;
  std::map<uint64_t, v1::StepResponse> accepted;
  std::atomic<int> rejected{0}, other{0};
  std::vector<std::thread> threads;
  for (int k = 0; k < kThreads; ++k) {
    threads.emplace_back([&] {
      auto own = server.Stub();
      for (int i = 0; i < kCalls; ++i) {
        Snapshot snapshot = scene.snapshot;
        snapshot.tick = next_tick++;
        v1::StepResponse out;
        const auto status = own->Step(Context().get(), StepRequest(id, snapshot), &out);
        if (status.ok()) {
          std::lock_guard lock(mu);
          accepted[snapshot.tick] = out;
        } else if (status.error_code() == StatusCode::INVALID_ARGUMENT &&
                   status.error_message().rfind("tick:", 0) == 0) {
          ++rejected;
        } else {
          ++other;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(other.load(), 0);
  EXPECT_EQ(static_cast<int>(accepted.size()) + rejected.load(), kThreads * kCalls);
  ASSERT_FALSE(accepted.empty());

  v1::GetWorldRequest get;
  get.set_world_id(id);
  v1::GetWorldResponse world;
  ASSERT_TRUE(stub->GetWorld(Context().get(), get, &world).ok());
  EXPECT_EQ(world.totals().ticks(), accepted.size());
  EXPECT_EQ(world.tick(), accepted.rbegin()->first);

  World engine(scene.config, BackendKind::kCpu);  // the accepted ticks, serially
  for (const auto& [tick, response] : accepted) {
    Snapshot snapshot = scene.snapshot;
    snapshot.tick = tick;
    EXPECT_TRUE(SameResponse(response, EngineStep(engine, snapshot, {}, ""))) << tick;
  }
}

// A world of `scene` with its first tick stepped (Advance needs a state); "" if either
// call failed.
std::string SteppedWorld(v1::Simulation::Stub& stub, const TestScene& scene) {
  const std::string id = CreateWorld(stub, scene.config);
  v1::StepResponse first;
  const grpc::Status status = stub.Step(Context().get(), StepRequest(id, scene.snapshot), &first);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return status.ok() ? id : "";
}

// Racing Advances on one world never interleave: k calls of n ticks end where one serial
// run of k * n ticks ends, and each call's last tick is a distinct multiple of n.
TEST(ConcurrencyTest, racing_advances_on_one_world_equal_a_serial_run) {
  ThrongdProcess server;
  ASSERT_NE(server.port(), 0);
  auto stub = server.Stub();
  const auto scene = MakeTestScene(30, 2);
  const std::string id = SteppedWorld(*stub, scene);
  ASSERT_FALSE(id.empty());
  constexpr int kThreads = 5, kTicks = 4;
  std::vector<uint64_t> last_ticks(kThreads);
  std::vector<std::thread> threads;
  for (int k = 0; k < kThreads; ++k) {
    threads.emplace_back([&, k] {
      auto own = server.Stub();
      v1::AdvanceRequest request;
      request.set_world_id(id);
      request.set_ticks(kTicks);
      request.set_dt(0.1f);
      v1::AdvanceResponse out;
      const auto status = own->Advance(Context().get(), request, &out);
      EXPECT_TRUE(status.ok()) << status.error_message();
      last_ticks[k] = out.last().tick();
    });
  }
  for (auto& t : threads) t.join();
  std::sort(last_ticks.begin(), last_ticks.end());
  for (int k = 0; k < kThreads; ++k) EXPECT_EQ(last_ticks[k], 1u + kTicks * (k + 1u));

  World engine(scene.config, BackendKind::kCpu);
  EngineStep(engine, scene.snapshot, {}, "");
  TickResult last;
  engine.Advance(kThreads * kTicks, 0.1f, &last);
  v1::GetWorldRequest get;
  get.set_world_id(id);
  get.set_include_state(true);
  v1::GetWorldResponse world;
  ASSERT_TRUE(stub->GetWorld(Context().get(), get, &world).ok());
  v1::AgentBatch agents;
  AgentsToProto(engine.state().agents, &agents);
  EXPECT_TRUE(SameMessage(world.agents(), agents));
  v1::VehicleBatch vehicles;
  VehiclesToProto(engine.state().vehicles, &vehicles);
  EXPECT_TRUE(SameMessage(world.vehicles(), vehicles));
}

constexpr uint32_t kCalibrationTicks = 20;

// Seconds one Advance tick of `scene` takes on this server (for sizing the long calls).
double SecondsPerTick(v1::Simulation::Stub& stub, const std::string& id) {
  v1::AdvanceRequest request;
  request.set_world_id(id);
  request.set_ticks(kCalibrationTicks);
  request.set_dt(0.05f);
  v1::AdvanceResponse out;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(stub.Advance(Context().get(), request, &out).ok());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
         kCalibrationTicks;
}

// docs/SERVICE.md: ListWorlds never waits for a running tick (it reads the summary kept
// after each call's ticks), GetWorld waits for it. While a long Advance runs, a GetWorld
// is sent, then a ListWorlds: the list comes back with the tick before the Advance (so it
// was answered before the Advance ended, after the GetWorld was sent), and the GetWorld
// with the Advance's last tick (so it waited). Tick times vary on a busy machine, so an
// Advance that ended too soon is followed by one twice as long. Only the order is
// asserted, no wall-clock bound.
TEST(ConcurrencyTest, list_worlds_never_waits_for_a_running_tick_get_world_does) {
  ThrongdProcess server;
  ASSERT_NE(server.port(), 0);
  auto stub = server.Stub();
  const auto scene = MakeTestScene(400, 4);
  const std::string id = SteppedWorld(*stub, scene);
  ASSERT_FALSE(id.empty());
  const double per_tick = SecondsPerTick(*stub, id);
  uint32_t ticks = static_cast<uint32_t>(std::clamp(1.0 / per_tick, 50.0, 50000.0));
  for (int attempt = 0; attempt < 8; ++attempt, ticks *= 2) {
    v1::GetWorldRequest get;
    get.set_world_id(id);
    v1::GetWorldResponse before;
    ASSERT_TRUE(stub->GetWorld(Context().get(), get, &before).ok());
    v1::AdvanceRequest request;
    request.set_world_id(id);
    request.set_ticks(ticks);
    request.set_dt(0.05f);
    v1::AdvanceResponse out;
    grpc::Status advanced;
    std::thread advance([&] { advanced = stub->Advance(Context(300).get(), request, &out); });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    v1::GetWorldResponse world;
    grpc::Status got;
    std::thread get_world([&] {
      auto own = server.Stub();
      got = own->GetWorld(Context(300).get(), get, &world);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto own = server.Stub();
    v1::ListWorldsResponse list;
    const grpc::Status listed = own->ListWorlds(Context().get(), {}, &list);
    advance.join();
    get_world.join();
    ASSERT_TRUE(advanced.ok()) << advanced.error_message();
    ASSERT_TRUE(listed.ok()) << listed.error_message();
    ASSERT_TRUE(got.ok()) << got.error_message();
    ASSERT_EQ(list.worlds_size(), 1);
    ASSERT_EQ(out.last().tick(), before.tick() + ticks);
    if (list.worlds(0).last_tick() != before.tick()) continue;  // ended too soon: longer
    EXPECT_EQ(world.tick(), out.last().tick()) << "GetWorld did not wait for the Advance";
    return;
  }
  FAIL() << "no Advance was still running when ListWorlds answered";
}

// An Advance of `ticks` at 0.05 s, running on a thread of its own; `done` turns true when
// it has returned.
struct LongAdvance {
  LongAdvance(v1::Simulation::Stub& stub, const std::string& id, uint32_t ticks) {
    v1::AdvanceRequest request;
    request.set_world_id(id);
    request.set_ticks(ticks);
    request.set_dt(0.05f);
    call = std::thread([this, &stub, request] {
      status = stub.Advance(Context(300).get(), request, &out);
      done = true;
    });
  }
  v1::AdvanceResponse out;
  grpc::Status status;
  std::atomic<bool> done{false};
  std::thread call;
};

// SIGTERM during a long Advance: the call completes OK, then the process exits 0. Tick
// times vary on a busy machine, so a call that finished before the signal is followed by
// one twice as long, until one is still running when the signal goes.
TEST(ShutdownTest, sigterm_lets_an_advance_in_flight_finish) {
  ThrongdProcess server({"--shutdown-grace", "120"});
  ASSERT_NE(server.port(), 0);
  auto stub = server.Stub();
  const auto scene = MakeTestScene(400, 4);
  const std::string id = SteppedWorld(*stub, scene);
  ASSERT_FALSE(id.empty());
  const double per_tick = SecondsPerTick(*stub, id);
  uint32_t ticks = static_cast<uint32_t>(std::clamp(1.0 / per_tick, 50.0, 50000.0));
  uint64_t start_tick = 1 + kCalibrationTicks;

  for (int attempt = 0; attempt < 8; ++attempt, ticks *= 2) {
    LongAdvance advance(*stub, id, ticks);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const bool in_flight = !advance.done.load();
    if (in_flight) server.Signal(SIGTERM);
    advance.call.join();
    EXPECT_TRUE(advance.status.ok()) << advance.status.error_message();
    EXPECT_EQ(advance.out.last().tick(), start_tick + ticks);
    start_tick += ticks;
    if (in_flight) {
      EXPECT_EQ(server.Wait(60), 0);
      return;
    }
  }
  FAIL() << "no Advance was still running 200 ms after it was sent";
}

// While a call in flight finishes after SIGTERM, the server drains (docs/SERVICE.md,
// "Shutdown"): health turns NOT_SERVING (a watch opened before hears it), a new call, even
// on the open channel, is refused, and the health probe
// (`throngd --health-check`) says unreachable (exit 2). The checks prove something only if
// the long call is still running when they are done; otherwise a new server and a call
// twice as long try again.
TEST(ShutdownTest, draining_refuses_new_calls_while_a_call_in_flight_finishes) {
  uint32_t ticks = 0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    ThrongdProcess server({"--shutdown-grace", "120"});
    ASSERT_NE(server.port(), 0);
    auto stub = server.Stub();
    const auto scene = MakeTestScene(400, 4);
    const std::string id = SteppedWorld(*stub, scene);
    ASSERT_FALSE(id.empty());
    if (ticks == 0) {
      ticks = static_cast<uint32_t>(std::clamp(2.0 / SecondsPerTick(*stub, id), 50.0, 50000.0));
    }
    LongAdvance advance(*stub, id, ticks);
    // A health watch opened before the signal hears the turn to NOT_SERVING.
    auto health = grpc::health::v1::Health::NewStub(server.Channel());
    auto watch_context = Context(60);
    auto watch = health->Watch(watch_context.get(), grpc::health::v1::HealthCheckRequest());
    grpc::health::v1::HealthCheckResponse before, after;
    ASSERT_TRUE(watch->Read(&before));
    EXPECT_EQ(before.status(), grpc::health::v1::HealthCheckResponse::SERVING);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    server.Signal(SIGTERM);
    const bool heard = watch->Read(&after);
    watch_context->TryCancel();  // an open watch would hold the drain to its deadline
    watch->Finish().IgnoreError();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    v1::ListWorldsResponse listed;
    const grpc::Status refused =
        stub->ListWorlds(Context(5).get(), v1::ListWorldsRequest(), &listed);
    const std::string probe =
        std::string(THRONGD_PATH) + " --health-check " + server.address() + " > /dev/null";
    const int probe_status = std::system(probe.c_str());
    const bool still_running = !advance.done.load();
    advance.call.join();
    EXPECT_TRUE(advance.status.ok()) << advance.status.error_message();
    if (!still_running) {
      ticks *= 2;
      continue;
    }
    ASSERT_TRUE(heard) << "the health watch ended without an update";
    EXPECT_EQ(after.status(), grpc::health::v1::HealthCheckResponse::NOT_SERVING);
    EXPECT_FALSE(refused.ok()) << "a new call was served while draining";
    std::printf("[ figures  ] refused while draining: %s\n",
                refused.ok() ? "OK" : refused.error_message().c_str());
    ASSERT_TRUE(WIFEXITED(probe_status));
    EXPECT_EQ(WEXITSTATUS(probe_status), 2);
    EXPECT_EQ(server.Wait(60), 0);
    return;
  }
  FAIL() << "the long call never outlasted the checks";
}

// A call longer than --shutdown-grace is cancelled between ticks; the process exits 0.
TEST(ShutdownTest, grace_period_cancels_a_longer_call) {
  ThrongdProcess server({"--shutdown-grace", "0.3"});
  ASSERT_NE(server.port(), 0);
  auto stub = server.Stub();
  const auto scene = MakeTestScene(400, 4);
  const std::string id = SteppedWorld(*stub, scene);
  ASSERT_FALSE(id.empty());
  v1::AdvanceRequest request;
  request.set_world_id(id);
  request.set_ticks(100'000'000);  // hours: only the cancellation ends it
  request.set_dt(0.05f);
  v1::AdvanceResponse out;
  grpc::Status status;
  std::thread call([&] { status = stub->Advance(Context(60).get(), request, &out); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto start = std::chrono::steady_clock::now();
  server.Signal(SIGTERM);
  EXPECT_EQ(server.Wait(20), 0);
  call.join();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 15);
  EXPECT_FALSE(status.ok());
}

}  // namespace
}  // namespace throng::service::testing
