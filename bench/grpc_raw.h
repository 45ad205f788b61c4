// Step and StreamSteps on serialised bytes, for the load benchmark: the caller encodes the
// request and decodes the response itself (with gRPC's own SerializationTraits, the code a
// typed stub runs), so that serialisation is timed apart from the round trip.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>

#include "throng/v1/simulation.pb.h"

namespace throng::bench {

// gRPC's own encoding of a message into a ByteBuffer (the buffer a typed stub sends).
void Encode(const google::protobuf::Message& message, grpc::ByteBuffer* out);
// gRPC's own decoding; throws std::runtime_error when the bytes do not parse.
void Decode(grpc::ByteBuffer* in, google::protobuf::Message* message);

// Unary Step on bytes, routed by `world_id` (the clients' metadata key, for a proxy).
// Thread-safe as a channel is.
grpc::Status RawStep(grpc::Channel* channel, const std::string& world_id,
                     const grpc::ByteBuffer& request, grpc::ByteBuffer* response);

// One StreamSteps call on bytes: Step() writes one request and reads its response. Not
// thread-safe; one per driving thread.
class RawStream {
 public:
  RawStream(const std::shared_ptr<grpc::Channel>& channel, const std::string& world_id);
  ~RawStream();  // cancels the call if Finish() was not reached
  // False when the stream ended (Finish() says why).
  bool Step(const grpc::ByteBuffer& request, grpc::ByteBuffer* response);
  grpc::Status Finish();

 private:
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>> stream_;
  bool finished_ = false;
};

}  // namespace throng::bench
