#include "kernels/scenarios/crowd.h"
#include "kernels/scenarios/spread_points.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <unordered_map>

namespace throng::scenarios {
namespace {

constexpr float kRadius = 1.5f;
constexpr float kMaxSpeed = 2.f;

void AddAgent(AgentColumns& a, uint32_t id, Vec2 p) {
  a.id.push_back(id);
  a.px.push_back(p.x);
  a.py.push_back(p.y);
  a.vx.push_back(0.f);
  a.vy.push_back(0.f);
  a.radius.push_back(kRadius);
  a.max_speed.push_back(kMaxSpeed);
  a.pref_vx.push_back(0.f);
  a.pref_vy.push_back(0.f);
  a.flags.push_back(0);
}

// Uniform points in a square, at least min_dist apart.
std::vector<Vec2> SpreadPoints(size_t n, float side, float min_dist, std::mt19937& rng) {
  std::uniform_real_distribution<float> coord(0.f, side);
  return scenarios::SpreadPoints(n, min_dist, [&] { return coord(rng); });
}

}  // namespace

OrcaParams Rvo2BenchmarkParams() {
  OrcaParams p;
  p.time_step = 0.25f;
  p.neighbor_dist = 15.f;
  p.max_neighbors = 10;
  p.time_horizon = 10.f;
  p.time_horizon_obst = 10.f;
  return p;
}

CrowdScenario Circle(size_t n) {
  CrowdScenario s;
  s.name = "circle";
  s.scene.params = Rvo2BenchmarkParams();
  const float r = std::max(200.f, 0.8f * static_cast<float>(n));
  s.scene.agents.Reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const double a = 2.0 * 3.14159265358979323846 * static_cast<double>(i) / static_cast<double>(n);
    const Vec2 p{static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))};
    AddAgent(s.scene.agents, static_cast<uint32_t>(i), p);
    s.goals.push_back(-p);
  }
  UpdatePreferredVelocities(s);
  return s;
}

CrowdScenario Random(size_t n, uint32_t seed, float density) {
  CrowdScenario s;
  s.name = "random";
  s.scene.params = Rvo2BenchmarkParams();
  const float side = std::sqrt(static_cast<float>(n) / density);
  std::mt19937 rng(seed);
  const std::vector<Vec2> starts = SpreadPoints(n, side, 2.f * kRadius, rng);
  const std::vector<Vec2> goals = SpreadPoints(starts.size(), side, 2.f * kRadius, rng);
  const size_t count = std::min(starts.size(), goals.size());
  s.scene.agents.Reserve(count);
  for (size_t i = 0; i < count; ++i) {
    AddAgent(s.scene.agents, static_cast<uint32_t>(i), starts[i]);
    s.goals.push_back(goals[i]);
  }
  UpdatePreferredVelocities(s);
  return s;
}

void UpdatePreferredVelocities(CrowdScenario& s) {
  AgentColumns& a = s.scene.agents;
  const float dt = s.scene.params.time_step;
  for (size_t i = 0; i < a.size(); ++i) {
    const Vec2 to_goal = s.goals[i] - Vec2{a.px[i], a.py[i]};
    const float dist = Length(to_goal);
    const Vec2 v = dist < a.max_speed[i] * dt ? to_goal / dt : to_goal * (a.max_speed[i] / dist);
    a.pref_vx[i] = dist > 0.f ? v.x : 0.f;
    a.pref_vy[i] = dist > 0.f ? v.y : 0.f;
  }
}

void ApplyVelocities(AgentColumns& a, const OrcaResult& r, float time_step) {
  for (size_t i = 0; i < a.size(); ++i) {
    a.vx[i] = r.vx[i];
    a.vy[i] = r.vy[i];
    a.px[i] += r.vx[i] * time_step;
    a.py[i] += r.vy[i] * time_step;
  }
}

size_t AgentsAtGoal(const CrowdScenario& s, float tolerance) {
  size_t at = 0;
  for (size_t i = 0; i < s.goals.size(); ++i) {
    at += Length(s.goals[i] - Vec2{s.scene.agents.px[i], s.scene.agents.py[i]}) <= tolerance;
  }
  return at;
}

OverlapStats MeasureOverlaps(const AgentColumns& a, float tolerance) {
  OverlapStats stats;
  const size_t n = a.size();
  if (n < 2) return stats;
  // Sort agents by cell (cells as wide as the largest radii sum), then compare each agent
  // with the agents of its 3x3 cells, found by binary search.
  const float cell = 2.f * *std::max_element(a.radius.begin(), a.radius.end());
  std::vector<std::pair<int64_t, uint32_t>> order(n);
  auto cell_of = [&](float v) { return static_cast<int64_t>(std::floor(v / cell)); };
  for (uint32_t i = 0; i < n; ++i) order[i] = {CellKey(cell_of(a.px[i]), cell_of(a.py[i])), i};
  std::sort(order.begin(), order.end());
  for (uint32_t i = 0; i < n; ++i) {
    const int64_t cx = cell_of(a.px[i]), cy = cell_of(a.py[i]);
    for (int64_t dy = -1; dy <= 1; ++dy) {
      for (int64_t dx = -1; dx <= 1; ++dx) {
        const int64_t key = CellKey(cx + dx, cy + dy);
        auto it = std::lower_bound(order.begin(), order.end(), std::make_pair(key, 0u));
        for (; it != order.end() && it->first == key; ++it) {
          const uint32_t j = it->second;
          if (j <= i) continue;
          const float sum = a.radius[i] + a.radius[j];
          const float d = std::hypot(a.px[j] - a.px[i], a.py[j] - a.py[i]);
          if (d < sum) stats.min_distance_ratio = std::min(stats.min_distance_ratio, d / sum);
          if (d < sum - tolerance) ++stats.pairs;
        }
      }
    }
  }
  return stats;
}

}  // namespace throng::scenarios
