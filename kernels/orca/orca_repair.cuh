// The repair passes of the ORCA solve (docs/ORCA.md, "Repair passes") over a work list:
// a pass re-solves only the agents with a kept neighbour that turned non-ok in the pass
// before, found from the turned agents through the grid, instead of reading every
// agent's list to find the few hundred of a crowd of 100k. Same inputs, same re-solve,
// same results as a pass over every agent.
#pragma once

#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/local_array.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/orca.cuh"
#include "kernels/orca/orca_agent.cuh"
#include "kernels/orca/orca_types.h"
#include "kernels/spatial/grid.cuh"

namespace throng {

// Sets a flag that several threads may set at once; true for the one call that set it.
THRONG_HD inline bool ClaimFlag(uint32_t* flag) {
#if defined(__CUDA_ARCH__)
  return atomicExch(flag, 1u) == 0u;
#else
  return __atomic_exchange_n(flag, 1u, __ATOMIC_RELAXED) == 0u;
#endif
}

// Pass 1's agents that turned: those not ok (non-cooperative agents are ok), whose
// cooperative neighbours' solves relied on a half they do not take. For copy_if's stencil.
struct IsNotOk {
  THRONG_HD bool operator()(uint8_t status) const {
    return status != static_cast<uint8_t>(SolveStatus::kOk);
  }
};

// The next free slot of a list that several threads append to.
THRONG_HD inline uint32_t AppendSlot(uint32_t* count) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(count, 1u);
#else
  return __atomic_fetch_add(count, 1u, __ATOMIC_RELAXED);
#endif
}

// Whether agent i re-solves because its kept neighbour j turned in the pass before: i is
// cooperative and still ok, and j is in its list. `dist_sq` is |p_i - p_j|^2 as the
// neighbour query computed it: j can be kept only if it is not farther than i's last
// kept slot (`kept_bound`, the neighbour query's bound), which spares most list reads.
THRONG_HD inline bool RepairsFor(const SortedAgentsView& agents, const uint32_t* lists,
                                 const uint16_t* kept_count, const float* kept_bound,
                                 int max_neighbors, const uint8_t* status, uint32_t i,
                                 uint32_t j, float dist_sq) {
  constexpr uint8_t kOk = static_cast<uint8_t>(SolveStatus::kOk);
  if (!(dist_sq <= kept_bound[i])) return false;
  if ((agents.flags[i] & kAgentNonCooperative) != 0 || status[i] != kOk) return false;
  const uint32_t* list = lists + static_cast<size_t>(i) * static_cast<size_t>(max_neighbors);
  const int count = kept_count[i];
  for (int k = 0; k < count; ++k) {
    if (list[k] == j) return true;
  }
  return false;
}

// For each agent that turned in the pass before: adds every agent that keeps it to the
// pass's work list, once (its mark). The scan reaches as far as any agent's neighbour
// query did (the grid's largest query radius), so every list that holds the turned agent
// is read. The list's order depends on the threads; each re-solve reads only the pass
// before, so the results do not.
struct MarkRepairsFunctor {
  SortedAgentsView agents;
  const QueryPoint* __restrict__ points;  // grid order, as agents
  const uint32_t* __restrict__ offsets;   // BucketCount + 1 entries
  GridSpec grid;
  float reach;  // the largest neighbour query radius, with its slack
  const uint32_t* __restrict__ lists;
  const uint16_t* __restrict__ kept_count;
  const float* __restrict__ kept_bound;
  int max_neighbors;
  const uint8_t* __restrict__ status;  // the pass before
  const uint32_t* __restrict__ turned;  // sorted indices of the agents that turned in it
  uint32_t* __restrict__ marks;         // one per agent; 1: in the work list
  uint32_t* __restrict__ work;          // sorted indices of the agents that re-solve
  uint32_t* __restrict__ work_count;

  THRONG_HD void operator()(uint32_t t) const {
    const uint32_t j = turned[t];
    const QueryPoint pj = points[j];
    ForEachRowRange(grid, offsets, Vec2{pj.x, pj.y}, reach, [&](uint32_t begin, uint32_t end) {
      for (uint32_t i = begin; i < end; ++i) {
        // Written as the query of agent i wrote it (q - p), so the square is the same.
        const QueryPoint pi = points[i];
        const Vec2 d{pj.x - pi.x, pj.y - pi.y};
        if (i != j && RepairsFor(agents, lists, kept_count, kept_bound, max_neighbors, status, i,
                                 j, LengthSq(d)) &&
            ClaimFlag(&marks[i])) {
          work[AppendSlot(work_count)] = i;
        }
      }
    });
  }
};

// A re-solve's answer, kept apart until every re-solve of the pass has read the pass
// before (two-phase).
struct RepairOutputView {
  float* __restrict__ vx;
  float* __restrict__ vy;
  uint8_t* __restrict__ status;
  uint8_t* __restrict__ flags;
  uint8_t* __restrict__ turned;
};

// A repair pass's re-solve of agent work[w]: every kept neighbour not ok in the pass
// before is treated as non-cooperative at its velocity from that pass. A feasible
// velocity is adopted; otherwise, with revalidate_fallback, the agent falls back (safe
// stop, else emergency) and turns non-ok itself, else it keeps its velocity. Reads
// `state` (the pass before) only, writes `out[w]`.
template <int kNeighborCap>
struct OrcaRepairFunctorFor {
  SortedAgentsView agents;
  const uint32_t* __restrict__ lists;
  const uint16_t* __restrict__ kept_count;
  PassStateView state;
  orca::ObstacleView obstacles;
  OrcaParams params;
  const uint32_t* __restrict__ work;
  RepairOutputView out;

  THRONG_HD void operator()(uint32_t w) const {
    constexpr uint8_t kOk = static_cast<uint8_t>(SolveStatus::kOk);
    const uint32_t i = work[w];
    Vec2 v{state.vx[i], state.vy[i]};
    uint8_t status = state.status[i];
    uint8_t flags = state.flags[i] | kSolveRevalidated;
    uint8_t turned = 0;
    const int count = kept_count[i];
    LocalArray<orca::NeighborState, kNeighborCap> neighbor_storage;
    orca::NeighborState* const neighbors = neighbor_storage.data();
    const uint32_t* const list =
        KeptNeighbors(agents, lists, params.max_neighbors, count, i, neighbors);
    for (int k = 0; k < count; ++k) {
      const uint32_t j = list[k];
      if (state.status[j] != kOk) {
        neighbors[k].v = {state.vx[j], state.vy[j]};
        neighbors[k].non_cooperative = true;
        neighbors[k].demoted = (agents.flags[j] & kAgentNonCooperative) == 0;
      }
    }
    const orca::SolveOutput again =
        orca::SolveAgent<kNeighborCap>(AgentStateOf(agents, i), neighbors, count, obstacles,
                                       params, /*feasible_only=*/!params.revalidate_fallback);
    if (again.feasible) {
      v = again.velocity;
      flags = static_cast<uint8_t>((flags & ~kSolveShortenedHorizon) | again.flags | kSolveAdopted);
    } else if (params.revalidate_fallback) {
      v = again.velocity;
      status = static_cast<uint8_t>(again.status);
      flags = static_cast<uint8_t>((flags & ~(kSolveShortenedHorizon | kSolveAdopted)) | again.flags);
      turned = status != kOk;
    }
    out.vx[w] = v.x;
    out.vy[w] = v.y;
    out.status[w] = status;
    out.flags[w] = flags;
    out.turned[w] = turned;
  }
};
using OrcaRepairFunctor = OrcaRepairFunctorFor<kMaxNeighborsLimit>;

// After every re-solve of a pass: its answers into the state, the marks cleared for the
// next pass, and the agents that turned listed for it. One writer per agent (the work
// list holds each agent once).
struct ApplyRepairsFunctor {
  const uint32_t* __restrict__ work;
  RepairOutputView repaired;
  PassStateView state;
  uint32_t* __restrict__ marks;
  uint32_t* __restrict__ turned;  // the next pass's list (the marking has read this one's)
  uint32_t* __restrict__ turned_count;

  THRONG_HD void operator()(uint32_t w) const {
    const uint32_t i = work[w];
    state.vx[i] = repaired.vx[w];
    state.vy[i] = repaired.vy[w];
    state.status[i] = repaired.status[w];
    state.flags[i] = repaired.flags[w];
    marks[i] = 0;
    if (repaired.turned[w] != 0) turned[AppendSlot(turned_count)] = i;
  }
};

}  // namespace throng
