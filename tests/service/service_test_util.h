// Inputs and comparisons shared by the throngd end-to-end tests: a small scene of
// pedestrians around an obstacle and vehicles on a lane, its requests, and the engine's
// own answers for the same input, in the API's messages.
#pragma once

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "kernels/world/world.h"
#include "throng/v1/simulation.grpc.pb.h"

namespace throng::service::testing {

namespace v1 = ::throng::v1;

constexpr uint32_t kLaneId = 7;

struct TestScene {
  WorldConfig config;
  Snapshot snapshot;  // tick 1
};

// `agents` pedestrians crossing a circle toward the opposite side around a square
// obstacle; `vehicles` cars on lane kLaneId. Some optional columns are present, some not.
TestScene MakeTestScene(int agents, int vehicles, uint32_t seed = 1);

// Adds `n` forward agents to the scene, in a row at y = 40 (clear of the pedestrians,
// the vehicles and the obstacle), z = 2, heading +x toward goals 30 m ahead, with a
// radius column and per-agent probes; the fan mode stays the world's.
void AddForwardAgents(TestScene* scene, int n);

v1::CreateWorldRequest CreateRequest(const WorldConfig& config, const std::string& name = "test");
v1::StepRequest StepRequest(const std::string& world_id, const Snapshot& snapshot,
                            const TickOptions& options = {});

// The local engine's tick, as the server would send it (stage times cleared).
v1::StepResponse EngineStep(World& world, const Snapshot& snapshot, const TickOptions& options,
                            const std::string& world_id);

// Equal but for stage times (wall clock) and world_id.
::testing::AssertionResult SameResponse(v1::StepResponse got, v1::StepResponse want);
::testing::AssertionResult SameMessage(const google::protobuf::Message& got,
                                       const google::protobuf::Message& want);

// A context with a deadline (no test hangs on a wedged server) and optional token.
std::unique_ptr<grpc::ClientContext> Context(double seconds = 60, const std::string& token = "");

// CreateWorld that must succeed; the world id.
std::string CreateWorld(v1::Simulation::Stub& stub, const WorldConfig& config);

}  // namespace throng::service::testing
