// One agent's tick of ORCA, as both parallel backends run it: gather candidates from the
// grid, keep max_neighbors of them (the closest, or with OrcaParams::follower_weight the
// followers behind as if farther; ties by id), solve (kernels/orca/orca.cuh).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/math/hd.cuh"
#include "kernels/math/local_array.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/orca.cuh"
#include "kernels/orca/orca_right_of_way.cuh"
#include "kernels/orca/orca_types.h"
#include "kernels/spatial/grid.cuh"

namespace throng {

// Agents in grid order (structure of arrays, hot fields only).
struct SortedAgentsView {
  const float* __restrict__ px;
  const float* __restrict__ py;
  const float* __restrict__ vx;
  const float* __restrict__ vy;
  const float* __restrict__ radius;
  const float* __restrict__ max_speed;
  const float* __restrict__ pref_vx;
  const float* __restrict__ pref_vy;
  const uint32_t* __restrict__ id;
  const uint8_t* __restrict__ flags;
  const uint32_t* __restrict__ input_index;  // position in the caller's columns
  uint32_t count;
  // With OrcaParams::right_of_way: each slow agent's wanted velocity (WantFunctor); null
  // when the rule is off.
  const float* __restrict__ want_vx = nullptr;
  const float* __restrict__ want_vy = nullptr;
};

// Results written at the agent's input index: one writer each, no atomics.
struct OrcaOutputView {
  float* __restrict__ vx;
  float* __restrict__ vy;
  uint8_t* __restrict__ status;
  uint16_t* __restrict__ candidates;
  uint16_t* __restrict__ neighbors;
  uint16_t* __restrict__ constraints;
  uint8_t* __restrict__ solve_flags;
  uint16_t* __restrict__ audit_missed;  // kNotAudited, or false negatives found by the audit
  uint32_t* __restrict__ kept_ids;      // nullptr, or OrcaResult::kept_ids
};

constexpr uint16_t kNotAudited = 0xffff;

// What the neighbour query reads of every agent it scans, packed into one 16-byte load
// (four separate arrays cost four cache lines per scanned cell).
struct alignas(16) QueryPoint {
  float x, y, radius, max_speed;
};

// The kept list's order (tier, dist_sq, id) as one integer, so that a scan compares one
// word: tier in bit 63 (0: non-cooperative, kept first: vehicles and players will not give
// way, so a crowd pressing close must never push one out of the max_neighbors cut), the
// distance's bits in 62..32 (a non-negative float orders as its bits; the mask keeps a
// NaN, which validation rules out, from reaching the tier bit), the id below. Deterministic
// whatever order the cells are visited in.
THRONG_HD inline uint64_t NeighborKey(bool cooperative, float dist_sq, uint32_t id) {
  uint32_t bits;
  memcpy(&bits, &dist_sq, sizeof bits);
  return (static_cast<uint64_t>(cooperative) << 63) |
         (static_cast<uint64_t>(bits & 0x7fffffffu) << 32) | id;
}

// The distance a candidate is ordered by in the kept list (docs/ORCA.md, "Neighbours
// ahead"; OrcaParams::follower_weight): its squared distance, times 1 + weight * the cosine
// of its angle behind the agent, for a follower: a candidate behind (its offset d against
// the agent's unit preferred direction e) whose own preferred direction lies within 45
// degrees of e. (The cosine's square weighs the oblique followers too little: 25,614 home
// against 26,119 in the crossing of 10,000 at weight 1.) Never shorter than the squared
// distance, so that the scan's bound, its shrinking to a full list and the repair passes'
// skips hold as they do for the nearest.
THRONG_HD inline float OrderDistSq(float dist_sq, Vec2 d, Vec2 e, Vec2 pref, float weight) {
  const float behind = -Dot(d, e);
  const float along = Dot(pref, e);
  // Within 45 degrees: along > 0 and along^2 > cos^2(45) |pref|^2 = |pref|^2 / 2.
  const bool follower =
      (behind > 0.f) & (along > 0.f) & (2.f * along * along > LengthSq(pref)) & (dist_sq > 0.f);
  return follower ? dist_sq * (1.f + weight * behind / sqrtf(dist_sq)) : dist_sq;
}

// Per-pair conservative filter of docs/ORCA.md (boundary included), with the tick's
// constants taken once. Written with & on bools, not && and ||, so that the scan compiles
// it to compares without branches.
struct CandidateFilter {
  float tau;
  bool capped;   // neighbor_dist > 0
  float cap_sq;  // neighbor_dist^2
  THRONG_HD explicit CandidateFilter(const OrcaParams& params)
      : tau(params.time_horizon),
        capped(params.neighbor_dist > 0.f),
        cap_sq(params.neighbor_dist * params.neighbor_dist) {}
  THRONG_HD bool operator()(float dist_sq, float r_a, float r_b, float s_a, float s_b) const {
    const float reach = r_a + r_b + (s_a + s_b) * tau;
    const bool within_reach = !(dist_sq > reach * reach);
    const bool within_cap = !capped | (dist_sq <= cap_sq);
    return within_reach & within_cap;
  }
};

THRONG_HD inline bool IsCandidate(float dist_sq, float r_a, float r_b, float s_a, float s_b,
                                  const OrcaParams& params) {
  return CandidateFilter(params)(dist_sq, r_a, r_b, s_a, s_b);
}

// How far the neighbour query reads (docs/ORCA.md, "Neighbour candidates"): every cell
// within reach, counting every candidate; or only as far as its list, once full, can still
// take anyone, and beyond that nothing (no agent is non-cooperative) or the buckets that
// hold a non-cooperative agent, who enters at any distance. The kept lists are the same.
enum class NeighborScan : uint8_t { kWholeDisc, kShrink, kShrinkPastMarks };

// Neighbour query for sorted agent i: writes the kept neighbours' sorted indices,
// closest first, into lists[i * max_neighbors ...].
struct NeighborQueryFunctor {
  SortedAgentsView agents;
  const QueryPoint* __restrict__ points;  // grid order, as agents
  const uint32_t* __restrict__ offsets;   // BucketCount + 1 entries
  GridSpec grid;
  OrcaParams params;
  float r_max, s_max;    // largest radius and max speed in the snapshot
  uint32_t audit_every;  // 0: no audit; k: brute-force check of every k-th sorted agent
  uint32_t* __restrict__ lists;
  uint16_t* __restrict__ kept_count;       // sorted order
  uint16_t* __restrict__ candidate_count;  // sorted order
  uint16_t* __restrict__ audit_missed;     // sorted order
  // Sorted order: the squared distance of the last kept slot once the list is full, else
  // infinity (a neighbour farther than this is not kept); -1 for an agent not solved.
  // The repair passes read it to skip lists that cannot hold a turned agent.
  float* __restrict__ kept_bound;
  NeighborScan scan_kind = NeighborScan::kWholeDisc;
  // kShrinkPastMarks: per bucket, whether it holds a non-cooperative agent
  // (NonCooperativeBucketsFunctor).
  const uint8_t* __restrict__ non_cooperative_buckets = nullptr;

  THRONG_HD void operator()(uint32_t i) const {
    if (agents.flags[i] & kAgentNonCooperative) {
      // Not solved, so it needs no neighbours; others still see it.
      kept_count[i] = 0;
      candidate_count[i] = 0;
      audit_missed[i] = kNotAudited;
      kept_bound[i] = -1.f;
      return;
    }
    const Vec2 p{agents.px[i], agents.py[i]};
    const float r = agents.radius[i];
    const float s = agents.max_speed[i];
    const int k_max = params.max_neighbors;

    // Slots are read only below `count`; nvcc cannot see that (warning 549).
#if defined(__NVCC__)
#pragma nv_diag_suppress 549
#endif
    uint64_t kept_key[kMaxNeighborsLimit];
    uint32_t kept_index[kMaxNeighborsLimit];
    int count = 0;
    // Key of the last kept slot once the list is full (a candidate must beat it), and its
    // distance: a cooperative candidate farther than that cannot be kept.
    uint64_t worst = ~uint64_t{0};
    float bound = INFINITY;
    auto keep = [&](uint32_t j, float dist_sq) {
      const uint64_t key =
          NeighborKey((agents.flags[j] & kAgentNonCooperative) == 0, dist_sq, agents.id[j]);
      if (key >= worst) return;
      int pos = count < k_max ? count++ : k_max - 1;
      while (pos > 0 && key < kept_key[pos - 1]) {
        kept_key[pos] = kept_key[pos - 1];
        kept_index[pos] = kept_index[pos - 1];
        --pos;
      }
      kept_key[pos] = key;
      kept_index[pos] = j;
      if (count == k_max) {
        worst = kept_key[k_max - 1];
        const uint32_t bits = static_cast<uint32_t>(worst >> 32) & 0x7fffffffu;
        memcpy(&bound, &bits, sizeof bound);
      }
    };

    // The scan is branch-free: every candidate is counted, and those that may still enter
    // the list (not farther than its last slot, or non-cooperative) are appended to a small
    // buffer that is merged into the list when it fills. A branch per scanned agent on the filter's
    // outcome, right or wrong at random, cost more than the arithmetic.
    constexpr int kBuffer = 16;
    uint32_t buffer_index[kBuffer];
    float buffer_dist_sq[kBuffer];
    int buffered = 0;
    auto merge = [&] {
      for (int b = 0; b < buffered; ++b) keep(buffer_index[b], buffer_dist_sq[b]);
      buffered = 0;
    };
    const CandidateFilter in_reach(params);
    uint32_t candidates = 0;
    // Followers behind ordered as if farther (OrderDistSq), when the rule is on and the
    // agent prefers a direction.
    const float follower_weight = params.follower_weight;
    const Vec2 pref_i{agents.pref_vx[i], agents.pref_vy[i]};
    const float pref_i_length = Length(pref_i);
    const Vec2 e = pref_i_length > 0.f ? (1.f / pref_i_length) * pref_i : Vec2{0.f, 0.f};
    auto order = [&](float dist_sq, Vec2 d, uint32_t j) {
      return follower_weight > 0.f
                 ? OrderDistSq(dist_sq, d, e, {agents.pref_vx[j], agents.pref_vy[j]},
                               follower_weight)
                 : dist_sq;
    };

    // Every cell the agent's largest query disc touches, each once (the table is wider
    // than any scan, so no bucket comes up twice).
    float reach = r + r_max + (s + s_max) * params.time_horizon;
    if (params.neighbor_dist > 0.f && params.neighbor_dist < reach) reach = params.neighbor_dist;
    reach *= 1.0001f;  // rounding in the per-pair test must never reach past the scan
    auto scan = [&](uint32_t begin, uint32_t end) THRONG_INLINE_LAMBDA {
      for (uint32_t j = begin; j < end; ++j) {
        const QueryPoint q = points[j];
        const Vec2 d{q.x - p.x, q.y - p.y};
        const float dist_sq = LengthSq(d);
        const bool candidate = in_reach(dist_sq, r, q.radius, s, q.max_speed) & (j != i);
        const float ordered = order(dist_sq, d, j);
        candidates += candidate;
        buffer_index[buffered] = j;
        buffer_dist_sq[buffered] = ordered;
        // A non-cooperative agent outranks every cooperative one at any distance.
        const bool may_enter = (ordered <= bound) | ((agents.flags[j] & kAgentNonCooperative) != 0);
        buffered += candidate & may_enter;
        if (buffered == kBuffer) merge();
      }
    };
    if (scan_kind == NeighborScan::kWholeDisc) {
      ForEachRowRange(grid, offsets, p, reach, scan);
    } else {
      // Before each row: the buffer merged, so that the bound is the list's own.
      ForEachRowRangeShrinking(grid, offsets,
                               scan_kind == NeighborScan::kShrinkPastMarks
                                   ? non_cooperative_buckets
                                   : nullptr,
                               p, reach,
                               [&] {
                                 merge();
                                 return sqrtf(bound);
                               },
                               scan);
    }
    merge();

    // The audit: the list a brute-force search over every agent keeps, and how many of its
    // entries the grid's list lacks (false negatives; 0 unless the grid is wrong).
    uint32_t missed = kNotAudited;
    if (audit_every != 0 && i % audit_every == 0) {
      uint64_t true_key[kMaxNeighborsLimit];
      int true_count = 0;
      for (uint32_t j = 0; j < agents.count; ++j) {
        if (j == i) continue;
        const Vec2 d{agents.px[j] - p.x, agents.py[j] - p.y};
        const float dist_sq = LengthSq(d);
        if (!IsCandidate(dist_sq, r, agents.radius[j], s, agents.max_speed[j], params)) continue;
        const uint64_t key = NeighborKey((agents.flags[j] & kAgentNonCooperative) == 0,
                                         order(dist_sq, d, j), agents.id[j]);
        if (true_count == k_max && key >= true_key[k_max - 1]) continue;
        int pos = true_count < k_max ? true_count++ : k_max - 1;
        while (pos > 0 && key < true_key[pos - 1]) {
          true_key[pos] = true_key[pos - 1];
          --pos;
        }
        true_key[pos] = key;
      }
      // Both lists ascend: one walk counts the true entries the kept list lacks.
      missed = 0;
      for (int a = 0, b = 0; a < true_count;) {
        if (b < count && kept_key[b] < true_key[a]) {
          ++b;
        } else if (b < count && kept_key[b] == true_key[a]) {
          ++a;
          ++b;
        } else {
          ++missed;
          ++a;
        }
      }
    }

    uint32_t* list = lists + static_cast<size_t>(i) * static_cast<size_t>(k_max);
    for (int k = 0; k < count; ++k) list[k] = kept_index[k];
    kept_count[i] = static_cast<uint16_t>(count);
    candidate_count[i] = static_cast<uint16_t>(candidates > 65535u ? 65535u : candidates);
    audit_missed[i] = static_cast<uint16_t>(missed);
    kept_bound[i] = bound;
  }
};

// Per bucket of the neighbour grid, whether it holds a non-cooperative agent: such an
// agent enters every neighbour list within its reach at any distance, so a scan that
// shrinks to its kept list still reads these buckets (NeighborQueryFunctor).
struct NonCooperativeBucketsFunctor {
  const uint32_t* __restrict__ offsets;  // BucketCount + 1 entries
  const uint8_t* __restrict__ flags;     // grid order
  uint8_t* __restrict__ marked;          // per bucket
  THRONG_HD void operator()(uint32_t b) const {
    uint8_t any = 0;
    for (uint32_t j = offsets[b]; j < offsets[b + 1]; ++j) any |= flags[j];
    marked[b] = (any & kAgentNonCooperative) != 0;
  }
};

// The solve's results in grid order: pass 1 writes them, each repair pass reads them and
// then writes its re-solved agents' answers back (kernels/orca/orca_repair.cuh); the last
// pass's go to the output.
struct PassStateView {
  float* __restrict__ vx;
  float* __restrict__ vy;
  uint8_t* __restrict__ status;
  uint8_t* __restrict__ flags;
  uint16_t* __restrict__ constraints;
};

THRONG_HD inline orca::AgentState AgentStateOf(const SortedAgentsView& a, uint32_t i) {
  return {{a.px[i], a.py[i]}, {a.vx[i], a.vy[i]}, {a.pref_vx[i], a.pref_vy[i]},
          a.radius[i],        a.max_speed[i],     a.id[i]};
}

THRONG_HD inline orca::NeighborState NeighborStateOf(const SortedAgentsView& a, uint32_t j) {
  return {{a.px[j], a.py[j]},
          {a.vx[j], a.vy[j]},
          {a.pref_vx[j], a.pref_vy[j]},
          a.radius[j],
          a.id[j],
          (a.flags[j] & kAgentNonCooperative) != 0};
}

// Right of way (OrcaParams::right_of_way): the velocity each slow cooperative agent would
// take with only the walls in its way, read by its neighbours when they give way to it.
struct WantFunctor {
  SortedAgentsView agents;
  orca::ObstacleView obstacles;
  OrcaParams params;
  float* __restrict__ want_vx;
  float* __restrict__ want_vy;

  THRONG_HD void operator()(uint32_t i) const {
    const orca::AgentState a = AgentStateOf(agents, i);
    Vec2 want = a.v_pref;
    if ((agents.flags[i] & kAgentNonCooperative) == 0 &&
        orca::SlowForRightOfWay(a.v, a.v_pref, a.max_speed)) {
      want = orca::WantedVelocity(a, obstacles, params);
    }
    want_vx[i] = want.x;
    want_vy[i] = want.y;
  }
};

// Right of way: agent i gives way to each kept neighbour that goes first in a jam, avoiding
// it with full responsibility at the velocity it has and (SolveAgent's second line) at the
// one it wants. Nothing when the rule is off.
THRONG_HD inline void GiveRightOfWay(const SortedAgentsView& agents, uint32_t i,
                                     const uint32_t* list, int count,
                                     orca::NeighborState* neighbors) {
  if (agents.want_vx == nullptr) return;
  const orca::AgentState self = AgentStateOf(agents, i);
  // Only the slow give way (GivesWayTo): an agent that is not need not look at its
  // neighbours.
  if (!orca::SlowForRightOfWay(self.v, self.v_pref, self.max_speed)) return;
  const Vec2 self_want{agents.want_vx[i], agents.want_vy[i]};
  for (int k = 0; k < count; ++k) {
    const uint32_t j = list[k];
    const Vec2 want{agents.want_vx[j], agents.want_vy[j]};
    if (orca::GivesWayTo(self, self_want, neighbors[k], want, agents.max_speed[j])) {
      neighbors[k].v_want = want;
      neighbors[k].non_cooperative = true;
      neighbors[k].demoted = true;  // it does give way to others: no reason to push
      neighbors[k].goes_first = true;
    }
  }
}

// Agent i's kept neighbours as its solves see them, right of way applied, into
// `neighbors`; returns i's list (sorted indices).
THRONG_HD inline const uint32_t* KeptNeighbors(const SortedAgentsView& agents,
                                               const uint32_t* lists, int max_neighbors,
                                               int count, uint32_t i,
                                               orca::NeighborState* neighbors) {
  const uint32_t* list = lists + static_cast<size_t>(i) * static_cast<size_t>(max_neighbors);
  for (int k = 0; k < count; ++k) neighbors[k] = NeighborStateOf(agents, list[k]);
  GiveRightOfWay(agents, i, list, count, neighbors);
  return list;
}

// The solve functors are instantiated per neighbour cap (orca::SolveAgent): the pipeline
// takes the small one when max_neighbors fits it.
template <int kNeighborCap>
struct OrcaPassOneFunctorFor {
  SortedAgentsView agents;
  const uint32_t* __restrict__ lists;
  const uint16_t* __restrict__ kept_count;
  orca::ObstacleView obstacles;
  OrcaParams params;
  PassStateView out;

  THRONG_HD void operator()(uint32_t i) const {
    if (agents.flags[i] & kAgentNonCooperative) {
      // Not solved: keeps the velocity its caller gave it.
      out.vx[i] = agents.vx[i];
      out.vy[i] = agents.vy[i];
      out.status[i] = static_cast<uint8_t>(SolveStatus::kOk);
      out.flags[i] = 0;
      out.constraints[i] = 0;
      return;
    }
    const int count = kept_count[i];
    LocalArray<orca::NeighborState, kNeighborCap> neighbor_storage;
    orca::NeighborState* const neighbors = neighbor_storage.data();
    KeptNeighbors(agents, lists, params.max_neighbors, count, i, neighbors);
    const orca::SolveOutput solved = orca::SolveAgent<kNeighborCap>(
        AgentStateOf(agents, i), neighbors, count, obstacles, params);
    out.vx[i] = solved.velocity.x;
    out.vy[i] = solved.velocity.y;
    out.status[i] = static_cast<uint8_t>(solved.status);
    out.flags[i] = solved.flags;
    out.constraints[i] = static_cast<uint16_t>(solved.constraints);
  }
};
using OrcaPassOneFunctor = OrcaPassOneFunctorFor<kMaxNeighborsLimit>;

// Calls f with the neighbour cap for max_neighbors, as a std::integral_constant: the small
// one where it fits (a GPU thread's stack for the solve drops from about 7 KB to about 4 KB).
template <class F>
inline void WithNeighborCap(int max_neighbors, F&& f) {
  if (max_neighbors <= kSmallNeighborCap) {
    f(std::integral_constant<int, kSmallNeighborCap>{});
  } else {
    f(std::integral_constant<int, kMaxNeighborsLimit>{});
  }
}

// The last pass's results and the neighbour counts, written at input indices (one writer
// each, no atomics).
struct OrcaWriteResultsFunctor {
  SortedAgentsView agents;
  const uint32_t* __restrict__ lists;
  int max_neighbors;
  const uint16_t* __restrict__ kept_count;
  const uint16_t* __restrict__ candidate_count;
  const uint16_t* __restrict__ audit_missed;
  PassStateView last;
  OrcaOutputView out;

  THRONG_HD void operator()(uint32_t i) const {
    const uint32_t dst = agents.input_index[i];
    Vec2 v{last.vx[i], last.vy[i]};
    auto status = static_cast<SolveStatus>(last.status[i]);
    if (!(agents.flags[i] & kAgentNonCooperative))
      orca::GuardResult(agents.max_speed[i], &v, &status);
    out.vx[dst] = v.x;
    out.vy[dst] = v.y;
    out.status[dst] = static_cast<uint8_t>(status);
    out.solve_flags[dst] = last.flags[i];
    out.constraints[dst] = last.constraints[i];
    out.candidates[dst] = candidate_count[i];
    out.neighbors[dst] = kept_count[i];
    out.audit_missed[dst] = audit_missed[i];
    if (out.kept_ids != nullptr) {
      const size_t k = static_cast<size_t>(max_neighbors);
      for (size_t m = 0; m < k; ++m) {
        out.kept_ids[dst * k + m] =
            m < kept_count[i] ? agents.id[lists[static_cast<size_t>(i) * k + m]] : kNoKeptId;
      }
    }
  }
};

}  // namespace throng
