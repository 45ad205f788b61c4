// A scenario as throng.v1 messages: the WorldConfig to create the world from and the
// initial snapshot as request batches. `throng-scenario NAME --proto` writes one as JSON
// (docs/CLIENTS.md), and the Python client reads the same files, so a game built against
// the installed client runs the engine's named scenarios without linking the engine.
#pragma once

#include <cstdint>
#include <string>

#include "throng/v1/simulation.pb.h"

namespace throng::client {

struct ProtoScenario {
  std::string name;              // the scenario's name ("town")
  uint32_t suggested_ticks = 0;  // how long the scenario is meant to run; 0: no suggestion
  v1::WorldConfig config;        // named after the scenario, backend left to the server
  uint64_t tick = 0;             // of the initial snapshot
  float dt = 0.1f;               // s, the scenario's time step
  v1::AgentBatch agents;
  v1::VehicleBatch vehicles;
  v1::ForwardBatch forward;
};

// Reads {"format": "throng.v1", "name", "suggested_ticks", "config": WorldConfig,
// "initial": {"tick", "dt", "agents", "vehicles", "forward"}} (proto JSON, the proto's
// field names; other top-level keys are ignored). Throws std::runtime_error naming the
// part that is wrong ("scenario config: ..."), or the file that cannot be read.
ProtoScenario ParseScenarioJson(const std::string& json);
ProtoScenario LoadScenarioFile(const std::string& path);

}  // namespace throng::client
