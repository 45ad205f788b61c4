#include "kernels/scenarios/scenario_layout.h"

#include <algorithm>
#include <cmath>

namespace throng::scenarios::layout {

WorldConfig PedestrianConfig() {
  WorldConfig c;
  c.orca.time_step = kPedestrianDt;
  // Two seconds of look-ahead: long enough to start a detour at walking pace, short
  // enough not to freeze a dense crowd (a long horizon over-constrains, docs/ALGORITHMS.md §5).
  c.orca.time_horizon = 2.f;
  // Walls only matter when close: a second of travel (1.4 m) plus the radius.
  c.orca.time_horizon_obst = 1.f;
  // The conservative query radius is 0.4 + 2.8 * 2 = 6.0 m; in a waiting group the ten
  // nearest stand within 3.5 m, so the cap only saves candidate checks there.
  c.orca.neighbor_dist = 5.f;
  c.orca.max_neighbors = 10;
  SetPedestrianRadius(&c, kPedestrianRadius);
  c.agent_defaults.max_speed = kPedestrianSpeed;
  return c;
}

void SetPedestrianRadius(WorldConfig* c, float radius) {
  c->agent_defaults.radius = radius;
  c->navigation.clearance = radius;
}

Scenario PedestrianScenario(std::string_view name, size_t size, uint32_t seed) {
  Scenario s;
  s.name = std::string(name);
  s.size = size;
  s.seed = seed;
  s.config = PedestrianConfig();
  s.initial.dt = kPedestrianDt;
  return s;
}

int ColumnsFor(size_t count, int rows) {
  return std::max(
      1, static_cast<int>((count + static_cast<size_t>(rows) - 1) / static_cast<size_t>(rows)));
}

void AddPedestrian(AgentSnapshot& a, Vec2 position, Vec2 goal) {
  a.id.push_back(static_cast<uint32_t>(a.id.size()));
  a.x.push_back(position.x);
  a.y.push_back(position.y);
  a.goal_x.push_back(goal.x);
  a.goal_y.push_back(goal.y);
}

Vec2 Jitter(ScenarioRng& rng, float amount) {
  const float x = rng.Uniform(-amount, amount);
  const float y = rng.Uniform(-amount, amount);
  return {x, y};
}

std::vector<Vec3> Box(Vec2 lo, Vec2 hi) {
  return {{lo.x, lo.y, 0.f}, {hi.x, lo.y, 0.f}, {hi.x, hi.y, 0.f}, {lo.x, hi.y, 0.f}};
}

std::vector<Vec3> Wall(Vec2 a, Vec2 b) { return {{a.x, a.y, 0.f}, {b.x, b.y, 0.f}}; }

int WalkTicks(float distance, float speed, float dt) {
  return static_cast<int>(std::ceil(2.f * distance / (speed * dt))) + 100;
}

void AddSwappingGroup(AgentSnapshot& agents, size_t count, Vec2 out, float near, int rows, int cols,
                      ScenarioRng& rng) {
  const Vec2 lateral{-out.y, out.x};
  const float centre_row = 0.5f * static_cast<float>(rows - 1);
  for (size_t i = 0; i < count; ++i) {
    const int c = static_cast<int>(i / static_cast<size_t>(rows));
    const float side =
        (static_cast<float>(i % static_cast<size_t>(rows)) - centre_row) * kLatticeSpacing;
    const Vec2 start = out * (near + static_cast<float>(c) * kLatticeSpacing) + lateral * side;
    const Vec2 goal =
        out * -(near + static_cast<float>(cols - 1 - c) * kLatticeSpacing) + lateral * side;
    // Draw in a fixed order (start, then goal) so the scene depends on the seed alone.
    const Vec2 start_jitter = Jitter(rng, kJitter);
    const Vec2 goal_jitter = Jitter(rng, kJitter);
    AddPedestrian(agents, start + start_jitter, goal + goal_jitter);
  }
}

}  // namespace throng::scenarios::layout
