#include "service/simulation_service.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>

#include "kernels/input/input_limits.h"
#include "proto/convert.h"
#include "proto/world_export.h"

namespace throng::service {
namespace {

using grpc::Status;
using grpc::StatusCode;

TickOptions OptionsFromProto(const v1::StepOptions& o, StopRequested stop) {
  TickOptions options;
  options.integrate = o.integrate();
  options.debug = o.debug();
  options.stop = std::move(stop);
  return options;
}

bool PastDeadline(const grpc::ServerContext& context) {
  return std::chrono::system_clock::now() >= context.deadline();
}

// The summary ListWorlds and GetWorld show (entry locked).
void FillInfo(const WorldEntry& e, v1::WorldInfo* info) {
  info->set_world_id(e.id);
  info->set_name(e.name);
  info->set_backend(e.backend);
  const auto& config = e.world->config();
  info->set_splines(static_cast<uint32_t>(config.splines.size()));
  info->set_obstacles(static_cast<uint32_t>(config.obstacles.size()));
  info->set_has_state(e.world->has_state());
  info->set_last_tick(e.world->has_state() ? e.world->state().tick : 0);
  info->set_agents(e.agents);
  info->set_vehicles(e.vehicles);
  info->set_forward_agents(e.world->has_state() ? e.world->state().forward.size() : 0);
  info->set_spheres(static_cast<uint32_t>(config.spheres.size()));
}

// A World, its configuration errors named as WorldConfig spells the fields.
std::unique_ptr<World> MakeWorld(WorldConfig config, BackendKind kind) {
  try {
    return std::make_unique<World>(std::move(config), kind);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(ConfigMessageToProto(e.what()));
  }
}

void PublishInfo(WorldEntry& e) {
  std::lock_guard lock(e.info_mu);
  FillInfo(e, &e.info);
}

// What an entry shows of its built world: its name, backend and effective configuration.
void Describe(WorldEntry& e, const std::string& name) {
  e.name = name;
  e.backend = std::string(BackendName(e.world->backend()));
  ConfigToProto(e.world->config(), &e.effective_config);
  e.effective_config.set_name(e.name);
  e.effective_config.set_backend(BackendToProto(e.world->backend()));
}

Status WorldsFull() {
  return Status(StatusCode::RESOURCE_EXHAUSTED,
                "worlds: this server's limit of worlds is reached (--max-worlds); "
                "delete one first");
}

Status Taken(const std::string& id) {
  return Status(StatusCode::ALREADY_EXISTS,
                "world_id: " + QuoteUserString(id) + " is taken on this server");
}

// A world id a caller chooses (CreateWorld, ImportWorld): what fits a gRPC metadata value
// and a log line as it is.
constexpr size_t kMaxWorldIdLength = 128;
Status CheckWorldId(const std::string& id) {
  if (id.empty()) return Status(StatusCode::INVALID_ARGUMENT, "world_id: required");
  if (id.size() > kMaxWorldIdLength) {
    return Status(StatusCode::INVALID_ARGUMENT, "world_id: " + std::to_string(id.size()) +
                                                    " bytes, beyond the limit of " +
                                                    std::to_string(kMaxWorldIdLength));
  }
  for (const char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.' || c == ':';
    if (!ok) {
      return Status(StatusCode::INVALID_ARGUMENT, "world_id: " + QuoteUserString(id) +
                                                      " may hold only letters, digits and - _ . :");
    }
  }
  return Status::OK;
}

}  // namespace

std::string QuoteUserString(std::string_view s) {
  if (s.size() <= kMaxQuotedLength) return "\"" + std::string(s) + "\"";
  return "\"" + std::string(s.substr(0, kMaxQuotedLength)) + "...\" (" + std::to_string(s.size()) +
         " bytes)";
}

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::OK:
      return "OK";
    case StatusCode::CANCELLED:
      return "CANCELLED";
    case StatusCode::UNKNOWN:
      return "UNKNOWN";
    case StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case StatusCode::ABORTED:
      return "ABORTED";
    case StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case StatusCode::INTERNAL:
      return "INTERNAL";
    case StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "UNKNOWN";
  }
}

SimulationService::SimulationService(BackendKind default_backend, ServiceLimits limits,
                                     TokenAuth auth, WorldRegistry* registry,
                                     ServiceMetrics* metrics)
    : default_backend_(default_backend),
      limits_(limits),
      auth_(std::move(auth)),
      registry_(registry),
      metrics_(metrics) {}

template <typename Body>
Status SimulationService::Handle(const char* method, grpc::ServerContext* context, Body&& body) {
  const auto start = std::chrono::steady_clock::now();
  Status status = auth_.Check(*context);
  if (status.ok()) {
    try {
      status = body();
    } catch (const TickCancelled& e) {
      status = StoppedStatus(context, e.what());
    } catch (const LimitExceeded& e) {
      status = Status(StatusCode::RESOURCE_EXHAUSTED, ConfigMessageToProto(e.what()));
    } catch (const std::invalid_argument& e) {
      status = Status(StatusCode::INVALID_ARGUMENT, e.what());
    } catch (const BackendUnavailable& e) {
      status = Status(StatusCode::FAILED_PRECONDITION, e.what());
    } catch (const WorldStateError& e) {
      status = Status(StatusCode::FAILED_PRECONDITION, e.what());
    } catch (const std::bad_alloc&) {
      status = Status(StatusCode::RESOURCE_EXHAUSTED, "out of memory");
    } catch (const std::exception& e) {
      spdlog::error("{} from {}: internal error: {}", method, context->peer(), e.what());
      status = Status(StatusCode::INTERNAL, e.what());
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const char* code = StatusCodeName(status.error_code());
  metrics_->RecordRpc(method, code, seconds);
  if (status.ok()) {
    spdlog::debug("{} from {}: OK in {:.3f} ms", method, context->peer(), seconds * 1e3);
  } else {
    spdlog::info("{} from {}: {}: {}", method, context->peer(), code, status.error_message());
  }
  return status;
}

StopRequested SimulationService::StopFor(grpc::ServerContext* context) const {
  return [this, context] {
    return stopping_.load(std::memory_order_relaxed) || PastDeadline(*context) ||
           context->IsCancelled();
  };
}

Status SimulationService::StoppedStatus(grpc::ServerContext* context, std::string_view what) const {
  const std::string tail = std::string(what) + "; the world is as it was before that tick";
  if (stopping_.load())
    return Status(StatusCode::CANCELLED, "the server is shutting down: " + tail);
  if (PastDeadline(*context))
    return Status(StatusCode::DEADLINE_EXCEEDED, "deadline passed: " + tail);
  return Status(StatusCode::CANCELLED, "the client went away: " + tail);
}

std::shared_ptr<WorldEntry> SimulationService::Lookup(const std::string& world_id,
                                                      Status* status) const {
  if (world_id.empty()) {
    *status = Status(StatusCode::INVALID_ARGUMENT, "world_id: required");
    return nullptr;
  }
  auto entry = registry_->Find(world_id);
  if (!entry)
    *status = Status(StatusCode::NOT_FOUND, "world_id: no world " + QuoteUserString(world_id));
  return entry;
}

template <typename Body>
Status SimulationService::WithLockedWorld(const std::string& world_id, Body&& body) {
  Status status;
  auto entry = Lookup(world_id, &status);
  if (!entry) return status;
  std::lock_guard lock(entry->mu);  // between ticks
  if (entry->deleted) return Status(StatusCode::NOT_FOUND, "world_id: was deleted");
  return body(entry);
}

Status SimulationService::CheckPopulation(const v1::AgentBatch& agents,
                                          const v1::VehicleBatch& vehicles,
                                          const v1::ForwardBatch& forward) const {
  const int64_t n = agents.id_size() + int64_t{vehicles.id_size()} + int64_t{forward.id_size()};
  if (n <= limits_.max_agents_per_world) return Status::OK;
  return Status(StatusCode::RESOURCE_EXHAUSTED,
                "agents: " + std::to_string(agents.id_size()) + " pedestrians, " +
                    std::to_string(vehicles.id_size()) + " vehicles and " +
                    std::to_string(forward.id_size()) + " forward agents exceed this server's " +
                    std::to_string(limits_.max_agents_per_world) +
                    " per world (--max-agents-per-world)");
}

void SimulationService::AfterTick(WorldEntry& e) {
  const auto& state = e.world->state();
  const uint64_t agents = state.agents.size(), vehicles = state.vehicles.size();
  registry_->UpdatePopulation(static_cast<int64_t>(agents) - static_cast<int64_t>(e.agents),
                              static_cast<int64_t>(vehicles) - static_cast<int64_t>(e.vehicles));
  e.agents = agents;
  e.vehicles = vehicles;
  PublishInfo(e);
}

Status SimulationService::CreateWorld(grpc::ServerContext* context,
                                      const v1::CreateWorldRequest* request,
                                      v1::WorldInfo* response) {
  return Handle("CreateWorld", context, [&]() -> Status {
    if (request->config().name().size() > kMaxNameLength) {
      return Status(StatusCode::INVALID_ARGUMENT,
                    "name: " + std::to_string(request->config().name().size()) +
                        " bytes, beyond the limit of " + std::to_string(kMaxNameLength));
    }
    if (!request->world_id().empty()) {
      const Status id_status = CheckWorldId(request->world_id());
      if (!id_status.ok()) return id_status;
      if (registry_->Find(request->world_id())) return Taken(request->world_id());
    }
    WorldConfig config = ConfigFromProto(request->config());
    const BackendKind kind = BackendFromProto(request->config().backend(), default_backend_);
    if (!registry_->Reserve()) return WorldsFull();
    auto entry = std::make_unique<WorldEntry>();
    try {
      entry->world = MakeWorld(std::move(config), kind);
    } catch (...) {
      registry_->Release();
      throw;
    }
    Describe(*entry, request->config().name());
    std::shared_ptr<WorldEntry> shared;
    if (!request->world_id().empty()) {  // the caller's id (checked before anything was built)
      entry->id = request->world_id();
      PublishInfo(*entry);
      *response = entry->info;
      shared = registry_->Insert(std::move(entry));
      if (!shared) {
        registry_->Release();
        return Taken(request->world_id());
      }
    }
    while (!shared) {  // again only when an import took the fresh id in between
      entry->id = registry_->NewId();
      PublishInfo(*entry);
      *response = entry->info;
      shared = registry_->Insert(std::move(entry));
    }
    spdlog::info("CreateWorld: {} \"{}\" on {}", shared->id, shared->name, shared->backend);
    return Status::OK;
  });
}

Status SimulationService::StepLocked(WorldEntry& e, const v1::StepRequest& request,
                                     const StopRequested& stop, v1::StepResponse* response) {
  if (e.deleted) return Status(StatusCode::NOT_FOUND, "world_id: \"" + e.id + "\" was deleted");
  SnapshotFromProto(request.tick(), request.dt(), request.agents(), request.vehicles(),
                    request.forward(), &e.snapshot);
  const TickOptions options = OptionsFromProto(request.options(), stop);
  e.world->Step(e.snapshot, options, &e.result);
  response->set_world_id(e.id);
  ResultToProto(e.result, e.world->state(), options, e.backend, response);
  metrics_->RecordTick(e.backend, e.result.stats);
  AfterTick(e);
  return Status::OK;
}

Status SimulationService::Step(grpc::ServerContext* context, const v1::StepRequest* request,
                               v1::StepResponse* response) {
  return Handle("Step", context, [&]() -> Status {
    Status status = CheckPopulation(request->agents(), request->vehicles(), request->forward());
    if (!status.ok()) return status;
    auto entry = Lookup(request->world_id(), &status);
    if (!entry) return status;
    std::lock_guard lock(entry->mu);
    return StepLocked(*entry, *request, StopFor(context), response);
  });
}

Status SimulationService::StreamSteps(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<v1::StepResponse, v1::StepRequest>* stream) {
  return Handle("StreamSteps", context, [&]() -> Status {
    v1::StepRequest request;
    v1::StepResponse response;  // reused: every field is overwritten each tick
    std::shared_ptr<WorldEntry> entry;
    const StopRequested stop = StopFor(context);
    while (stream->Read(&request)) {
      Status status = CheckPopulation(request.agents(), request.vehicles(), request.forward());
      if (!status.ok()) return status;
      if (!entry || entry->id != request.world_id()) {
        entry = Lookup(request.world_id(), &status);
        if (!entry) return status;
      }
      {
        std::lock_guard lock(entry->mu);
        status = StepLocked(*entry, request, stop, &response);
      }
      if (!status.ok()) return status;
      if (!stream->Write(response)) {
        return Status(StatusCode::CANCELLED, "the client went away");
      }
    }
    return Status::OK;
  });
}

Status SimulationService::Advance(grpc::ServerContext* context, const v1::AdvanceRequest* request,
                                  v1::AdvanceResponse* response) {
  return Handle("Advance", context, [&]() -> Status {
    if (request->ticks() < 1) return Status(StatusCode::INVALID_ARGUMENT, "ticks: must be >= 1");
    return WithLockedWorld(request->world_id(), [&](const std::shared_ptr<WorldEntry>& entry) {
      auto& world = *entry->world;
      if (request->ticks() > static_cast<uint32_t>(std::numeric_limits<int>::max())) {
        return Status(StatusCode::INVALID_ARGUMENT, "ticks: must be <= 2147483647");
      }
      // One tick at a time (World::Advance(n) is n single ticks), so that a stopped call
      // (deadline passed, client gone, server stopping) ends between or inside ticks.
      const StopRequested stop = StopFor(context);
      uint32_t done = 0;
      std::string stopped;
      if (world.has_state() && world.state().tick > kMaxTick - request->ticks()) {
        return Status(StatusCode::INVALID_ARGUMENT,
                      "ticks: " + std::to_string(request->ticks()) +
                          " more would pass the last tick there is, 2^53");
      }
      try {
        for (; done < request->ticks(); ++done) {
          world.Advance(1, request->dt(), &entry->result, stop);
          metrics_->RecordTick(entry->backend, entry->result.stats);
        }
      } catch (const TickCancelled& e) {
        stopped = e.what();
      }
      if (done > 0) AfterTick(*entry);
      if (done < request->ticks()) {
        const Status why = StoppedStatus(context, stopped);
        return Status(why.error_code(), why.error_message() + "; " + std::to_string(done) + " of " +
                                            std::to_string(request->ticks()) +
                                            " ticks ran, and those stand");
      }
      auto* last = response->mutable_last();
      last->set_world_id(entry->id);
      TickOptions options;
      options.integrate = true;
      ResultToProto(entry->result, world.state(), options, entry->backend, last);
      TotalsToProto(world.totals(), response->mutable_totals());
      return Status::OK;
    });
  });
}

Status SimulationService::GetWorld(grpc::ServerContext* context, const v1::GetWorldRequest* request,
                                   v1::GetWorldResponse* response) {
  return Handle("GetWorld", context, [&]() -> Status {
    return WithLockedWorld(request->world_id(), [&](const std::shared_ptr<WorldEntry>& entry) {
      const auto& world = *entry->world;
      FillInfo(*entry, response->mutable_info());
      *response->mutable_config() = entry->effective_config;
      if (world.has_state()) {
        response->set_tick(world.state().tick);
        response->set_dt(world.state().dt);
        if (request->include_state()) {
          AgentsToProto(world.state().agents, response->mutable_agents());
          VehiclesToProto(world.state().vehicles, response->mutable_vehicles());
          ForwardToProto(world.state().forward, response->mutable_forward());
        }
        StatsToProto(world.last_stats(), entry->backend, response->mutable_last_stats());
      }
      TotalsToProto(world.totals(), response->mutable_totals());
      return Status::OK;
    });
  });
}

Status SimulationService::ListWorlds(grpc::ServerContext* context, const v1::ListWorldsRequest*,
                                     v1::ListWorldsResponse* response) {
  return Handle("ListWorlds", context, [&]() -> Status {
    for (const auto& entry : registry_->List()) {
      std::lock_guard lock(entry->info_mu);
      *response->add_worlds() = entry->info;
    }
    return Status::OK;
  });
}

Status SimulationService::DeleteWorld(grpc::ServerContext* context,
                                      const v1::DeleteWorldRequest* request,
                                      v1::DeleteWorldResponse*) {
  return Handle("DeleteWorld", context, [&]() -> Status {
    if (request->world_id().empty()) {
      return Status(StatusCode::INVALID_ARGUMENT, "world_id: required");
    }
    auto entry = registry_->Remove(request->world_id());
    if (!entry) {
      return Status(StatusCode::NOT_FOUND,
                    "world_id: no world " + QuoteUserString(request->world_id()));
    }
    std::lock_guard lock(entry->mu);  // waits for a running tick
    entry->deleted = true;
    registry_->UpdatePopulation(-static_cast<int64_t>(entry->agents),
                                -static_cast<int64_t>(entry->vehicles));
    entry->world.reset();  // frees the engine's memory now, not when the last waiter leaves
    spdlog::info("DeleteWorld: {}", entry->id);
    return Status::OK;
  });
}

Status SimulationService::Solve(grpc::ServerContext* context, const v1::SolveRequest* request,
                                v1::StepResponse* response) {
  return Handle("Solve", context, [&]() -> Status {
    Status status = CheckPopulation(request->agents(), request->vehicles(), request->forward());
    if (!status.ok()) return status;
    WorldConfig config = ConfigFromProto(request->config());
    const BackendKind kind = BackendFromProto(request->config().backend(), default_backend_);
    Snapshot snapshot;
    SnapshotFromProto(request->tick(), request->dt(), request->agents(), request->vehicles(),
                      request->forward(), &snapshot);
    auto world = MakeWorld(std::move(config), kind);
    const TickOptions options = OptionsFromProto(request->options(), StopFor(context));
    TickResult result;
    world->Step(snapshot, options, &result);
    const std::string backend(BackendName(world->backend()));
    ResultToProto(result, world->state(), options, backend, response);
    metrics_->RecordTick(backend, result.stats);
    return Status::OK;
  });
}

Status SimulationService::ExportWorld(grpc::ServerContext* context,
                                      const v1::ExportWorldRequest* request,
                                      v1::WorldExport* response) {
  return Handle("ExportWorld", context, [&]() -> Status {
    return WithLockedWorld(request->world_id(), [&](const std::shared_ptr<WorldEntry>& entry) {
      WorldToExport(entry->id, entry->effective_config, entry->world->Kept(), response);
      spdlog::debug("ExportWorld: {} ({} bytes)", entry->id, response->payload().size());
      return Status::OK;
    });
  });
}

Status SimulationService::ImportWorld(grpc::ServerContext* context,
                                      const v1::ImportWorldRequest* request,
                                      v1::WorldInfo* response) {
  return Handle("ImportWorld", context, [&]() -> Status {
    ImportedWorld imported = WorldFromExport(request->world_export());
    const std::string id = request->world_id().empty() ? imported.world_id : request->world_id();
    Status status = CheckWorldId(id);
    if (!status.ok()) return status;
    if (imported.config.name().size() > kMaxNameLength) {
      return Status(StatusCode::INVALID_ARGUMENT, "world_export: config.name beyond " +
                                                      std::to_string(kMaxNameLength) + " bytes");
    }
    const Snapshot& state = imported.kept.state;
    const uint64_t population =
        state.agents.size() + state.vehicles.size() + uint64_t{state.forward.size()};
    if (population > static_cast<uint64_t>(limits_.max_agents_per_world)) {
      return Status(StatusCode::RESOURCE_EXHAUSTED,
                    "world_export: " + std::to_string(population) +
                        " agents, vehicles and forward agents, beyond this server's " +
                        std::to_string(limits_.max_agents_per_world) +
                        " per world (--max-agents-per-world)");
    }
    WorldConfig config;
    try {
      config = ConfigFromProto(imported.config);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("world_export: config: ") + e.what());
    }
    const BackendKind kind = BackendFromProto(imported.config.backend(), default_backend_);
    if (!registry_->Reserve()) return WorldsFull();
    auto entry = std::make_unique<WorldEntry>();
    try {
      entry->world = MakeWorld(std::move(config), kind);
      entry->world->Restore(std::move(imported.kept));
    } catch (const std::invalid_argument& e) {
      registry_->Release();
      throw std::invalid_argument(std::string("world_export: ") + e.what());
    } catch (...) {
      registry_->Release();
      throw;
    }
    entry->id = id;
    Describe(*entry, imported.config.name());
    const auto& kept = entry->world->state();
    entry->agents = kept.agents.size();
    entry->vehicles = kept.vehicles.size();
    PublishInfo(*entry);
    *response = entry->info;
    const uint64_t agents = entry->agents, vehicles = entry->vehicles;
    auto shared = registry_->Insert(std::move(entry));
    if (!shared) {
      registry_->Release();
      return Taken(id);
    }
    registry_->UpdatePopulation(static_cast<int64_t>(agents), static_cast<int64_t>(vehicles));
    spdlog::info("ImportWorld: {} \"{}\" on {} at tick {}", shared->id, shared->name,
                 shared->backend, shared->world->state().tick);
    return Status::OK;
  });
}

Status SimulationService::GetNavigationField(grpc::ServerContext* context,
                                             const v1::GetNavigationFieldRequest* request,
                                             v1::NavigationField* response) {
  return Handle("GetNavigationField", context, [&]() -> Status {
    return WithLockedWorld(request->world_id(), [&](const std::shared_ptr<WorldEntry>& entry) {
      // Marched again from the world's obstacles: the world keeps headings only.
      const std::optional<NavDistanceGrid> field =
          entry->world->NavigationDistances(request->target_id());
      if (!field) {
        std::string ids;
        for (const auto& t : entry->world->config().navigation_targets) {
          ids += (ids.empty() ? "" : ", ") + std::to_string(t.id);
        }
        return Status(StatusCode::NOT_FOUND,
                      "target_id: " + std::to_string(request->target_id()) +
                          " is not a navigation target of this world (" +
                          (ids.empty() ? std::string("it has none") : "its targets: " + ids) + ")");
      }
      response->set_target_id(request->target_id());
      response->set_origin_x(field->spec.origin.x);
      response->set_origin_y(field->spec.origin.y);
      response->set_cell(field->spec.cell);
      response->set_columns(static_cast<uint32_t>(field->spec.nx));
      response->set_rows(static_cast<uint32_t>(field->spec.ny));
      response->mutable_distance()->Add(field->distance.begin(), field->distance.end());
      return Status::OK;
    });
  });
}

}  // namespace throng::service
