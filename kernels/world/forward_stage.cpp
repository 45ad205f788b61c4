// The world's forward agents: their static shapes (built once), this tick's bodies and
// casts, results in the caller's frame, and their motion along the chosen direction.
#include <algorithm>
#include <cmath>

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

void SteerForwardAgents(const WorldConfig& config, const Snapshot& s, const StopRequested& stop,
                        World::Internals& w, TickResult* out, TickStats* stats) {
  const Frame frame = config.frame;
  const ForwardSnapshot& f = s.forward;
  const ForwardDefaults& d = config.forward;
  const size_t k = f.size();
  ForwardResults& fr = out->forward;
  VisitForwardResultColumns(fr, [k](const char*, auto& column) { column.resize(k); });
  stats->forward_agents = k;
  if (k == 0) return;

  ForwardSceneAgents& a = w.forward_agents;
  a.Resize(k);
  for (size_t i = 0; i < k; ++i) {
    a.position[i] = frame.ToInternal({f.x[i], f.y[i], Or(f.z, i, 0.f)});
    Vec3 heading = frame.ToInternal({f.forward_x[i], f.forward_y[i], Or(f.forward_z, i, 0.f)});
    if (d.mode == FanMode::kGround) heading.z = 0.f;  // a ground fan keeps its height
    a.forward[i] = Normalize(heading);
    a.has_goal[i] = f.has_goals() ? 1 : 0;
    a.goal[i] =
        f.has_goals() ? frame.ToInternal({f.goal_x[i], f.goal_y[i], Or(f.goal_z, i, 0.f)}) : Vec3{};
    a.radius[i] = Or(f.radius, i, d.radius);
    a.probes[i] = f.probes.empty() ? d.probes : static_cast<int32_t>(f.probes[i]);
    a.fov[i] = Or(f.half_angle, i, d.half_angle);
    a.probe_length[i] = Or(f.probe_length, i, d.probe_length);
    a.turn_speed[i] = Or(f.turn_speed, i, d.turn_speed);
    a.step[i] = f.speed[i] * s.dt;
  }

  // Everyone else as bodies: pedestrians upright, vehicles as boxes, forward agents as
  // spheres (each skips its own).
  FanBodies& b = w.fan_bodies;
  b = FanBodies{};
  const size_t n = s.agents.size();
  const AgentColumns& oa = w.orca_agents;
  for (size_t i = 0; i < n; ++i) {
    const float r = oa.radius[i];
    const float z = w.z[i];
    b.capsule_p.push_back({oa.px[i], oa.py[i], z + r});
    b.capsule_q.push_back({oa.px[i], oa.py[i], z + std::max(kPedestrianHeight - r, r)});
    b.capsule_radius.push_back(r);
    b.capsule_owner.push_back(-1);
  }
  for (size_t i = 0; i < k; ++i) {
    b.capsule_p.push_back(a.position[i]);
    b.capsule_q.push_back(a.position[i]);
    b.capsule_radius.push_back(a.radius[i]);
    b.capsule_owner.push_back(static_cast<int32_t>(i));
  }
  for (size_t i = 0; i < w.bodies.size(); ++i) {
    const VehicleBody& body = w.bodies[i];
    const Vec2 c = body.centre();
    const float half_height = 0.5f * kVehicleBodyHeight;
    b.box_center.push_back({c.x, c.y, w.vehicles.pz[i] + half_height});
    b.box_half.push_back({0.5f * body.length, 0.5f * body.width, half_height});
    b.box_yaw.push_back(std::atan2(body.heading.y, body.heading.x));
  }

  ForwardSceneResults& r = w.fan_results;
  w.backend->SteerForwardScene(d.mode, s.dt, a, b, stop, &r);
  for (size_t i = 0; i < k; ++i) {
    const Vec3 m = frame.ToExternal(r.move[i]);
    fr.move_x[i] = m.x;
    fr.move_y[i] = m.y;
    fr.move_z[i] = m.z;
    fr.probe[i] = static_cast<uint16_t>(r.probe[i]);
    fr.hit_distance[i] = r.hit_distance[i];
    fr.all_blocked[i] = r.all_blocked[i];
    stats->forward_blocked += r.all_blocked[i];
    stats->forward_in_obstacles += r.overlapping[i];
  }
}

void IntegrateForward(const WorldConfig& config, const Snapshot& s, const World::Internals& w,
                      Snapshot* next) {
  const ForwardSnapshot& f = s.forward;
  ForwardSnapshot& to = next->forward;
  const size_t k = f.size();
  if (k == 0) return;
  if (to.z.empty()) to.z.assign(k, 0.f);
  if (to.forward_z.empty()) to.forward_z.assign(k, 0.f);
  w.backend->MoveForwardAgents(
      {config.frame, s.dt},
      {w.forward_agents.position.data(), w.fan_results.move.data(), f.speed.data(), k},
      {to.x.data(), to.y.data(), to.z.data(), to.forward_x.data(), to.forward_y.data(),
       to.forward_z.data()});
}

}  // namespace throng
