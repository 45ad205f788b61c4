// "flock" and "drones": forward-moving agents (docs/ALGORITHMS.md §4) as world scenarios. A
// flock crosses scattered walls and blocks in the ground plane; drones fly a 3D cone
// through a field of pillars (prisms) and floating spheres toward goals on the far side.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kernels/scenarios/scenario_layout.h"
#include "kernels/scenarios/spread_points.h"

namespace throng::scenarios::detail {
namespace {

constexpr float kForwardDt = 0.1f;  // s

// The ground square holding `n` agents at `density` per m^2, at least `min_side` m wide.
float SideFor(size_t n, float density, float min_side) {
  return std::max(min_side, std::sqrt(static_cast<float>(n) / density));
}

Scenario ForwardScenario(const char* name, size_t size, uint32_t seed) {
  Scenario s;
  s.name = name;
  s.size = size;
  s.seed = seed;
  s.config.orca.time_step = kForwardDt;
  s.initial.dt = kForwardDt;
  return s;
}

// Is p (grown by `margin`) clear of every box?
bool Clear(Vec2 p, float margin, const std::vector<Vec2>& lo, const std::vector<Vec2>& hi) {
  for (size_t k = 0; k < lo.size(); ++k) {
    if (p.x > lo[k].x - margin && p.x < hi[k].x + margin && p.y > lo[k].y - margin &&
        p.y < hi[k].y + margin) {
      return false;
    }
  }
  return true;
}

void AddForward(ForwardSnapshot& f, Vec3 p, Vec3 heading, float speed) {
  f.id.push_back(static_cast<uint32_t>(f.id.size()));
  f.x.push_back(p.x);
  f.y.push_back(p.y);
  f.z.push_back(p.z);
  f.forward_x.push_back(heading.x);
  f.forward_y.push_back(heading.y);
  f.forward_z.push_back(heading.z);
  f.speed.push_back(speed);
}

}  // namespace

Scenario MakeFlock(size_t size, uint32_t seed) {
  Scenario s = ForwardScenario("flock", size, seed);
  ScenarioRng rng(seed);
  WorldConfig& c = s.config;
  c.forward.mode = FanMode::kGround;
  c.forward.probes = 9;
  c.forward.probe_length = 8.f;
  c.forward.radius = 0.4f;
  // 0.02 birds per m^2; one obstacle per 50 birds, 2 to 8 m blocks and 5 to 15 m walls.
  const float side = SideFor(size, 0.02f, 40.f);
  const size_t obstacles = std::max<size_t>(8, size / 50);
  std::vector<Vec2> lo, hi;
  for (size_t k = 0; k < obstacles; ++k) {
    const Vec2 at{rng.Uniform(0.f, side), rng.Uniform(0.f, side)};
    if (rng.Coin()) {
      const Vec2 half{rng.Uniform(1.f, 4.f), rng.Uniform(1.f, 4.f)};
      c.obstacles.push_back(layout::Box(at - half, at + half));
      lo.push_back(at - half);
      hi.push_back(at + half);
    } else {
      const float angle = rng.Uniform(0.f, 6.2831853f), half = rng.Uniform(2.5f, 7.5f);
      const Vec2 d{std::cos(angle) * half, std::sin(angle) * half};
      c.obstacles.push_back(layout::Wall(at - d, at + d));
      lo.push_back({std::min(-d.x, d.x) + at.x, std::min(-d.y, d.y) + at.y});
      hi.push_back({std::max(-d.x, d.x) + at.x, std::max(-d.y, d.y) + at.y});
    }
  }
  // Birds 2 m apart, clear of the obstacles by 1 m, heading anywhere at 2 to 4 m/s.
  const std::vector<Vec2> spots =
      SpreadPoints(size * 2, 2.f, [&] { return rng.Uniform(0.f, side); });
  for (const Vec2 p : spots) {
    if (s.initial.forward.size() == size) break;
    if (!Clear(p, 1.f, lo, hi)) continue;
    const float heading = rng.Uniform(0.f, 6.2831853f);
    AddForward(s.initial.forward, {p.x, p.y, 0.f}, {std::cos(heading), std::sin(heading), 0.f},
               rng.Uniform(2.f, 4.f));
  }
  if (s.initial.forward.size() < size) throw std::logic_error("flock scenario: square too full");
  s.suggested_ticks = 300;
  return s;
}

Scenario MakeDrones(size_t size, uint32_t seed) {
  Scenario s = ForwardScenario("drones", size, seed);
  ScenarioRng rng(seed);
  WorldConfig& c = s.config;
  c.forward.mode = FanMode::kCone;
  c.forward.probes = 24;
  c.forward.half_angle = 1.f;
  c.forward.probe_length = 12.f;
  c.forward.turn_speed = 2.5f;
  c.forward.radius = 0.5f;
  // 0.01 drones per m^2 of ground, flying between 3 and 35 m; in the middle half of the
  // field one pillar per 40 drones (2 to 6 m square, 10 to 40 m tall) and one sphere per
  // 80 (radius 1.5 to 5 m, centres 5 to 35 m up).
  const float side = SideFor(size, 0.01f, 80.f);
  const size_t pillars = std::max<size_t>(10, size / 40);
  for (size_t k = 0; k < pillars; ++k) {
    const Vec2 at{rng.Uniform(0.25f * side, 0.75f * side), rng.Uniform(0.f, side)};
    const float half = rng.Uniform(1.f, 3.f);
    c.obstacles.push_back(layout::Box(at - Vec2{half, half}, at + Vec2{half, half}));
    c.obstacle_heights.push_back({true, 0.f, rng.Uniform(10.f, 40.f)});
  }
  // The ground: a slab under the whole field (forward agents meet nothing else below).
  c.obstacles.push_back(layout::Box({-side, -side}, {2.f * side, 2.f * side}));
  c.obstacle_heights.push_back({true, -1.f, 0.f});
  const size_t spheres = std::max<size_t>(5, size / 80);
  for (size_t k = 0; k < spheres; ++k) {
    const Vec3 at{rng.Uniform(0.25f * side, 0.75f * side), rng.Uniform(0.f, side),
                  rng.Uniform(5.f, 35.f)};
    c.spheres.push_back({at, rng.Uniform(1.5f, 5.f)});
  }
  // Drones start on a jittered lattice in the western fifth (no pillar or sphere there)
  // and fly to a goal in the eastern fifth: every one crosses the field.
  ForwardSnapshot& f = s.initial.forward;
  const float west = 0.2f * side, low = 3.f, high = 35.f;
  float pitch = std::cbrt(west * side * (high - low) / static_cast<float>(size));
  auto count = [&](float extent) { return std::max(1, static_cast<int>(extent / pitch)); };
  while (static_cast<size_t>(count(west)) * count(side) * count(high - low) < size) pitch *= 0.95f;
  const int nx = count(west), ny = count(side), nz = count(high - low);
  const float jitter = 0.2f * pitch;
  for (int k = 0; k < nz && f.size() < size; ++k) {
    for (int j = 0; j < ny && f.size() < size; ++j) {
      for (int i = 0; i < nx && f.size() < size; ++i) {
        const Vec3 p{(i + 0.5f) * west / nx + rng.Uniform(-jitter, jitter),
                     (j + 0.5f) * side / ny + rng.Uniform(-jitter, jitter),
                     low + (k + 0.5f) * (high - low) / nz};
        const Vec3 goal{rng.Uniform(0.8f, 1.f) * side, rng.Uniform(0.f, side),
                        rng.Uniform(low, high)};
        AddForward(f, p, Normalize(goal - p), rng.Uniform(3.f, 6.f));
        f.goal_x.push_back(goal.x);
        f.goal_y.push_back(goal.y);
        f.goal_z.push_back(goal.z);
      }
    }
  }
  if (f.size() < size) throw std::logic_error("drones scenario: field too full");
  s.suggested_ticks = static_cast<int>(std::ceil(side / 3.f / kForwardDt)) + 100;
  return s;
}

}  // namespace throng::scenarios::detail
