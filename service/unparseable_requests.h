// Counting requests that gRPC itself refuses: bytes that are no valid message of their
// method never reach a handler (gRPC answers INTERNAL with its own message), so the
// handlers' accounting cannot see them. A server interceptor can: after the receive, the
// message pointer is null when deserialisation failed. Unary methods only; in a stream a
// null message also means the client closed it, and the two cannot be told apart.
#pragma once

#include <grpcpp/support/server_interceptor.h>

#include "service/metrics.h"

namespace throng::service {

// For ServerBuilder::experimental().SetInterceptorCreators. `metrics` outlives it.
class UnparseableRequestCounterFactory
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit UnparseableRequestCounterFactory(ServiceMetrics* metrics) : metrics_(metrics) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;

 private:
  ServiceMetrics* metrics_;
};

}  // namespace throng::service
