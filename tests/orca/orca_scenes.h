// Seeded random ORCA scenes for equivalence and determinism tests, and a helper for
// hand-made ones.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/orca/orca_types.h"

namespace throng::testing {

// Appends a cooperative agent to a hand-made scene's columns.
inline void AppendAgent(AgentColumns& c, uint32_t id, Vec2 p, Vec2 v, Vec2 v_pref, float radius,
                        float max_speed) {
  c.Resize(c.size() + 1);
  const size_t i = c.size() - 1;
  c.id[i] = id;
  c.px[i] = p.x;
  c.py[i] = p.y;
  c.vx[i] = v.x;
  c.vy[i] = v.y;
  c.radius[i] = radius;
  c.max_speed[i] = max_speed;
  c.pref_vx[i] = v_pref.x;
  c.pref_vy[i] = v_pref.y;
  c.flags[i] = 0;
}

// Mixed radii (0.3-1.5 m) and speeds (0.5-3 m/s), random velocities and preferred
// velocities, ~5% non-cooperative agents, a few square and wall obstacles; parameters
// vary with the seed. Three scenes in four place agents without overlap (crowds as a
// simulation keeps them); every fourth lets them overlap, which drives many agents into
// the infeasible cases.
inline OrcaScene RandomOrcaScene(uint32_t seed, size_t n) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  OrcaScene scene;
  OrcaParams& p = scene.params;
  p.time_step = 0.1f + 0.2f * unit(rng);
  p.time_horizon = 1.f + 9.f * unit(rng);
  p.time_horizon_obst = 1.f + 4.f * unit(rng);
  const float caps[] = {0.f, 5.f, 15.f};
  p.neighbor_dist = caps[rng() % 3];
  p.max_neighbors = 1 + static_cast<int>(rng() % 20);
  const float density = 0.02f + 0.13f * unit(rng);
  const float side = std::sqrt(static_cast<float>(n) / density);
  const bool overlapping = seed % 4 == 0;
  AgentColumns& a = scene.agents;
  a.Resize(n);
  for (size_t i = 0; i < n; ++i) {
    a.id[i] = static_cast<uint32_t>(i * 7 + 3);  // ids differ from indices
    a.radius[i] = 0.3f + 1.2f * unit(rng);
    // Without overlap: a few tries, then accept (dense scenes may keep a contact or two).
    for (int attempt = 0; attempt < 30; ++attempt) {
      a.px[i] = side * unit(rng);
      a.py[i] = side * unit(rng);
      if (overlapping) break;
      bool free = true;
      for (size_t j = 0; j < i && free; ++j) {
        const float dx = a.px[j] - a.px[i], dy = a.py[j] - a.py[i], r = a.radius[i] + a.radius[j];
        free = dx * dx + dy * dy >= r * r;
      }
      if (free) break;
    }
    a.max_speed[i] = 0.5f + 2.5f * unit(rng);
    const float heading = 6.2831853f * unit(rng);
    const float speed = a.max_speed[i] * unit(rng);
    a.vx[i] = speed * std::cos(heading);
    a.vy[i] = speed * std::sin(heading);
    const float pref_heading = heading + (unit(rng) - 0.5f);
    a.pref_vx[i] = a.max_speed[i] * std::cos(pref_heading);
    a.pref_vy[i] = a.max_speed[i] * std::sin(pref_heading);
    a.flags[i] = unit(rng) < 0.05f ? kAgentNonCooperative : 0;
  }
  const int obstacles = static_cast<int>(rng() % 5);
  for (int k = 0; k < obstacles; ++k) {
    const Vec2 c{side * unit(rng), side * unit(rng)};
    const float h = 1.f + 4.f * unit(rng);
    if (rng() % 3 == 0) {
      scene.obstacles.push_back({{c, c + Vec2{2 * h, h}}});  // a wall
    } else {
      scene.obstacles.push_back(
          {{c + Vec2{-h, -h}, c + Vec2{h, -h}, c + Vec2{h, h}, c + Vec2{-h, h}}});
    }
  }
  return scene;
}

// RandomOrcaScene with harder obstacles and Throng's rules varied: 1 to 4 rotated
// rectangles and concave stars (5 to 8 points, counterclockwise) beside the axis-aligned
// squares and walls, and every rule parameter of OrcaParams drawn from its range.
inline OrcaScene RandomShapeScene(uint32_t seed, size_t n) {
  OrcaScene scene = RandomOrcaScene(seed, n);
  std::mt19937 rng(seed * 2654435761u + 17u);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  float side = 0.f;
  for (size_t i = 0; i < scene.agents.size(); ++i) {
    side = std::max({side, scene.agents.px[i], scene.agents.py[i]});
  }
  const int shapes = 1 + static_cast<int>(rng() % 4);
  for (int k = 0; k < shapes; ++k) {
    const Vec2 c{side * unit(rng), side * unit(rng)};
    const float turn = 6.2831853f * unit(rng);
    const Vec2 u{std::cos(turn), std::sin(turn)}, v{-u.y, u.x};
    std::vector<Vec2> ring;
    if (rng() % 2 == 0) {  // a rotated rectangle
      const float a = 0.5f + 3.f * unit(rng), b = 0.5f + 3.f * unit(rng);
      for (const Vec2 corner : {Vec2{-a, -b}, Vec2{a, -b}, Vec2{a, b}, Vec2{-a, b}}) {
        ring.push_back(c + u * corner.x + v * corner.y);
      }
    } else {  // a star: concave at every inner vertex
      const int points = 5 + static_cast<int>(rng() % 4);
      const float outer = 1.f + 3.f * unit(rng), inner = outer * (0.3f + 0.3f * unit(rng));
      for (int j = 0; j < 2 * points; ++j) {
        const float angle = turn + 3.14159265f * static_cast<float>(j) / static_cast<float>(points);
        const float radius = j % 2 == 0 ? outer : inner;
        ring.push_back(c + Vec2{radius * std::cos(angle), radius * std::sin(angle)});
      }
    }
    scene.obstacles.push_back({ring});
  }
  OrcaParams& p = scene.params;
  p.side_bias = 0.6f * unit(rng);
  p.side_bias_fade = 0.5f + 3.5f * unit(rng);
  p.contact_margin_ratio = 0.05f * unit(rng);
  p.shorten_horizon = rng() % 2 == 0;
  p.overlap_is_hard = rng() % 2 == 0;
  p.revalidate = rng() % 4 != 0;
  p.revalidate_passes = 1 + static_cast<int>(rng() % 8);
  p.revalidate_fallback = rng() % 2 == 0;
  p.rvo2_fallback = rng() % 4 == 0;
  p.jam_step = rng() % 4 != 0;
  p.jam_step_depth = 0.05f * unit(rng);
  p.density_speed = rng() % 2 == 0;
  p.right_of_way = rng() % 2 == 0;
  p.headway_speed = rng() % 2 == 0;
  p.headway_time = 0.2f + 1.f * unit(rng);
  p.headway_anticipation = (p.headway_time - 0.05f) * unit(rng);
  // Drawn last, so that the draws above are what they were before the rule.
  p.follower_weight = rng() % 2 == 0 ? 0.f : 2.f * unit(rng);
  p.standing_detour = rng() % 2 == 0;  // after the follower weight, likewise
  p.corner_lines = rng() % 2 == 0;     // and after the detour
  p.squeeze_step = rng() % 2 == 0;     // and after the corner lines
  return scene;
}

}  // namespace throng::testing
