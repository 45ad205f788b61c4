// The obstacles rasterised for navigation (docs/NAVIGATION.md): which cells agents cannot
// stand in, and what crossing each other cell costs.
#pragma once

#include <vector>

#include "kernels/navigation/nav_types.h"
#include "kernels/orca/orca_types.h"

namespace throng {

// At most this many cells in a world's grid: 1 km x 1 km at 0.25 m (docs/NAVIGATION.md,
// "Limits"). A larger request is refused with std::invalid_argument.
constexpr size_t kMaxNavCells = size_t{4000} * 4000;
// At most this many cell visits rasterising the obstacles (the ground within reach of
// their edges, and the rows they cross): about 1 s here, whatever the edges.
constexpr size_t kMaxNavRasterWork = size_t{64} << 20;

// The grid that covers every obstacle vertex and target vertex with `margin` around them
// (0 x 0 when there are none). Throws std::invalid_argument when it would exceed
// kMaxNavCells, or for a cell, a clearance or a comfort distance outside their bounds.
NavGridSpec NavGridFor(const std::vector<Polygon>& obstacles, const std::vector<NavTarget>& targets,
                       const NavFieldParams& params);

// That grid's blocked cells and costs (the same checks).
NavCosts BuildNavCosts(const std::vector<Polygon>& obstacles, const std::vector<NavTarget>& targets,
                       const NavFieldParams& params);

}  // namespace throng
