// throng-bench-grpc: Step and StreamSteps through a throngd over loopback (issue 5's load
// client). Per tick, p50/p99 of the client's serialisation (build, encode, decode), the
// transport (round trip minus the engine's own time: the wire plus the server's parse,
// conversion and encode) and the engine; several worlds at once, one client thread each.
// Then the server's non-engine work redone in process on the same messages. Prints a
// table, writes JSON; no assertions.
//
//   throng-bench-grpc --spawn build/service/throngd --scenario random,town --worlds 1,2
//   throng-bench-grpc --server 127.0.0.1:50051 --modes stream --size 10000 --json r.json
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/grpc_load_run.h"
#include "bench/machine.h"
#include "bench/throngd_child.h"
#include "throng/process_memory.h"

namespace {

using namespace throng;
using Json = nlohmann::ordered_json;

struct Pct {
  double p50 = 0, p99 = 0;
};

// Nearest-rank percentiles of one component over every recorded tick.
template <class F>
Pct Percentiles(const std::vector<bench::TickSample>& samples, F&& part) {
  std::vector<double> v;
  for (const auto& s : samples) v.push_back(part(s));
  std::sort(v.begin(), v.end());
  if (v.empty()) return {};
  const auto at = [&](double q) {
    const auto i = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
  };
  return {at(0.5), at(0.99)};
}

struct Row {
  std::string scenario, mode;
  size_t agents = 0, vehicles = 0;
  int worlds = 0, ticks = 0;
  bench::LoadRun run;
  Pct build, encode, decode, transport, non_engine, engine, rtt;
};

Row Summarise(std::string scenario, std::string mode, const scenarios::Scenario& s, int worlds,
              bench::LoadRun run) {
  Row r;
  r.scenario = std::move(scenario);
  r.mode = std::move(mode);
  r.agents = s.initial.agents.size();
  r.vehicles = s.initial.vehicles.size();
  r.worlds = worlds;
  r.ticks = static_cast<int>(run.samples.size());
  r.run = std::move(run);
  const auto& v = r.run.samples;
  r.build = Percentiles(v, [](const auto& x) { return x.build; });
  r.encode = Percentiles(v, [](const auto& x) { return x.encode; });
  r.decode = Percentiles(v, [](const auto& x) { return x.decode; });
  r.transport = Percentiles(v, [](const auto& x) { return x.transport(); });
  r.non_engine = Percentiles(v, [](const auto& x) { return x.non_engine(); });
  r.engine = Percentiles(v, [](const auto& x) { return x.engine; });
  r.rtt = Percentiles(v, [](const auto& x) { return x.rtt; });
  return r;
}

std::string Cell(Pct p) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f/%.1f", p.p50, p.p99);
  return text;
}

void PrintHeader() {
  std::printf(
      "\nms per tick, p50/p99 over every world's ticks; non-engine = build + encode + "
      "transport + decode\n");
  std::printf(
      "%-7s %7s %6s %-6s %2s %5s %6s %6s | %-11s %-11s %-11s %-11s %-11s | %-13s %-13s | %s\n",
      "scene", "agents", "vehic", "mode", "w", "ticks", "req MB", "res MB", "build", "encode",
      "decode", "transport", "non-engine", "engine", "round trip", "world-ticks/s");
}

void PrintRow(const Row& r) {
  std::printf(
      "%-7s %7zu %6zu %-6s %2d %5d %6.2f %6.2f | %-11s %-11s %-11s %-11s %-11s | %-13s %-13s | "
      "%.0f\n",
      r.scenario.c_str(), r.agents, r.vehicles, r.mode.c_str(), r.worlds, r.ticks,
      static_cast<double>(r.run.request_bytes) / 1e6,
      static_cast<double>(r.run.response_bytes) / 1e6, Cell(r.build).c_str(),
      Cell(r.encode).c_str(), Cell(r.decode).c_str(), Cell(r.transport).c_str(),
      Cell(r.non_engine).c_str(), Cell(r.engine).c_str(), Cell(r.rtt).c_str(),
      r.run.wall_s > 0 ? r.run.world_ticks / r.run.wall_s : 0.0);
}

Json PctJson(Pct p) { return {{"p50", p.p50}, {"p99", p.p99}}; }

Json RowJson(const Row& r) {
  return {{"scenario", r.scenario},
          {"agents", r.agents},
          {"vehicles", r.vehicles},
          {"mode", r.mode},
          {"worlds", r.worlds},
          {"ticks", r.ticks},
          {"wall_s", r.run.wall_s},
          {"world_ticks", r.run.world_ticks},
          {"request_bytes", r.run.request_bytes},
          {"response_bytes", r.run.response_bytes},
          {"ms",
           {{"build", PctJson(r.build)},
            {"encode", PctJson(r.encode)},
            {"decode", PctJson(r.decode)},
            {"transport", PctJson(r.transport)},
            {"non_engine", PctJson(r.non_engine)},
            {"engine", PctJson(r.engine)},
            {"round_trip", PctJson(r.rtt)}}}};
}

Json SplitJson(const std::string& scenario, const bench::ServerSplit& s) {
  return {{"scenario", scenario},
          {"parse_ms", s.parse},
          {"convert_in_ms", s.convert_in},
          {"convert_out_ms", s.convert_out},
          {"convert_out_reused_ms", s.convert_out_reused},
          {"encode_ms", s.encode},
          {"total_ms", s.total()}};
}

std::vector<std::string> Split(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  // As a game server would: otherwise every response is decoded into fresh pages.
  throng::client::KeepFreedMemory();
  CLI::App app{"Step and StreamSteps through throngd over gRPC: serialisation, transport, engine"};
  std::string server, spawn, scenario_list = "random,town", mode_list = "unary,stream";
  std::string world_list = "1", json_path;
  size_t size = 100000;
  uint32_t seed = 1;
  bench::LoadOptions options;
  int split_repeats = 10;
  bool no_integrate = false;
  auto* group = app.add_option_group("server");
  group->add_option("--server", server, "throngd address host:port");
  group->add_option("--spawn", spawn,
                    "throngd binary to start on a free loopback port (--backend cpu)");
  group->require_option(1);
  app.add_option("--scenario", scenario_list, "comma-separated scenario names")
      ->capture_default_str();
  app.add_option("--size", size, "pedestrians per world")->capture_default_str();
  app.add_option("--seed", seed)->capture_default_str();
  app.add_option("--modes", mode_list, "unary,stream")->capture_default_str();
  app.add_option("--worlds", world_list, "comma-separated world counts, each a run")
      ->capture_default_str();
  app.add_option("--ticks", options.ticks, "recorded ticks per world")->capture_default_str();
  app.add_option("--warmup", options.warmup, "unrecorded ticks per world first")
      ->capture_default_str();
  app.add_option("--split-repeats", split_repeats, "repeats of the in-process server split")
      ->capture_default_str();
  app.add_flag("--no-integrate", no_integrate,
               "client-side integration: responses carry no positions");
  app.add_option("--json", json_path, "write results as JSON to this file");
  CLI11_PARSE(app, argc, argv);
  options.integrate = !no_integrate;

  try {
    std::unique_ptr<bench::ThrongdChild> child;
    if (!spawn.empty()) {
      child = std::make_unique<bench::ThrongdChild>(spawn, std::vector<std::string>{});
      server = child->address();
    }
    options.address = server;
    const bench::MachineInfo machine = bench::DescribeMachine();
    std::printf("throngd %s%s; %s, %d cores, OMP_WAIT_POLICY %s\n", server.c_str(),
                child ? " (spawned, --backend cpu)" : "", machine.cpu_model.c_str(), machine.cores,
                machine.omp_wait_policy.c_str());
    std::string command;
    for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);

    Json runs = Json::array(), splits = Json::array();
    std::vector<Row> rows;
    const auto write = [&] {
      if (json_path.empty()) return;
      Json doc = {{"benchmark", "throng-bench-grpc"},
                  {"command", command},
                  {"machine",
                   {{"hostname", machine.hostname},
                    {"cpu_model", machine.cpu_model},
                    {"cores", machine.cores},
                    {"omp_wait_policy", machine.omp_wait_policy},
                    {"date", machine.date}}},
                  {"server", child ? "spawned throngd --backend cpu" : server},
                  {"integrate", options.integrate},
                  {"warmup", options.warmup},
                  {"runs", runs},
                  {"server_split", splits}};
      std::ofstream out(json_path);
      out << doc.dump(2) << "\n";
      if (!out) throw std::runtime_error("cannot write " + json_path);
    };
    for (const auto& name : Split(scenario_list)) {
      const scenarios::Scenario scenario = scenarios::MakeScenario(name, size, seed);
      PrintHeader();
      bench::LoadRun last;
      for (const auto& worlds : Split(world_list)) {
        for (const auto& mode : Split(mode_list)) {
          if (mode != "unary" && mode != "stream") throw std::invalid_argument("--modes: " + mode);
          options.stream = mode == "stream";
          options.worlds = std::stoi(worlds);
          Row row =
              Summarise(name, mode, scenario, options.worlds, bench::RunLoad(scenario, options));
          PrintRow(row);
          runs.push_back(RowJson(row));
          write();
          last = row.run;
        }
      }
      const bench::ServerSplit s =
          bench::MeasureServerSplit(last.last_request, last.last_response, split_repeats);
      std::printf(
          "server's non-engine work redone in process (median of %d), ms: parse %.2f, "
          "convert in %.2f, convert out %.2f (reused response %.2f), encode %.2f; "
          "total %.2f\n",
          split_repeats, s.parse, s.convert_in, s.convert_out, s.convert_out_reused, s.encode,
          s.total());
      splits.push_back(SplitJson(name, s));
      write();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "throng-bench-grpc: %s\n", e.what());
    return 1;
  }
  return 0;
}
