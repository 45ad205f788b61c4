// Evacuation runs (RiMEA test 9, issue 35): the caller's side of an evacuation, as
// evacuation simulators do it. Each tick, whoever's centre has left the scene's room
// (scenarios::EvacuationRoom) is taken off the world, and the tick is noted; the last
// such tick is the evacuation time. Shared by throng-bench-flow and the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/scenarios/scenario.h"

namespace throng::bench {

struct EvacuationFigures {
  size_t people = 0;
  size_t out = 0;              // left the room within the run
  size_t out_left = 0;         // of them, across the room's low-x wall
  size_t out_right = 0;        // across its high-x wall (the rest: the others)
  int ticks = 0;               // run (stops early once everyone is out)
  double last_out_s = 0;       // the evacuation time: when the last one left; 0 if none did
  double mean_out_s = 0;       // over those who left
  uint64_t deep_overlaps = 0;  // pair-ticks deeper than 1 cm (bench/body_depth.h)
  double deepest = 0;          // m
  uint64_t in_obstacles = 0;   // agent-ticks with a centre inside an obstacle
  double ms_per_tick = 0;
};

// Removes the agents whose keep[i] is 0 from every present column.
void KeepAgents(const std::vector<uint8_t>& keep, AgentSnapshot* agents);

// Runs an evacuation scene for at most `max_ticks`. Throws std::invalid_argument for a
// scene that is not one (EvacuationRoom false).
EvacuationFigures RunEvacuation(const scenarios::Scenario& scenario, BackendKind backend,
                                int max_ticks);

}  // namespace throng::bench
