#include "clients/cpp/scenario_proto.h"

#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <stdexcept>

#include "kernels/world/world.h"
#include "proto/convert.h"

namespace throng::client {

ProtoScenario ScenarioToProto(const scenarios::Scenario& scenario) {
  ProtoScenario out;
  service::ConfigToProto(scenario.config, &out.config);
  out.config.set_name(scenario.name);
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

AgentSpans AgentSpansOf(const AgentSnapshot& a, WidenedAgentSpans* widened) {
  widened->flags.assign(a.flags.begin(), a.flags.end());
  widened->behavior.assign(a.behavior.begin(), a.behavior.end());
  AgentSpans c;
  c.id = a.id;
  c.x = a.x;
  c.y = a.y;
  c.z = a.z;
  c.vx = a.vx;
  c.vy = a.vy;
  c.vz = a.vz;
  c.radius = a.radius;
  c.max_speed = a.max_speed;
  c.goal_x = a.goal_x;
  c.goal_y = a.goal_y;
  c.goal_z = a.goal_z;
  c.pref_vx = a.pref_vx;
  c.pref_vy = a.pref_vy;
  c.pref_vz = a.pref_vz;
  c.flags = widened->flags;
  c.behavior = widened->behavior;
  return c;
}

VehicleSpans VehicleSpansOf(const VehicleSnapshot& v) {
  VehicleSpans c;
  c.id = v.id;
  c.x = v.x;
  c.y = v.y;
  c.z = v.z;
  c.yaw = v.yaw;
  c.speed = v.speed;
  c.spline_id = v.spline_id;
  c.progress_hint = v.progress_hint;
  c.length = v.length;
  c.width = v.width;
  c.max_speed = v.max_speed;
  c.profile = v.profile;
  return c;
}

ForwardSpans ForwardSpansOf(const ForwardSnapshot& f) {
  ForwardSpans c;
  c.id = f.id;
  c.x = f.x;
  c.y = f.y;
  c.z = f.z;
  c.forward_x = f.forward_x;
  c.forward_y = f.forward_y;
  c.forward_z = f.forward_z;
  c.speed = f.speed;
  c.radius = f.radius;
  c.goal_x = f.goal_x;
  c.goal_y = f.goal_y;
  c.goal_z = f.goal_z;
  c.probes = f.probes;
  c.half_angle = f.half_angle;
  c.probe_length = f.probe_length;
  c.turn_speed = f.turn_speed;
  return c;
}

v1::WorldInfo CreateWorld(Client& client, const scenarios::Scenario& scenario) {
  return client.CreateWorld(ScenarioToProto(scenario).config);
}

}  // namespace throng::client
