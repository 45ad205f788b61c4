#include "service/auth.h"

#include <grpcpp/security/server_credentials.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "service/options.h"

namespace throng::service {
namespace {

// Takes as long for every guess of the same length: no timing hints at the token.
bool EqualConstantTime(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

grpc::Status TokenAuth::Check(const grpc::ServerContext& context) const {
  if (token_.empty()) return grpc::Status::OK;
  const auto& metadata = context.client_metadata();
  const auto it = metadata.find("authorization");
  if (it == metadata.end()) {
    return {grpc::StatusCode::UNAUTHENTICATED,
            "authorization: missing; send the metadata 'authorization: Bearer <token>'"};
  }
  std::string_view value(it->second.data(), it->second.size());
  constexpr std::string_view kBearer = "Bearer ";
  if (value.substr(0, kBearer.size()) != kBearer ||
      !EqualConstantTime(value.substr(kBearer.size()), token_)) {
    return {grpc::StatusCode::UNAUTHENTICATED, "authorization: wrong bearer token"};
  }
  return grpc::Status::OK;
}

std::shared_ptr<grpc::ServerCredentials> MakeServerCredentials(const Options& options) {
  if (options.tls_cert.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions ssl;
  ssl.pem_key_cert_pairs.push_back({ReadFile(options.tls_key), ReadFile(options.tls_cert)});
  return grpc::SslServerCredentials(ssl);
}

}  // namespace throng::service
