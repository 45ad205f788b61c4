// game_loop: what a game server does with Throng every tick. It owns the world state,
// sends a snapshot, applies the answer itself (pedestrians p += v dt; vehicles through the
// kinematic bicycle model of kernels/vehicles/bicycle.cuh, with the steering, throttle and brake
// Throng chose) and prints each tick's latency.
//
//   game_loop --server 127.0.0.1:50051 --scenario town --size 500 --ticks 100 [--stream]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "clients/cpp/client.h"
#include "clients/cpp/process_memory.h"
#include "clients/cpp/scenario_proto.h"
#include "kernels/vehicles/bicycle.cuh"
#include "kernels/scenarios/scenario.h"

namespace {

namespace v1 = throng::v1;
using throng::client::Column;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Vehicles move in the engine's internal frame (Z up, yaw counter-clockwise), which is
// the frame the bicycle model is written in; the snapshot stays in the caller's frame.
void MoveVehicles(const throng::Frame& frame, const throng::BicycleParams& bicycle, float dt,
                  const v1::VehicleResults& controls, throng::VehicleSnapshot& v,
                  std::vector<float>& wheel_angle) {
  for (size_t i = 0; i < v.size(); ++i) {
    throng::VehicleState s{};
    s.position = frame.ToInternal({v.x[i], v.y[i], v.z.empty() ? 0.f : v.z[i]});
    s.yaw = frame.YawToInternal(v.yaw[i]);
    s.speed = v.speed[i];
    s.wheel_angle = wheel_angle[i];
    throng::StepBicycle(s, controls.steering(i), controls.throttle(i), controls.brake(i), bicycle,
                        dt);
    const throng::Vec3 p = frame.ToExternal(s.position);
    v.x[i] = p.x;
    v.y[i] = p.y;
    if (!v.z.empty()) v.z[i] = p.z;
    v.yaw[i] = frame.YawToExternal(s.yaw);
    v.speed[i] = s.speed;
    wheel_angle[i] = s.wheel_angle;
  }
}

}  // namespace

int main(int argc, char** argv) {
  throng::client::KeepFreedMemory();  // big answers every tick: reuse their pages
  CLI::App app{"Runs a Throng scenario as a game loop: the client integrates"};
  std::string server = "127.0.0.1:50051", token, tls_ca, name = "town";
  size_t size = 500;
  uint32_t seed = 1;
  int ticks = 0;
  bool stream = false;
  app.add_option("--server", server, "throngd host:port");
  app.add_option("--token", token, "bearer token");
  app.add_option("--tls-ca", tls_ca, "PEM root certificate: connect with TLS")
      ->check(CLI::ExistingFile);
  app.add_option("--scenario", name, "circle, random, corridor, crossing or town");
  app.add_option("--size", size, "pedestrians (town: plus size/50 vehicles)");
  app.add_option("--seed", seed, "random seed");
  app.add_option("--ticks", ticks, "ticks to run; 0: the scenario's suggestion");
  app.add_flag("--stream", stream, "one StreamSteps call instead of a Step per tick");
  CLI11_PARSE(app, argc, argv);

  try {
    const auto scenario = throng::scenarios::MakeScenario(name, size, seed);
    const auto proto = throng::client::ScenarioToProto(scenario);
    throng::client::ConnectOptions options;
    options.address = server;
    options.tls_root_cert_pem = tls_ca.empty() ? "" : ReadFile(tls_ca);
    options.token = token;
    throng::client::Client client(options);
    client.WaitReady(std::chrono::seconds(10));
    const v1::WorldInfo world = client.CreateWorld(proto.config);
    std::printf("world %s on %s: %zu pedestrians, %zu vehicles\n", world.world_id().c_str(),
                world.backend().c_str(), scenario.initial.agents.size(),
                scenario.initial.vehicles.size());

    throng::Snapshot state = scenario.initial;  // the game's own copy of the world
    std::vector<float> wheel_angle(state.vehicles.size(), 0.f);
    auto steps = stream ? client.OpenStream() : nullptr;
    if (ticks <= 0) ticks = scenario.suggested_ticks > 0 ? scenario.suggested_ticks : 100;
    std::vector<double> latency_ms;
    uint64_t collisions = 0;
    for (int t = 0; t < ticks; ++t) {
      v1::StepRequest request = throng::client::MakeStep(world.world_id(), state.tick, state.dt);
      throng::client::WidenedAgentSpans widened;
      throng::client::FillAgents(throng::client::AgentSpansOf(state.agents, &widened),
                                 request.mutable_agents());
      throng::client::FillVehicles(throng::client::VehicleSpansOf(state.vehicles),
                                   request.mutable_vehicles());

      const auto start = std::chrono::steady_clock::now();
      v1::StepResponse owned;
      const v1::StepResponse& response =
          steps ? steps->Step(request) : (owned = client.Step(request));
      latency_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());

      // Apply the answer as a game would: velocities move pedestrians...
      auto& ag = state.agents;
      const auto vx = Column(response.agents().vx()), vy = Column(response.agents().vy());
      ag.vx.assign(vx.begin(), vx.end());
      ag.vy.assign(vy.begin(), vy.end());
      for (size_t i = 0; i < ag.size(); ++i) {
        ag.x[i] += ag.vx[i] * state.dt;
        ag.y[i] += ag.vy[i] * state.dt;
      }
      // ...controls drive vehicles; the lane progress continues server-side.
      MoveVehicles(scenario.config.frame, scenario.config.vehicle_defaults.bicycle, state.dt,
                   response.vehicles(), state.vehicles, wheel_angle);
      state.vehicles.progress_hint.clear();
      state.tick += 1;

      const auto& s = response.stats();
      collisions += s.agent_overlaps() + s.vehicle_overlaps() + s.agents_in_obstacles();
      std::printf(
          "tick %4llu  %7.2f ms (server %6.2f ms)  ok %llu  safe_stop %llu  "
          "emergency %llu  overlaps %llu/%llu/%llu\n",
          static_cast<unsigned long long>(response.tick()), latency_ms.back(),
          1e3 * s.stage_seconds().total(), static_cast<unsigned long long>(s.ok()),
          static_cast<unsigned long long>(s.safe_stop()),
          static_cast<unsigned long long>(s.emergency()),
          static_cast<unsigned long long>(s.agent_overlaps()),
          static_cast<unsigned long long>(s.vehicle_overlaps()),
          static_cast<unsigned long long>(s.agents_in_obstacles()));
    }
    if (steps) steps->Close();
    client.DeleteWorld(world.world_id());

    std::sort(latency_ms.begin(), latency_ms.end());
    const auto at = [&](double q) {
      return latency_ms[static_cast<size_t>(q * static_cast<double>(latency_ms.size() - 1))];
    };
    std::printf("%d ticks: latency p50 %.2f ms, p99 %.2f ms; collisions %llu\n", ticks, at(0.5),
                at(0.99), static_cast<unsigned long long>(collisions));
    return 0;
  } catch (const throng::client::Error& e) {
    std::fprintf(stderr, "game_loop: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "game_loop: %s\n", e.what());
    return 1;
  }
}
