// Contacts by brute force: every pair of agents, every agent against every polygon and
// every body. What makes a contact (the tests of kernels/backends/contact_kernel.cuh, in
// float with the 1 mm tolerance) is shared with the parallel backends; what this checks
// is their search (the grids, the chunks, the reductions), which must find every contact
// exactly once.
#include <cstddef>

#include "kernels/backends/contact_kernel.cuh"
#include "kernels/reference/reference_backend.h"

namespace throng::reference {

CollisionCounts ReferenceBackend::CountContacts(const ContactScene& s, const StopRequested& stop) {
  ValidateContactScene(s);
  const ContactRings& rings = contact_rings_;
  ContactPolygonsView polygons;
  polygons.ring_start = rings.ring_start.data();
  polygons.ring = rings.ring.data();
  polygons.lo = rings.lo.data();
  polygons.hi = rings.hi.data();
  polygons.count = static_cast<int32_t>(obstacles_.size());

  CollisionCounts counts;
  const size_t n = s.count;
  for (size_t i = 0; i < n; ++i) {
    if (i % 1024 == 0) ThrowIfStopRequested(stop, "stats");
    const Vec2 p{s.x[i], s.y[i]};
    for (size_t j = i + 1; j < n; ++j) {
      const float dx = s.x[j] - p.x, dy = s.y[j] - p.y;
      const float reach = s.radius[i] + s.radius[j] - kCollisionTolerance;
      if (dx * dx + dy * dy < reach * reach) ++counts.agent_pairs;
    }
    for (int32_t k = 0; k < polygons.count; ++k) {
      if (TouchesPolygon(p, s.radius[i], polygons, k)) {
        ++counts.agents_in_obstacles;
        break;
      }
    }
  }
  for (size_t b = 0; b < s.body_count; ++b) {
    const VehicleBody& body = s.bodies[b];
    for (size_t j = 0; j < n; ++j) {
      if (body.DistanceTo({s.x[j], s.y[j]}) < s.radius[j] - kCollisionTolerance) {
        ++counts.agent_vehicle;
      }
    }
  }
  return counts;
}

}  // namespace throng::reference
