// throngd's Prometheus metrics (prometheus-cpp pull exposer): the registry and every
// family are built once at start-up (STYLE.md #13). Thread-safe: counters and gauges are
// atomic, and each histogram series takes only its own short lock (prometheus-cpp's).
// Metric names, labels and their meaning: docs/OPERATIONS.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "kernels/world/world_types.h"

namespace throng::service {

class ServiceMetrics {
 public:
  // Serves /metrics on `listen` ("127.0.0.1:9464"); an empty address records without
  // serving (tests, --metrics ""). Throws std::runtime_error when the port is taken.
  // `replica` not empty: every series carries the label replica="<replica>" (--replica).
  ServiceMetrics(const std::string& listen, int max_worlds, const std::string& replica = "");
  ~ServiceMetrics();

  // One engine tick of a world on `backend` ("cpu", "cuda", "reference").
  void RecordTick(std::string_view backend, const TickStats& stats);
  // One finished RPC: method ("Step"), gRPC status code name ("OK", "INVALID_ARGUMENT").
  void RecordRpc(std::string_view method, std::string_view code, double seconds);
  // A request that did not parse (no handler ran): counted in throng_rpcs_total with the
  // code gRPC answered and in throng_unparseable_requests_total.
  void RecordUnparseable(std::string_view method, std::string_view code);
  // Gauges: live worlds, and agents and vehicles over all worlds' current states.
  void SetWorlds(int64_t worlds);
  void SetPopulation(int64_t agents, int64_t vehicles);

  // The text exposition of every metric, as a scrape would see it.
  std::string Scrape() const;
  // The port /metrics is served on (the one chosen when `listen` asked for port 0), or 0
  // when not serving.
  int Port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace throng::service
