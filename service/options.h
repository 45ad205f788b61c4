// throngd's command line: every flag, its default and its check (CLI11).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace throng::service {

struct Options {
  std::string listen = "127.0.0.1:50051";  // host:port; port 0 picks a free one
  std::string metrics = "127.0.0.1:9464";  // Prometheus /metrics; "" serves none
  std::string backend = "auto";            // auto | cuda | cpu | reference
  int max_worlds = 64;
  int64_t max_agents_per_world = 1'000'000;  // pedestrians, vehicles, forward agents
  int max_message_mb = 256;                  // largest request or response
  std::string tls_cert, tls_key;             // PEM files; both or neither
  std::string token;                         // bearer token; "" = no auth
  std::string token_file;                    // read the token from here instead
  std::string log_level = "info";            // trace | debug | info | warn | error | off
  double shutdown_grace_s = 30;              // in-flight calls get this long on SIGTERM
  std::string health_check;                  // probe this address and exit (no server)
  std::string health_check_ca;               // PEM roots: probe over TLS
  std::string replica;                       // label replica="<name>" on every metric; "" none
};

// Parses argv. Returns the exit code to leave with when the process should stop (--help,
// a bad flag), nothing when it should run. Reads --token-file into token.
std::optional<int> ParseOptions(int argc, char** argv, Options* options);

}  // namespace throng::service
