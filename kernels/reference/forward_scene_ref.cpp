// The forward-agent scene in double precision, brute force over every shape and body
// (no grid: nothing to miss), with the independent casts of cast_ref.h and steering_ref.h.
#include "kernels/reference/forward_scene_ref.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/reference/cast_ref.h"
#include "kernels/reference/steering_ref.h"
#include "kernels/steering/forward_batch.h"

namespace throng::reference {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPiRef = 3.14159265358979323846;

D3 Of(Vec3 v) { return {v.x, v.y, v.z}; }
D2 Of(Vec2 v) { return {v.x, v.y}; }
D2 GroundOf(D3 v) { return {v.x, v.y}; }
D3 Sub(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 Add(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 Scale(D3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double Norm(D3 a) { return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }
D3 Unit(D3 a) {
  const double n = Norm(a);
  return n > 0 ? Scale(a, 1 / n) : D3{};
}
D3 Cross(D3 a, D3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// The cone's local frame: z along the axis, x to its right (axis x up, or -Y when the
// axis is vertical), y up = right x axis.
D3 ConeToWorld(D3 local, D3 axis) {
  D3 right = Cross(axis, D3{0, 0, 1});
  right = Norm(right) > 1e-6 ? Unit(right) : D3{0, -1, 0};
  const D3 up = Cross(right, axis);
  return Add(Add(Scale(right, local.x), Scale(up, local.y)), Scale(axis, local.z));
}

D3 Turn3D(D3 forward, D3 chosen, double dt, double turn_speed) {
  double t = dt * turn_speed;
  t = t > 0 ? std::min(t, 1.0) : 0.0;
  const D3 blend = Add(forward, Scale(Sub(chosen, forward), t));
  if (Norm(blend) < 1e-6) return ConeToWorld(D3{1, 0, 0}, forward);
  return Unit(blend);
}

// Every face of the world's shapes, each cast handed to `keep`: written from FanShapes'
// rules, not from the engine's item list. A polygon's edges stand as walls (a two-vertex
// polygon is one wall) at every height or between base and top; a bounded polygon of
// three vertices or more is a prism closed by its caps; spheres. The ground fan slices
// everything at the eye's height; a cone casts in 3D.
template <class Keep>
void CastShapes(const FanShapes& shapes, bool cone, D3 eye, D3 dir, double r, double max_distance,
                Keep&& keep) {
  for (const FanPolygon& polygon : shapes.polygons) {
    const size_t n = polygon.ring.size();
    const double z0 = polygon.base, z1 = polygon.top;
    const bool at_eye = !polygon.bounded || (eye.z >= z0 && eye.z <= z1);
    for (size_t k = 0; k < (n == 2 ? 1 : n); ++k) {
      const D2 a = Of(polygon.ring[k]), b = Of(polygon.ring[(k + 1) % n]);
      if (!cone) {
        if (at_eye) keep(SphereCastInfiniteWall(eye, D3{dir.x, dir.y, 0}, r, max_distance, a, b));
      } else if (!polygon.bounded) {
        keep(SphereCastInfiniteWall(eye, dir, r, max_distance, a, b));
      } else {
        keep(SphereCastVerticalWall(eye, dir, r, max_distance, a, b, z0, z1));
      }
    }
    if (!cone || !polygon.bounded || n < 3) continue;
    std::vector<D2> ring;
    for (const Vec2& v : polygon.ring) ring.push_back(Of(v));
    keep(SphereCastPolygonCap(eye, dir, r, max_distance, ring, z0, false));
    keep(SphereCastPolygonCap(eye, dir, r, max_distance, ring, z1, true));
  }
  for (const FanSphere& sphere : shapes.spheres) {
    const D3 c = Of(sphere.center);
    if (!cone) {
      keep(DiscCastSphereSlice(GroundOf(eye), GroundOf(dir), r, max_distance, eye.z, c,
                               sphere.radius));
    } else {
      keep(SphereCastCapsule(eye, dir, r, max_distance, c, c, sphere.radius));
    }
  }
}

double CastBody(const FanBodies& b, size_t item, bool cone, D3 eye, D3 dir, double r,
                double max_distance) {
  if (item < b.capsules()) {
    const D3 p = Of(b.capsule_p[item]), q = Of(b.capsule_q[item]);
    const double R = b.capsule_radius[item];
    if (!cone) {
      return DiscCastCapsuleSlice(GroundOf(eye), GroundOf(dir), r, max_distance, eye.z, p, q, R);
    }
    return SphereCastCapsule(eye, dir, r, max_distance, p, q, R);
  }
  item -= b.capsules();
  const D3 c = Of(b.box_center[item]), half = Of(b.box_half[item]);
  const double yaw = b.box_yaw[item];
  if (!cone) {
    if (std::fabs(eye.z - c.z) > half.z) return kInf;
    return SphereCastOrientedBox(D3{eye.x, eye.y, c.z}, D3{dir.x, dir.y, 0}, r, max_distance, c,
                                 half, yaw);
  }
  return SphereCastOrientedBox(eye, dir, r, max_distance, c, half, yaw);
}

}  // namespace

void SteerForwardScene(const FanShapes& shapes, FanMode mode, float dt, const ForwardSceneAgents& a,
                       const FanBodies& bodies, const StopRequested& stop,
                       ForwardSceneResults* out) {
  const bool cone = mode == FanMode::kCone;
  const size_t n = a.size();
  out->Resize(n);
  const size_t body_count = bodies.capsules() + bodies.boxes();
  for (size_t i = 0; i < n; ++i) {
    if (i % 8 == 0) ThrowIfStopRequested(stop, "forward");
    const D3 p = Of(a.position[i]);
    D3 f = Of(a.forward[i]);
    if (!cone) f.z = 0;
    f = Unit(f);
    const double r = a.radius[i];
    const D3 axis = f;
    bool seek_goal = false;
    D3 to_goal{};
    if (a.has_goal[i]) {
      to_goal = Sub(Of(a.goal[i]), p);
      if (!cone) to_goal.z = 0;
      seek_goal = Norm(to_goal) > 1e-6;
      if (seek_goal) to_goal = Unit(to_goal);
    }
    const D3 eye = Add(p, Scale(f, r));
    const int probes = std::clamp(a.probes[i], 1, kMaxFanProbes);
    const double max_distance = a.probe_length[i];
    // new_only: leave out what the sphere already touches at `from` (a hit at 0).
    // shapes_only: bodies left out.
    auto hit_from = [&](D3 from, D3 dir, double length, bool new_only, bool shapes_only) {
      double hit = kInf;
      const auto keep = [&](double h) { hit = new_only && h == 0 ? hit : std::min(hit, h); };
      CastShapes(shapes, cone, from, dir, r, length, keep);
      for (size_t b = 0; b < body_count && !shapes_only; ++b) {
        if (b < bodies.capsules() && bodies.capsule_owner[b] == static_cast<int32_t>(i)) continue;
        keep(CastBody(bodies, b, cone, from, dir, r, length));
      }
      return hit;
    };
    auto hit_along = [&](D3 dir) { return hit_from(eye, dir, max_distance, false, false); };
    auto direction = [&](int k, int count, double half_angle, D3 around) {
      if (cone) return ConeToWorld(ConeDirection3D(k, count, half_angle), around);
      const D2 g = FanGroundDirection(GroundOf(around), k, count, half_angle);
      return D3{g.x, g.y, 0};
    };
    auto fan_direction = [&](int k) { return direction(k, probes, a.fov[i], axis); };
    int best = -1;
    double best_hit = -1;
    D3 best_dir{};
    bool done = false;
    if (seek_goal) {  // the way to the goal first, as probe number `probes`
      best = probes;
      best_hit = hit_along(to_goal);
      best_dir = to_goal;
      done = std::isinf(best_hit);
    }
    for (int k = 0; k < probes && !done; ++k) {
      const D3 dir = fan_direction(k);
      const double hit = hit_along(dir);
      if (std::isinf(hit)) {  // the first free probe ends the search
        best = k;
        best_hit = hit;
        best_dir = dir;
        break;
      }
      if (hit > best_hit) {
        best = k;
        best_hit = hit;
        best_dir = dir;
      }
    }
    bool overlap = false;
    CastShapes(shapes, cone, p, f, r, 0, [&](double h) { overlap = overlap || h == 0; });
    D3 move;
    if (cone) {
      move = Turn3D(f, best_dir, dt, a.turn_speed[i]);
    } else {
      const D2 g = TurnToward(GroundOf(f), GroundOf(best_dir), dt, a.turn_speed[i]);
      move = {g.x, g.y, 0};
    }
    // A smoothed turn into something nearer than the chosen probe's hit takes the chosen
    // direction at once.
    if (hit_along(move) < std::min(best_hit, max_distance)) move = best_dir;
    // The body's own step from its centre: when it would newly touch something, the
    // direction whose centre sweep is clear longest among the smoothed, the chosen, the
    // fan's and a full turn's (first clear over the probe length wins); bodies counted
    // first, then only the static shapes.
    const double length = a.step[i];
    for (const bool shapes_only : {false, true}) {
      if (!(length > 0) || std::isinf(hit_from(p, move, length, true, shapes_only))) break;
      const int turn = probes + 1;
      D3 escape = move;
      double escape_clear = -1;
      for (int k = -2; k < probes + turn && !std::isinf(escape_clear); ++k) {
        D3 dir;
        if (k == -2) {
          dir = move;
        } else if (k == -1) {
          dir = best_dir;
        } else if (k < probes) {
          dir = fan_direction(k);
        } else {
          dir = direction(k - probes, turn, kPiRef, f);
        }
        const double clear = hit_from(p, dir, max_distance, true, shapes_only);
        if (clear > escape_clear) {
          escape_clear = clear;
          escape = dir;
        }
      }
      if (escape_clear >= length) {
        move = escape;
        break;
      }
    }
    out->move[i] = {static_cast<float>(move.x), static_cast<float>(move.y),
                    static_cast<float>(move.z)};
    out->probe[i] = static_cast<int16_t>(best);
    out->hit_distance[i] = static_cast<float>(best_hit);
    out->all_blocked[i] = std::isinf(best_hit) ? 0 : 1;
    out->overlapping[i] = overlap ? 1 : 0;
  }
}

}  // namespace throng::reference
