// The navigating pedestrians' preferred velocities (and which targets' crowd fields they
// follow), one after another, written from
// docs/NAVIGATION.md ("In a world", "Ridges") without the kernels' code: the target found
// by a scan of the ids, the inside of a polygon by its winding number (plane_ref.cpp), the
// four cells' headings as angles in double, the blend and the turn toward the goal in
// double with the reference's own steering (steering_ref.cpp), rounded to float once at the
// end.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/navigation/nav_types.h"
#include "kernels/reference/frame_ref.h"
#include "kernels/reference/plane_ref.h"
#include "kernels/reference/reference_backend.h"
#include "kernels/reference/steering_ref.h"

namespace throng::reference {
namespace {

constexpr double kTwoPi = 6.283185307179586;

// A heading's unit vector: kNavHeadings steps round the circle from the first axis.
D2 HeadingVector(uint8_t heading) {
  const double angle = kTwoPi * heading / kNavHeadings;
  return {std::cos(angle), std::sin(angle)};
}

double Norm(D2 v) { return std::hypot(v.x, v.y); }

// The field's way at p (docs/NAVIGATION.md, "Ridges"): the headings of the (up to) four
// cells whose centres surround p, each weighted by the area of the opposite sub-rectangle,
// summed and normalised. Where those headings lead apart (the left and lower cells' against
// the right and upper ones') and the sum is no longer than cos 40 degrees of the weight, a
// static field takes the heading of the cell p is nearest the centre of; so does any field
// where the sum vanishes. (0, 0) outside the grid or where no cell leads anywhere.
D2 WayAt(const NavFieldView& field, D2 p, bool pick_side) {
  const NavGridSpec& g = field.spec;
  if (field.heading == nullptr || g.nx <= 0 || g.ny <= 0) return {0, 0};
  // p in cell units, measured from the first cell's centre.
  const double u = (p.x - g.origin.x) / g.cell - 0.5, v = (p.y - g.origin.y) / g.cell - 0.5;
  if (!(u >= -0.5 && v >= -0.5 && u <= g.nx - 0.5 && v <= g.ny - 0.5)) return {0, 0};
  const long left = static_cast<long>(std::floor(u)), low = static_cast<long>(std::floor(v));
  const double fu = u - left, fv = v - low;
  auto heading = [&](long ix, long iy) {
    return field
        .heading[static_cast<size_t>(iy) * static_cast<size_t>(g.nx) + static_cast<size_t>(ix)];
  };
  D2 sum{0, 0};
  double weight = 0, apart = 0;
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) {
      const long ix = left + dx, iy = low + dy;
      if (ix < 0 || iy < 0 || ix >= g.nx || iy >= g.ny) continue;
      const uint8_t h = heading(ix, iy);
      if (h == kNavNoHeading) continue;
      const double w = (dx == 1 ? fu : 1 - fu) * (dy == 1 ? fv : 1 - fv);
      const D2 d = HeadingVector(h);
      sum = {sum.x + w * d.x, sum.y + w * d.y};
      weight += w;
      apart += (dx == 1 ? d.x : -d.x) + (dy == 1 ? d.y : -d.y);
    }
  }
  const double length = Norm(sum);
  const bool ridge = pick_side && apart > 0 && length <= 0.766 * weight;
  if (ridge || length <= 1e-6) {
    long ix = std::lround(std::floor(u + 0.5)), iy = std::lround(std::floor(v + 0.5));
    ix = std::min<long>(std::max<long>(ix, 0), g.nx - 1);
    iy = std::min<long>(std::max<long>(iy, 0), g.ny - 1);
    const uint8_t h = heading(ix, iy);
    if (h != kNavNoHeading) return HeadingVector(h);
  }
  if (length <= 1e-6) return {0, 0};
  return {sum.x / length, sum.y / length};
}

// `way` turned toward the goal: the goal's own direction where it is within the cone of
// `way`, else `way` turned by the cone's angle toward the goal's side.
D2 TowardGoal(D2 way, D2 p, D2 goal, const NavSteerParams& params) {
  const D2 to{goal.x - p.x, goal.y - p.y};
  const double distance = Norm(to);
  if (!(distance > 0)) return way;
  const D2 g{to.x / distance, to.y / distance};
  if (way.x * g.x + way.y * g.y >= params.cone_cos) return g;
  const double turn = std::atan2(double{params.cone_sin}, double{params.cone_cos});
  const double angle = (way.x * g.y - way.y * g.x >= 0 ? 1 : -1) * turn;
  return {std::cos(angle) * way.x - std::sin(angle) * way.y,
          std::sin(angle) * way.x + std::cos(angle) * way.y};
}

}  // namespace

uint64_t ReferenceBackend::SteerNavigating(const NavSteerParams& params, const NavSteerWorld& world,
                                           const NavSteerScene& s, const NavSteerOutput& out) {
  uint64_t refused = 0;
  for (size_t i = 0; i < s.count; ++i) {
    if (!s.navigates[i]) continue;
    size_t k = world.target_count;
    for (size_t j = 0; j < world.target_count; ++j) {
      if (world.keys[j].id == s.target[i]) k = world.keys[j].index;
    }
    if (k == world.target_count) {  // not one of the world's: the world rejects the tick
      ++refused;
      continue;
    }
    const NavSteerTarget& target = world.targets[k];
    const D2 p{s.px[i], s.py[i]}, v{s.vx[i], s.vy[i]};
    const D2 point{target.point.x, target.point.y};
    const bool has_goal = s.goal_x != nullptr;
    D2 goal{0, 0};
    if (has_goal) {
      float g[3];
      FromCaller(params.frame, s.goal_x[i], s.goal_y[i], s.goal_z != nullptr ? s.goal_z[i] : 0.f,
                 g);
      goal = {g[0], g[1]};
    }
    const ArriveParamsD arrive{s.max_speed[i], params.max_accel, 1.0, params.slowing_radius};
    const double dt = params.dt;
    D2 preferred;
    const std::vector<Vec2> ring(world.rings + target.ring_begin,
                                 world.rings + target.ring_begin + target.ring_count);
    if (target.ring_count >= 3 && InsideRing(p, ring)) {
      preferred = ArriveStep(p, v, has_goal ? goal : p, arrive, dt);  // stands in it
    } else if (target.ring_count == 1 &&
               Norm({point.x - p.x, point.y - p.y}) <= params.slowing_radius) {
      preferred = ArriveStep(p, v, has_goal ? goal : point, arrive, dt);
    } else {
      const bool rerouted =
          s.memory != nullptr && s.memory[i].route > 0 && world.crowd_fields[k].heading != nullptr;
      const D2 way = rerouted ? WayAt(world.crowd_fields[k], p, /*pick_side=*/false)
                              : WayAt(world.fields[k], p, /*pick_side=*/true);
      if (way.x == 0 && way.y == 0) {
        preferred = ArriveStep(p, v, point, arrive, dt);  // no field here: straight at it
      } else {
        const D2 heading = has_goal && params.cone_on ? TowardGoal(way, p, goal, params) : way;
        preferred = SteerToward(v, {heading.x * arrive.max_speed, heading.y * arrive.max_speed},
                                arrive, dt);
      }
    }
    out.pref_vx[i] = static_cast<float>(preferred.x);
    out.pref_vy[i] = static_cast<float>(preferred.y);
  }
  return refused;
}

uint64_t ReferenceBackend::NavigationRoutes(const NavSteerParams&, const NavSteerWorld& world,
                                            const NavSteerScene& s, const NavRoutesOutput& out) {
  for (size_t k = 0; k < world.target_count; ++k) out.routed[k] = 0;
  uint64_t rerouted = 0;
  for (size_t i = 0; i < s.count; ++i) {
    // A pedestrian follows a crowd field when it navigates and has been re-routed.
    if (!s.navigates[i] || s.memory == nullptr || s.memory[i].route == 0) continue;
    ++rerouted;
    for (size_t j = 0; j < world.target_count; ++j) {
      if (world.keys[j].id == s.target[i]) out.routed[world.keys[j].index] = 1;
    }
  }
  if (out.x != nullptr) {
    for (size_t i = 0; i < s.count; ++i) {
      out.x[i] = s.px[i];
      out.y[i] = s.py[i];
    }
  }
  return rerouted;
}

}  // namespace throng::reference
