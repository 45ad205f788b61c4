// The values a float column allows, as a backend's per-row checks read them (the
// preparations' checks: docs/WORLD.md, "Where the checks run").
#pragma once

namespace throng {

// Finite and within [min, max] (a NaN is in no range).
struct ColumnBounds {
  float min = 0.f, max = 0.f;
};

}  // namespace throng
