// A unary call with raw request bytes (grpc::GenericStub), so that bytes which do not
// parse as the method's request still reach the server.
#pragma once

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <string>

namespace throng::fuzz {

// The response's bytes go to `response`; the context's deadline bounds the wait.
grpc::Status RawUnaryCall(grpc::GenericStub& stub, grpc::ClientContext* context,
                          const std::string& method, const std::string& request,
                          std::string* response);

}  // namespace throng::fuzz
