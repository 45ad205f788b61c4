#include "kernels/reference/steering_ref.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace throng::reference {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPiD = 3.14159265358979323846;

double Len(D2 a) { return std::hypot(a.x, a.y); }
double Len(D3 a) { return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }
D2 Sub(D2 a, D2 b) { return {a.x - b.x, a.y - b.y}; }
D2 Add(D2 a, D2 b) { return {a.x + b.x, a.y + b.y}; }
D3 Sub(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D2 Scale(D2 a, double s) { return {a.x * s, a.y * s}; }
D2 Unit(D2 a) {
  const double l = Len(a);
  return l > 0 ? D2{a.x / l, a.y / l} : D2{0, 0};
}
D3 Unit(D3 a) {
  const double l = Len(a);
  return l > 0 ? D3{a.x / l, a.y / l, a.z / l} : D3{0, 0, 0};
}
D2 Truncate(D2 a, double max_len) {
  const double l = Len(a);
  return l > max_len ? Scale(a, max_len / l) : a;
}

// First t in [0, max_distance] with dist(t) <= radius, for a convex dist(t): golden
// section finds a minimiser, bisection the crossing before it.
template <typename Dist>
double FirstTouch(Dist dist, double radius, double max_distance) {
  if (dist(0.0) <= radius) return 0.0;
  const double g = (std::sqrt(5.0) - 1) / 2;
  double lo = 0, hi = max_distance;
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  double f1 = dist(x1), f2 = dist(x2);
  for (int it = 0; it < 200 && hi - lo > 1e-15 * (1 + max_distance); ++it) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - g * (hi - lo);
      f1 = dist(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + g * (hi - lo);
      f2 = dist(x2);
    }
  }
  double t_min = f1 <= f2 ? x1 : x2;
  if (dist(max_distance) < dist(t_min)) t_min = max_distance;
  if (dist(t_min) > radius) return kInf;
  double a = 0, b = t_min;  // dist(a) > radius >= dist(b)
  for (int it = 0; it < 200 && b - a > 1e-15 * (1 + b); ++it) {
    const double m = 0.5 * (a + b);
    (dist(m) > radius ? a : b) = m;
  }
  return b;
}

double SegmentDistance(D2 p, D2 a, D2 b) {
  const D2 ab = Sub(b, a);
  const double l2 = ab.x * ab.x + ab.y * ab.y;
  double t = l2 > 0 ? ((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / l2 : 0;
  t = std::clamp(t, 0.0, 1.0);
  return Len(Sub(p, D2{a.x + ab.x * t, a.y + ab.y * t}));
}

double BoxDistance(D3 p, D3 lo, D3 hi) {
  const double dx = std::max({lo.x - p.x, 0.0, p.x - hi.x});
  const double dy = std::max({lo.y - p.y, 0.0, p.y - hi.y});
  const double dz = std::max({lo.z - p.z, 0.0, p.z - hi.z});
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

}  // namespace

D2 Seek(D2 position, D2 target, double max_speed) {
  return Scale(Unit(Sub(target, position)), max_speed);
}

D2 Flee(D2 position, D2 threat, double max_speed) {
  return Scale(Unit(Sub(position, threat)), max_speed);
}

D2 ArriveDesired(D2 position, D2 target, double max_speed, double slowing_radius) {
  const D2 offset = Sub(target, position);
  const double distance = Len(offset);
  const double ramp = slowing_radius > 0 ? max_speed * distance / slowing_radius : max_speed;
  return Scale(Unit(offset), std::min(max_speed, ramp));
}

double StoppingSpeed(double distance, double accel, double dt) {
  if (distance <= 0 || accel <= 0) return 0;
  dt = std::max(dt, 0.0);
  auto fits = [&](double v) { return v * v / (2 * accel) + v * dt <= distance; };
  double lo = 0, hi = 1;
  while (fits(hi)) hi *= 2;
  for (int it = 0; it < 200; ++it) {
    const double m = 0.5 * (lo + hi);
    (fits(m) ? lo : hi) = m;
  }
  return lo;
}

D2 ArriveDesiredForStep(D2 position, D2 target, const ArriveParamsD& p, double dt) {
  const D2 desired = ArriveDesired(position, target, p.max_speed, p.slowing_radius);
  if (p.max_force <= 0 || p.mass <= 0) return desired;
  const double cap = StoppingSpeed(Len(Sub(target, position)), p.max_force / p.mass, dt);
  return Truncate(desired, cap);
}

D2 SteerToward(D2 velocity, D2 desired, const ArriveParamsD& p, double dt) {
  const D2 force = Truncate(Sub(desired, velocity), p.max_force);
  const D2 accel = Scale(force, 1 / p.mass);
  return Truncate(D2{velocity.x + accel.x * dt, velocity.y + accel.y * dt}, p.max_speed);
}

D2 ArriveStep(D2 position, D2 velocity, D2 target, const ArriveParamsD& p, double dt) {
  const D2 desired = ArriveDesiredForStep(position, target, p, dt);
  // Plain §3 step, not allowed to pass the desired velocity; its speed is limited at the
  // end, so that an agent given more than its max speed brakes at the full force below
  // whenever it comes in faster than it can stop.
  const D2 force = Truncate(Sub(desired, velocity), p.max_force);
  D2 next{velocity.x + force.x / p.mass * dt, velocity.y + force.y / p.mass * dt};
  const D2 gap = Sub(desired, velocity);
  const D2 offset = Sub(target, position);
  const double distance = Len(offset);
  // Near the target (from a fifth of the slowing radius, where it has arrived, to twice
  // the slowing radius), motion sideways or away from it is steered out with the full
  // force: the gap's part square to the way to the target moves wholly, its part along
  // that way by the unit-mass share unless the agent moves away from the target (then
  // wholly too), the sum within the force limit.
  // (A slowing radius <= 0 leaves the band empty; inside it distance > 0.)
  if (p.max_force > 0 && p.mass > 0 && distance >= 0.2 * p.slowing_radius &&
      distance < 2 * p.slowing_radius) {
    const D2 way = Scale(offset, 1 / distance);
    const double along = gap.x * way.x + gap.y * way.y;
    const D2 square = Sub(gap, Scale(way, along));
    const bool moving_away = velocity.x * way.x + velocity.y * way.y < 0;
    const double along_share = moving_away ? 1 : dt / p.mass;
    const D2 step =
        Truncate(Add(Scale(way, along * along_share), square), p.max_force * dt / p.mass);
    next = {velocity.x + step.x, velocity.y + step.y};
  }
  if (Len(Sub(next, velocity)) > Len(gap)) next = desired;
  // Too fast to stop: steer at full acceleration toward the desired velocity.
  if (p.max_force > 0 && p.mass > 0) {
    const double accel = p.max_force / p.mass;
    if (Len(next) > StoppingSpeed(distance, accel, dt)) {
      const D2 step = Truncate(gap, accel * dt);
      next = {velocity.x + step.x, velocity.y + step.y};
    }
  }
  return Truncate(next, p.max_speed);
}

D3 FanDirection2D(int i, int n, double fov) {
  const double theta = n > 1 ? fov * i / (n - 1) : 0;
  return {std::sin(theta) * std::pow(-1.0, i), 0, std::cos(theta)};
}

D3 ConeDirection3D(int i, int n, double fov) {
  const double t = n > 1 ? double(i) / (n - 1) : 0;
  const double theta = std::acos(1 - (1 - std::cos(fov)) * t);
  const double azimuth = 2 * kPiD * 1.618 * i;
  return {std::sin(theta) * std::cos(azimuth), std::sin(theta) * std::sin(azimuth),
          std::cos(theta)};
}

D2 FanGroundDirection(D2 forward, int i, int n, double fov) {
  const double theta = n > 1 ? fov * i / (n - 1) : 0;
  // Yaw grows counter-clockwise (to the left, Z up): odd probes go left.
  const double yaw = std::atan2(forward.y, forward.x) + (i % 2 == 1 ? theta : -theta);
  return {std::cos(yaw), std::sin(yaw)};
}

double SphereCastSegment2D(D2 origin, D2 dir, double radius, double max_distance, D2 a, D2 b) {
  const D2 d = Unit(dir);
  return FirstTouch(
      [&](double t) {
        return SegmentDistance(D2{origin.x + d.x * t, origin.y + d.y * t}, a, b);
      },
      radius, max_distance);
}

double SphereCastSphere(D3 origin, D3 dir, double radius, double max_distance, D3 center,
                        double sphere_radius) {
  const D3 d = Unit(dir);
  return FirstTouch(
      [&](double t) {
        return Len(Sub(D3{origin.x + d.x * t, origin.y + d.y * t, origin.z + d.z * t}, center)) -
               sphere_radius;
      },
      radius, max_distance);
}

double SphereCastBox(D3 origin, D3 dir, double radius, double max_distance, D3 box_min,
                     D3 box_max) {
  const D3 d = Unit(dir);
  return FirstTouch(
      [&](double t) {
        return BoxDistance(D3{origin.x + d.x * t, origin.y + d.y * t, origin.z + d.z * t}, box_min,
                           box_max);
      },
      radius, max_distance);
}

FanChoiceD ChooseFanDirection2D(D2 forward, D2 eye, double radius, double max_distance, double fov,
                                int n, const std::vector<Segment>& segments) {
  n = std::max(n, 1);
  FanChoiceD best;
  best.hit_distance = -1;
  for (int i = 0; i < n; ++i) {
    const D2 dir = FanGroundDirection(forward, i, n, fov);
    double hit = kInf;
    for (const Segment& s : segments) {
      hit = std::min(hit, SphereCastSegment2D(eye, dir, radius, max_distance, s.a, s.b));
    }
    if (hit == kInf) return {i, dir, hit, false};
    if (hit > best.hit_distance) best = {i, dir, hit, true};
  }
  return best;
}

D2 TurnToward(D2 forward, D2 chosen, double dt, double turn_speed) {
  const D2 f = Unit(forward);
  const D2 c = Unit(chosen);
  if (Len(f) == 0) return Len(c) > 0 ? c : D2{1, 0};
  if (Len(c) == 0) return f;
  double t = dt * turn_speed;
  t = std::isnan(t) ? 0 : std::clamp(t, 0.0, 1.0);
  const D2 blend{(1 - t) * f.x + t * c.x, (1 - t) * f.y + t * c.y};
  // Degenerate (chosen opposite forward, t = 1/2): a quarter turn clockwise (right).
  if (Len(blend) < 1e-6) return {f.y, -f.x};
  return Unit(blend);
}

}  // namespace throng::reference
