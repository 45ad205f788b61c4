// Contacts by brute force, in double, written from the definition (docs/ALGORITHMS.md §5,
// docs/WORLD.md "Tick stats"), not from the engine's contact tests
// (kernels/backends/contact_kernel.cuh): every pair of agents, every agent against every
// polygon (inside by winding number, where the engine counts crossings) and every body
// (a rectangle rebuilt from the footprint's definition). What it shares with the
// parallel backends is the contract's 1 mm tolerance, so the counts agree wherever a
// contact is not decided within float rounding of that bound.
#include <cmath>
#include <cstddef>
#include <vector>

#include "kernels/reference/plane_ref.h"
#include "kernels/reference/reference_backend.h"

namespace throng::reference {
namespace {

D2 Of(Vec2 v) { return {v.x, v.y}; }

// Inside the polygon, or nearer one of its edges than radius - tolerance.
bool Touches(D2 p, double radius, const std::vector<Vec2>& ring) {
  if (InsideRing(p, ring)) return true;
  const double reach = radius - kCollisionTolerance;
  const size_t edges = ring.size() == 2 ? 1 : ring.size();
  for (size_t e = 0; e < edges; ++e) {
    if (SegmentDistance(p, Of(ring[e]), Of(ring[(e + 1) % ring.size()])) < reach) return true;
  }
  return false;
}

// docs/WORLD.md: the rear axle sits 22% of the length from the rear bumper.
constexpr double kRearShare = 0.22;

// Distance from p to the body's rectangle, 0 inside.
double BodyDistance(const VehicleBody& body, D2 p) {
  const double hl = std::hypot(static_cast<double>(body.heading.x), body.heading.y);
  const D2 h{body.heading.x / hl, body.heading.y / hl};
  const double length = body.length, width = body.width;
  // The rectangle's middle lies (1/2 - kRearShare) of the length ahead of the axle.
  const double ahead = (0.5 - kRearShare) * length;
  const D2 c{body.axle.x + h.x * ahead, body.axle.y + h.y * ahead};
  const double dx = p.x - c.x, dy = p.y - c.y;
  const double along = std::fabs(dx * h.x + dy * h.y) - 0.5 * length;
  const double across = std::fabs(-dx * h.y + dy * h.x) - 0.5 * width;
  return std::hypot(along > 0 ? along : 0, across > 0 ? across : 0);
}

}  // namespace

CollisionCounts ReferenceBackend::CountContacts(const ContactScene& s, const StopRequested& stop) {
  ValidateContactScene(s);
  CollisionCounts counts;
  const size_t n = s.count;
  for (size_t i = 0; i < n; ++i) {
    if (i % 1024 == 0) ThrowIfStopRequested(stop, "stats");
    const D2 p{s.x[i], s.y[i]};
    const double r = s.radius[i];
    for (size_t j = i + 1; j < n; ++j) {
      const double gap = std::hypot(s.x[j] - p.x, s.y[j] - p.y);
      if (gap < r + s.radius[j] - kCollisionTolerance) ++counts.agent_pairs;
    }
    for (const Polygon& polygon : obstacles_) {
      if (Touches(p, r, polygon.vertices)) {
        ++counts.agents_in_obstacles;
        break;
      }
    }
  }
  for (size_t b = 0; b < s.body_count; ++b) {
    for (size_t j = 0; j < n; ++j) {
      const double reach = static_cast<double>(s.radius[j]) - kCollisionTolerance;
      if (BodyDistance(s.bodies[b], {s.x[j], s.y[j]}) < reach) ++counts.agent_vehicle;
    }
  }
  return counts;
}

}  // namespace throng::reference
