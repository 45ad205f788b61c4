// throngd --health-check ADDR: asks a running throngd's gRPC health service whether it
// serves, for container health checks and orchestrator probes (a probe that needs no tool
// besides throngd itself).
#pragma once

#include <string>

namespace throng::service {

// Exit codes of the probe.
enum HealthProbeExit : int {
  kProbeServing = 0,      // SERVING
  kProbeNotServing = 1,   // answered, but NOT_SERVING (draining after SIGTERM) or unknown
  kProbeUnreachable = 2,  // no answer within the deadline, or a bad address or CA file
};

// Checks grpc.health.v1.Health/Check for service "" at `address` ("host:port") within
// `deadline_s`, over TLS trusting the PEM certificates in `ca_file` when it is not empty.
// Prints one line saying the outcome and returns the exit code.
int ProbeHealth(const std::string& address, const std::string& ca_file, double deadline_s);

}  // namespace throng::service
