// Built by tests/install/install_test.sh with nothing but `pkg-config throng-client`: the
// installed headers and libraries are enough for a program that makes a request and reads
// a scenario file.
#include <cstdio>

#include "throng/client.h"
#include "throng/scenario_file.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const throng::client::ProtoScenario scenario = throng::client::LoadScenarioFile(argv[1]);
  throng::v1::StepRequest request = throng::client::MakeStep("w1", scenario.tick, scenario.dt);
  *request.mutable_agents() = scenario.agents;
  std::printf("%s: %d agents, request of %zu bytes\n", scenario.name.c_str(),
              request.agents().id_size(), request.ByteSizeLong());
  return request.agents().id_size() > 0 ? 0 : 1;
}
