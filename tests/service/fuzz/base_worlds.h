// Valid inputs the fuzzer starts every case from: small worlds (lanes, obstacles or both)
// and well-formed snapshots for them, built straight in the API's messages.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "throng/v1/simulation.pb.h"

namespace throng::fuzz {

namespace v1 = ::throng::v1;

enum class WorldKind { kLanes, kObstacles, kLanesAndObstacles };

// A world's configuration and the fixed layout its snapshots are drawn from.
struct BaseScene {
  WorldKind kind = WorldKind::kLanes;
  v1::WorldConfig config;
  std::vector<float> x, y, goal_x, goal_y;  // one per pedestrian (5..50)
  int vehicles = 0;                         // 0..5, only where there are lanes
  int forward = 0;                          // forward agents, 0..12
};

// A random scene of `kind`; configurations set some ORCA, follower and default fields so
// that their sub-messages are present for the mutators.
BaseScene MakeBaseScene(WorldKind kind, std::mt19937_64& rng);

// A valid snapshot of `scene` at `tick`: goals or preferred velocities, each optional
// column present or not, vehicles on the world's lanes.
v1::StepRequest MakeBaseStep(const BaseScene& scene, const std::string& world_id, uint64_t tick,
                             std::mt19937_64& rng);

// The same snapshot as a stateless Solve (the scene's configuration, CPU backend).
v1::SolveRequest MakeBaseSolve(const BaseScene& scene, std::mt19937_64& rng);

}  // namespace throng::fuzz
