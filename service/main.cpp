// throngd: Throng's gRPC service. Flags: `throngd --help`; docs/SERVICE.md.
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernels/backends/backend.h"
#include "service/auth.h"
#include "service/health_probe.h"
#include "service/metrics.h"
#include "service/options.h"
#include "service/registry.h"
#include "service/simulation_service.h"
#include "service/unparseable_requests.h"
#include "throng/process_memory.h"

namespace {

using namespace throng::service;

int Run(const Options& options, const sigset_t& signals) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("throngd"));
  spdlog::set_level(spdlog::level::from_str(options.log_level));

  const auto backend = throng::ParseBackendKind(options.backend);
  // Fail at start-up rather than on the first CreateWorld when --backend cannot run here.
  throng::CreateBackend(backend);

  ServiceMetrics metrics(options.metrics, options.max_worlds, options.replica);
  WorldRegistry registry(
      options.max_worlds, [&](int64_t worlds) { metrics.SetWorlds(worlds); },
      [&](int64_t agents, int64_t vehicles) { metrics.SetPopulation(agents, vehicles); });
  ServiceLimits limits;
  limits.max_agents_per_world = options.max_agents_per_world;
  TokenAuth auth(options.token);
  SimulationService service(backend, limits, auth, &registry, &metrics);

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(options.listen, MakeServerCredentials(options), &port);
  builder.RegisterService(&service);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(std::make_unique<UnparseableRequestCounterFactory>(&metrics));
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  const int max_bytes = options.max_message_mb * 1024 * 1024;
  builder.SetMaxReceiveMessageSize(max_bytes);
  builder.SetMaxSendMessageSize(max_bytes);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) {
    spdlog::critical("cannot listen on {}", options.listen);
    return 1;
  }
  server->GetHealthCheckService()->SetServingStatus("throng.v1.Simulation", true);

  // Tests and scripts read the bound port (--listen host:0) from this line.
  const auto host = options.listen.substr(0, options.listen.rfind(':'));
  std::printf("throngd listening on %s:%d\n", host.c_str(), port);
  std::fflush(stdout);
  const auto metrics_host = options.metrics.substr(0, options.metrics.rfind(':'));
  spdlog::info("listening on {}:{} ({}), backend {}, metrics {}, auth {}", host, port,
               options.tls_cert.empty() ? "plain" : "TLS", options.backend,
               options.metrics.empty()
                   ? std::string("off")
                   : metrics_host + ":" + std::to_string(metrics.Port()) + "/metrics",
               auth.enabled() ? "bearer token" : "none");

  // The watcher waits for SIGINT/SIGTERM (blocked in every thread, so only sigwait sees
  // them) and shuts down from here, not from a signal handler: in-flight calls get
  // --shutdown-grace seconds to finish. Shortly before the grace runs out, running ticks
  // are stopped (their calls end CANCELLED, saying so, with an Advance's finished ticks
  // counted), so that gRPC's own cancellation at the deadline finds nothing to wait for.
  // A backstop ends the process if something still holds it a few seconds later.
  std::mutex done_mu;
  std::condition_variable done_cv;
  bool done = false;
  std::thread watcher([&] {
    int signal = 0;
    sigwait(&signals, &signal);
    spdlog::info("signal {}: shutting down, in-flight calls get {} s", signal,
                 options.shutdown_grace_s);
    server->GetHealthCheckService()->SetServingStatus(false);
    using Seconds = std::chrono::duration<double>;
    const auto grace = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        Seconds(options.shutdown_grace_s));
    const auto margin = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        Seconds(std::min(0.5, 0.5 * options.shutdown_grace_s)));
    const auto start = std::chrono::steady_clock::now();
    std::thread stopper([&] {
      std::unique_lock lock(done_mu);
      if (done_cv.wait_until(lock, start + grace - margin, [&] { return done; })) return;
      spdlog::info("shutdown grace nearly over: stopping running ticks");
      service.StopAllCalls();
      constexpr auto kBackstop = std::chrono::seconds(3);
      if (done_cv.wait_until(lock, start + grace + kBackstop, [&] { return done; })) return;
      spdlog::critical("calls still running {} s after the grace: exiting now",
                       std::chrono::duration<double>(kBackstop).count());
      std::_Exit(3);
    });
    server->Shutdown(std::chrono::system_clock::now() +
                     std::chrono::duration_cast<std::chrono::system_clock::duration>(grace));
    {
      std::lock_guard lock(done_mu);
      done = true;
    }
    done_cv.notify_all();
    stopper.join();
  });
  server->Wait();
  watcher.join();
  spdlog::info("stopped");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  throng::client::KeepFreedMemory();  // 100k-agent messages: no page faults per tick
  // Before any thread starts (gRPC's, the metrics exposer's), so that all inherit the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a reader that goes away is an error to handle, not a death

  Options options;
  if (auto code = ParseOptions(argc, argv, &options)) return *code;
  if (!options.health_check.empty()) {
    return ProbeHealth(options.health_check, options.health_check_ca, 3.0);
  }
  try {
    return Run(options, signals);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "throngd: %s\n", e.what());
    return 1;
  }
}
