#include "tests/service/fuzz/base_worlds.h"

#include <cmath>

namespace throng::fuzz {
namespace {

constexpr float kPi = 3.14159265f;

float Uniform(std::mt19937_64& rng, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(rng);
}
int UniformInt(std::mt19937_64& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}
bool Coin(std::mt19937_64& rng, double p = 0.5) { return std::bernoulli_distribution(p)(rng); }

void SetPoint(v1::Point3* p, float x, float y, float z = 0.f) {
  p->set_x(x);
  p->set_y(y);
  p->set_z(z);
}

// 1..3 lanes of 3..6 control points across the scene, ids spread out so that a near miss
// of a mutated id is unknown.
void AddLanes(v1::WorldConfig& c, std::mt19937_64& rng) {
  const int lanes = UniformInt(rng, 1, 3);
  for (int l = 0; l < lanes; ++l) {
    auto* s = c.add_splines();
    s->set_id(static_cast<uint32_t>(7 + 10 * l));
    const int points = UniformInt(rng, 3, 6);
    const float y0 = -40.f + 40.f * static_cast<float>(l);
    for (int k = 0; k < points; ++k) {
      const float x = -60.f + 120.f * static_cast<float>(k) / static_cast<float>(points - 1);
      SetPoint(s->add_points(), x, y0 + Uniform(rng, -5.f, 5.f));
    }
    s->set_closed(Coin(rng, 0.2));
    if (Coin(rng)) s->set_speed_limit(Uniform(rng, 5.f, 15.f));
  }
}

// 1..3 small polygons (triangles to hexagons, and sometimes a two-vertex wall) near the
// centre, inside the pedestrians' ring.
void AddObstacles(v1::WorldConfig& c, std::mt19937_64& rng) {
  const int count = UniformInt(rng, 1, 3);
  for (int o = 0; o < count; ++o) {
    auto* ob = c.add_obstacles();
    const float cx = Uniform(rng, -3.f, 3.f), cy = Uniform(rng, -3.f, 3.f);
    const float r = Uniform(rng, 0.5f, 1.5f);
    const int vertices = Coin(rng, 0.15) ? 2 : UniformInt(rng, 3, 6);
    for (int k = 0; k < vertices; ++k) {
      const float a = 2.f * kPi * static_cast<float>(k) / static_cast<float>(vertices);
      SetPoint(ob->add_vertices(), cx + r * std::cos(a), cy + r * std::sin(a));
    }
  }
}

// A point on a lane's polyline and its heading: where a vehicle is put.
void OnLane(const v1::Spline& s, std::mt19937_64& rng, float* x, float* y, float* yaw) {
  const int k = UniformInt(rng, 0, s.points_size() - 2);
  const auto &a = s.points(k), &b = s.points(k + 1);
  const float t = Uniform(rng, 0.f, 1.f);
  *x = a.x() + t * (b.x() - a.x()) + Uniform(rng, -0.5f, 0.5f);
  *y = a.y() + t * (b.y() - a.y()) + Uniform(rng, -0.5f, 0.5f);
  *yaw = std::atan2(b.y() - a.y(), b.x() - a.x()) + Uniform(rng, -0.1f, 0.1f);
}

}  // namespace

BaseScene MakeBaseScene(WorldKind kind, std::mt19937_64& rng) {
  BaseScene s;
  s.kind = kind;
  v1::WorldConfig& c = s.config;
  c.set_name("fuzz");
  if (kind != WorldKind::kObstacles) AddLanes(c, rng);
  if (kind != WorldKind::kLanes) AddObstacles(c, rng);
  c.mutable_orca()->set_time_horizon(Uniform(rng, 2.f, 8.f));
  c.mutable_orca()->set_max_neighbors(static_cast<uint32_t>(UniformInt(rng, 5, 16)));
  c.mutable_follower()->set_look_ahead_base(Uniform(rng, 1.5f, 3.f));
  c.mutable_defaults()->set_agent_radius(Uniform(rng, 0.25f, 0.35f));
  c.mutable_defaults()->set_agent_max_speed(Uniform(rng, 1.f, 2.f));
  c.mutable_defaults()->set_vehicle_max_speed(Uniform(rng, 10.f, 15.f));
  if (Coin(rng, 0.3)) c.set_audit_every(5);
  if (Coin(rng, 0.3)) c.add_vehicle_profiles()->set_max_lateral_accel(Uniform(rng, 1.f, 3.f));
  // Forward agents' settings and shapes, so that their sub-messages are there to mutate.
  if (Coin(rng, 0.4)) {
    c.mutable_forward()->set_mode(Coin(rng) ? v1::FAN_MODE_CONE : v1::FAN_MODE_GROUND);
    c.mutable_forward()->set_probes(static_cast<uint32_t>(UniformInt(rng, 1, 24)));
    auto* sphere = c.add_spheres();
    sphere->mutable_center()->set_x(Uniform(rng, -20.f, 20.f));
    sphere->mutable_center()->set_y(Uniform(rng, -20.f, 20.f));
    sphere->mutable_center()->set_z(Uniform(rng, 0.f, 5.f));
    sphere->set_radius(Uniform(rng, 0.5f, 3.f));
    if (c.obstacles_size() > 0) {
      c.mutable_obstacles(0)->set_base(0.f);
      c.mutable_obstacles(0)->set_top(Uniform(rng, 1.f, 10.f));
    }
  }
  s.forward = Coin(rng, 0.5) ? UniformInt(rng, 1, 12) : 0;

  const int n = UniformInt(rng, 5, 50);
  const float ring = std::max(6.f, 0.4f * static_cast<float>(n));
  for (int i = 0; i < n; ++i) {
    const float a = 2.f * kPi * static_cast<float>(i) / static_cast<float>(n);
    s.x.push_back(ring * std::cos(a) + Uniform(rng, -0.2f, 0.2f));
    s.y.push_back(ring * std::sin(a) + Uniform(rng, -0.2f, 0.2f));
    s.goal_x.push_back(-s.x.back());
    s.goal_y.push_back(-s.y.back());
  }
  s.vehicles = c.splines_size() > 0 ? UniformInt(rng, 0, 5) : 0;
  return s;
}

namespace {

void FillAgents(const BaseScene& s, std::mt19937_64& rng, v1::AgentBatch* a) {
  const int n = static_cast<int>(s.x.size());
  const bool goals = Coin(rng, 0.6), prefs = !goals || Coin(rng, 0.3);
  const bool z = Coin(rng, 0.3), vel = Coin(rng), vz = Coin(rng, 0.2), radius = Coin(rng);
  const bool max_speed = Coin(rng), flags = Coin(rng, 0.4), goal_z = goals && Coin(rng, 0.2);
  const bool pref_vz = prefs && Coin(rng, 0.2), behavior = Coin(rng, 0.4);
  for (int i = 0; i < n; ++i) {
    a->add_id(static_cast<uint32_t>(100 + 3 * i));  // fixed ids: state carries across ticks
    a->add_x(s.x[i] + Uniform(rng, -0.1f, 0.1f));
    a->add_y(s.y[i] + Uniform(rng, -0.1f, 0.1f));
    if (z) a->add_z(Uniform(rng, 0.f, 1.f));
    if (vel) {
      a->add_vx(Uniform(rng, -1.f, 1.f));
      a->add_vy(Uniform(rng, -1.f, 1.f));
    }
    if (vz) a->add_vz(Uniform(rng, -0.1f, 0.1f));
    if (radius) a->add_radius(Uniform(rng, 0.2f, 0.5f));
    if (max_speed) a->add_max_speed(Uniform(rng, 0.5f, 2.5f));
    if (goals) {
      a->add_goal_x(s.goal_x[i]);
      a->add_goal_y(s.goal_y[i]);
      if (goal_z) a->add_goal_z(0.f);
    }
    if (prefs) {
      const float angle = std::atan2(s.goal_y[i] - s.y[i], s.goal_x[i] - s.x[i]);
      a->add_pref_vx(std::cos(angle));
      a->add_pref_vy(std::sin(angle));
      if (pref_vz) a->add_pref_vz(0.f);
    }
    // Mostly cooperative; some players, some preferring their pref_v over their goal.
    const uint32_t flag = Coin(rng, 0.1) ? 1u : (Coin(rng, 0.2) ? 2u : 0u);
    if (flags) a->add_flags(flag);
    // Any behaviour with goals (but never arrive, seek or flee against the "uses preferred
    // velocity" flag); without them only those that need none.
    if (behavior) {
      const bool goal_free = !goals || (flags && flag == 2u);
      a->add_behavior(goal_free ? (Coin(rng) ? 0u : 4u)
                                : static_cast<uint32_t>(UniformInt(rng, 0, 4)));
    }
  }
}

void FillVehicles(const BaseScene& s, std::mt19937_64& rng, v1::VehicleBatch* v) {
  const bool z = Coin(rng, 0.3), hint = Coin(rng, 0.4), size = Coin(rng), max_speed = Coin(rng);
  const bool profiles = Coin(rng, 0.4);
  for (int i = 0; i < s.vehicles; ++i) {
    const auto& lane = s.config.splines(i % s.config.splines_size());
    float x, y, yaw;
    OnLane(lane, rng, &x, &y, &yaw);
    v->add_id(static_cast<uint32_t>(i + 1));
    v->add_x(x);
    v->add_y(y);
    v->add_yaw(yaw);
    v->add_speed(Uniform(rng, 0.f, 10.f));
    v->add_spline_id(lane.id());
    if (z) v->add_z(0.f);
    if (hint) v->add_progress_hint(Uniform(rng, 0.f, 20.f));
    if (size) {
      v->add_length(Uniform(rng, 4.f, 5.f));
      v->add_width(Uniform(rng, 1.7f, 2.f));
    }
    if (max_speed) v->add_max_speed(Uniform(rng, 8.f, 15.f));
    if (profiles)
      v->add_profile(static_cast<uint32_t>(UniformInt(rng, 0, s.config.vehicle_profiles_size())));
  }
}

void FillForward(const BaseScene& s, std::mt19937_64& rng, v1::ForwardBatch* f) {
  const bool z = Coin(rng, 0.6), radius = Coin(rng, 0.3), goals = Coin(rng, 0.4);
  const bool probes = Coin(rng, 0.2);
  for (int i = 0; i < s.forward; ++i) {
    f->add_id(static_cast<uint32_t>(500 + i));
    f->add_x(Uniform(rng, -30.f, 30.f));
    f->add_y(Uniform(rng, -30.f, 30.f));
    if (z) f->add_z(Uniform(rng, 0.5f, 8.f));
    const float heading = Uniform(rng, 0.f, 2.f * kPi);
    f->add_forward_x(std::cos(heading));
    f->add_forward_y(std::sin(heading));
    f->add_speed(Uniform(rng, 0.5f, 5.f));
    if (radius) f->add_radius(Uniform(rng, 0.2f, 1.f));
    if (goals) {
      f->add_goal_x(Uniform(rng, -30.f, 30.f));
      f->add_goal_y(Uniform(rng, -30.f, 30.f));
    }
    if (probes) f->add_probes(static_cast<uint32_t>(UniformInt(rng, 1, 64)));
  }
}

}  // namespace

v1::StepRequest MakeBaseStep(const BaseScene& scene, const std::string& world_id, uint64_t tick,
                             std::mt19937_64& rng) {
  v1::StepRequest r;
  r.set_world_id(world_id);
  r.set_tick(tick);
  r.set_dt(Coin(rng) ? 0.1f : Uniform(rng, 0.01f, 0.5f));
  FillAgents(scene, rng, r.mutable_agents());
  FillVehicles(scene, rng, r.mutable_vehicles());
  FillForward(scene, rng, r.mutable_forward());
  r.mutable_options()->set_integrate(Coin(rng));
  r.mutable_options()->set_debug(Coin(rng, 0.2));
  return r;
}

v1::SolveRequest MakeBaseSolve(const BaseScene& scene, std::mt19937_64& rng) {
  const v1::StepRequest step = MakeBaseStep(scene, "", 1 + rng() % 1000, rng);
  v1::SolveRequest r;
  *r.mutable_config() = scene.config;
  r.mutable_config()->set_backend(v1::BACKEND_CPU);
  r.set_tick(step.tick());
  r.set_dt(step.dt());
  *r.mutable_agents() = step.agents();
  *r.mutable_vehicles() = step.vehicles();
  *r.mutable_forward() = step.forward();
  *r.mutable_options() = step.options();
  return r;
}

}  // namespace throng::fuzz
