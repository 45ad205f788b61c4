#include "bench/periodic_corridor.h"

#include <algorithm>
#include <cmath>

#include "bench/body_depth.h"
#include "kernels/world/world.h"

namespace throng::bench {
namespace {

constexpr float kLength = 30.f, kWidth = 4.f;  // m
constexpr float kWall = 0.5f;                  // m, the walls' thickness
constexpr float kFreeSpeed = 1.34f;            // m/s, Weidmann's v0
constexpr float kWindowLo = 0.25f * kLength, kWindowHi = 0.75f * kLength;

std::vector<Vec3> Box(float x0, float y0, float x1, float y1) {
  return {{x0, y0, 0.f}, {x1, y0, 0.f}, {x1, y1, 0.f}, {x0, y1, 0.f}};
}

// Deterministic, well mixed: Knuth's multiplicative hash of the index.
bool WalksWest(size_t i) { return ((static_cast<uint32_t>(i) * 2654435761u) >> 31) != 0; }

}  // namespace

double WeidmannSpeed(double density) {
  if (density <= 0) return kFreeSpeed;
  return std::max(0.0, kFreeSpeed * (1 - std::exp(-1.913 * (1 / density - 1 / 5.4))));
}

CorridorFigures RunPeriodicCorridor(const CorridorSetup& setup, const WorldConfig& base,
                                    BackendKind backend) {
  CorridorFigures f;
  // Hexagonal lattice with spacing d for the density asked for; rows kept 0.05 m clear
  // of the walls; whole columns, so that x repeats exactly over the length.
  const double d = std::sqrt(2 / (std::sqrt(3.0) * setup.density));
  const float clear = setup.radius + 0.05f;
  const double row_gap = d * std::sqrt(3.0) / 2;
  const int rows = 1 + static_cast<int>(std::floor((kWidth - 2 * clear) / row_gap));
  const int cols = std::max(1, static_cast<int>(std::lround(kLength / d)));
  const double dx = kLength / cols;
  if (dx < 2.02 * setup.radius || rows < 1) {
    f.fits = false;
    return f;
  }
  WorldConfig config = base;
  config.obstacles.push_back(Box(-10.f, kWidth, kLength + 10.f, kWidth + kWall));
  config.obstacles.push_back(Box(-10.f, -kWall, kLength + 10.f, 0.f));
  Snapshot snapshot;
  snapshot.dt = config.orca.time_step;
  AgentSnapshot& a = snapshot.agents;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const size_t i = a.id.size();
      const float dir = setup.two_way && WalksWest(i) ? -1.f : 1.f;
      a.id.push_back(static_cast<uint32_t>(i));
      a.x.push_back(static_cast<float>((c + 0.5 * (r % 2)) * dx));
      a.y.push_back(static_cast<float>(clear + r * row_gap));
      a.vx.push_back(0.f);
      a.vy.push_back(0.f);
      a.pref_vx.push_back(dir * kFreeSpeed);
      a.pref_vy.push_back(0.f);
      a.radius.push_back(setup.radius);
    }
  }
  f.people = a.size();
  a.flags.assign(a.size(), 0);
  const size_t n = f.people;
  // The joined ends: everyone within kSeam of one end is copied beyond the other, so that
  // the people there see each other. A copy is an ordinary (cooperative) agent: A avoids
  // B's copy taking half, as B avoids A's copy, which is the pair's reciprocity across the
  // seam; the copies' own results are dropped. (Non-cooperative copies were tried: they
  // are kept before any cooperative neighbour, so near the seam they filled the ten kept
  // slots and people walked into the real neighbours beside them.)
  constexpr float kSeam = 4.f;  // m, more than the pedestrians' 2 s horizon covers
  auto add_copies = [&](AgentSnapshot& agents) {
    for (size_t i = 0; i < n; ++i) {
      const float x = agents.x[i];
      const float shift = x < kSeam ? kLength : x >= kLength - kSeam ? -kLength : 0.f;
      if (shift == 0.f) continue;
      const size_t copy = agents.id.size();
      VisitAgentColumns(agents, [&](const ColumnInfo&, auto& column) {
        if (!column.empty()) column.push_back(column[i]);
      });
      agents.id[copy] = static_cast<uint32_t>(copy);
      agents.x[copy] = x + shift;

    }
  };
  add_copies(a);
  World world(config, backend);
  TickOptions options;
  options.integrate = true;
  TickResult result;
  double density_sum = 0, speed_sum = 0;
  int measured = 0;
  std::vector<float> x, y, radius;
  for (int k = 0; k < setup.ticks; ++k) {
    if (k > 0) {
      snapshot = world.state();
      ++snapshot.tick;
      AgentSnapshot& people = snapshot.agents;
      VisitAgentColumns(people, [&](const ColumnInfo&, auto& column) {
        if (column.size() > n) column.resize(n);
      });
      for (float& px : people.x) {
        if (px >= kLength) px -= kLength;
        if (px < 0.f) px += kLength;
      }
      add_copies(people);
    }
    world.Step(snapshot, options, &result);
    const AgentSnapshot& s = world.state().agents;
    x.assign(s.x.begin(), s.x.begin() + n);
    y.assign(s.y.begin(), s.y.begin() + n);
    radius.assign(s.radius.begin(), s.radius.begin() + n);
    for (float& px : x) px = px >= kLength ? px - kLength : px < 0.f ? px + kLength : px;
    const BodyDepths depths = MeasureBodyDepths(x, y, radius, 0.01);
    f.deep_overlaps += depths.deep_pairs;
    f.deepest = std::max(f.deepest, depths.deepest);
    if (2 * k < setup.ticks) continue;
    size_t inside = 0;
    double along = 0;
    for (size_t i = 0; i < n; ++i) {
      if (s.x[i] < kWindowLo || s.x[i] >= kWindowHi) continue;
      ++inside;
      along += s.vx[i] * (s.pref_vx[i] < 0.f ? -1.0 : 1.0);
    }
    const double speed = inside ? along / inside : 0;
    density_sum += inside / ((kWindowHi - kWindowLo) * static_cast<double>(kWidth));
    speed_sum += speed;
    f.frozen_ticks += speed < 0.05;
    ++measured;
  }
  f.density = measured ? density_sum / measured : 0;
  f.speed = measured ? speed_sum / measured : 0;
  f.weidmann = WeidmannSpeed(f.density);
  return f;
}

}  // namespace throng::bench
