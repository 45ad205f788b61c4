// The crowd's cost for re-routing (docs/NAVIGATION.md, "Re-routing"): the static costs plus
// a term for the people around each cell, so that a field over them leads round a
// crowded exit or passage where a freer way exists.
#pragma once

#include <vector>

#include "kernels/math/vec.cuh"
#include "kernels/navigation/nav_types.h"

namespace throng {

// People are counted within this radius of a cell's centre: the density there is their
// count over the disc's area.
constexpr float kCrowdRadius = 1.f;  // m
// The most a cell's density counts for: 10 people per m^2 is bodies pressed together.
constexpr float kMaxCrowdDensity = 10.f;  // per m^2

// `base` with `density_cost` per metre added to every free cell for each person per m^2
// within kCrowdRadius of its centre, at most kMaxCrowdDensity of them (positions in the grid's
// frame; those off the grid add nothing where they do not reach). Deterministic: people are added
// in order.
NavCosts AddCrowdCost(const NavCosts& base, const std::vector<Vec2>& people, float density_cost);

}  // namespace throng
