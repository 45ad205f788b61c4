#include "throng/client.h"

#include <utility>

namespace throng::client {

const char* CodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "UNKNOWN_CODE";
  }
}

Error::Error(grpc::StatusCode code, const std::string& message)
    : std::runtime_error(std::string(CodeName(code)) + ": " + message),
      code_(code),
      message_(message) {}

namespace {

void Check(const grpc::Status& status) {
  if (!status.ok()) throw Error(status.error_code(), status.error_message());
}

template <typename T>
void Set(std::span<const T> from, google::protobuf::RepeatedField<T>* to) {
  to->Clear();
  if (!from.empty()) to->Add(from.begin(), from.end());
}

}  // namespace

#define THRONG_FILL_COLUMN(name, type, wire, need, rule) Set(c.name, out->mutable_##name());

void FillAgents(const AgentSpans& c, v1::AgentBatch* out) {
  THRONG_AGENT_COLUMNS(THRONG_FILL_COLUMN)
}

void FillVehicles(const VehicleSpans& c, v1::VehicleBatch* out) {
  THRONG_VEHICLE_COLUMNS(THRONG_FILL_COLUMN)
}

void FillForward(const ForwardSpans& c,
                 v1::ForwardBatch* out){THRONG_FORWARD_COLUMNS(THRONG_FILL_COLUMN)}
#undef THRONG_FILL_COLUMN

v1::StepRequest
    MakeStep(const std::string& world_id, uint64_t tick, float dt, bool integrate, bool debug) {
  v1::StepRequest request;
  request.set_world_id(world_id);
  request.set_tick(tick);
  request.set_dt(dt);
  request.mutable_options()->set_integrate(integrate);
  request.mutable_options()->set_debug(debug);
  return request;
}

StepStream::StepStream(
    std::unique_ptr<grpc::ClientContext> context,
    std::unique_ptr<grpc::ClientReaderWriter<v1::StepRequest, v1::StepResponse>> rw)
    : context_(std::move(context)), stream_(std::move(rw)) {}

StepStream::~StepStream() {
  if (!closed_) {
    // Finish() would wait for a server that may still be answering; cancel instead.
    context_->TryCancel();
    stream_->Finish();
  }
}

void StepStream::Fail() {
  // A write or read fails once the call has ended; its status says why.
  closed_ = true;
  Check(stream_->Finish());
  throw Error(grpc::StatusCode::UNKNOWN, "stream ended without a status");
}

const v1::StepResponse& StepStream::Step(const v1::StepRequest& request) {
  if (closed_) throw Error(grpc::StatusCode::FAILED_PRECONDITION, "stream is closed");
  if (!stream_->Write(request) || !stream_->Read(&response_)) Fail();
  return response_;
}

void StepStream::Close() {
  if (closed_) return;
  closed_ = true;
  stream_->WritesDone();
  Check(stream_->Finish());
}

Client::Client(const ConnectOptions& options) : options_(options) {
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (options.tls_root_cert_pem.empty()) {
    credentials = grpc::InsecureChannelCredentials();
  } else {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = options.tls_root_cert_pem;
    credentials = grpc::SslCredentials(ssl);
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(options.max_message_mb * 1024 * 1024);
  args.SetMaxSendMessageSize(options.max_message_mb * 1024 * 1024);
  channel_ = grpc::CreateCustomChannel(options.address, credentials, args);
  stub_ = v1::Simulation::NewStub(channel_);
}

std::unique_ptr<grpc::ClientContext> Client::Context(const std::string& world_id) const {
  auto context = std::make_unique<grpc::ClientContext>();
  // Metadata rather than call credentials, which gRPC refuses on plain channels.
  if (!options_.token.empty()) context->AddMetadata("authorization", "Bearer " + options_.token);
  if (!world_id.empty()) context->AddMetadata(kWorldIdMetadataKey, world_id);
  if (options_.timeout.count() > 0) {
    context->set_deadline(std::chrono::system_clock::now() + options_.timeout);
  }
  return context;
}

void Client::WaitReady(std::chrono::milliseconds timeout) {
  if (!channel_->WaitForConnected(std::chrono::system_clock::now() + timeout)) {
    throw Error(grpc::StatusCode::UNAVAILABLE, "no server at " + options_.address);
  }
}

v1::WorldInfo Client::CreateWorld(const v1::WorldConfig& config, const std::string& world_id) {
  v1::CreateWorldRequest request;
  *request.mutable_config() = config;
  request.set_world_id(world_id);
  v1::WorldInfo info;
  Check(stub_->CreateWorld(Context(world_id).get(), request, &info));
  return info;
}

v1::StepResponse Client::Step(const v1::StepRequest& request) {
  v1::StepResponse response;
  Check(stub_->Step(Context(request.world_id()).get(), request, &response));
  return response;
}

std::unique_ptr<StepStream> Client::OpenStream(const std::string& world_id) {
  auto context = std::make_unique<grpc::ClientContext>();
  if (!options_.token.empty()) context->AddMetadata("authorization", "Bearer " + options_.token);
  if (!world_id.empty()) context->AddMetadata(kWorldIdMetadataKey, world_id);
  auto rw = stub_->StreamSteps(context.get());
  return std::unique_ptr<StepStream>(new StepStream(std::move(context), std::move(rw)));
}

v1::AdvanceResponse Client::Advance(const std::string& world_id, uint32_t ticks, float dt) {
  v1::AdvanceRequest request;
  request.set_world_id(world_id);
  request.set_ticks(ticks);
  request.set_dt(dt);
  v1::AdvanceResponse response;
  Check(stub_->Advance(Context(world_id).get(), request, &response));
  return response;
}

v1::GetWorldResponse Client::GetWorld(const std::string& world_id, bool include_state) {
  v1::GetWorldRequest request;
  request.set_world_id(world_id);
  request.set_include_state(include_state);
  v1::GetWorldResponse response;
  Check(stub_->GetWorld(Context(world_id).get(), request, &response));
  return response;
}

std::vector<v1::WorldInfo> Client::ListWorlds() {
  v1::ListWorldsResponse response;
  Check(stub_->ListWorlds(Context().get(), v1::ListWorldsRequest(), &response));
  return {response.worlds().begin(), response.worlds().end()};
}

void Client::DeleteWorld(const std::string& world_id) {
  v1::DeleteWorldRequest request;
  request.set_world_id(world_id);
  v1::DeleteWorldResponse response;
  Check(stub_->DeleteWorld(Context(world_id).get(), request, &response));
}

v1::WorldExport Client::ExportWorld(const std::string& world_id) {
  v1::ExportWorldRequest request;
  request.set_world_id(world_id);
  v1::WorldExport response;
  Check(stub_->ExportWorld(Context(world_id).get(), request, &response));
  return response;
}

v1::WorldInfo Client::ImportWorld(const v1::WorldExport& world_export,
                                  const std::string& world_id) {
  v1::ImportWorldRequest request;
  *request.mutable_world_export() = world_export;
  request.set_world_id(world_id);
  v1::WorldInfo response;
  // Routed by the id it will have here.
  const std::string& id = world_id.empty() ? world_export.world_id() : world_id;
  Check(stub_->ImportWorld(Context(id).get(), request, &response));
  return response;
}

v1::NavigationField Client::GetNavigationField(const std::string& world_id, uint32_t target_id) {
  v1::GetNavigationFieldRequest request;
  request.set_world_id(world_id);
  request.set_target_id(target_id);
  v1::NavigationField response;
  Check(stub_->GetNavigationField(Context(world_id).get(), request, &response));
  return response;
}

v1::StepResponse Client::Solve(const v1::SolveRequest& request) {
  v1::StepResponse response;
  Check(stub_->Solve(Context().get(), request, &response));
  return response;
}

}  // namespace throng::client
