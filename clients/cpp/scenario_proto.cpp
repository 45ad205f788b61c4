#include "clients/cpp/scenario_proto.h"

#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "kernels/world/world.h"
#include "proto/convert.h"

namespace throng::client {

ProtoScenario ScenarioToProto(const scenarios::Scenario& scenario) {
  ProtoScenario out;
  service::ConfigToProto(scenario.config, &out.config);
  out.config.set_name(scenario.name);
  out.name = scenario.name;
  out.suggested_ticks = static_cast<uint32_t>(scenario.suggested_ticks);
  out.tick = scenario.initial.tick;
  out.dt = scenario.initial.dt;
  service::AgentsToProto(scenario.initial.agents, &out.agents);
  service::VehiclesToProto(scenario.initial.vehicles, &out.vehicles);
  service::ForwardToProto(scenario.initial.forward, &out.forward);
  return out;
}

namespace {

std::string Json(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;  // Python reads the proto's names
  std::string json;
  const auto status = google::protobuf::util::MessageToJsonString(message, &json, options);
  if (!status.ok()) throw std::runtime_error("proto JSON: " + status.ToString());
  return json;
}

std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Nine significant digits round-trip any float.
std::string Float(float f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
  return buf;
}

std::string EngineJson(const std::vector<v1::StepResponse>& engine) {
  if (engine.empty()) return "";
  std::string out = ",\n\"engine\": [";
  for (size_t i = 0; i < engine.size(); ++i) out += (i ? ",\n" : "") + Json(engine[i]);
  return out + "]";
}

}  // namespace

std::string ScenarioToProtoJson(const scenarios::Scenario& scenario,
                                const std::vector<v1::StepResponse>& engine) {
  const ProtoScenario p = ScenarioToProto(scenario);
  // Assembled by hand: the parts are protobuf's own JSON, the rest is five scalars.
  return "{\"format\": \"throng.v1\", \"name\": " + Quoted(scenario.name) +
         ", \"size\": " + std::to_string(scenario.size) +
         ", \"seed\": " + std::to_string(scenario.seed) +
         ", \"suggested_ticks\": " + std::to_string(scenario.suggested_ticks) +
         ",\n\"config\": " + Json(p.config) +
         ",\n\"initial\": {\"tick\": " + std::to_string(p.tick) + ", \"dt\": " + Float(p.dt) +
         ", \"agents\": " + Json(p.agents) + ",\n\"vehicles\": " + Json(p.vehicles) +
         (p.forward.id_size() > 0 ? ",\n\"forward\": " + Json(p.forward) : std::string()) + "}" +
         EngineJson(engine) + "}\n";
}

std::vector<v1::StepResponse> RunInProcess(const scenarios::Scenario& scenario, int ticks,
                                           bool debug) {
  World world(scenario.config, BackendKind::kCpu);
  Snapshot state = scenario.initial;
  TickResult result;
  const TickOptions options{.integrate = true, .debug = debug};
  std::vector<v1::StepResponse> out(static_cast<size_t>(ticks));
  for (auto& response : out) {
    world.Step(state, options, &result);
    service::ResultToProto(result, world.state(), options, "cpu", &response);
    state = world.state();
    state.tick += 1;
    state.vehicles.progress_hint.clear();
  }
  return out;
}

namespace {

// A view of an engine column as the wire's type: the column itself, or its values widened
// into `widened` when the engine keeps it narrower.
template <class Wire, class T>
std::span<const Wire> WireView(const std::vector<T>& column, std::vector<Wire>* widened) {
  if constexpr (std::is_same_v<T, Wire>) {
    return column;
  } else {
    widened->assign(column.begin(), column.end());
    return *widened;
  }
}

template <class Wire, class T>
std::span<const Wire> SameView(const std::vector<T>& column) {
  static_assert(std::is_same_v<T, Wire>,
                "a column narrower than the wire needs storage: pass a Widened*Spans, as "
                "AgentSpansOf does");
  return column;
}

}  // namespace

#define THRONG_SPAN_OF(name, type, wire, need, rule) c.name = WireView(in.name, &widened->name);

AgentSpans AgentSpansOf(const AgentSnapshot& in, WidenedAgentSpans* widened) {
  AgentSpans c;
  THRONG_AGENT_COLUMNS(THRONG_SPAN_OF)
  return c;
}

// Vehicles and forward agents have no column narrower than the wire: their views need no
// storage (a narrow column added to their tables stops the build here).
#define THRONG_SAME_SPAN_OF(name, type, wire, need, rule) c.name = SameView<wire>(in.name);

VehicleSpans VehicleSpansOf(const VehicleSnapshot& in) {
  VehicleSpans c;
  THRONG_VEHICLE_COLUMNS(THRONG_SAME_SPAN_OF)
  return c;
}

ForwardSpans ForwardSpansOf(const ForwardSnapshot& in) {
  ForwardSpans c;
  THRONG_FORWARD_COLUMNS(THRONG_SAME_SPAN_OF)
  return c;
}

#undef THRONG_SAME_SPAN_OF
#undef THRONG_SPAN_OF

v1::WorldInfo CreateWorld(Client& client, const scenarios::Scenario& scenario) {
  return client.CreateWorld(ScenarioToProto(scenario).config);
}

}  // namespace throng::client
