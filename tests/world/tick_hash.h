// A tick's results and the world's state after it, hashed: every result column, every
// column of the state (kernels/world/column_tables.h) and the tick's counts (not its
// timings, which vary from run to run). Two runs agree bit for bit when their hashes do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/world/world.h"

namespace throng {

// FNV-1a over bytes.
struct Fnv1a {
  uint64_t h = 0xcbf29ce484222325ull;
  void Bytes(const void* data, size_t n) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  }
  template <class T>
  void Column(const std::vector<T>& column) {
    const uint64_t n = column.size();
    Bytes(&n, sizeof n);  // an emptied column changes the hash too
    Bytes(column.data(), column.size() * sizeof(T));
  }
};

inline void MixTick(const World& world, const TickResult& r, Fnv1a* hash) {
  auto column = [&](const auto&, const auto& values) { hash->Column(values); };
  auto result = [&](const char*, const auto& values) { hash->Column(values); };
  VisitAgentResultColumns(r.agents, result);
  VisitVehicleResultColumns(r.vehicles, result);
  VisitForwardResultColumns(r.forward, result);
  VisitAgentColumns(world.state().agents, column);
  VisitVehicleColumns(world.state().vehicles, column);
  VisitForwardColumns(world.state().forward, column);
  const TickStats& st = r.stats;  // the counts; the timings vary from run to run
  const uint64_t counts[] = {st.tick,
                             st.status_count[0],
                             st.status_count[1],
                             st.status_count[2],
                             st.oscillating,
                             st.stalled,
                             st.stall_episodes,
                             st.longest_stall_ticks,
                             st.jam_steps,
                             st.stopped,
                             st.agent_overlaps,
                             st.vehicle_overlaps,
                             st.agents_in_obstacles,
                             st.vehicles_braking,
                             st.forward_blocked,
                             st.forward_in_obstacles};
  hash->Bytes(counts, sizeof counts);
}

}  // namespace throng
