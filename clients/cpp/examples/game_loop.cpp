// game_loop: what a game server does with Throng every tick. It owns the world state,
// sends a snapshot, applies the answer itself (pedestrians p += v dt; vehicles through
// the world's kinematic bicycle, throng/vehicle_motion.h, with the steering, throttle and
// brake Throng chose) and prints each tick's latency. It uses only the installed client
// (find_package(Throng), docs/CLIENTS.md); the scenario comes from throng-scenario:
//
//   throng-scenario town --size 500 --proto -o town.v1.json
//   game_loop --server 127.0.0.1:50051 --scenario-file town.v1.json --ticks 100 [--stream]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "throng/client.h"
#include "throng/process_memory.h"
#include "throng/scenario_file.h"
#include "throng/vehicle_motion.h"

namespace {

namespace v1 = throng::v1;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Pedestrians move by the velocities Throng chose.
void MovePedestrians(const v1::AgentResults& answer, float dt, v1::AgentBatch* agents) {
  *agents->mutable_vx() = answer.vx();
  *agents->mutable_vy() = answer.vy();
  for (int i = 0; i < agents->id_size(); ++i) {
    agents->set_x(i, agents->x(i) + answer.vx(i) * dt);
    agents->set_y(i, agents->y(i) + answer.vy(i) * dt);
  }
}

}  // namespace

int main(int argc, char** argv) {
  throng::client::KeepFreedMemory();  // big answers every tick: reuse their pages
  CLI::App app{"Runs a Throng scenario as a game loop: the client integrates"};
  std::string server = "127.0.0.1:50051", token, tls_ca, scenario_file, world_id;
  int ticks = 0;
  bool stream = false;
  app.add_option("--server", server, "throngd host:port");
  app.add_option("--token", token, "bearer token");
  app.add_option("--tls-ca", tls_ca, "PEM root certificate: connect with TLS")
      ->check(CLI::ExistingFile);
  app.add_option("--scenario-file", scenario_file,
                 "the scenario, as `throng-scenario NAME --proto -o FILE` writes it")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("--ticks", ticks, "ticks to run; 0: the scenario's suggestion");
  app.add_option("--world-id", world_id,
                 "name the world (behind a proxy that routes by world, every world is named)");
  app.add_flag("--stream", stream, "one StreamSteps call instead of a Step per tick");
  CLI11_PARSE(app, argc, argv);

  try {
    throng::client::ProtoScenario state = throng::client::LoadScenarioFile(scenario_file);
    throng::client::ConnectOptions options;
    options.address = server;
    options.tls_root_cert_pem = tls_ca.empty() ? "" : ReadFile(tls_ca);
    options.token = token;
    throng::client::Client client(options);
    client.WaitReady(std::chrono::seconds(10));
    const v1::WorldInfo world = client.CreateWorld(state.config, world_id);
    std::printf("world %s on %s: %d pedestrians, %d vehicles\n", world.world_id().c_str(),
                world.backend().c_str(), state.agents.id_size(), state.vehicles.id_size());

    throng::client::VehicleMotion vehicle_motion(state.config);
    auto steps = stream ? client.OpenStream(world.world_id()) : nullptr;
    if (ticks <= 0)
      ticks = state.suggested_ticks > 0 ? static_cast<int>(state.suggested_ticks) : 100;
    std::vector<double> latency_ms;
    uint64_t collisions = 0;
    for (int t = 0; t < ticks; ++t) {
      // The game's own state is the snapshot: the batches as the scenario file gave them,
      // moved every tick.
      v1::StepRequest request = throng::client::MakeStep(world.world_id(), state.tick, state.dt);
      *request.mutable_agents() = state.agents;
      *request.mutable_vehicles() = state.vehicles;

      const auto start = std::chrono::steady_clock::now();
      v1::StepResponse owned;
      const v1::StepResponse& response =
          steps ? steps->Step(request) : (owned = client.Step(request));
      latency_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());

      MovePedestrians(response.agents(), state.dt, &state.agents);
      // Controls drive vehicles; the lane progress continues server-side.
      vehicle_motion.Apply(response.vehicles(), state.dt, &state.vehicles);
      state.vehicles.clear_progress_hint();
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
