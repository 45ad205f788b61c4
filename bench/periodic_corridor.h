// The fundamental diagram (issue 41's realism targets): speed against density in a
// corridor whose two ends are joined, one way or two ways, beside Weidmann's curve for
// real crowds. The bench's own scene, not a scenario: nobody arrives anywhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/world/world_types.h"

namespace throng::bench {

struct CorridorSetup {
  double density = 1;    // people per m^2 asked for (the lattice's, over the whole floor)
  bool two_way = false;  // half the people (by a hash of their index) walk the other way
  float radius = 0.3f;   // m, every body
  int ticks = 900;       // the second half is measured
};

struct CorridorFigures {
  size_t people = 0;
  bool fits = true;         // false: the lattice for this density would overlap the bodies
  double density = 0;       // people per m^2 in the measuring window, mean over its ticks
  double speed = 0;         // m/s along each person's own direction, mean in the window
  double weidmann = 0;      // m/s, Weidmann's curve at `density`
  int frozen_ticks = 0;     // measured ticks with the window's mean speed under 0.05 m/s
  uint64_t deep_overlaps = 0;  // pair-ticks deeper than 1 cm
  double deepest = 0;          // m
};

// Weidmann (1993): v(rho) = 1.34 (1 - exp(-1.913 (1/rho - 1/5.4))) m/s, 0 from 5.4 /m^2.
double WeidmannSpeed(double density);

// A 30 x 4 m corridor between two walls; people start on a hexagonal lattice and prefer
// 1.34 m/s (Weidmann's free speed) along x. After every tick whoever left through one end
// re-enters at the other, and the people near one end see copies of those near the other
// (bench/periodic_corridor.cpp). Speed and density are taken in the middle half (m 7.5 to
// 22.5), over the run's second half.
CorridorFigures RunPeriodicCorridor(const CorridorSetup& setup, const WorldConfig& config,
                                    BackendKind backend);

}  // namespace throng::bench
