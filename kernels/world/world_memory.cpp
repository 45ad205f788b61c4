#include "kernels/world/world_memory.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/input/input_limits.h"

namespace throng {
namespace {

template <class T>
void Gather(const std::vector<uint32_t>& kept_ids, const std::vector<T>& kept,
            const std::vector<uint32_t>& ids, std::vector<T>* out) {
  if (ids == kept_ids) {
    *out = kept;
    return;
  }
  std::vector<std::pair<uint32_t, uint32_t>> sorted(kept_ids.size());
  for (size_t i = 0; i < kept_ids.size(); ++i) sorted[i] = {kept_ids[i], static_cast<uint32_t>(i)};
  std::sort(sorted.begin(), sorted.end());
  out->assign(ids.size(), T{});
  for (size_t i = 0; i < ids.size(); ++i) {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), std::make_pair(ids[i], 0u));
    if (it != sorted.end() && it->first == ids[i]) (*out)[i] = kept[it->second];
  }
}

}  // namespace

const AgentMemory* WorldMemory::AgentsFor(const std::vector<uint32_t>& ids,
                                          std::vector<AgentMemory>* gathered) const {
  if (KeepsAgents(ids)) return agents_.data();
  Gather(agent_ids_, agents_, ids, gathered);
  return gathered->data();
}

const VehicleMemory* WorldMemory::VehiclesFor(const std::vector<uint32_t>& ids,
                                              std::vector<VehicleMemory>* gathered) const {
  if (KeepsVehicles(ids)) return vehicles_.data();
  Gather(vehicle_ids_, vehicles_, ids, gathered);
  return gathered->data();
}

void WorldMemory::Commit(const std::vector<uint32_t>& agent_ids, std::vector<AgentMemory>* agents,
                         const std::vector<uint32_t>& vehicle_ids,
                         std::vector<VehicleMemory>* vehicles) {
  agent_ids_ = agent_ids;
  agents_.swap(*agents);
  vehicle_ids_ = vehicle_ids;
  vehicles_.swap(*vehicles);
}

namespace {

[[noreturn]] void Bad(const std::string& what, size_t i, const std::string& why) {
  throw std::invalid_argument("memory." + what + "[" + std::to_string(i) + "]" + why);
}

void CheckIds(const std::vector<uint32_t>& ids, size_t rows, const std::string& what) {
  if (ids.size() != rows) {
    throw std::invalid_argument("memory." + what + ": " + std::to_string(rows) + " rows for " +
                                std::to_string(ids.size()) + " ids");
  }
  std::vector<uint32_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  const auto twin = std::adjacent_find(sorted.begin(), sorted.end());
  if (twin != sorted.end()) {
    throw std::invalid_argument("memory." + what + "_ids: id " + std::to_string(*twin) +
                                " appears twice");
  }
}

bool Within(float v, float lo, float hi) { return v >= lo && v <= hi; }  // false for NaN

}  // namespace

void ValidateNavCrowd(const NavCrowd& crowd) {
  if (!crowd.present && !crowd.positions.empty()) {
    throw std::invalid_argument("crowd.positions: " + std::to_string(crowd.positions.size()) +
                                " positions but no crowd");
  }
  if (crowd.tick > kMaxTick) {
    throw std::invalid_argument("crowd.tick: beyond the last tick there is, 2^53");
  }
  for (size_t i = 0; i < crowd.positions.size(); ++i) {
    const Vec2 p = crowd.positions[i];
    if (!(std::fabs(p.x) <= kMaxCoordinate && std::fabs(p.y) <= kMaxCoordinate)) {
      throw std::invalid_argument("crowd.positions[" + std::to_string(i) +
                                  "]: must be finite and within 2e6 m");
    }
  }
}

void ValidateKeptMemory(const KeptMemory& m) {
  CheckIds(m.agent_ids, m.agents.size(), "agent");
  CheckIds(m.vehicle_ids, m.vehicles.size(), "vehicle");
  // What DetectConditions can leave: a side of -1, 0 or 1, a stall count that grows by
  // one a tick (bounded so that counting on from it never overflows: 2^30 ticks is over
  // three years at 10 Hz), a reference distance (infinite before the first goal) and the
  // goal it refers to (NaN before the first).
  constexpr int32_t kMaxStallTicks = int32_t{1} << 30;
  constexpr float kMaxGoalDistance = 4 * kMaxCoordinate;  // across the largest world
  for (size_t i = 0; i < m.agents.size(); ++i) {
    const AgentMemory& a = m.agents[i];
    if (a.last_side < -1 || a.last_side > 1) Bad("agents", i, ".last_side: must be -1, 0 or 1");
    if (a.ticks_without_progress < 0 || a.ticks_without_progress > kMaxStallTicks) {
      Bad("agents", i, ".ticks_without_progress: must be within [0, 2^30]");
    }
    if (!(Within(a.progress_ref, 0.f, kMaxGoalDistance) ||
          a.progress_ref == std::numeric_limits<float>::infinity())) {
      Bad("agents", i, ".progress_ref: must be within [0, 8e6] m or infinite");
    }
    const bool no_goal = std::isnan(a.goal.x);
    if (!no_goal && !(Within(a.goal.x, -kMaxCoordinate, kMaxCoordinate) &&
                      Within(a.goal.y, -kMaxCoordinate, kMaxCoordinate))) {
      Bad("agents", i, ".goal: must be within 2e6 m, or NaN for none");
    }
  }
  // What a vehicle's ticks leave: a progress along its lane (-1 before the first), a
  // wheel angle the bicycle keeps within its steering range, the pose and time step of
  // the last tick (dt 0: none yet) and the share of the turn made before the move.
  for (size_t i = 0; i < m.vehicles.size(); ++i) {
    const VehicleMemory& v = m.vehicles[i];
    if (!(v.progress == -1.f || Within(v.progress, -kMaxLaneLength, kMaxLaneLength))) {
      Bad("vehicles", i, ".progress: must be -1 or within 1e5 m");
    }
    if (!Within(v.wheel_angle, -1.5f, 1.5f))
      Bad("vehicles", i, ".wheel_angle: must be within 1.5 rad");
    if (!Within(v.last_position.x, -kMaxCoordinate, kMaxCoordinate) ||
        !Within(v.last_position.y, -kMaxCoordinate, kMaxCoordinate)) {
      Bad("vehicles", i, ".last_position: must be within 2e6 m");
    }
    if (!Within(v.last_yaw, -kMaxYaw, kMaxYaw))
      Bad("vehicles", i, ".last_yaw: must be within 1e4 rad");
    if (!Within(v.last_speed, 0.f, kMaxSpeed))
      Bad("vehicles", i, ".last_speed: must be within [0, 1000] m/s");
    if (!(v.last_dt == 0.f || Within(v.last_dt, kMinSeconds, 10.f))) {
      Bad("vehicles", i, ".last_dt: must be 0 or within [0.001, 10] s");
    }
    if (!Within(v.turn_before_move, -0.5f, 1.5f)) {
      Bad("vehicles", i, ".turn_before_move: must be within [-0.5, 1.5]");
    }
  }
}

void WorldMemory::Restore(KeptMemory memory) {
  ValidateKeptMemory(memory);
  agent_ids_ = std::move(memory.agent_ids);
  agents_ = std::move(memory.agents);
  vehicle_ids_ = std::move(memory.vehicle_ids);
  vehicles_ = std::move(memory.vehicles);
}

}  // namespace throng
