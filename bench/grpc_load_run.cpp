#include "bench/grpc_load_run.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "bench/grpc_raw.h"
#include "clients/cpp/scenario_proto.h"
#include "proto/convert.h"

namespace throng::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// A channel of its own per world: a distinct argument keeps gRPC from sharing one
// connection between them, as separate game servers would not.
std::shared_ptr<grpc::Channel> OpenChannel(const std::string& address, int index) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  args.SetInt("throng.bench.world", index);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
}

void Check(const grpc::Status& status, const char* what) {
  if (!status.ok()) {
    throw std::runtime_error(std::string(what) + ": " + std::to_string(status.error_code()) + " " +
                             status.error_message());
  }
}

// Where the response leaves everyone: the next tick's snapshot (untimed client work).
void Apply(const v1::StepResponse& r, Snapshot* state) {
  auto& a = state->agents;
  const auto& ra = r.agents();
  a.vx.assign(ra.vx().begin(), ra.vx().end());
  a.vy.assign(ra.vy().begin(), ra.vy().end());
  if (ra.x_size() > 0) {
    a.x.assign(ra.x().begin(), ra.x().end());
    a.y.assign(ra.y().begin(), ra.y().end());
  }
  auto& v = state->vehicles;
  const auto& rv = r.vehicles();
  if (rv.x_size() > 0) {
    v.x.assign(rv.x().begin(), rv.x().end());
    v.y.assign(rv.y().begin(), rv.y().end());
    v.yaw.assign(rv.yaw().begin(), rv.yaw().end());
    v.speed.assign(rv.speed().begin(), rv.speed().end());
  }
  v.progress_hint.clear();  // the world continues each lane's progress
  state->tick += 1;
}

struct WorldDriver {
  std::string world_id;
  std::shared_ptr<grpc::Channel> channel;
  std::vector<TickSample> samples;
  v1::StepRequest request;  // reused: columns keep their capacity, as a game would
  v1::StepResponse response;
  size_t request_bytes = 0, response_bytes = 0;
};

void Drive(const scenarios::Scenario& scenario, const LoadOptions& o, WorldDriver* d) {
  Snapshot state = scenario.initial;
  state.tick = 1;
  client::WidenedAgentSpans widened;
  std::unique_ptr<RawStream> stream;
  if (o.stream) stream = std::make_unique<RawStream>(d->channel, d->world_id);
  for (int t = 0; t < o.warmup + o.ticks; ++t) {
    TickSample s;
    const auto t0 = Clock::now();
    d->request.Clear();
    d->request.set_world_id(d->world_id);
    d->request.set_tick(state.tick);
    d->request.set_dt(state.dt);
    d->request.mutable_options()->set_integrate(o.integrate);
    client::FillAgents(client::AgentSpansOf(state.agents, &widened), d->request.mutable_agents());
    client::FillVehicles(client::VehicleSpansOf(state.vehicles), d->request.mutable_vehicles());
    const auto t1 = Clock::now();
    grpc::ByteBuffer request_bytes, response_bytes;
    Encode(d->request, &request_bytes);
    const auto t2 = Clock::now();
    if (stream) {
      if (!stream->Step(request_bytes, &response_bytes)) Check(stream->Finish(), "StreamSteps");
    } else {
      Check(RawStep(d->channel.get(), d->world_id, request_bytes, &response_bytes), "Step");
    }
    const auto t3 = Clock::now();
    d->response_bytes = response_bytes.Length();
    d->request_bytes = request_bytes.Length();
    Decode(&response_bytes, &d->response);
    const auto t4 = Clock::now();
    s.build = Ms(t0, t1);
    s.encode = Ms(t1, t2);
    s.rtt = Ms(t2, t3);
    s.decode = Ms(t3, t4);
    s.engine = d->response.stats().stage_seconds().total() * 1e3;
    if (t >= o.warmup) d->samples.push_back(s);
    Apply(d->response, &state);
  }
  if (stream) Check(stream->Finish(), "StreamSteps");
}

}  // namespace

LoadRun RunLoad(const scenarios::Scenario& scenario, const LoadOptions& o) {
  static std::atomic<int> next_world{0};
  const client::ProtoScenario proto = client::ScenarioToProto(scenario);
  std::vector<WorldDriver> drivers(static_cast<size_t>(o.worlds));
  for (int w = 0; w < o.worlds; ++w) {
    auto& d = drivers[static_cast<size_t>(w)];
    d.channel = OpenChannel(o.address, w);
    auto stub = v1::Simulation::NewStub(d.channel);
    // Named, so that a proxy in front of several throngd routes the creation where the
    // world's ticks go (docs/OPERATIONS.md, "Many replicas").
    d.world_id = "load-" + std::to_string(getpid()) + "-" + std::to_string(next_world++);
    grpc::ClientContext context;
    context.AddMetadata(client::kWorldIdMetadataKey, d.world_id);
    v1::CreateWorldRequest create;
    *create.mutable_config() = proto.config;
    create.set_world_id(d.world_id);
    v1::WorldInfo info;
    Check(stub->CreateWorld(&context, create, &info), "CreateWorld");
  }

  std::mutex error_mu;
  std::string error;
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  for (auto& d : drivers) {
    threads.emplace_back([&, driver = &d] {
      try {
        Drive(scenario, o, driver);
      } catch (const std::exception& e) {
        std::lock_guard lock(error_mu);
        error = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  LoadRun run;
  run.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  run.world_ticks = o.worlds * (o.warmup + o.ticks);

  for (auto& d : drivers) {
    auto stub = v1::Simulation::NewStub(d.channel);
    grpc::ClientContext context;
    context.AddMetadata(client::kWorldIdMetadataKey, d.world_id);
    v1::DeleteWorldRequest del;
    del.set_world_id(d.world_id);
    v1::DeleteWorldResponse ignored;
    stub->DeleteWorld(&context, del, &ignored);
  }
  if (!error.empty()) throw std::runtime_error(error);
  for (const auto& d : drivers) {
    run.samples.insert(run.samples.end(), d.samples.begin(), d.samples.end());
  }
  run.request_bytes = drivers[0].request_bytes;
  run.response_bytes = drivers[0].response_bytes;
  run.last_request = drivers[0].request;
  run.last_response = drivers[0].response;
  return run;
}

namespace {

// The engine's answer and state that would have produced `r` (integrated positions).
void ResultOf(const v1::StepResponse& r, TickResult* result, Snapshot* state) {
  result->tick = r.tick();
  auto& a = result->agents;
  const auto& ra = r.agents();
  a.vx.assign(ra.vx().begin(), ra.vx().end());
  a.vy.assign(ra.vy().begin(), ra.vy().end());
  a.vz.assign(ra.vz().begin(), ra.vz().end());
  a.status.assign(ra.status().begin(), ra.status().end());
  a.flags.assign(ra.flags().begin(), ra.flags().end());
  auto& v = result->vehicles;
  const auto& rv = r.vehicles();
  v.steering.assign(rv.steering().begin(), rv.steering().end());
  v.throttle.assign(rv.throttle().begin(), rv.throttle().end());
  v.brake.assign(rv.brake().begin(), rv.brake().end());
  v.target_speed.assign(rv.target_speed().begin(), rv.target_speed().end());
  v.cte.assign(rv.cte().begin(), rv.cte().end());
  v.progress.assign(rv.progress().begin(), rv.progress().end());
  v.clear_distance.assign(rv.clear_distance().begin(), rv.clear_distance().end());
  state->agents.x.assign(ra.x().begin(), ra.x().end());
  state->agents.y.assign(ra.y().begin(), ra.y().end());
  state->agents.z.assign(ra.z().begin(), ra.z().end());
  state->vehicles.x.assign(rv.x().begin(), rv.x().end());
  state->vehicles.y.assign(rv.y().begin(), rv.y().end());
  state->vehicles.z.assign(rv.z().begin(), rv.z().end());
  state->vehicles.yaw.assign(rv.yaw().begin(), rv.yaw().end());
  state->vehicles.speed.assign(rv.speed().begin(), rv.speed().end());
}

template <class F>
double MedianMs(int repeats, F&& f) {
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    f();
    ms.push_back(Ms(t0, Clock::now()));
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

ServerSplit MeasureServerSplit(const v1::StepRequest& request, const v1::StepResponse& response,
                               int repeats) {
  ServerSplit s;
  grpc::ByteBuffer request_bytes;
  Encode(request, &request_bytes);
  s.parse = MedianMs(repeats, [&] {
    grpc::ByteBuffer copy(request_bytes);  // shares the slices; Decode consumes its buffer
    v1::StepRequest fresh;
    Decode(&copy, &fresh);
  });
  Snapshot snapshot;
  s.convert_in = MedianMs(repeats, [&] {
    service::SnapshotFromProto(request.tick(), request.dt(), request.agents(), request.vehicles(),
                               &snapshot);
  });
  TickResult result;
  Snapshot state;
  ResultOf(response, &result, &state);
  TickOptions options;
  options.integrate = response.agents().x_size() > 0;
  const std::string backend = response.stats().backend();
  s.convert_out = MedianMs(repeats, [&] {
    v1::StepResponse fresh;
    service::ResultToProto(result, state, options, backend, &fresh);
  });
  v1::StepResponse reused;
  s.convert_out_reused =
      MedianMs(repeats, [&] { service::ResultToProto(result, state, options, backend, &reused); });
  s.encode = MedianMs(repeats, [&] {
    grpc::ByteBuffer bytes;
    Encode(reused, &bytes);
  });
  return s;
}

}  // namespace throng::bench
