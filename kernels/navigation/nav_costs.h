// The obstacles rasterised for navigation (docs/NAVIGATION.md): which cells agents cannot
// stand in, and what crossing each other cell costs.
#pragma once

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "kernels/navigation/nav_types.h"
#include "kernels/orca/orca_types.h"

namespace throng {

// At most this many cells in a world's grid: 1 km x 1 km at 0.25 m with the default 4 m
// margins round it (docs/NAVIGATION.md, "Limits"). A larger request is refused with
// std::invalid_argument.
constexpr size_t kMaxNavCells = size_t{4096} * 4096;
// At most this many cell visits rasterising the obstacles (the ground within reach of
// their edges, and the rows they cross): about 1 s here, whatever the edges.
constexpr size_t kMaxNavRasterWork = size_t{64} << 20;

// The cells whose centres lie inside a closed ring (three vertices or more, either
// orientation), row by row: where the ring's edges cross a row's centre line, filled
// between crossings in pairs (even-odd). The work is the rows the edges cross plus the
// cells filled, not the ring's box times its vertices.
class RingFill {
 public:
  explicit RingFill(const NavGridSpec& spec)
      : spec_(spec), crossings_(static_cast<size_t>(std::max(spec.ny, 0))) {}
  template <class F>
  void ForEachCellInside(const std::vector<Vec2>& ring, F&& f) {
    ForEachCellIndexInside(ring, std::function<void(size_t)>(std::forward<F>(f)));
  }

 private:
  void ForEachCellIndexInside(const std::vector<Vec2>& ring, const std::function<void(size_t)>& f);
  NavGridSpec spec_;
  std::vector<std::vector<float>> crossings_;  // per row, reused
};

// The grid that covers every obstacle vertex and target vertex with `margin` around them
// (0 x 0 when there are none). Throws std::invalid_argument when it would exceed
// kMaxNavCells, or for a cell, a clearance or a comfort distance outside their bounds.
NavGridSpec NavGridFor(const std::vector<Polygon>& obstacles, const std::vector<NavTarget>& targets,
                       const NavFieldParams& params);

// The grid over a target's region, the box [lo, hi] (docs/NAVIGATION.md, "Regions"), with
// `margin` round it as the world's grid has: bodies pushed a little beyond the box stay on
// the field. The same checks.
NavGridSpec NavGridForRegion(Vec2 lo, Vec2 hi, const NavFieldParams& params);

// The parameters' bounds alone: std::invalid_argument naming `navigation.<field>`.
void ValidateNavParams(const NavFieldParams& params);

// That grid's blocked cells and costs (the same checks).
NavCosts BuildNavCosts(const std::vector<Polygon>& obstacles, const std::vector<NavTarget>& targets,
                       const NavFieldParams& params);
// The blocked cells and costs on a given grid: the obstacles that reach it.
NavCosts BuildNavCostsOn(const NavGridSpec& spec, const std::vector<Polygon>& obstacles,
                         const NavFieldParams& params);

}  // namespace throng
