#include "kernels/steering/forward_scene.h"

#include <algorithm>
#include <cmath>

namespace throng {

FanObstacleSet BuildFanObstacleSet(const FanShapes& shapes) {
  FanObstacleSet set;
  for (const FanPolygon& polygon : shapes.polygons) {
    const std::vector<Vec2>& v = polygon.ring;
    // A two-vertex obstacle is one wall, not a segment and its way back.
    const size_t edges = v.size() == 2 ? 1 : v.size();
    for (size_t k = 0; k < edges; ++k) {
      set.wall_a.push_back(v[k]);
      set.wall_b.push_back(v[(k + 1) % v.size()]);
      set.wall_z0.push_back(polygon.bounded ? polygon.base : -INFINITY);
      set.wall_z1.push_back(polygon.bounded ? polygon.top : INFINITY);
    }
    if (!polygon.bounded || v.size() < 3) continue;
    for (const bool top : {false, true}) {
      set.cap_ring.insert(set.cap_ring.end(), v.begin(), v.end());
      set.cap_start.push_back(static_cast<int32_t>(set.cap_ring.size()));
      set.cap_z.push_back(top ? polygon.top : polygon.base);
      set.cap_top.push_back(top ? 1 : 0);
    }
  }
  for (const FanSphere& sphere : shapes.spheres) {
    set.sphere_center.push_back(sphere.center);
    set.sphere_radius.push_back(sphere.radius);
  }
  return set;
}

void FanObstacleSet::Bounds(std::vector<Vec2>* lo, std::vector<Vec2>* hi) const {
  lo->clear();
  hi->clear();
  for (size_t k = 0; k < walls(); ++k) {
    lo->push_back({std::min(wall_a[k].x, wall_b[k].x), std::min(wall_a[k].y, wall_b[k].y)});
    hi->push_back({std::max(wall_a[k].x, wall_b[k].x), std::max(wall_a[k].y, wall_b[k].y)});
  }
  for (size_t k = 0; k < caps(); ++k) {
    Vec2 l = cap_ring[cap_start[k]], h = l;
    for (int32_t v = cap_start[k]; v < cap_start[k + 1]; ++v) {
      l = {std::min(l.x, cap_ring[v].x), std::min(l.y, cap_ring[v].y)};
      h = {std::max(h.x, cap_ring[v].x), std::max(h.y, cap_ring[v].y)};
    }
    lo->push_back(l);
    hi->push_back(h);
  }
  for (size_t k = 0; k < spheres(); ++k) {
    const Vec2 c = Ground(sphere_center[k]);
    const float r = sphere_radius[k];
    lo->push_back({c.x - r, c.y - r});
    hi->push_back({c.x + r, c.y + r});
  }
}

void ForwardSceneAgents::Resize(size_t n) {
  for (auto* c : {&position, &forward, &goal}) c->resize(n);
  has_goal.resize(n);
  for (auto* c : {&radius, &fov, &probe_length, &turn_speed, &step}) c->resize(n);
  probes.resize(n);
}

void ForwardSceneResults::Resize(size_t n) {
  move.resize(n);
  probe.resize(n);
  hit_distance.resize(n);
  all_blocked.resize(n);
  overlapping.resize(n);
}

float FanGridCell(std::vector<float> reach) {
  // The median reach, not the largest: one agent with a 1 km probe must not make every
  // cell 1 km wide (its own queries then span more cells, or scan everything).
  if (reach.empty()) return 10.f;
  std::nth_element(reach.begin(), reach.begin() + reach.size() / 2, reach.end());
  return std::clamp(reach[reach.size() / 2], 1.f, 1e4f);
}

}  // namespace throng
