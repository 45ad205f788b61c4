// Independent reference for navigation fields (docs/NAVIGATION.md): the obstacles
// rasterised again in double, and the distances by Dijkstra over 16 neighbours (the 8
// around a cell and the 8 a knight's move away), where the engine marches a front.
#pragma once

#include <vector>

#include "kernels/navigation/nav_types.h"
#include "kernels/orca/orca_types.h"

namespace throng::reference {

// Per cell of `spec` (the engine's grid: its layout is the contract), the cost-weighted
// length of the shortest 16-neighbour path to the target; +inf where blocked or cut off.
// A move's cost is its length times the mean of its two cells' costs; a move that is not
// along an axis needs the cells beside it free too, so no path cuts a blocked corner.
std::vector<double> NavDistances(const std::vector<Polygon>& obstacles, const NavTarget& target,
                                 const NavFieldParams& params, const NavGridSpec& spec);

}  // namespace throng::reference
