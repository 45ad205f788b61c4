#include "kernels/reference/cast_ref.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace throng::reference {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPiD = 3.14159265358979323846;

D2 Sub(D2 a, D2 b) { return {a.x - b.x, a.y - b.y}; }
D3 Sub(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double Dot(D2 a, D2 b) { return a.x * b.x + a.y * b.y; }
double Dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double Len(D2 a) { return std::hypot(a.x, a.y); }
double Len(D3 a) { return std::sqrt(Dot(a, a)); }
D2 Unit(D2 a) {
  const double l = Len(a);
  return l > 0 ? D2{a.x / l, a.y / l} : D2{0, 0};
}
D3 Unit(D3 a) {
  const double l = Len(a);
  return l > 0 ? D3{a.x / l, a.y / l, a.z / l} : D3{0, 0, 0};
}
D3 At(D3 o, D3 d, double t) { return {o.x + d.x * t, o.y + d.y * t, o.z + d.z * t}; }
D2 At(D2 o, D2 d, double t) { return {o.x + d.x * t, o.y + d.y * t}; }

// Sphere tracing: gap(t) is the distance from the ray point at t to the shape minus the
// cast radius, 1-Lipschitz in t, so a step of gap(t) cannot jump over a contact.
template <typename Gap>
double Trace(Gap gap, bool moving, double max_distance, double* closest_gap) {
  double closest = kInf;
  double result = kInf;
  double t = 0;
  const double g0 = gap(0.0);
  if (g0 <= 0) {
    closest = 0;
    result = 0;
  } else if (moving) {
    for (int it = 0; it < kMaxTraceSteps && t <= max_distance; ++it) {
      const double g = gap(t);
      closest = std::min(closest, g);
      if (g <= kContactGap) {
        closest = 0;
        result = t;
        break;
      }
      t += g;
    }
  } else {
    closest = g0;
  }
  if (closest_gap) *closest_gap = closest;
  return result;
}

double SegmentDistance(D2 p, D2 a, D2 b) {
  const D2 ab = Sub(b, a);
  const double l2 = Dot(ab, ab);
  const double s = l2 > 0 ? std::clamp(Dot(Sub(p, a), ab) / l2, 0.0, 1.0) : 0.0;
  return Len(Sub(p, D2{a.x + ab.x * s, a.y + ab.y * s}));
}

D3 Cross(D3 a, D3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// By cases on where p projects onto the line ab: before a or past b the nearest point is
// that end; between them it is the foot of the perpendicular, at |ap x ab| / |ab|.
double SegmentDistance(D3 p, D3 a, D3 b) {
  const D3 ab = Sub(b, a);
  const D3 ap = Sub(p, a);
  const double along = Dot(ap, ab);
  if (along <= 0) return Len(ap);  // also a == b
  if (along >= Dot(ab, ab)) return Len(Sub(p, b));
  return Len(Cross(ap, ab)) / Len(ab);
}

// Closest point of the rectangle spanned by edge vectors u (along ab) and v (up) from its
// corner, by clamping the point's coordinates in that orthogonal basis.
double RectangleDistance(D3 p, D2 a, D2 b, double z0, double z1) {
  const D3 corner{a.x, a.y, z0};
  const D3 q = Sub(p, corner);
  const D3 edge{b.x - a.x, b.y - a.y, 0};
  const double length = Len(edge);
  double s = 0;
  D3 u{0, 0, 0};
  if (length > 0) {
    u = {edge.x / length, edge.y / length, 0};
    s = std::clamp(Dot(q, u), 0.0, length);
  }
  const double w = std::clamp(q.z, 0.0, z1 - z0);
  const D3 closest{corner.x + u.x * s, corner.y + u.y * s, corner.z + w};
  return Len(Sub(p, closest));
}

// Winding number of the ring about p, from the sum of the signed angles its edges subtend.
int WindingNumber(D2 p, const std::vector<D2>& ring) {
  double sum = 0;
  for (size_t i = 0; i < ring.size(); ++i) {
    const D2 u = Sub(ring[i], p);
    const D2 v = Sub(ring[(i + 1) % ring.size()], p);
    sum += std::atan2(u.x * v.y - u.y * v.x, Dot(u, v));
  }
  return static_cast<int>(std::lround(sum / (2 * kPiD)));
}

// Distance from p to the filled polygon lifted to height `plane`.
double FaceDistance(D3 p, const std::vector<D2>& ring, double plane) {
  const D2 g{p.x, p.y};
  double horizontal = 0;
  if (!PointInPolygon(g, ring)) {
    horizontal = kInf;
    for (size_t i = 0; i < ring.size(); ++i) {
      horizontal = std::min(horizontal, SegmentDistance(g, ring[i], ring[(i + 1) % ring.size()]));
    }
  }
  return std::hypot(horizontal, p.z - plane);
}

// In the box's own axes (u, v, Z): how far p lies beyond each face pair.
double OrientedBoxDistance(D3 p, D3 center, D3 half, double yaw) {
  const D3 q = Sub(p, center);
  const D3 u{std::cos(yaw), std::sin(yaw), 0};
  const D3 v{-std::sin(yaw), std::cos(yaw), 0};
  const double ex = std::max(std::fabs(Dot(q, u)) - half.x, 0.0);
  const double ey = std::max(std::fabs(Dot(q, v)) - half.y, 0.0);
  const double ez = std::max(std::fabs(q.z) - half.z, 0.0);
  return std::sqrt(ex * ex + ey * ey + ez * ez);
}

}  // namespace

bool PointInPolygon(D2 p, const std::vector<D2>& ring) {
  // The winding number's parity is the crossing count's parity, for any closed ring.
  return ring.size() >= 3 && WindingNumber(p, ring) % 2 != 0;
}

double SphereCastVerticalWall(D3 origin, D3 dir, double radius, double max_distance, D2 a, D2 b,
                              double z0, double z1, double* closest_gap) {
  const D3 d = Unit(dir);
  return Trace([&](double t) { return RectangleDistance(At(origin, d, t), a, b, z0, z1) - radius; },
               Len(d) > 0, max_distance, closest_gap);
}

double SphereCastInfiniteWall(D3 origin, D3 dir, double radius, double max_distance, D2 a, D2 b,
                              double* closest_gap) {
  const D3 d = Unit(dir);
  return Trace(
      [&](double t) {
        const D3 p = At(origin, d, t);
        return SegmentDistance(D2{p.x, p.y}, a, b) - radius;
      },
      Len(d) > 0, max_distance, closest_gap);
}

double SphereCastPolygonCap(D3 origin, D3 dir, double radius, double max_distance,
                            const std::vector<D2>& ring, double z, bool top, double* closest_gap) {
  const D3 d = Unit(dir);
  if (PointInPolygon(D2{origin.x, origin.y}, ring) && std::fabs(origin.z - z) <= radius) {
    if (closest_gap) *closest_gap = 0;
    return 0;
  }
  const double outward = top ? 1 : -1;
  const double plane = z + outward * radius;
  // From the far side of the offset plane the face could only be met from behind, which is
  // not a face contact (the prism's other cap and walls see that sphere).
  if ((origin.z - plane) * outward <= 0) {
    if (closest_gap) *closest_gap = kInf;
    return kInf;
  }
  // The offset face is where the centre touches: trace the centre as a point (radius 0).
  return Trace([&](double t) { return FaceDistance(At(origin, d, t), ring, plane); }, Len(d) > 0,
               max_distance, closest_gap);
}

double SphereCastOrientedBox(D3 origin, D3 dir, double radius, double max_distance, D3 center,
                             D3 half_extent, double yaw, double* closest_gap) {
  const D3 d = Unit(dir);
  return Trace(
      [&](double t) {
        return OrientedBoxDistance(At(origin, d, t), center, half_extent, yaw) - radius;
      },
      Len(d) > 0, max_distance, closest_gap);
}

double SphereCastCapsule(D3 origin, D3 dir, double radius, double max_distance, D3 p, D3 q,
                         double capsule_radius, double* closest_gap) {
  const D3 d = Unit(dir);
  // The capsule is the points within capsule_radius of pq: its distance is the axis's, less
  // capsule_radius.
  return Trace(
      [&](double t) { return SegmentDistance(At(origin, d, t), p, q) - capsule_radius - radius; },
      Len(d) > 0, max_distance, closest_gap);
}

double DiscCastCapsuleSlice(D2 origin, D2 dir, double radius, double max_distance, double z, D3 p,
                            D3 q, double capsule_radius, double* closest_gap) {
  // How far the disc's plane lies above or below the axis: 0 along its straight part.
  const double dz = std::max({std::min(p.z, q.z) - z, z - std::max(p.z, q.z), 0.0});
  if (!(dz < capsule_radius)) {
    if (closest_gap) *closest_gap = kInf;
    return kInf;
  }
  const D2 d = Unit(dir);
  // Contact is the axis coming within capsule_radius of the disc. The disc's points all lie
  // at height z and the axis's above one ground point, so their squared distance splits into
  // a horizontal part (the disc's rim to that point) and a vertical one (dz). The distance
  // changes no faster than the disc moves, so it is a valid sphere-tracing step.
  return Trace(
      [&](double t) {
        const D2 c = At(origin, d, t);
        const double beyond_rim = std::max(Len(Sub(c, D2{p.x, p.y})) - radius, 0.0);
        return std::hypot(beyond_rim, dz) - capsule_radius;
      },
      Len(d) > 0, max_distance, closest_gap);
}

double DiscCastSphereSlice(D2 origin, D2 dir, double radius, double max_distance, double z,
                           D3 center, double sphere_radius, double* closest_gap) {
  return DiscCastCapsuleSlice(origin, dir, radius, max_distance, z, center, center, sphere_radius,
                              closest_gap);
}

}  // namespace throng::reference
