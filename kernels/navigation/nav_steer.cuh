// A navigating pedestrian's preferred velocity along its target's field, as the parallel
// backends run it (Backend::SteerNavigating; the types: nav_steer_types.h), and the field
// lookups the host's own callers share with it (distance_field.h).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/math/column_or.cuh"
#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/ring.h"
#include "kernels/math/vec.cuh"
#include "kernels/navigation/nav_steer_types.h"
#include "kernels/navigation/nav_types.h"
#include "kernels/steering/steering.cuh"

namespace throng {

// A blend of unit headings shorter than this share of its weights counts as a ridge: it is
// cos 40 degrees, the blend of two headings 80 degrees apart.
constexpr float kNavRidge = 0.766f;

// What the lookup does on a ridge of the field, where the ways round an obstacle split
// and the headings either side part: the bilinear blend of them points along the ridge.
enum class NavRidge : uint8_t {
  kPickSide,  // the heading of the cell holding p: a walker leaves the ridge (static fields)
  kBlend,     // the blend: a crowd field's ridges lie in front of every dense cluster and
              // move with it; picking a side there sends walkers along the front of a queue
};

THRONG_HD inline int32_t NavClampCell(int32_t i, int32_t n) {
  return i < 0 ? 0 : (i > n - 1 ? n - 1 : i);
}

// The direction to walk at p (NavDirectionAt, distance_field.h), on a view of the field
// with `headings` the unit vector of each heading (NavHeadingTable()).
THRONG_HD inline Vec2 NavDirectionIn(const NavFieldView& field, const Vec2* headings, Vec2 p,
                                     NavRidge ridge) {
  const NavGridSpec& g = field.spec;
  if (g.nx <= 0 || g.ny <= 0 || field.heading == nullptr) return {0.f, 0.f};
  const float fx = (p.x - g.origin.x) / g.cell - 0.5f, fy = (p.y - g.origin.y) / g.cell - 0.5f;
  if (!(fx >= -0.5f && fy >= -0.5f && fx <= static_cast<float>(g.nx) - 0.5f &&
        fy <= static_cast<float>(g.ny) - 0.5f)) {
    return {0.f, 0.f};  // outside the grid (NaN included)
  }
  const auto x0 = static_cast<int32_t>(floorf(fx)), y0 = static_cast<int32_t>(floorf(fy));
  const float tx = fx - static_cast<float>(x0), ty = fy - static_cast<float>(y0);
  auto at = [&](int32_t ix, int32_t iy) {
    return field
        .heading[static_cast<size_t>(iy) * static_cast<size_t>(g.nx) + static_cast<size_t>(ix)];
  };
  Vec2 sum{0.f, 0.f};
  float weight = 0.f;  // of the cells that lead somewhere
  float spread = 0.f;  // how far the four headings lead away from each other
  for (int32_t j = 0; j < 2; ++j) {
    for (int32_t i = 0; i < 2; ++i) {
      const int32_t ix = x0 + i, iy = y0 + j;
      if (ix < 0 || iy < 0 || ix >= g.nx || iy >= g.ny) continue;
      const uint8_t h = at(ix, iy);
      if (h == kNavNoHeading) continue;
      const float w = (i ? tx : 1.f - tx) * (j ? ty : 1.f - ty);
      const Vec2 v = headings[h];
      sum = sum + v * w;
      weight += w;
      spread += (i ? v.x : -v.x) + (j ? v.y : -v.y);
    }
  }
  const float len = Length(sum);
  // Headings that part (a ridge of the field, where the way round an obstacle splits) nearly
  // cancel: the blend points along the ridge, and a walker follows it to its end (from the
  // middle of a U-shaped trap, 28.2 m where the way is 25.4 m). The cell that holds p picks
  // a side instead. Headings that meet (where ways merge) cancel too, but there the blend
  // leads where they meet, which is where the walker should go. Where nothing is left of
  // the blend at all, the cell that holds p too.
  const bool ridge_here =
      ridge == NavRidge::kPickSide && spread > 0.f && !(len > kNavRidge * weight);
  if (ridge_here || !(len > 1e-6f)) {
    const uint8_t h = at(NavClampCell(static_cast<int32_t>(floorf(fx + 0.5f)), g.nx),
                         NavClampCell(static_cast<int32_t>(floorf(fy + 0.5f)), g.ny));
    if (h != kNavNoHeading) return headings[h];  // else the blend, if any (the target)
  }
  return len > 1e-6f ? sum * (1.f / len) : Vec2{0.f, 0.f};
}

// The field's way `way` (unit) turned toward the agent's goal by at most the cone, given as
// its cosine and sine (NavTurnTowardGoal, distance_field.h). No goal (`goal` null) or no
// cone: `way`.
THRONG_HD inline Vec2 NavTurnToward(Vec2 way, Vec2 p, const Vec2* goal, bool cone_on,
                                    float cone_cos, float cone_sin) {
  if (goal == nullptr || !cone_on) return way;
  const Vec2 to_goal = *goal - p;
  const float length = Length(to_goal);
  if (!(length > 0.f)) return way;
  const Vec2 g = to_goal * (1.f / length);
  if (Dot(way, g) >= cone_cos) return g;
  const float side = Det(way, g) >= 0.f ? cone_sin : -cone_sin;  // toward the goal's side
  return {cone_cos * way.x - side * way.y, side * way.x + cone_cos * way.y};
}

// The index of the target with this id; target_count where the world has none.
THRONG_HD inline size_t NavTargetSlot(const NavSteerWorld& world, uint32_t id) {
  size_t lo = 0, hi = world.target_count;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (world.keys[mid].id < id) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < world.target_count && world.keys[lo].id == id ? world.keys[lo].index
                                                            : world.target_count;
}

// Whether pedestrian i follows its target's crowd field, where one is built: it navigates
// (a cooperative agent whose behaviour is navigate, as the preparation marked it) and its
// memory says it was re-routed (docs/NAVIGATION.md, "Re-routing").
THRONG_HD inline bool NavRerouted(const NavSteerScene& in, size_t i) {
  return in.navigates[i] && in.memory != nullptr && in.memory[i].route > 0;
}

// NavigationRoutes for pedestrian i: marks its target's crowd field as wanted where it is
// re-routed (every writer writes 1), and answers 1 for it, else 0.
struct NavRoutesFunctor {
  NavSteerWorld world;
  NavSteerScene in;
  uint8_t* routed;

  THRONG_HD uint64_t operator()(size_t i) const {
    if (!NavRerouted(in, i)) return 0;
    const size_t k = NavTargetSlot(world, in.target[i]);
    if (k < world.target_count) routed[k] = 1;  // else the steering refuses the row
    return 1;
  }
};

// BEHAVIOR_NAVIGATE (docs/NAVIGATION.md): along the target's field at the agent's own
// speed, under the arrive behaviour's acceleration limit; a re-routed agent (memory's
// route > 0, where its target's crowd field is built) along the crowd field. Inside a
// polygon target, or within the slowing radius of a point target, it arrives: on its own
// goal when it has one, else on the point, or at rest where it stands in the polygon.
// Where the field leads nowhere (outside its grid, or cut off) it heads straight for the
// target's point. (The host ran the same arithmetic before: the determinism hashes held.)
struct NavSteerFunctor {
  NavSteerParams params;
  NavSteerWorld world;
  NavSteerScene in;
  NavSteerOutput out;

  // Steers row i and answers 0, or answers 1 where it navigates to a target the world does
  // not have and writes nothing for it (the world then rejects the tick).
  THRONG_HD uint32_t operator()(size_t i) const {
    if (!in.navigates[i]) return 0u;
    const size_t k = NavTargetSlot(world, in.target[i]);
    if (k >= world.target_count) return 1u;
    const NavSteerTarget& target = world.targets[k];
    const Vec2 p{in.px[i], in.py[i]}, v{in.vx[i], in.vy[i]};
    Vec2 goal{0.f, 0.f};
    const bool has_goal = in.goal_x != nullptr;
    if (has_goal) {
      const Vec3 g =
          params.frame.ToInternal({in.goal_x[i], in.goal_y[i], ColumnOr(in.goal_z, i, 0.f)});
      goal = {g.x, g.y};
    }
    const ArriveParams arrive{in.max_speed[i], params.max_accel, 1.f, params.slowing_radius};
    Vec2 pref;
    if (target.ring_count >= 3 &&
        InsideRingAt(world.rings + target.ring_begin, target.ring_count, p)) {
      pref = ArriveStep(p, v, has_goal ? goal : p, arrive, params.dt);
    } else if (target.ring_count == 1 && Length(target.point - p) <= arrive.slowing_radius) {
      pref = ArriveStep(p, v, has_goal ? goal : target.point, arrive, params.dt);
    } else {
      const bool crowd = NavRerouted(in, i) && world.crowd_fields[k].heading != nullptr;
      const Vec2 way =
          crowd ? NavDirectionIn(world.crowd_fields[k], world.headings, p, NavRidge::kBlend)
                : NavDirectionIn(world.fields[k], world.headings, p, NavRidge::kPickSide);
      if (Length(way) == 0.f) {
        pref = ArriveStep(p, v, target.point, arrive, params.dt);
      } else {
        const Vec2 heading = NavTurnToward(way, p, has_goal ? &goal : nullptr, params.cone_on,
                                           params.cone_cos, params.cone_sin);
        pref = SteerToward(v, heading * arrive.max_speed, arrive, params.dt);
      }
    }
    out.pref_vx[i] = pref.x;
    out.pref_vy[i] = pref.y;
    return 0u;
  }
};

}  // namespace throng
