// The world's forward agents: their static shapes (built once), this tick's agents, bodies
// and casts on the backend with their results in the caller's frame, and their motion along
// the chosen direction.
#include <algorithm>
#include <stdexcept>

#include "kernels/steering/forward_value_rules.h"
#include "kernels/world/forward_validate.h"
#include "kernels/world/world_internals.h"

namespace throng {

FanShapes InternalFanShapes(const WorldConfig& config, const std::vector<Polygon>& polygons) {
  FanShapes shapes;
  for (size_t p = 0; p < polygons.size(); ++p) {
    const HeightRange h =
        config.obstacle_heights.empty() ? HeightRange{} : config.obstacle_heights[p];
    shapes.polygons.push_back({polygons[p].vertices, h.bounded, h.base, h.top});
  }
  for (const SphereObstacle& s : config.spheres) {
    shapes.spheres.push_back({config.frame.ToInternal(s.center), s.radius});
  }
  return shapes;
}

float FanShapesCell(const WorldConfig& config) {
  return std::clamp(config.forward.probe_length + 2.f * config.forward.radius, 1.f, 1e4f);
}

void SteerForwardAgents(const WorldConfig& config, const Snapshot& s, ColumnSource columns,
                        bool check_values, bool results_to_host, const StopRequested& stop,
                        World::Internals& w, TickResult* out, TickStats* stats) {
  const ForwardSnapshot& f = s.forward;
  const ForwardDefaults& d = config.forward;
  const size_t k = f.size();
  ForwardResults& fr = out->forward;
  VisitForwardResultColumns(fr, [k](const char*, auto& column) { column.resize(k); });
  stats->forward_agents = k;
  if (k == 0) return;

  // The bodies' grid cell from each agent's reach (its settings or the world's). A value
  // the preparation is still to check counts as the world's: a refused tick makes no grid,
  // and the median must not meet a NaN.
  std::vector<float> reach(k);
  for (size_t i = 0; i < k; ++i) {
    const float length = Or(f.probe_length, i, d.probe_length);
    const float radius = Or(f.radius, i, d.radius);
    reach[i] = (FanLengthValid(length) ? length : d.probe_length) +
               (FanRadiusValid(radius) ? radius : d.radius);
  }
  // On the backend: the agents in the internal frame, and everyone else as bodies as this
  // tick's preparations left them there (pedestrians upright, vehicles as boxes, forward
  // agents as spheres, each skipping its own).
  auto optional = [](const auto& column) { return column.empty() ? nullptr : column.data(); };
  const AgentColumns& oa = w.orca_agents;
  const ForwardPrepareScene scene{f.x.data(),
                                  f.y.data(),
                                  optional(f.z),
                                  f.forward_x.data(),
                                  f.forward_y.data(),
                                  optional(f.forward_z),
                                  f.speed.data(),
                                  optional(f.radius),
                                  optional(f.goal_x),
                                  optional(f.goal_y),
                                  optional(f.goal_z),
                                  optional(f.probes),
                                  optional(f.half_angle),
                                  optional(f.probe_length),
                                  optional(f.turn_speed),
                                  k,
                                  oa.px.data(),
                                  oa.py.data(),
                                  oa.radius.data(),
                                  w.z.data(),
                                  s.agents.size(),
                                  w.bodies.data(),
                                  w.vehicles.pz.data(),
                                  w.bodies.size()};
  ForwardPrepareParams params{config.frame,
                              d,
                              s.dt,
                              FanGridCell(std::move(reach)),
                              ColumnSource::kThisTick,
                              ColumnSource::kThisTick,
                              columns};
  if (check_values) {
    static const ForwardChecks kChecks = ForwardChecksForPreparation();
    params.checks = kChecks;
  }
  if (w.backend->PrepareForwardScene(params, scene) > 0) {
    // Refused: the host's checks name the first offender (nothing was prepared).
    ValidateForwardSnapshot(config, f);
    throw std::logic_error(
        "PrepareForwardScene refused forward agents that the host's checks accept");
  }
  const ForwardSums sums = w.backend->SteerForwardScene(
      {config.frame, results_to_host}, stop,
      {fr.move_x.data(), fr.move_y.data(), fr.move_z.data(), fr.probe.data(),
       fr.hit_distance.data(), fr.all_blocked.data()});
  stats->forward_blocked = sums.blocked;
  stats->forward_in_obstacles = sums.in_obstacles;
}

// Along the direction each agent's fan chose, from where the preparation put it (both on the
// backend).
void IntegrateForward(const WorldConfig& config, const Snapshot& s, const World::Internals& w,
                      bool next_state_to_host, Snapshot* next) {
  const ForwardSnapshot& f = s.forward;
  ForwardSnapshot& to = next->forward;
  const size_t k = f.size();
  if (k == 0) return;
  if (to.z.empty()) to.z.assign(k, 0.f);
  if (to.forward_z.empty()) to.forward_z.assign(k, 0.f);
  w.backend->MoveForwardAgents({config.frame, s.dt, ColumnSource::kThisTick, next_state_to_host},
                               {nullptr, nullptr, nullptr, k},
                               {to.x.data(), to.y.data(), to.z.data(), to.forward_x.data(),
                                to.forward_y.data(), to.forward_z.data()});
}

}  // namespace throng
