// The engine's named scenarios (kernels/scenarios/scenario.h) as throng.v1 messages, for
// clients written against the API: a WorldConfig to create the world from and the initial
// snapshot as request columns. Uses throngd's own conversion (proto/convert.h), so a
// scenario sent over the wire is exactly the scenario the engine would run in process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/scenarios/scenario.h"
#include "throng/client.h"
#include "throng/scenario_file.h"

namespace throng::client {

ProtoScenario ScenarioToProto(const scenarios::Scenario& scenario);

// {"format": "throng.v1", "name", "size", "seed", "suggested_ticks", "config": WorldConfig,
// "initial": {"tick", "dt", "agents": AgentBatch, "vehicles": VehicleBatch, "forward":
// ForwardBatch (only when the scenario has forward agents)}}, messages in
// proto JSON with the proto's field names: what the Python client and LoadScenarioFile
// (throng/scenario_file.h) load. With `engine`,
// also "engine": [StepResponse...], the engine's own answers (tests compare with them).
std::string ScenarioToProtoJson(const scenarios::Scenario& scenario,
                                const std::vector<v1::StepResponse>& engine = {});

// The engine in process (World, cpu backend) on the scenario for `ticks` integrated ticks,
// each snapshot being where the previous tick left everyone (vehicles' lane progress
// continued by the world, as a client that sends no progress_hint gets): the responses
// throngd gives a client that does the same.
std::vector<v1::StepResponse> RunInProcess(const scenarios::Scenario& scenario, int ticks,
                                           bool debug);

// Storage for the agent columns the engine keeps narrower than the wire (uint8 flags and
// behaviours widened to uint32): one vector per column, filled only for those.
#define THRONG_WIDENED_COLUMN(name, type, wire, need, rule) std::vector<wire> name;
struct WidenedAgentSpans {
  THRONG_AGENT_COLUMNS(THRONG_WIDENED_COLUMN)
};
#undef THRONG_WIDENED_COLUMN

// The client's columns over an engine snapshot (views into it and into `widened`). What a
// C++ game keeping its state in the engine's Snapshot type sends each tick.
AgentSpans AgentSpansOf(const AgentSnapshot& agents, WidenedAgentSpans* widened);
VehicleSpans VehicleSpansOf(const VehicleSnapshot& vehicles);
ForwardSpans ForwardSpansOf(const ForwardSnapshot& forward);

// Creates a world for the scenario; returns its info.
v1::WorldInfo CreateWorld(Client& client, const scenarios::Scenario& scenario);

}  // namespace throng::client
