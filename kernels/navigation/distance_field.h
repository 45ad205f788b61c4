// One target's navigation field (docs/NAVIGATION.md): fast marching over the costs, then
// each cell's direction of fastest descent, and the direction at any point.
#pragma once

#include "kernels/navigation/nav_types.h"

namespace throng {

// The cost-weighted distance to `target` from every cell (first-order fast marching on the
// 4-neighbour stencil, in double, stored as float) and each cell's descent direction. A
// point target seeds the unblocked cells of the 3 x 3 block around it with their straight
// distance; a polygon target the unblocked cells whose centres are inside it (its vertex
// mean as a point when none is). Deterministic: ties leave the heap by cell index.
NavField BuildNavField(const NavCosts& costs, const NavTarget& target);

// The direction to walk at p: the descent directions of the four cells around p, weighted
// bilinearly over those that have one, normalised; the direction of the cell holding p
// when none of the four has one; (0, 0) outside the grid or where no cell leads anywhere.
Vec2 NavDirectionAt(const NavField& field, Vec2 p);

}  // namespace throng
