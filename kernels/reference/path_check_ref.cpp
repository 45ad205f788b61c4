// The vehicles' path check written again from its definition (docs/WORLD.md, "Vehicles
// brake"), in double on the reference's own splines (ReferenceSpline), with the vehicles'
// discs rebuilt from the footprint's definition and the edges taken straight from the
// polygons. Every pedestrian, disc and edge is tested at every sample of every corridor:
// no search radius, no early end of the walk. The parallel backends' grid search, their
// reach and their early exit are what this checks.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/reference/plane_ref.h"
#include "kernels/reference/reference_backend.h"

namespace throng::reference {
namespace {

// The definition's constants (docs/WORLD.md): samples every metre, pedestrians followed
// at most 3 s ahead, at most 1 km checked, and a pedestrian's drift judged as if the
// vehicle came at no less than 0.5 m/s.
constexpr double kStep = 1.0;
constexpr double kHorizon = 3.0;
constexpr double kMaxLength = 1000.0;
constexpr double kSlowestApproach = 0.5;
// The footprint: the rear axle sits 22% of the length from the rear; ceil(L / W) discs
// along the axis (at most 32, a needle gets fewer and larger ones), each reaching the
// corners of its slice.
constexpr double kRearShare = 0.22;
constexpr int kMaxDiscs = 32;

struct Point {
  D2 at;
  double r = 0;
  D2 v;           // pedestrians' velocity; discs stand
  int64_t owner;  // -1 for a pedestrian, else the vehicle
};

void AddDiscs(const VehicleBody& body, int64_t owner, std::vector<Point>* points) {
  const double length = body.length, width = body.width;
  const double hl = std::hypot(static_cast<double>(body.heading.x), body.heading.y);
  const D2 h{body.heading.x / hl, body.heading.y / hl};
  // ceil(L / W), forgiving a length a rounding above a whole number of widths.
  const int count = std::clamp(static_cast<int>(std::ceil(length / width - 1e-3)), 1, kMaxDiscs);
  const double slice = length / count;
  const double radius = std::hypot(0.5 * slice, 0.5 * width);
  for (int j = 0; j < count; ++j) {
    const double along = -kRearShare * length + (j + 0.5) * slice;
    points->push_back({{body.axle.x + h.x * along, body.axle.y + h.y * along}, radius, {}, owner});
  }
}

}  // namespace

void ReferenceBackend::CheckPaths(const PathCheckParams& params, float max_brake_decel,
                                  const PathCheckScene& s, const StopRequested& stop,
                                  std::vector<float>* clear) {
  std::vector<Point> points;
  for (size_t k = 0; k < s.agents; ++k) {
    points.push_back(
        {{s.agent_x[k], s.agent_y[k]}, s.agent_radius[k], {s.agent_vx[k], s.agent_vy[k]}, -1});
  }
  for (size_t v = 0; v < s.vehicles; ++v) AddDiscs(s.bodies[v], static_cast<int64_t>(v), &points);
  std::vector<std::pair<D2, D2>> edges;
  for (const Polygon& polygon : obstacles_) {
    const size_t n = polygon.vertices.size();
    for (size_t k = 0; k < (n == 2 ? 1 : n); ++k) {  // a two-vertex wall is one edge
      const Vec2 a = polygon.vertices[k], b = polygon.vertices[(k + 1) % n];
      edges.push_back({{a.x, a.y}, {b.x, b.y}});
    }
  }
  clear->assign(s.vehicles, INFINITY);
  for (size_t v = 0; v < s.vehicles; ++v) {
    if (v % 64 == 0) ThrowIfStopRequested(stop, "vehicles");
    const VehicleBody& body = s.bodies[v];
    const ReferenceSpline& lane = splines_[s.spline[v]];
    const double speed = s.speed[v];
    // Braking distance, reaction distance and the gap, at least min_length, at most 1 km.
    const double wanted =
        std::max<double>(params.min_length, speed * speed / (2.0 * max_brake_decel) +
                                                speed * params.reaction_time + params.gap);
    const double length = std::min(kMaxLength, wanted);
    const double half_width = 0.5 * body.width + params.lateral_margin;
    const double s_front = static_cast<double>(s.progress[v]) + (1.0 - kRearShare) * body.length;
    double best = INFINITY;
    // From half a body behind the bumper, one sample a metre, to the end of the corridor.
    for (int k = 0;; ++k) {
      const double ahead = -0.5 * body.length + k * kStep;
      if (ahead > length) break;
      const P3 p3 = lane.LocationAt(s_front + ahead);
      const P3 t3 = lane.DirectionAt(s_front + ahead);
      const double tl = std::hypot(t3.x, t3.y);
      const D2 t{t3.x / tl, t3.y / tl};
      const D2 right{t.y, -t.x};
      const double horizon =
          std::min(kHorizon, std::max(ahead, 0.0) / std::max(speed, kSlowestApproach));
      for (const Point& q : points) {
        if (q.owner == static_cast<int64_t>(v)) continue;
        const D2 d{q.at.x - p3.x, q.at.y - p3.y};
        const double along = d.x * t.x + d.y * t.y;
        if (std::fabs(along) > kStep) continue;  // another sample's
        const double lateral_now = d.x * right.x + d.y * right.y;
        const double lateral_then = lateral_now + (q.v.x * right.x + q.v.y * right.y) * horizon;
        const double band = half_width + q.r;
        // Beside the corridor now and until the bumper is here, on the same side.
        if (std::min(lateral_now, lateral_then) >= band) continue;
        if (std::max(lateral_now, lateral_then) <= -band) continue;
        if (ahead + along + q.r > 0) best = std::min(best, std::max(0.0, ahead + along - q.r));
      }
      for (const auto& [a, b] : edges) {
        if (SegmentDistance({p3.x, p3.y}, a, b) < half_width)
          best = std::min(best, std::max(0.0, ahead));
      }
    }
    (*clear)[v] = best <= length ? static_cast<float>(best) : INFINITY;
  }
}

}  // namespace throng::reference
