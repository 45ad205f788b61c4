#include "bench/grpc_raw.h"

#include <grpcpp/impl/client_unary_call.h>
#include <grpcpp/impl/codegen/proto_utils.h>
#include <grpcpp/impl/rpc_method.h>
#include <grpcpp/support/proto_buffer_reader.h>
#include <grpcpp/support/proto_buffer_writer.h>
#include <grpcpp/support/sync_stream.h>

#include <stdexcept>

#include "throng/client.h"

namespace throng::bench {
namespace {

constexpr char kStep[] = "/throng.v1.Simulation/Step";
constexpr char kStreamSteps[] = "/throng.v1.Simulation/StreamSteps";

}  // namespace

void Encode(const google::protobuf::Message& message, grpc::ByteBuffer* out) {
  bool own_buffer = false;
  const grpc::Status status =
      grpc::SerializationTraits<google::protobuf::Message>::Serialize(message, out, &own_buffer);
  if (!status.ok()) throw std::runtime_error("encode: " + status.error_message());
}

void Decode(grpc::ByteBuffer* in, google::protobuf::Message* message) {
  const grpc::Status status =
      grpc::SerializationTraits<google::protobuf::Message>::Deserialize(in, message);
  if (!status.ok()) throw std::runtime_error("decode: " + status.error_message());
}

grpc::Status RawStep(grpc::Channel* channel, const std::string& world_id,
                     const grpc::ByteBuffer& request, grpc::ByteBuffer* response) {
  // The generic (ByteBuffer) form of what the generated stub's Step does.
  const grpc::internal::RpcMethod method(kStep, grpc::internal::RpcMethod::NORMAL_RPC);
  grpc::ClientContext context;
  context.AddMetadata(client::kWorldIdMetadataKey, world_id);
  return grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
      channel, method, &context, request, response);
}

RawStream::RawStream(const std::shared_ptr<grpc::Channel>& channel, const std::string& world_id) {
  context_.AddMetadata(client::kWorldIdMetadataKey, world_id);
  const grpc::internal::RpcMethod method(kStreamSteps, grpc::internal::RpcMethod::BIDI_STREAMING);
  stream_.reset(
      grpc::internal::ClientReaderWriterFactory<grpc::ByteBuffer, grpc::ByteBuffer>::Create(
          channel.get(), method, &context_));
}

RawStream::~RawStream() {
  if (!finished_) context_.TryCancel();
}

bool RawStream::Step(const grpc::ByteBuffer& request, grpc::ByteBuffer* response) {
  return stream_->Write(request) && stream_->Read(response);
}

grpc::Status RawStream::Finish() {
  stream_->WritesDone();
  finished_ = true;
  return stream_->Finish();
}

}  // namespace throng::bench
