// One target's navigation field (docs/NAVIGATION.md): fast marching over the costs, then
// each cell's heading of fastest descent, and the direction at any point.
#pragma once

#include <cmath>
#include <vector>

#include "kernels/navigation/nav_steer.cuh"
#include "kernels/navigation/nav_types.h"

namespace throng {

// The cost-weighted distance to `target` from every cell (+inf where blocked or cut off):
// first-order multi-stencil fast marching (the 4 axis and the 4 diagonal neighbours) in
// float, ordered by a bucket queue instead of a heap (docs/NAVIGATION.md, "Cost"). A point
// target seeds the unblocked cells of the 3 x 3 block around it with their straight
// distance; a polygon target the unblocked cells whose centres are inside it (its vertex
// mean as a point when none is). Deterministic: serial, and a bucket's cells leave in the
// order they came.
std::vector<float> MarchNavDistances(const NavCosts& costs, const NavTarget& target);

// The field a world keeps: those distances' descent heading in each cell (rows in
// parallel), one byte a cell.
NavField BuildNavField(const NavCosts& costs, const NavTarget& target);

// A direction (any length) as the nearest of kNavHeadings headings; kNavNoHeading for
// (0, 0) or a non-finite one. And back: the unit vector of a heading, (0, 0) for
// kNavNoHeading.
uint8_t EncodeNavHeading(float dx, float dy);
Vec2 NavHeadingVector(uint8_t heading);
// Every heading's unit vector (256 entries, (0, 0) from kNavHeadings on): the table
// NavHeadingVector reads, which the backends' steering reads too (NavSteerWorld::headings).
const Vec2* NavHeadingTable();

// The direction to walk at p (NavDirectionIn, nav_steer.cuh): the headings of the four cells around
// p, weighted bilinearly over those that have one, normalised. Where they lead away from each other
// so far that the blend is shorter than cos 40 degrees of its weight, `ridge` says what
// to take instead. (0, 0) outside the grid or where no cell leads anywhere.
Vec2 NavDirectionAt(const NavField& field, Vec2 p, NavRidge ridge);

// The goal cone (NavFieldParams::goal_cone) as its cosine and sine, taken once per tick
// rather than per agent.
struct NavGoalCone {
  explicit NavGoalCone(float cone)
      : on(cone > 0.f), cos(on ? std::cos(cone) : 1.f), sin(on ? std::sin(cone) : 0.f) {}
  bool on;
  float cos, sin;
};

// The field's way `way` (unit) turned toward the agent's goal by at most the cone (no
// goal, or cone 0: `way`): still downhill on the field, by at least cos(cone) of its
// steepest descent, and a group bound for one polygon target spreads toward their own
// spots in it instead of converging on the polygon's nearest point (docs/NAVIGATION.md).
// No trigonometry per agent: the goal's direction where it lies within the cone, else
// `way` rotated by the cone toward it.
Vec2 NavTurnTowardGoal(Vec2 way, Vec2 p, const Vec2* goal, const NavGoalCone& cone);

}  // namespace throng
