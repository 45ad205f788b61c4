#include "service/health_probe.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "grpc/health/v1/health.grpc.pb.h"

namespace throng::service {

int ProbeHealth(const std::string& address, const std::string& ca_file, double deadline_s) {
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (!ca_file.empty()) {
    std::ifstream in(ca_file);
    if (!in) {
      std::printf("throngd --health-check: cannot read %s\n", ca_file.c_str());
      return kProbeUnreachable;
    }
    std::stringstream pem;
    pem << in.rdbuf();
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = pem.str();
    credentials = grpc::SslCredentials(ssl);
  }
  auto stub = grpc::health::v1::Health::NewStub(grpc::CreateChannel(address, credentials));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::duration_cast<std::chrono::system_clock::duration>(
                           std::chrono::duration<double>(deadline_s)));
  grpc::health::v1::HealthCheckRequest request;
  grpc::health::v1::HealthCheckResponse response;
  const grpc::Status status = stub->Check(&context, request, &response);
  if (!status.ok()) {
    std::printf("throngd --health-check %s: unreachable (%s)\n", address.c_str(),
                status.error_message().c_str());
    return kProbeUnreachable;
  }
  if (response.status() != grpc::health::v1::HealthCheckResponse::SERVING) {
    std::printf("throngd --health-check %s: NOT_SERVING\n", address.c_str());
    return kProbeNotServing;
  }
  std::printf("throngd --health-check %s: SERVING\n", address.c_str());
  return kProbeServing;
}

}  // namespace throng::service
