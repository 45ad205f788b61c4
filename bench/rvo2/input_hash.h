// One hash over everything a step reads (agent columns, parameters, obstacle vertices), so
// that the RVO2 and the Throng side of throng-bench-rvo2 can show they start from the
// same bits. Each side fills an InputRecord from its own storage.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/scenarios/crowd.h"

namespace throng::bench {

struct AgentInput {
  float px, py, vx, vy, pref_vx, pref_vy, radius, max_speed;
  float neighbor_dist, time_horizon, time_horizon_obst;
  uint32_t max_neighbors;
};

struct InputRecord {
  float time_step = 0;
  std::vector<AgentInput> agents;
  std::vector<Vec2> obstacle_vertices;  // polygons in order, vertices in order
};

// FNV-1a over the record's float bits, in field order.
uint64_t HashInputs(const InputRecord& r);

// The record of a Throng scene, as the cpu backend will see it.
InputRecord RecordOf(const scenarios::CrowdScenario& s);

}  // namespace throng::bench
