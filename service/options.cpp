#include "service/options.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <fstream>
#include <iostream>
#include <sstream>

#include "kernels/backends/backend.h"

namespace throng::service {
namespace {

// The token file's first line, without surrounding white space.
std::string ReadToken(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CLI::ValidationError("--token-file", "cannot read " + path);
  std::string line;
  std::getline(in, line);
  const auto first = line.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw CLI::ValidationError("--token-file", path + " is empty");
  const auto last = line.find_last_not_of(" \t\r\n");
  return line.substr(first, last - first + 1);
}

}  // namespace

std::optional<int> ParseOptions(int argc, char** argv, Options* o) {
  CLI::App app{"throngd: Throng's gRPC service (throng.v1.Simulation)", "throngd"};
  // A flag given twice takes its last value, so that scripts can append overrides.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.set_version_flag("--version", "throngd " THRONG_VERSION);
  // The packaged service reads /etc/throng/throngd.conf this way (docs/INSTALLING.md).
  app.set_config("--config", "",
                 "Read options from this TOML file: one `name = value` per line, the long "
                 "option names without the dashes; the command line overrides it");
  app.allow_config_extras(false);  // a misspelt name is an error, not a silent default
  app.add_option("--listen", o->listen, "gRPC address host:port (port 0: any free port)")
      ->capture_default_str();
  app.add_option("--metrics", o->metrics, "Prometheus /metrics address; \"\" serves none")
      ->capture_default_str();
  app.add_option("--backend", o->backend, "Engine backend for worlds that ask for none")
      ->check(CLI::IsMember({"auto", "cuda", "cpu", "reference"}))
      ->capture_default_str();
  app.add_option("--max-worlds", o->max_worlds, "Most worlds alive at once")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
  app.add_option("--max-agents-per-world", o->max_agents_per_world,
                 "Most pedestrians, vehicles and forward agents in one snapshot")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 32))
      ->capture_default_str();
  app.add_option("--max-message-mb", o->max_message_mb, "Largest request or response, MiB")
      ->check(CLI::Range(1, 2047))
      ->capture_default_str();
  auto* cert = app.add_option("--tls-cert", o->tls_cert, "PEM certificate chain: serve TLS")
                   ->check(CLI::ExistingFile);
  auto* key = app.add_option("--tls-key", o->tls_key, "PEM private key of --tls-cert")
                  ->check(CLI::ExistingFile);
  cert->needs(key);
  key->needs(cert);
  auto* token = app.add_option("--token", o->token,
                               "Bearer token every Simulation call must send "
                               "(metadata 'authorization: Bearer <token>')");
  auto* token_file = app.add_option("--token-file", o->token_file,
                                    "Read the bearer token from this file's first line")
                         ->check(CLI::ExistingFile);
  token->excludes(token_file);
  app.add_option("--log-level", o->log_level, "Logging level")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
  app.add_option("--shutdown-grace", o->shutdown_grace_s,
                 "Seconds in-flight calls get to finish after SIGINT/SIGTERM")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  app.add_option("--replica", o->replica,
                 "Name of this replica among several behind a proxy: every metric carries "
                 "the label replica=\"NAME\" (letters, digits, - _ .)")
      ->check([](const std::string& name) -> std::string {
        if (name.size() > 64) return "at most 64 bytes";
        for (const char c : name) {
          if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
            return "letters, digits, - _ . only";
          }
        }
        return "";
      });
  app.add_option("--health-check", o->health_check,
                 "Ask the throngd at host:port whether it serves, print it and exit: 0 "
                 "SERVING, 1 NOT_SERVING (draining), 2 unreachable. Starts no server");
  app.add_option("--health-check-ca", o->health_check_ca,
                 "PEM certificates to trust: --health-check over TLS");
  try {
    app.parse(argc, argv);
    if (!o->token_file.empty()) o->token = ReadToken(o->token_file);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return std::nullopt;
}

}  // namespace throng::service
