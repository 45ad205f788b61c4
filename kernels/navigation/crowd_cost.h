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
// A body up to this radius counts as one person. A larger one counts as the people of this
// size its disc would hold, (r / kCrowdPersonRadius)^2, spread over its own disc when that
// is wider than kCrowdRadius: RVO2's 2 m agents then weigh as the floor they cover, where a
// head count made a packed corridor of them cost almost nothing and left gaps between
// their centres that a field threaded through (docs/NAVIGATION.md, "Re-routing").
constexpr float kCrowdPersonRadius = 0.3f;  // m
// The widest disc one person's cost is spread over (RVO2's agents): a larger body still
// counts as the people it would hold, over this disc, so a person touches at most about
// 4 kCrowdSpreadMost^2 / cell^2 cells, however large the body.
constexpr float kCrowdSpreadMost = 2.f;  // m

// `base` with `density_cost` per metre added to every free cell for each person per m^2
// within kCrowdRadius of its centre, at most kMaxCrowdDensity of them (positions in the grid's
// frame; those off the grid add nothing where they do not reach). Everyone has the body
// radius `body_radius` (the world's default): up to kCrowdPersonRadius each counts as one;
// above it as (body_radius / kCrowdPersonRadius)^2 people over the disc of body_radius,
// from kCrowdRadius to kCrowdSpreadMost. Deterministic: people are added in order.
NavCosts AddCrowdCost(const NavCosts& base, const std::vector<Vec2>& people, float density_cost,
                      float body_radius);

}  // namespace throng
