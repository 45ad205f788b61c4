#include "bench/world_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

namespace throng::bench {
namespace {

using Json = nlohmann::ordered_json;

std::string Mib(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", static_cast<double>(bytes) / (1 << 20));
  return text;
}

std::string DeviceMib(const RunFigures& f) { return f.device_bytes ? Mib(*f.device_bytes) : "n/a"; }

unsigned long long U(uint64_t v) { return static_cast<unsigned long long>(v); }

Json SummaryJson(const Summary& s) {
  return {{"median", s.median}, {"p90", s.p90}, {"mean", s.mean}, {"min", s.min}, {"max", s.max}};
}

Json RunJson(const RunFigures& f) {
  Json stages = Json::object(), bytes = Json::object();
  for (int s = 0; s < kStageCount; ++s) {
    const std::string name(StageName(static_cast<Stage>(s)));
    stages[name] = SummaryJson(f.stage_ms[s]);
    bytes[name] = {{"to_backend", f.stage_bytes_to_backend[s]},
                   {"to_host", f.stage_bytes_to_host[s]}};
  }
  Json calls = Json::object();
  for (int k = 0; k < kBackendCallCount; ++k) {
    calls[std::string(BackendCallName(static_cast<BackendCall>(k)))] = SummaryJson(f.call_ms[k]);
  }
  const Quality& q = f.quality;
  Json j = {{"scenario", f.scenario},
            {"size", f.size},
            {"seed", f.seed},
            {"agents", f.agents},
            {"vehicles", f.vehicles},
            {"forward_agents", f.forward},
            {"backend", f.backend},
            {"mode", f.mode},
            {"warmup", f.warmup},
            {"ticks", f.ticks},
            {"dt", f.dt},
            {"tick_ms", SummaryJson(f.tick_ms)},
            {"stage_ms", stages},
            {"stage_bytes", bytes},
            {"host_only_ms", SummaryJson(f.host_only_ms)},
            {"host_only_share", SummaryJson(f.host_only_share)},
            {"tick_per_orca_solve", f.tick_per_orca ? SummaryJson(*f.tick_per_orca) : Json(nullptr)},
            {"backend_call_ms", calls},
            {"agents_per_s", f.agents_per_s},
            {"agents_per_s_at_median", f.agents_per_s_at_median},
            {"peak_host_bytes", f.peak_host_bytes},
            {"device_bytes", f.device_bytes ? Json(*f.device_bytes) : Json(nullptr)},
            {"device_warmup_bytes",
             f.device_warmup_bytes ? Json(*f.device_warmup_bytes) : Json(nullptr)},
            {"device_bytes_per_agent",
             f.device_bytes && f.agents + f.vehicles + f.forward > 0
                 ? Json(static_cast<double>(*f.device_bytes) / (f.agents + f.vehicles + f.forward))
                 : Json(nullptr)},
            {"quality",
             {{"ticks", q.ticks},
              {"agent_overlaps", q.agent_overlaps},
              {"vehicle_overlaps", q.vehicle_overlaps},
              {"agents_in_obstacles", q.agents_in_obstacles},
              {"forward_in_obstacles", q.forward_in_obstacles},
              {"ok", q.status_count[0]},
              {"safe_stop", q.status_count[1]},
              {"emergency", q.status_count[2]},
              {"oscillating_agent_ticks", q.oscillating},
              {"stalled_agent_ticks", q.stalled},
              {"agents_with_goals", q.agents_with_goals},
              {"agents_at_goal", q.agents_at_goal}}}};
  if (f.repeat_tick_medians.size() > 1) j["repeat_tick_medians_ms"] = f.repeat_tick_medians;
  if (f.mode == "compare") {
    j["against"] = f.against;
    j["speedup_vs_first"] = f.speedup;
  }
  if (f.agreement) {
    const Agreement& a = *f.agreement;
    j["agreement"] = {
        {"tolerance", kAgreementTolerance},
        {"agent_ticks", a.agent_ticks},
        {"agent_velocity_differing_fraction",
         a.agent_ticks ? static_cast<double>(a.agent_ticks_differing) / a.agent_ticks : 0.0},
        {"agent_velocity_max_abs_diff", a.velocity_max_abs},
        {"vehicle_ticks", a.vehicle_ticks},
        {"vehicle_controls_differing_fraction",
         a.vehicle_ticks ? static_cast<double>(a.vehicle_ticks_differing) / a.vehicle_ticks : 0.0},
        {"steering_max_abs_diff", a.steering_max_abs},
        {"throttle_max_abs_diff", a.throttle_max_abs},
        {"brake_max_abs_diff", a.brake_max_abs}};
  }
  return j;
}

}  // namespace

void PrintRuns(const std::vector<RunFigures>& runs) {
  if (runs.empty()) return;
  const RunFigures& r0 = runs[0];
  std::printf(
      "%s size %zu seed %u: %zu agents, %zu vehicles, %zu forward agents, dt %.3g s, %d ticks "
      "after %d warm-up (%s)\n",
      r0.scenario.c_str(), r0.size, r0.seed, r0.agents, r0.vehicles, r0.forward, r0.dt, r0.ticks,
      r0.warmup, r0.mode.c_str());
  // Times: one row of medians and one of p90s per backend.
  std::printf("%-10s %-6s %9s", "backend", "ms", "tick");
  for (int s = 0; s < kStageCount; ++s) {
    std::printf(" %10.10s", std::string(StageName(static_cast<Stage>(s))).c_str());
  }
  std::printf(" %12s %9s %8s %8s\n", "agents/s", "host_MiB", "dev_MiB", "speedup");
  for (const RunFigures& f : runs) {
    for (int row = 0; row < 2; ++row) {
      auto pick = [&](const Summary& s) { return row == 0 ? s.median : s.p90; };
      std::printf("%-10s %-6s %9.3f", row == 0 ? f.backend.c_str() : "",
                  row == 0 ? "median" : "p90", pick(f.tick_ms));
      for (int s = 0; s < kStageCount; ++s) std::printf(" %10.3f", pick(f.stage_ms[s]));
      if (row == 0) {
        std::printf(" %12.0f %9s %8s", f.agents_per_s, Mib(f.peak_host_bytes).c_str(),
                    DeviceMib(f).c_str());
        if (f.mode == "compare") std::printf(" %7.2fx", f.speedup);
      }
      std::printf("\n");
    }
  }
  // Copies between host and backend, per stage (issue 37's figure; docs/PERFORMANCE.md).
  for (const RunFigures& f : runs) {
    std::string line;
    for (int s = 0; s < kStageCount; ++s) {
      const uint64_t in = f.stage_bytes_to_backend[s], out = f.stage_bytes_to_host[s];
      if (in == 0 && out == 0) continue;
      char cell[96];
      std::snprintf(cell, sizeof cell, " %s %llu in, %llu out;",
                    std::string(StageName(static_cast<Stage>(s))).c_str(), U(in), U(out));
      line += cell;
    }
    std::printf("%-10s bytes/tick%s\n", f.backend.c_str(),
                line.empty() ? " 0 (reads and writes host memory in place)" : line.c_str());
  }
  // Outside the backend's calls, and the tick against its ORCA solve (medians of the
  // per-tick figures; docs/PERFORMANCE.md).
  for (const RunFigures& f : runs) {
    std::printf("%-10s host-only %.3f ms a tick, %.1f%% of it", f.backend.c_str(),
                f.host_only_ms.median, 100.0 * f.host_only_share.median);
    if (f.tick_per_orca) std::printf("; tick / ORCA solve %.3f", f.tick_per_orca->median);
    std::printf("\n");
  }
  // Where the backend's share went, call by call (medians; the calls a tick never made
  // left out).
  for (const RunFigures& f : runs) {
    std::string line;
    for (int k = 0; k < kBackendCallCount; ++k) {
      if (f.call_ms[k].max <= 0) continue;
      char cell[64];
      std::snprintf(cell, sizeof cell, " %s %.3f",
                    std::string(BackendCallName(static_cast<BackendCall>(k))).c_str(),
                    f.call_ms[k].median);
      line += cell;
    }
    if (line.empty()) continue;
    std::printf("%-10s backend calls, median ms:%s\n", f.backend.c_str(), line.c_str());
  }
  for (const RunFigures& f : runs) {
    if (!f.device_warmup_bytes) continue;
    std::printf("%-10s dev_MiB leaves out %s that a warm-up launch reserved (the kernels' modules "
                "and per-thread local memory, whatever the agent count)\n",
                f.backend.c_str(), Mib(*f.device_warmup_bytes).c_str());
  }
  // Quality over every tick run, warm-up included.
  std::printf("%-10s %6s %9s %9s %9s %10s %10s %10s %9s %9s %12s %9s\n", "quality", "ticks",
              "overlaps", "veh_ovl", "in_obst", "ok", "safe_stop", "emergency", "oscill", "stalled",
              "at_goal", "fwd_obst");
  for (const RunFigures& f : runs) {
    const Quality& q = f.quality;
    std::printf("%-10s %6llu %9llu %9llu %9llu %10llu %10llu %10llu %9llu %9llu %6zu/%-6zu %9llu\n",
                f.backend.c_str(), U(q.ticks), U(q.agent_overlaps), U(q.vehicle_overlaps),
                U(q.agents_in_obstacles), U(q.status_count[0]), U(q.status_count[1]),
                U(q.status_count[2]), U(q.oscillating), U(q.stalled), q.agents_at_goal,
                q.agents_with_goals, U(q.forward_in_obstacles));
  }
  for (const RunFigures& f : runs) {
    if (!f.agreement) continue;
    const Agreement& a = *f.agreement;
    std::printf(
        "agreement %s vs %s: agent velocities differing by > %g m/s in %.4f%% of %llu "
        "agent-ticks (max %.3g m/s)",
        f.backend.c_str(), f.against.c_str(), kAgreementTolerance,
        a.agent_ticks ? 100.0 * a.agent_ticks_differing / a.agent_ticks : 0.0, U(a.agent_ticks),
        a.velocity_max_abs);
    if (a.vehicle_ticks) {
      std::printf(
          "; vehicle controls in %.4f%% of %llu (max steering %.3g, throttle %.3g, "
          "brake %.3g)",
          100.0 * a.vehicle_ticks_differing / a.vehicle_ticks, U(a.vehicle_ticks),
          a.steering_max_abs, a.throttle_max_abs, a.brake_max_abs);
    }
    std::printf("\n");
  }
  std::fflush(stdout);
}

std::string ToJson(const MachineInfo& machine, const std::string& command,
                   const std::vector<RunFigures>& runs, const std::vector<Skipped>& skipped,
                   const std::string& previous) {
  Json commands = Json::array(), results = Json::array(), skips = Json::array();
  if (!previous.empty()) {
    const Json old = Json::parse(previous, nullptr, /*allow_exceptions=*/false);
    if (!old.is_object() || old.value("benchmark", "") != "world_tick" ||
        !old.contains("results")) {
      throw std::invalid_argument("--append: not a throng-bench JSON document");
    }
    commands = old.value("commands", Json::array());
    results = old["results"];
    skips = old.value("skipped", Json::array());
  }
  commands.push_back(command);
  for (const RunFigures& f : runs) results.push_back(RunJson(f));
  for (const Skipped& s : skipped) skips.push_back({{"backend", s.backend}, {"reason", s.reason}});
  Json doc = {{"benchmark", "world_tick"},
              {"machine",
               {{"hostname", machine.hostname},
                {"cpu_model", machine.cpu_model},
                {"cores", machine.cores},
                {"omp_threads", machine.omp_threads},
                {"omp_wait_policy", machine.omp_wait_policy},
                {"date", machine.date},
                {"cuda_built", machine.cuda_built},
                {"cuda_device", machine.cuda_device}}},
              {"commands", commands},
              {"notes",
               "times in ms: tick is wall clock around World::Step (integrating), stages are "
               "TickStats::stage_ms; quality sums every tick run, warm-up included; "
               "peak_host_bytes is VmHWM reset before each run; device_bytes is device memory "
               "held above the CUDA context and what a warm-up launch reserved "
               "(device_warmup_bytes: the kernels' modules and per-thread local memory); "
               "both null when not on cuda"}};
  doc["results"] = results;
  doc["skipped"] = skips;
  return doc.dump(2) + "\n";
}

}  // namespace throng::bench
