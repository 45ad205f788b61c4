// Independent reference for kernels/steering/forward_scene.cuh: the cast fan of every forward agent
// against every shape and body, in double, with no grid.
#pragma once

#include "kernels/steering/forward_scene_types.h"
#include "kernels/input/stop_request.h"

namespace throng::reference {

// `stop` is asked every 8 agents (TickCancelled).
void SteerForwardScene(const FanShapes& shapes, FanMode mode, float dt,
                       const ForwardSceneAgents& agents, const FanBodies& bodies,
                       const StopRequested& stop, ForwardSceneResults* out);

}  // namespace throng::reference
