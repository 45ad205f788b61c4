// throng.v1.Simulation on gRPC's synchronous server: each call runs on one of gRPC's
// worker threads, and engine ticks (milliseconds to seconds) may block it. Thread-safe:
// calls on different worlds run in parallel; calls on one world queue on its mutex.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <string>
#include <string_view>

#include "kernels/backends/backend.h"
#include "service/auth.h"
#include "service/metrics.h"
#include "service/registry.h"
#include "throng/v1/simulation.grpc.pb.h"

namespace throng::service {

struct ServiceLimits {
  // Pedestrians, vehicles and forward agents together in one snapshot.
  int64_t max_agents_per_world = 1'000'000;
};

class SimulationService final : public ::throng::v1::Simulation::Service {
 public:
  // `registry` and `metrics` outlive the service.
  SimulationService(BackendKind default_backend, ServiceLimits limits, TokenAuth auth,
                    WorldRegistry* registry, ServiceMetrics* metrics);

  grpc::Status CreateWorld(grpc::ServerContext* context, const v1::CreateWorldRequest* request,
                           v1::WorldInfo* response) override;
  grpc::Status Step(grpc::ServerContext* context, const v1::StepRequest* request,
                    v1::StepResponse* response) override;
  grpc::Status StreamSteps(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<v1::StepResponse, v1::StepRequest>* stream) override;
  grpc::Status Advance(grpc::ServerContext* context, const v1::AdvanceRequest* request,
                       v1::AdvanceResponse* response) override;
  grpc::Status GetWorld(grpc::ServerContext* context, const v1::GetWorldRequest* request,
                        v1::GetWorldResponse* response) override;
  grpc::Status ListWorlds(grpc::ServerContext* context, const v1::ListWorldsRequest* request,
                          v1::ListWorldsResponse* response) override;
  grpc::Status DeleteWorld(grpc::ServerContext* context, const v1::DeleteWorldRequest* request,
                           v1::DeleteWorldResponse* response) override;
  grpc::Status Solve(grpc::ServerContext* context, const v1::SolveRequest* request,
                     v1::StepResponse* response) override;
  grpc::Status ExportWorld(grpc::ServerContext* context, const v1::ExportWorldRequest* request,
                           v1::WorldExport* response) override;
  grpc::Status ImportWorld(grpc::ServerContext* context, const v1::ImportWorldRequest* request,
                           v1::WorldInfo* response) override;
  grpc::Status GetNavigationField(grpc::ServerContext* context,
                                  const v1::GetNavigationFieldRequest* request,
                                  v1::NavigationField* response) override;

  // Shutdown: every running tick stops at its next check and its call returns CANCELLED
  // ("the server is shutting down"); new ticks stop at once. Thread-safe, not undoable.
  void StopAllCalls() { stopping_.store(true); }

 private:
  // Checks the token, runs `body`, turns the engine's exceptions into statuses, logs and
  // records the call.
  template <typename Body>
  grpc::Status Handle(const char* method, grpc::ServerContext* context, Body&& body);

  // The live world, or NOT_FOUND (INVALID_ARGUMENT for an empty id).
  std::shared_ptr<WorldEntry> Lookup(const std::string& world_id, grpc::Status* status) const;
  // Runs `body(entry)` on the live world `world_id`, locked between ticks: Lookup's
  // statuses, or NOT_FOUND for a world deleted while this call waited for its lock.
  template <typename Body>
  grpc::Status WithLockedWorld(const std::string& world_id, Body&& body);
  grpc::Status CheckPopulation(const v1::AgentBatch& agents, const v1::VehicleBatch& vehicles,
                               const v1::ForwardBatch& forward) const;
  // One tick of a locked, live world.
  grpc::Status StepLocked(WorldEntry& entry, const v1::StepRequest& request,
                          const StopRequested& stop, v1::StepResponse* response);
  // After a tick: population gauges and the entry's counts (entry locked).
  void AfterTick(WorldEntry& entry);
  // What a tick of this call asks between its stages: the call's deadline passed, its
  // client went away, or the server is stopping (StopAllCalls).
  StopRequested StopFor(grpc::ServerContext* context) const;
  // The status of a call whose tick was stopped, by the reason it was; `done` ticks of
  // an Advance stand.
  grpc::Status StoppedStatus(grpc::ServerContext* context, std::string_view what) const;

  const BackendKind default_backend_;
  const ServiceLimits limits_;
  const TokenAuth auth_;
  WorldRegistry* registry_;
  ServiceMetrics* metrics_;
  std::atomic<bool> stopping_{false};
};

// A caller's string for a status message: at most kMaxQuotedLength bytes of it, quoted,
// with its length when cut ("\"xxxx...\" (8000 bytes)"), so that an error about a
// huge id stays a small message.
std::string QuoteUserString(std::string_view s);

// "OK", "INVALID_ARGUMENT", .. as gRPC spells the codes.
const char* StatusCodeName(grpc::StatusCode code);

}  // namespace throng::service
