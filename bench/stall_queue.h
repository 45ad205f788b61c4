// Issue 41's stall target: "no agent stalls longer than 300 ticks unless it is queueing
// behind a moving front". The engine flags a stall (kAgentStalled: no progress toward the
// goal for DetectionParams::stall_ticks); this says, tick by tick, which stalled agents
// queue behind a front that moves, and keeps, for the others, how long they have gone
// without progress since they last did (docs/PERFORMANCE.md, "stalls behind a moving front").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace throng::bench {

// An agent counts as moving at this share of its max speed or more.
constexpr float kFrontMovingShare = 0.1f;
// The one ahead: centres within this many radius sums, within 60 degrees of the way the
// agent wants to walk (its preferred velocity: toward its goal, or along its field when it
// navigates), the nearest such.
constexpr float kQueueReach = 1.5f;
constexpr float kQueueConeCos = 0.5f;

struct QueueView {
  const std::vector<float>& x;
  const std::vector<float>& y;
  const std::vector<float>& radius;
  const std::vector<float>& vx;
  const std::vector<float>& vy;
  const std::vector<float>& max_speed;
  const std::vector<float>& pref_vx;  // the way it wants to walk; 0: none
  const std::vector<float>& pref_vy;
};

// 1 for each agent that stands (under kFrontMovingShare of its max speed) behind a chain of
// standing agents, each the one ahead of the last, that ends at one who moves. A chain
// that ends at nobody (a wall, a vehicle), at someone without a way to go (home), or that
// closes on itself (a knot) is no moving front. Agents that move get 0.
std::vector<uint8_t> QueueingBehindMovingFront(const QueueView& crowd);

// Per agent, ticks without progress not excused by queueing: while the engine flags it
// stalled, counted from its stall's start (stall_ticks before the first flag) or from the
// last tick it queued behind a moving front.
class FrozenStalls {
 public:
  explicit FrozenStalls(int stall_ticks) : stall_ticks_(stall_ticks) {}
  void Tick(const std::vector<uint8_t>& stalled, const std::vector<uint8_t>& queueing);
  uint64_t longest() const { return longest_; }
  // The agent (index) whose stall first reached longest(); meaningful once it is above 0.
  size_t longest_agent() const { return longest_agent_; }

 private:
  int stall_ticks_;
  std::vector<uint64_t> frozen_;
  std::vector<uint8_t> flagged_;
  uint64_t longest_ = 0;
  size_t longest_agent_ = 0;
};

}  // namespace throng::bench
