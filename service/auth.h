// Who may call: the bearer token every Simulation call must carry, and the transport's
// credentials (plain TCP, or TLS from PEM files).
#pragma once

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_context.h>
#include <grpcpp/support/status.h>

#include <memory>
#include <string>

namespace throng::service {

struct Options;

// Checks the "authorization: Bearer <token>" metadata. Thread-safe (immutable).
class TokenAuth {
 public:
  // An empty token lets every call through.
  explicit TokenAuth(std::string token) : token_(std::move(token)) {}

  bool enabled() const { return !token_.empty(); }
  // OK, or UNAUTHENTICATED saying whether the token was missing or wrong.
  grpc::Status Check(const grpc::ServerContext& context) const;

 private:
  std::string token_;
};

// TLS from --tls-cert and --tls-key when given (std::runtime_error when unreadable),
// otherwise plain TCP.
std::shared_ptr<grpc::ServerCredentials> MakeServerCredentials(const Options& options);

}  // namespace throng::service
