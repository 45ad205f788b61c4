// Throng's C++ client: a thin layer over the generated throng.v1 stubs that connects
// (plain or TLS, bearer token), fills request columns from spans, and turns every failed
// call into one typed exception (docs/CLIENTS.md).
//
//   client::ConnectOptions options;
//   options.address = "127.0.0.1:50051";
//   client::Client client(options);
//   std::string world = client.CreateWorld(config).world_id();
//   client::AgentSpans agents;  // spans over the game's own arrays
//   agents.id = ids;  agents.x = xs;  agents.y = ys;  agents.goal_x = gx;  agents.goal_y = gy;
//   v1::StepRequest req = client::MakeStep(world, tick, dt);
//   client::FillAgents(agents, req.mutable_agents());
//   v1::StepResponse res = client.Step(req);
//   std::span<const float> vx = client::Column(res.agents().vx());
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/world/column_tables.h"
#include "throng/v1/simulation.grpc.pb.h"

namespace throng::client {

namespace v1 = ::throng::v1;

// A failed call: the gRPC status code and the server's message ("agents.radius[3]: must
// be > 0"). what() reads "INVALID_ARGUMENT: agents.radius[3]: must be > 0".
class Error : public std::runtime_error {
 public:
  Error(grpc::StatusCode code, const std::string& message);
  grpc::StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  grpc::StatusCode code_;
  std::string message_;
};

// "INVALID_ARGUMENT", "NOT_FOUND", ...
const char* CodeName(grpc::StatusCode code);

// The metadata key under which every call that names a world carries its id, for a proxy
// that routes worlds to replicas (docs/OPERATIONS.md, "Many replicas").
inline constexpr char kWorldIdMetadataKey[] = "throng-world-id";

struct ConnectOptions {
  std::string address = "127.0.0.1:50051";  // host:port
  std::string tls_root_cert_pem;            // PEM contents (not a path); empty: plain TCP
  std::string token;                        // sent as "authorization: Bearer <token>"; empty: none
  std::chrono::milliseconds timeout{0};     // per unary call; 0: none
  int max_message_mb = 256;                 // largest response accepted (a 1M-agent tick is ~40 MB)
};

// Views over the caller's columns, one per column of AgentBatch, VehicleBatch and
// ForwardBatch under the same names and wire types (the engine's column tables,
// kernels/world/column_tables.h, which list each column's meaning); an empty span leaves
// the column out, so the world's default applies.
#define THRONG_CLIENT_SPAN(name, type, wire, need, rule) std::span<const wire> name;
struct AgentSpans {
  THRONG_AGENT_COLUMNS(THRONG_CLIENT_SPAN)
};
struct VehicleSpans {
  THRONG_VEHICLE_COLUMNS(THRONG_CLIENT_SPAN)
};
// Forward-moving agents: drones, birds, fish.
struct ForwardSpans {
  THRONG_FORWARD_COLUMNS(THRONG_CLIENT_SPAN)
};
#undef THRONG_CLIENT_SPAN

// Replace the batch's columns with copies of the spans (one memcpy per column).
void FillAgents(const AgentSpans& columns, v1::AgentBatch* out);
void FillVehicles(const VehicleSpans& columns, v1::VehicleBatch* out);
void FillForward(const ForwardSpans& columns, v1::ForwardBatch* out);

// A StepRequest with its header set; fill agents, vehicles and forward agents.
v1::StepRequest MakeStep(const std::string& world_id, uint64_t tick, float dt,
                         bool integrate = false, bool debug = false);

// A response column as a span (valid while the response lives).
template <typename T>
std::span<const T> Column(const google::protobuf::RepeatedField<T>& field) {
  return {field.data(), static_cast<size_t>(field.size())};
}

// One StreamSteps call: Step() writes a request and reads its response (the server answers
// each request in order). A rejected tick throws Error and ends the stream. Not
// thread-safe; one stream per game loop.
class StepStream {
 public:
  ~StepStream();  // cancels the call if Close() was not reached
  StepStream(const StepStream&) = delete;
  StepStream& operator=(const StepStream&) = delete;

  const v1::StepResponse& Step(const v1::StepRequest& request);
  void Close();  // half-closes and checks the final status

 private:
  friend class Client;
  StepStream(std::unique_ptr<grpc::ClientContext> context,
             std::unique_ptr<grpc::ClientReaderWriter<v1::StepRequest, v1::StepResponse>> rw);
  [[noreturn]] void Fail();

  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::StepRequest, v1::StepResponse>> stream_;
  v1::StepResponse response_;
  bool closed_ = false;
};

// A connection to throngd. Thread-safe: calls may run from many threads.
class Client {
 public:
  explicit Client(const ConnectOptions& options);

  // Waits until the channel is connected; throws Error(UNAVAILABLE) after `timeout`.
  void WaitReady(std::chrono::milliseconds timeout);

  // `world_id` "": the server names the world; behind a proxy that routes by world, name it.
  v1::WorldInfo CreateWorld(const v1::WorldConfig& config, const std::string& world_id = "");
  v1::StepResponse Step(const v1::StepRequest& request);
  // One stream drives one world: `world_id` routes it through a proxy.
  std::unique_ptr<StepStream> OpenStream(const std::string& world_id = "");
  v1::AdvanceResponse Advance(const std::string& world_id, uint32_t ticks, float dt);
  v1::GetWorldResponse GetWorld(const std::string& world_id, bool include_state = false);
  std::vector<v1::WorldInfo> ListWorlds();
  void DeleteWorld(const std::string& world_id);
  v1::StepResponse Solve(const v1::SolveRequest& request);
  // A world's whole state as one export, and a world made from one here (under its own
  // id, or `world_id`): docs/SERVICE.md, "Moving a world".
  v1::WorldExport ExportWorld(const std::string& world_id);
  v1::WorldInfo ImportWorld(const v1::WorldExport& world_export, const std::string& world_id = "");
  // One navigation target's distance field, to draw it (docs/NAVIGATION.md).
  v1::NavigationField GetNavigationField(const std::string& world_id, uint32_t target_id);

 private:
  // The call's token and deadline, and the world it names (kWorldIdMetadataKey) if any.
  std::unique_ptr<grpc::ClientContext> Context(const std::string& world_id = "") const;

  ConnectOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Simulation::Stub> stub_;
};

}  // namespace throng::client
