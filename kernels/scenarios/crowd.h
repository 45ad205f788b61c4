// Crowd scenarios shared by tests, benchmarks and the demo (STYLE.md #11), generated from
// a name, a size and a seed. The circle and random scenes follow the RVO2 library's
// benchmark set-up so results compare one to one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/orca/orca_types.h"

namespace throng::scenarios {

struct CrowdScenario {
  std::string name;
  OrcaScene scene;
  std::vector<Vec2> goals;  // one per agent
};

// RVO2's benchmark parameters: timeStep 0.25, neighborDist 15, maxNeighbors 10,
// timeHorizon 10, timeHorizonObst 10 (radius 1.5, max speed 2 per agent).
OrcaParams Rvo2BenchmarkParams();

// N agents at angle 2*pi*i/N on a circle of radius max(200, 0.8 N) m, goal = antipode.
CrowdScenario Circle(size_t n);

// N agents placed uniformly without overlap at `density` agents per square metre in a
// square, goals drawn the same way (so agents at rest on their goals do not overlap).
CrowdScenario Random(size_t n, uint32_t seed, float density = 0.05f);

// Preferred velocity toward the goal at max speed, or exactly onto the goal when it is
// closer than one step.
void UpdatePreferredVelocities(CrowdScenario& s);

// Two-phase apply: every agent takes its new velocity, then moves v * time_step.
void ApplyVelocities(AgentColumns& agents, const OrcaResult& result, float time_step);

// Agents within `tolerance` m of their goal.
size_t AgentsAtGoal(const CrowdScenario& s, float tolerance = 0.1f);

struct OverlapStats {
  uint64_t pairs = 0;               // pairs closer than radii sum - tolerance
  float min_distance_ratio = 1e9f;  // smallest centre distance / radii sum over all pairs
                                    // (considered within radii sum; 1e9 when none is)
};

// Overlapping pairs (centre distance < r_a + r_b - tolerance), found with a hash grid.
OverlapStats MeasureOverlaps(const AgentColumns& agents, float tolerance = 1e-4f);

}  // namespace throng::scenarios
