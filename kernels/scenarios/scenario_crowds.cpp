// "circle", "random" and "blocks": the RVO2 crowds of crowd.h and blocks.h as world
// scenarios.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "kernels/scenarios/blocks.h"
#include "kernels/scenarios/crowd.h"
#include "kernels/scenarios/scenario_layout.h"
#include "kernels/scenarios/spread_points.h"

namespace throng::scenarios::detail {
namespace {

constexpr float kBenchmarkRadius = 1.5f;  // RVO2 benchmark agent, m
constexpr float kBenchmarkSpeed = 2.f;    // m/s
constexpr float kRandomDensity = 0.05f;   // agents per m^2, as crowd.h's Random
constexpr int kBlocksSuggestedTicks = 5000;

// RVO2's agents head for their goal at full speed and land on it in the last step. The
// world's arrive behaviour desires the same velocity when the slowing radius is one step of
// travel (speed = max_speed * distance / (max_speed * dt) = distance / dt inside it) and the
// acceleration limit never binds. Its preferred velocity is not that desire but one step of
// docs/ALGORITHMS.md §3's unit-mass steering toward it, v + dt (desired - v): a quarter of
// the way at dt 0.25 s, where RVO2 hands ORCA the desire itself (docs/PERFORMANCE.md,
// "The preferred velocity's lag").
WorldConfig BenchmarkConfig() {
  WorldConfig c;
  c.orca = Rvo2BenchmarkParams();
  c.agent_defaults.radius = kBenchmarkRadius;
  c.agent_defaults.max_speed = kBenchmarkSpeed;
  c.agent_defaults.max_accel = 1e3f;
  c.agent_defaults.slowing_radius = kBenchmarkSpeed * c.orca.time_step;
  return c;
}

Scenario BenchmarkScenario(const char* name, size_t size, uint32_t seed) {
  Scenario s;
  s.name = name;
  s.size = size;
  s.seed = seed;
  s.config = BenchmarkConfig();
  s.initial.dt = s.config.orca.time_step;
  return s;
}

// crowd.h's SpreadPoints with portable draws. At 0.05 agents per m^2 the discs cover
// 35% of the square, well below the 55% at which random dart throwing jams.
std::vector<Vec2> SpreadPoints(size_t n, float side, float min_dist, ScenarioRng& rng) {
  std::vector<Vec2> pts =
      scenarios::SpreadPoints(n, min_dist, [&] { return rng.Uniform(0.f, side); });
  if (pts.size() < n) throw std::logic_error("random scenario: square too full");
  return pts;
}

// Where RVO2's layout puts agent i, moved by up to kRvo2SceneNudge on each axis unless the
// seed is kRvo2ExactSeed (scenario.h).
Vec2 Rvo2Start(const CrowdScenario& crowd, size_t i, uint32_t seed, ScenarioRng& rng) {
  const Vec2 exact{crowd.scene.agents.px[i], crowd.scene.agents.py[i]};
  return seed == kRvo2ExactSeed ? exact : exact + layout::Jitter(rng, kRvo2SceneNudge);
}

}  // namespace

Scenario MakeCircle(size_t size, uint32_t seed) {
  // The RVO2 benchmark's circle; a seed other than kRvo2ExactSeed nudges the starts.
  Scenario s = BenchmarkScenario("circle", size, seed);
  const CrowdScenario crowd = Circle(size);
  ScenarioRng rng(seed);
  for (size_t i = 0; i < crowd.goals.size(); ++i) {
    layout::AddPedestrian(s.initial.agents, Rvo2Start(crowd, i, seed, rng), crowd.goals[i]);
  }
  const float radius = std::max(200.f, 0.8f * static_cast<float>(size));  // crowd.h's Circle
  // The free walk is 2 r / (2 m/s * 0.25 s) ticks; the world brings all 1,000 of the
  // 1,000 circle home within 1.35 times that (measured, cpu backend).
  s.suggested_ticks =
      static_cast<int>(std::ceil(1.35f * 2.f * radius / (kBenchmarkSpeed * s.initial.dt)));
  return s;
}

Scenario MakeRandom(size_t size, uint32_t seed) {
  Scenario s = BenchmarkScenario("random", size, seed);
  ScenarioRng rng(seed);
  const float side = std::sqrt(static_cast<float>(size) / kRandomDensity);
  const std::vector<Vec2> starts = SpreadPoints(size, side, 2.f * kBenchmarkRadius, rng);
  const std::vector<Vec2> goals = SpreadPoints(size, side, 2.f * kBenchmarkRadius, rng);
  for (size_t i = 0; i < size; ++i) layout::AddPedestrian(s.initial.agents, starts[i], goals[i]);
  // The longest walk is the square's diagonal.
  s.suggested_ticks =
      static_cast<int>(std::ceil(1.25f * std::sqrt(2.f) * side / (kBenchmarkSpeed * s.initial.dt)));
  return s;
}

Scenario MakeBlocks(size_t size, uint32_t seed) {
  // RVO2's Blocks; a seed other than kRvo2ExactSeed nudges the starts, as in "circle".
  // ceil(size / 100) tiles on a grid as square as they fill (10 x 10 at 10,000), the last
  // one holding what is left of `size` in Blocks.cc's order (which takes the four groups
  // in turn).
  Scenario s = BenchmarkScenario("blocks", size, seed);
  const size_t tiles = (size + kBlocksTileAgents - 1) / kBlocksTileAgents;
  const auto tiles_x = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(tiles))));
  const size_t tiles_y = (tiles + tiles_x - 1) / tiles_x;
  const CrowdScenario crowd = Blocks(tiles_x, tiles_y);
  s.config.orca = crowd.scene.params;
  s.config.agent_defaults.radius = crowd.scene.agents.radius[0];
  s.config.agent_defaults.max_speed = crowd.scene.agents.max_speed[0];
  s.config.agent_defaults.slowing_radius = s.config.agent_defaults.max_speed * s.initial.dt;
  const std::vector<Vec2> goals = BlocksMirroredGoals(crowd);
  ScenarioRng rng(seed);
  for (size_t i = 0; i < size; ++i) {
    layout::AddPedestrian(s.initial.agents, Rvo2Start(crowd, i, seed, rng), goals[i]);
  }
  // The blocks of the tiles that have agents (polygons are in tile order, four a tile).
  for (size_t k = 0; k < kBlocksTilePolygons * tiles; ++k) {
    std::vector<Vec3>& ring = s.config.obstacles.emplace_back();
    for (Vec2 v : crowd.scene.obstacles[k].vertices) ring.push_back({v.x, v.y, 0.f});
  }
  // RVO2 and plain ORCA bring a tile home by about tick 3,900 (issue 41); the free walk
  // is about 400.
  s.suggested_ticks = kBlocksSuggestedTicks;
  return s;
}

}  // namespace throng::scenarios::detail
