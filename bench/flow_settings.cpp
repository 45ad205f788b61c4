#include "bench/flow_settings.h"

#include <functional>
#include <map>
#include <stdexcept>

#include "kernels/scenarios/scenario_layout.h"

namespace throng::bench {
namespace {

using Setter = std::function<void(WorldConfig*, double)>;

const std::map<std::string, Setter>& Setters() {
  static const std::map<std::string, Setter> setters = {
      {"orca.side_bias", [](WorldConfig* c, double v) { c->orca.side_bias = float(v); }},
      {"orca.side_bias_fade", [](WorldConfig* c, double v) { c->orca.side_bias_fade = float(v); }},
      {"orca.follower_weight",
       [](WorldConfig* c, double v) { c->orca.follower_weight = float(v); }},
      {"orca.contact_margin_ratio",
       [](WorldConfig* c, double v) { c->orca.contact_margin_ratio = float(v); }},
      {"orca.shorten_horizon", [](WorldConfig* c, double v) { c->orca.shorten_horizon = v != 0; }},
      {"orca.overlap_is_hard", [](WorldConfig* c, double v) { c->orca.overlap_is_hard = v != 0; }},
      {"orca.revalidate", [](WorldConfig* c, double v) { c->orca.revalidate = v != 0; }},
      {"orca.revalidate_passes",
       [](WorldConfig* c, double v) { c->orca.revalidate_passes = int(v); }},
      {"orca.density_speed", [](WorldConfig* c, double v) { c->orca.density_speed = v != 0; }},
      {"orca.headway_speed", [](WorldConfig* c, double v) { c->orca.headway_speed = v != 0; }},
      {"orca.headway_anticipation",
       [](WorldConfig* c, double v) { c->orca.headway_anticipation = static_cast<float>(v); }},
      {"orca.headway_time",
       [](WorldConfig* c, double v) { c->orca.headway_time = static_cast<float>(v); }},
      {"orca.jam_step", [](WorldConfig* c, double v) { c->orca.jam_step = v != 0; }},
      {"orca.jam_step_depth", [](WorldConfig* c, double v) { c->orca.jam_step_depth = float(v); }},
      {"orca.squeeze_step", [](WorldConfig* c, double v) { c->orca.squeeze_step = v != 0; }},
      {"orca.right_of_way", [](WorldConfig* c, double v) { c->orca.right_of_way = v != 0; }},
      {"orca.standing_detour", [](WorldConfig* c, double v) { c->orca.standing_detour = v != 0; }},
      {"orca.corner_lines", [](WorldConfig* c, double v) { c->orca.corner_lines = v != 0; }},
      {"orca.time_horizon", [](WorldConfig* c, double v) { c->orca.time_horizon = float(v); }},
      {"orca.max_neighbors", [](WorldConfig* c, double v) { c->orca.max_neighbors = int(v); }},
      // The pedestrians' body (the scenes leave the radius column out), and the field's
      // clearance with it. The scenes' layouts start 0.3 m bodies clear of each other
      // (0.2 m is their default): no larger.
      {"agent_defaults.radius",
       [](WorldConfig* c, double v) { scenarios::layout::SetPedestrianRadius(c, float(v)); }},
      // The arrive behaviour's largest acceleration, m/s^2: a cap on how far one tick's
      // preferred velocity may move from the current one. Below it the unit-mass steering
      // moves it dt / 1 s of the way to the desired velocity (docs/PERFORMANCE.md, "The
      // preferred velocity's lag").
      {"agent_defaults.max_accel",
       [](WorldConfig* c, double v) { c->agent_defaults.max_accel = float(v); }},
      // The arrive behaviour's slowing radius, m: inside it the desired speed ramps down
      // linearly to 0 at the goal (docs/ALGORITHMS.md §3).
      {"agent_defaults.slowing_radius",
       [](WorldConfig* c, double v) { c->agent_defaults.slowing_radius = float(v); }},
      {"navigation.reroute_every",
       [](WorldConfig* c, double v) { c->navigation.reroute_every = int(v); }},
      {"navigation.density_cost",
       [](WorldConfig* c, double v) { c->navigation.density_cost = float(v); }},
      {"navigation.goal_cone",
       [](WorldConfig* c, double v) { c->navigation.goal_cone = float(v); }},
      {"detection.stall_ticks",
       [](WorldConfig* c, double v) { c->detection.stall_ticks = int(v); }},
  };
  return setters;
}

// A switch reads as true or false (as the scenario JSON writes it) as well as 1 or 0;
// anything else must be a number, all of it (an empty value too is refused), or the run
// would judge a setting nobody asked for.
double SettingValue(const std::string& key_value, const std::string& text) {
  if (text == "true") return 1.0;
  if (text == "false") return 0.0;
  size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size()) {
    throw std::invalid_argument("--set " + key_value + ": not a number, true or false");
  }
  return value;
}

}  // namespace

std::vector<std::string> FlowSettingKeys() {
  std::vector<std::string> keys;
  for (const auto& [key, setter] : Setters()) keys.push_back(key);
  return keys;
}

void ApplySetting(const std::string& key_value, WorldConfig* config) {
  const size_t eq = key_value.find('=');
  if (eq == std::string::npos) throw std::invalid_argument("--set " + key_value + ": no '='");
  const std::string key = key_value.substr(0, eq);
  const auto it = Setters().find(key);
  if (it == Setters().end()) throw std::invalid_argument("--set: unknown key " + key);
  const std::string text = key_value.substr(eq + 1);
  it->second(config, SettingValue(key_value, text));
}

}  // namespace throng::bench
