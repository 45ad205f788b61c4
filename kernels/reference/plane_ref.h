// Plane geometry the references share, in double: the distance to a segment, and whether a
// point is inside a closed ring. Written once here for the contacts, the path check and the
// navigation field's references (the casts keep their own, kernels/reference/cast_ref.cpp).
#pragma once

#include <vector>

#include "kernels/math/vec.cuh"
#include "kernels/reference/steering_ref.h"

namespace throng::reference {

// Distance from p to segment ab (to a when a == b).
double SegmentDistance(D2 p, D2 a, D2 b);

// The ring's winding number around p is non-zero (either orientation); fewer than three
// vertices (a wall) have no inside.
bool InsideRing(D2 p, const std::vector<Vec2>& ring);

}  // namespace throng::reference
