// throng-scenario: writes one of the engine's named scenarios as JSON, for clients that
// do not link the engine (the Python client runs it to get "town" and friends).
//
//   throng-scenario town --size 500 --seed 1 -o town.json          # the library's JSON
//   throng-scenario town --size 500 --seed 1 --proto -o town.json  # throng.v1 proto JSON
//   throng-scenario --from town.json --proto -o town.v1.json       # convert a saved one
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>

#include "clients/cpp/scenario_proto.h"
#include "kernels/scenarios/scenario.h"

int main(int argc, char** argv) {
  CLI::App app{"Writes a named Throng scenario (kernels/scenarios) as JSON"};
  app.set_version_flag("--version", "throng-scenario " THRONG_VERSION);
  std::string name, from, out = "-";
  size_t size = 500;
  uint32_t seed = 1;
  bool proto = false, list = false;
  int engine_ticks = 0;
  app.add_option("name", name, "circle, random, corridor, crossing or town");
  app.add_option("--size", size, "pedestrians (the town adds size/50 vehicles)")
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", seed, "random seed");
  app.add_option("--from", from, "read a scenario saved by the library instead")
      ->check(CLI::ExistingFile);
  app.add_option("-o,--out", out, "output file; - for stdout");
  app.add_flag("--proto", proto,
               "write throng.v1 messages in proto JSON (clients/python loads this)");
  app.add_flag("--list", list, "print the scenario names and exit");
  app.add_option("--engine-ticks", engine_ticks,
                 "with --proto: also the engine's answers for this many integrated ticks "
                 "(cpu backend, in process), for checking clients")
      ->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);

  namespace sc = throng::scenarios;
  try {
    if (list) {
      for (const auto& n : sc::ScenarioNames()) std::cout << n << '\n';
      return 0;
    }
    if (name.empty() == from.empty()) {
      std::cerr << "throng-scenario: give a scenario name or --from FILE\n";
      return 2;
    }
    const sc::Scenario scenario =
        from.empty() ? sc::MakeScenario(name, size, seed) : sc::LoadScenario(from);
    if (engine_ticks > 0 && !proto) {
      std::cerr << "throng-scenario: --engine-ticks needs --proto\n";
      return 2;
    }
    const std::string json =
        proto ? throng::client::ScenarioToProtoJson(
                    scenario, throng::client::RunInProcess(scenario, engine_ticks, true))
              : sc::ScenarioToJson(scenario);
    if (out == "-") {
      std::cout << json;
    } else {
      std::ofstream file(out, std::ios::binary);
      file << json;
      if (!file.flush()) {
        std::cerr << "throng-scenario: cannot write " << out << '\n';
        return 1;
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "throng-scenario: " << e.what() << '\n';
    return 2;
  }
}
