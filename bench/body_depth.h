// How deep pedestrians' bodies press into each other, measured by the benchmark itself
// from the positions after a tick (issue 41's body targets: pair-ticks deeper than 1 cm,
// the deepest overlap). Independent of the engine's contact counters, which count any
// overlap beyond 1 mm.
#pragma once

#include <cstdint>
#include <vector>

namespace throng::bench {

struct BodyDepths {
  uint64_t deep_pairs = 0;  // pairs overlapping by more than `deep` m
  double deepest = 0;       // m, the largest overlap (radius sum minus distance), 0 if none
  uint32_t deepest_i = 0, deepest_j = 0;  // the deepest pair's indices (when deepest > 0)
};

// Every pair of discs (x, y, radius), found through a uniform grid of cells as wide as
// the largest diameter, so the cost is linear in the crowd.
BodyDepths MeasureBodyDepths(const std::vector<float>& x, const std::vector<float>& y,
                             const std::vector<float>& radius, double deep);

}  // namespace throng::bench
