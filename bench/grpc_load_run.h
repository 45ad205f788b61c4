// The load benchmark's measurements: ticks driven through throngd over gRPC, each split
// into the client's serialisation, the transport and the engine's own time; and the
// server's non-engine work redone in process on the same messages.
#pragma once

#include <grpcpp/grpcpp.h>

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/scenarios/scenario.h"
#include "throng/v1/simulation.pb.h"

namespace throng::bench {

// One tick as one client saw it, milliseconds.
struct TickSample {
  double build = 0;   // request columns filled from the client's state
  double encode = 0;  // request -> bytes (gRPC's SerializationTraits)
  double rtt = 0;     // bytes sent -> bytes received (unary call, or stream write + read)
  double decode = 0;  // bytes -> response
  double engine = 0;  // TickStats.stage_seconds.total from the response
  double transport() const { return rtt - engine; }  // wire + server's non-engine work
  double non_engine() const { return build + encode + transport() + decode; }
};

struct LoadOptions {
  std::string address;    // throngd host:port
  bool stream = false;    // StreamSteps, else unary Step
  int worlds = 1;         // one world, channel and client thread each
  int warmup = 3;         // ticks per world not recorded
  int ticks = 30;         // ticks per world recorded
  bool integrate = true;  // server-side integration: the response carries positions
};

struct LoadRun {
  std::vector<TickSample> samples;               // every recorded tick of every world
  size_t request_bytes = 0, response_bytes = 0;  // of the last tick of world 0
  double wall_s = 0;                             // the whole run, all worlds
  int world_ticks = 0;                           // ticks run in wall_s, warm-up included
  v1::StepRequest last_request;                  // of world 0, for ServerSplit
  v1::StepResponse last_response;
};

// Creates `worlds` worlds of the scenario, drives them from one thread each (every tick
// sends the state the previous response left, as a game loop does), deletes them.
// Throws std::runtime_error on a failed call.
LoadRun RunLoad(const scenarios::Scenario& scenario, const LoadOptions& options);

// The server's non-engine work on one tick, redone here on the same messages, medians of
// `repeats`, milliseconds: what `transport` holds besides the wire.
struct ServerSplit {
  double parse = 0;               // request bytes -> a fresh StepRequest (as the server gets it)
  double convert_in = 0;          // SnapshotFromProto into a reused Snapshot
  double convert_out = 0;         // ResultToProto into a fresh StepResponse (unary)
  double convert_out_reused = 0;  // ... into the reused response (a stream)
  double encode = 0;              // response -> bytes
  double total() const { return parse + convert_in + convert_out + encode; }
};
ServerSplit MeasureServerSplit(const v1::StepRequest& request, const v1::StepResponse& response,
                               int repeats);

}  // namespace throng::bench
