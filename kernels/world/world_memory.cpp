#include "kernels/world/world_memory.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

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

int SideOf(Vec2 pref, Vec2 chosen, float min_lateral) {
  const float pref_len = Length(pref);
  if (pref_len <= 1e-6f) return 0;
  // > 0: the chosen velocity lies to the right of the preferred one (clockwise).
  const float lateral = (pref.y * chosen.x - pref.x * chosen.y) / pref_len;
  if (lateral > min_lateral) return 1;
  if (lateral < -min_lateral) return -1;
  return 0;
}

}  // namespace

uint8_t DetectConditions(AgentMemory& m, const DetectionParams& d, const AgentMotion& a, float dt) {
  uint8_t conditions = 0;

  const int side = SideOf(a.pref, a.chosen, d.oscillation_min_lateral);
  const bool flip = side != 0 && m.last_side != 0 && side != m.last_side;
  if (side != 0) m.last_side = static_cast<int8_t>(side);
  m.flip_history = (m.flip_history << 1) | (flip ? 1u : 0u);
  const uint32_t window = d.oscillation_window >= 32 ? ~0u : (1u << d.oscillation_window) - 1u;
  if (std::popcount(m.flip_history & window) >= d.oscillation_flips) {
    conditions |= kAgentOscillating;
  }

  const float pref_speed = Length(a.pref);
  const bool home = a.has_goal && a.goal_distance <= d.goal_tolerance;
  const bool wants_to_move = !home && pref_speed > d.stop_speed;
  if (wants_to_move && Length(a.chosen) < d.stop_speed) conditions |= kAgentStopped;

  if (a.has_goal) {
    if (!(m.goal == a.goal)) {  // a new goal: progress starts over
      m.goal = a.goal;
      m.progress_ref = a.goal_distance;
      m.ticks_without_progress = 0;
    } else if (a.goal_distance <= m.progress_ref - d.stall_min_progress) {
      m.progress_ref = a.goal_distance;
      m.ticks_without_progress = 0;
    } else if (wants_to_move) {
      ++m.ticks_without_progress;
    } else {
      m.ticks_without_progress = 0;
    }
  } else {
    m.goal = Vec2{std::nanf(""), 0.f};
    if (!wants_to_move) {
      m.progress_ref = 0.f;
      m.ticks_without_progress = 0;
    } else {
      if (!std::isfinite(m.progress_ref)) m.progress_ref = 0.f;
      m.progress_ref += std::max(0.f, Dot(a.chosen, a.pref) / pref_speed) * dt;
      if (m.progress_ref >= d.stall_min_progress) {
        m.progress_ref = 0.f;
        m.ticks_without_progress = 0;
      } else {
        ++m.ticks_without_progress;
      }
    }
  }
  if (m.ticks_without_progress >= d.stall_ticks) conditions |= kAgentStalled;
  return conditions;
}

void WorldMemory::GatherAgents(const std::vector<uint32_t>& ids,
                               std::vector<AgentMemory>* out) const {
  Gather(agent_ids_, agents_, ids, out);
}

void WorldMemory::GatherVehicles(const std::vector<uint32_t>& ids,
                                 std::vector<VehicleMemory>* out) const {
  Gather(vehicle_ids_, vehicles_, ids, out);
}

void WorldMemory::Commit(const std::vector<uint32_t>& agent_ids, std::vector<AgentMemory> agents,
                         const std::vector<uint32_t>& vehicle_ids,
                         std::vector<VehicleMemory> vehicles) {
  agent_ids_ = agent_ids;
  agents_ = std::move(agents);
  vehicle_ids_ = vehicle_ids;
  vehicles_ = std::move(vehicles);
}

}  // namespace throng
