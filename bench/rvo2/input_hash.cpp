#include "bench/rvo2/input_hash.h"

#include <cstring>

namespace throng::bench {
namespace {

struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void Add(const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  }
  void Add(float f) { Add(&f, sizeof f); }
  void Add(uint32_t u) { Add(&u, sizeof u); }
};

}  // namespace

uint64_t HashInputs(const InputRecord& r) {
  Fnv f;
  f.Add(r.time_step);
  f.Add(static_cast<uint32_t>(r.agents.size()));
  for (const AgentInput& a : r.agents) {
    for (float x : {a.px, a.py, a.vx, a.vy, a.pref_vx, a.pref_vy, a.radius, a.max_speed,
                    a.neighbor_dist, a.time_horizon, a.time_horizon_obst}) {
      f.Add(x);
    }
    f.Add(a.max_neighbors);
  }
  f.Add(static_cast<uint32_t>(r.obstacle_vertices.size()));
  for (Vec2 v : r.obstacle_vertices) {
    f.Add(v.x);
    f.Add(v.y);
  }
  return f.h;
}

InputRecord RecordOf(const scenarios::CrowdScenario& s) {
  const AgentColumns& a = s.scene.agents;
  const OrcaParams& p = s.scene.params;
  InputRecord r;
  r.time_step = p.time_step;
  for (size_t i = 0; i < a.size(); ++i) {
    r.agents.push_back({a.px[i], a.py[i], a.vx[i], a.vy[i], a.pref_vx[i], a.pref_vy[i], a.radius[i],
                        a.max_speed[i], p.neighbor_dist, p.time_horizon, p.time_horizon_obst,
                        static_cast<uint32_t>(p.max_neighbors)});
  }
  for (const Polygon& poly : s.scene.obstacles) {
    r.obstacle_vertices.insert(r.obstacle_vertices.end(), poly.vertices.begin(),
                               poly.vertices.end());
  }
  return r;
}

}  // namespace throng::bench
