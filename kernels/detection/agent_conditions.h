// The oscillation and stall detectors' types (docs/ALGORITHMS.md §5, "Deadlock and
// oscillation"): their parameters, the flags they raise and what a world remembers of each
// agent between ticks. The update itself: agent_conditions.cuh.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/math/vec.cuh"

namespace throng {

// Result flag bits of an agent (AgentResults::flags): what the caller may act on.
enum AgentCondition : uint8_t {
  kAgentOscillating = 1u << 0,  // its avoidance swung side to side within the window
  kAgentStalled = 1u << 1,      // no progress for DetectionParams::stall_ticks: re-plan
  kAgentStopped = 1u << 2,      // wants to move but was given (almost) no speed this tick
  kAgentRerouted = 1u << 3,     // navigating, took a new route this tick (docs/NAVIGATION.md)
};

struct DetectionParams {
  int oscillation_window = 20;           // ticks, 1 .. 32
  int oscillation_flips = 4;             // side flips within the window that flag an agent
  float oscillation_min_lateral = 0.1f;  // m/s of lateral deviation that counts as a side
  int stall_ticks = 50;                  // ticks without progress that flag an agent stalled
  float stall_min_progress = 0.25f;      // m closer to the goal that counts as progress
  float stop_speed = 0.05f;              // m/s: slower than this counts as stopped
  float goal_tolerance = 0.1f;           // m: an agent this close to its goal is home
};

// What a world keeps of one agent between ticks (docs/WORLD.md, "Per-id state").
struct AgentMemory {
  uint32_t flip_history = 0;  // bit k: the side flipped k ticks ago
  int8_t last_side = 0;       // -1 left, +1 right of the preferred velocity, 0 none yet
  int32_t ticks_without_progress = 0;
  // Goal agents: the best distance to the goal so far. Preferred-velocity agents: the
  // distance made along the preferred direction since the last progress.
  float progress_ref = INFINITY;
  Vec2 goal{NAN, 0.f};  // the goal progress refers to
  // Navigating agents: how often it has been re-routed (docs/NAVIGATION.md, "Re-routing");
  // > 0: it follows its target's crowd field.
  uint32_t route = 0;
};

}  // namespace throng
