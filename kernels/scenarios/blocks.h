// RVO2's Blocks example (examples/Blocks.cc): 100 agents in four groups crossing to the
// opposite corners between four square blocks, optionally tiled so the agent and
// obstacle counts grow together (a 10 x 10 tiling: 10,000 agents among 400 blocks).
#pragma once

#include <cstddef>
#include <vector>

#include "kernels/scenarios/crowd.h"

namespace throng::scenarios {

// A tile: 100 agents (four groups of 25) and 4 blocks, in that order among the tiles'.
constexpr size_t kBlocksTileAgents = 100;
constexpr size_t kBlocksTilePolygons = 4;
constexpr float kBlocksTilePitch = 200.f;  // m between tiles' centres

// RVO2 Blocks' parameters: timeStep 0.25, neighborDist 15, maxNeighbors 10, timeHorizon 5,
// timeHorizonObst 5 (radius 2, max speed 2 per agent).
OrcaParams Rvo2BlocksParams();

// tiles_x * tiles_y copies of the Blocks scene, 200 m apart (a tile's agents span
// +-97 m, so neighbouring tiles' agents start 6 m apart and move away from each other).
// Agents, goals and polygons are in tile order, then in Blocks.cc's order within a tile.
// Preferred velocities follow UpdatePreferredVelocities (max speed toward the goal), not
// Blocks.cc's unit speed with random perturbation, so that every scene of the benchmarks
// has one rule and runs are repeatable.
CrowdScenario Blocks(size_t tiles_x, size_t tiles_y);

// The square tiling closest to `agents` agents (100 per tile, at least one tile).
CrowdScenario BlocksForAgents(size_t agents);

// Goals one per agent: its start mirrored through its tile's centre, the opposite group's
// lattice place near the corner Blocks.cc sends the whole group to. Blocks.cc's shared
// corner goal counts an agent arrived within 20 m of it; 25 bodies of 2 m cannot all
// stand within a flow benchmark's 0.5 m of one point.
std::vector<Vec2> BlocksMirroredGoals(const CrowdScenario& blocks);

}  // namespace throng::scenarios
