// The ORCA tick on a parallel backend, written once with Thrust execution policies and
// compiled twice: by nvcc (cuda_backend.cu, device vectors) and by the host compiler
// (cpu_backend.cpp, std::vector, OpenMP). Stages: grid (keys, sort, gather, cell
// ranges), neighbour query, solve (pass 1), repair passes (re-validation). Buffers only grow, so
// steady-state ticks allocate nothing.
#pragma once

#include <thrust/copy.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

#include "kernels/backends/grid_build.cuh"
#include "kernels/backends/light_policy.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/orca/orca_agent.cuh"
#include "kernels/orca/orca_repair.cuh"
#include "kernels/spatial/grid.cuh"

namespace throng {

// The caller's agent columns in the backend's memory (input order).
struct AgentInputView {
  const float* px;
  const float* py;
  const float* vx;
  const float* vy;
  const float* radius;
  const float* max_speed;
  const float* pref_vx;
  const float* pref_vy;
  const uint32_t* id;
  const uint8_t* flags;
  uint32_t count;
};

// Copies agent fields into grid order.
struct GatherFunctor {
  AgentInputView in;
  const uint32_t* __restrict__ order;  // input index of each sorted slot
  float* __restrict__ px;
  float* __restrict__ py;
  float* __restrict__ vx;
  float* __restrict__ vy;
  float* __restrict__ radius;
  float* __restrict__ max_speed;
  float* __restrict__ pref_vx;
  float* __restrict__ pref_vy;
  uint32_t* __restrict__ id;
  uint8_t* __restrict__ flags;
  uint32_t* __restrict__ input_index;
  QueryPoint* __restrict__ points;

  THRONG_HD void operator()(uint32_t i) const {
    const uint32_t src = order[i];
    px[i] = in.px[src];
    py[i] = in.py[src];
    vx[i] = in.vx[src];
    vy[i] = in.vy[src];
    radius[i] = in.radius[src];
    max_speed[i] = in.max_speed[src];
    pref_vx[i] = in.pref_vx[src];
    pref_vy[i] = in.pref_vy[src];
    id[i] = in.id[src];
    flags[i] = in.flags[src];
    input_index[i] = src;
    points[i] = {in.px[src], in.py[src], in.radius[src], in.max_speed[src]};
  }
};

// What the grid needs to know of a snapshot: largest radius and speed, bounding box, and
// whether any agent is non-cooperative (the neighbour scan's marks are needed then only).
struct SnapshotBounds {
  float r_max, s_max, x_lo, x_hi, y_lo, y_hi;
  uint32_t flags;  // every agent's flags, or-ed
  THRONG_HD static SnapshotBounds Empty() {
    return {0.f, 0.f, INFINITY, -INFINITY, INFINITY, -INFINITY, 0u};
  }
};

struct SnapshotBoundsOf {
  const float* px;
  const float* py;
  const float* radius;
  const float* max_speed;
  const uint8_t* flags;
  THRONG_HD SnapshotBounds operator()(uint32_t i) const {
    return {radius[i], max_speed[i], px[i], px[i], py[i], py[i], flags[i]};
  }
};

struct CombineBounds {
  THRONG_HD SnapshotBounds operator()(const SnapshotBounds& a, const SnapshotBounds& b) const {
    return {MaxF(a.r_max, b.r_max), MaxF(a.s_max, b.s_max), MinF(a.x_lo, b.x_lo),
            MaxF(a.x_hi, b.x_hi),   MinF(a.y_lo, b.y_lo),   MaxF(a.y_hi, b.y_hi),
            a.flags | b.flags};
  }
};

// Vector: a class template for the backend's memory (std::vector or a device vector).
template <template <class...> class Vector>
class OrcaPipeline {
 public:
  // Runs grid, neighbours and solve for `in`, writing results through `out` (backend
  // memory, input order). `sync` waits for queued work (timing needs it on a GPU). The
  // per-agent stages run `chunk` agents per launch and ask `run.stop` before each, so a
  // stopped tick ends within one chunk (TickCancelled); results do not depend on it.
  template <class Policy, class Sync>
  void Run(const Policy& policy, Sync sync, const AgentInputView& in, const OrcaParams& asked,
           const orca::ObstacleView& obstacles, const OrcaRunOptions& run, uint32_t chunk,
           const OrcaOutputView& out, OrcaStageTimes* times) {
    const uint32_t n = in.count;
    last_grid_ = {};
    if (n == 0) return;
    const uint32_t audit_every = run.audit_every;
    auto for_each_agent = [&](const char* stage, auto functor) {
      for (uint32_t begin = 0; begin < n; begin += chunk) {
        ThrowIfStopRequested(run.stop, stage);
        thrust::for_each_n(policy, thrust::counting_iterator<uint32_t>(begin),
                           std::min(chunk, n - begin), functor);
      }
    };
    using Clock = std::chrono::steady_clock;
    auto ms_since = [](Clock::time_point t0) {
      return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    };
    const thrust::counting_iterator<uint32_t> first(0);

    // Grid: cells of the largest per-pair query radius / k (kernels/spatial/grid.cuh).
    auto t0 = Clock::now();
    // One pass for the grid's inputs: min and max are exact, whatever the thread count.
    const SnapshotBounds b =
        thrust::transform_reduce(Light(policy), first, first + n,
                                 SnapshotBoundsOf{in.px, in.py, in.radius, in.max_speed, in.flags},
                                 SnapshotBounds::Empty(), CombineBounds{});
    // Round standing obstacles walks round agents the caller drives only: with none in the
    // world it has nothing to do, and its test of every neighbour list is spared.
    OrcaParams params = asked;
    if (!(b.flags & kAgentNonCooperative)) params.standing_detour = false;
    const float r_max = b.r_max, s_max = b.s_max;
    const float x_lo = b.x_lo, x_hi = b.x_hi, y_lo = b.y_lo, y_hi = b.y_hi;
    float reach = 2.f * r_max + 2.f * s_max * params.time_horizon;
    if (params.neighbor_dist > 0.f) reach = std::min(reach, params.neighbor_dist);
    // Queries add 1e-4 relative slack to their radius; the cell adds 2e-4 so that a
    // query disc never spans more than 2 k + 1 cells.
    const int cells_per_radius = CellsPerRadius(reach, x_hi - x_lo, y_hi - y_lo, n);
    // A cell larger than needed only costs time; a tiny one would overflow 1 / cell.
    const float cell = std::max(reach * 1.0002f / static_cast<float>(cells_per_radius), 1e-3f);
    const GridSpec grid = MakeGridSpec(n, cell, x_hi - x_lo, y_hi - y_lo);
    for (auto* v : {&px_, &py_, &vx_, &vy_, &radius_, &max_speed_, &pref_vx_, &pref_vy_})
      Grow(*v, n);
    Grow(id_, n);
    Grow(input_index_, n);
    Grow(flags_, n);
    Grow(points_, n);
    SortIntoGrid(policy, in.px, in.py, n, grid, buckets_, order_, offsets_);
    thrust::for_each_n(Light(policy), first, n,
                       GatherFunctor{in, Raw(order_), Raw(px_), Raw(py_), Raw(vx_), Raw(vy_),
                                     Raw(radius_), Raw(max_speed_), Raw(pref_vx_), Raw(pref_vy_),
                                     Raw(id_), Raw(flags_), Raw(input_index_), Raw(points_)});
    sync();
    times->grid_ms += ms_since(t0);
    last_grid_ = {Raw(px_),          Raw(py_),      Raw(radius_), Raw(vx_), Raw(vy_),
                  Raw(input_index_), Raw(offsets_), grid,         n,        r_max};

    SortedAgentsView sorted{Raw(px_),     Raw(py_),        Raw(vx_),          Raw(vy_),
                            Raw(radius_), Raw(max_speed_), Raw(pref_vx_),     Raw(pref_vy_),
                            Raw(id_),     Raw(flags_),     Raw(input_index_), n};

    t0 = Clock::now();
    const size_t k = static_cast<size_t>(params.max_neighbors);
    Grow(lists_, static_cast<size_t>(n) * k);
    Grow(kept_, n);
    Grow(candidates_, n);
    Grow(missed_, n);
    Grow(kept_bound_, n);
    // The scan shrinks to each full list unless asked to count every candidate; it reads
    // the buckets of non-cooperative agents beyond, marked here when there are any.
    NeighborScan scan = NeighborScan::kWholeDisc;
    if (!run.count_every_candidate) {
      scan = (b.flags & kAgentNonCooperative) ? NeighborScan::kShrinkPastMarks
                                              : NeighborScan::kShrink;
    }
    if (scan == NeighborScan::kShrinkPastMarks) {
      const uint32_t buckets = BucketCount(grid);
      Grow(non_cooperative_buckets_, buckets);
      thrust::for_each_n(
          Light(policy), first, buckets,
          NonCooperativeBucketsFunctor{Raw(offsets_), Raw(flags_), Raw(non_cooperative_buckets_)});
    }
    for_each_agent("candidates",
                   NeighborQueryFunctor{sorted, Raw(points_), Raw(offsets_), grid, params, r_max,
                                        s_max, audit_every, Raw(lists_), Raw(kept_),
                                        Raw(candidates_), Raw(missed_), Raw(kept_bound_), scan,
                                        scan == NeighborScan::kShrinkPastMarks
                                            ? Raw(non_cooperative_buckets_)
                                            : nullptr});
    sync();
    times->neighbors_ms += ms_since(t0);

    t0 = Clock::now();
    if (params.right_of_way) {
      Grow(want_vx_, n);
      Grow(want_vy_, n);
      thrust::for_each_n(policy, first, n,
                         WantFunctor{sorted, obstacles, params, Raw(want_vx_), Raw(want_vy_)});
      sorted.want_vx = Raw(want_vx_);
      sorted.want_vy = Raw(want_vy_);
    }
    state_.Grow(n);
    const PassStateView state = state_.View();
    WithNeighborCap(params.max_neighbors, [&](auto cap) {
      for_each_agent("orca", OrcaPassOneFunctorFor<decltype(cap)::value>{
                                 sorted, Raw(lists_), Raw(kept_), obstacles, params, state});
    });
    sync();
    times->solve_ms += ms_since(t0);

    t0 = Clock::now();
    RepairPasses(policy, sync, sorted, grid, reach * 1.0001f, obstacles, params, n);
    thrust::for_each_n(
        Light(policy), first, n,
        OrcaWriteResultsFunctor{sorted, Raw(lists_), params.max_neighbors, Raw(kept_),
                                Raw(candidates_), Raw(missed_), state, out});
    sync();
    times->revalidate_ms += ms_since(t0);
  }

  // The last solve's agents in grid order and the grid they were sorted into, valid until
  // the next solve: the path check reads them rather than sorting the same points again
  // (docs/ARCHITECTURE.md). count 0 before the first solve and after an empty one.
  const GridPointsView& LastGrid() const { return last_grid_; }

 private:
  // The repair passes (kernels/orca/orca_repair.cuh) on the state pass 1 wrote: each lists
  // the agents that keep one that turned in the pass before, re-solves them into a side
  // buffer, then writes them back. A pass in which nobody turned leaves nothing for the
  // next one to do, so the loop stops there. `reach`: the neighbour query's largest.
  // The lists' lengths are counted on the backend; each pass has its own two counters,
  // zeroed together in stream order, and `sync` waits for a count before it is read.
  template <class Policy, class Sync>
  void RepairPasses(const Policy& policy, Sync sync, const SortedAgentsView& sorted,
                    const GridSpec& grid, float reach, const orca::ObstacleView& obstacles,
                    const OrcaParams& params, uint32_t n) {
    const int passes = params.revalidate ? params.revalidate_passes : 0;
    if (passes == 0) return;
    const thrust::counting_iterator<uint32_t> first(0);
    const PassStateView state = state_.View();
    Grow(turned_, n);
    Grow(work_, n);
    Grow(marks_, n);  // new entries are 0; each pass clears the marks it set
    if (!marks_clear_) thrust::fill(policy, marks_.begin(), marks_.end(), 0u);  // a pass threw
    marks_clear_ = false;
    const size_t counters = 2 * static_cast<size_t>(passes);
    Grow(counts_, counters);
    thrust::fill_n(policy, counts_.begin(), counters, 0u);
    uint32_t* const counts = Raw(counts_);
    auto turned_count = static_cast<uint32_t>(
        thrust::copy_if(policy, first, first + n, state.status, turned_.begin(), IsNotOk{}) -
        turned_.begin());
    for (int pass = 0; pass < passes && turned_count > 0; ++pass) {
      uint32_t* const work_count_at = counts + 2 * pass;
      thrust::for_each_n(policy, first, turned_count,
                         MarkRepairsFunctor{sorted, Raw(points_), Raw(offsets_), grid, reach,
                                            Raw(lists_), Raw(kept_), Raw(kept_bound_),
                                            params.max_neighbors, state.status, Raw(turned_),
                                            Raw(marks_), Raw(work_), work_count_at});
      sync();
      const uint32_t work_count = counts_[2 * pass];
      if (work_count == 0) break;
      repaired_.Grow(work_count);
      const RepairOutputView repaired = repaired_.View();
      WithNeighborCap(params.max_neighbors, [&](auto cap) {
        thrust::for_each_n(policy, first, work_count,
                           OrcaRepairFunctorFor<decltype(cap)::value>{
                               sorted, Raw(lists_), Raw(kept_), state, obstacles, params,
                               Raw(work_), repaired});
      });
      thrust::for_each_n(policy, first, work_count,
                         ApplyRepairsFunctor{Raw(work_), repaired, state, Raw(marks_),
                                             Raw(turned_), work_count_at + 1});
      sync();
      turned_count = counts_[2 * pass + 1];
    }
    marks_clear_ = true;
  }

  GridPointsView last_grid_;
  Vector<uint32_t> buckets_, order_;  // sorted buckets; input index per sorted slot
  Vector<float> px_, py_, vx_, vy_, radius_, max_speed_, pref_vx_, pref_vy_;
  Vector<float> want_vx_, want_vy_;  // right of way only
  Vector<uint32_t> id_, input_index_;
  Vector<uint8_t> flags_;
  Vector<QueryPoint> points_;
  Vector<uint32_t> offsets_, lists_;
  Vector<uint16_t> kept_, candidates_, missed_;
  Vector<float> kept_bound_;
  Vector<uint8_t> non_cooperative_buckets_;  // per bucket: holds a non-cooperative agent
  // The solve's per-agent results (grid order), as pass 1 wrote them and the repairs
  // rewrite them.
  struct State {
    Vector<float> vx, vy;
    Vector<uint8_t> status, flags;
    Vector<uint16_t> constraints;
    void Grow(size_t n) {
      for (auto* v : {&vx, &vy}) throng::Grow(*v, n);
      for (auto* v : {&status, &flags}) throng::Grow(*v, n);
      throng::Grow(constraints, n);
    }
    PassStateView View() { return {Raw(vx), Raw(vy), Raw(status), Raw(flags), Raw(constraints)}; }
  };
  State state_;
  // A repair pass's re-solves, in work-list order (as many as the largest pass had).
  struct Repaired {
    Vector<float> vx, vy;
    Vector<uint8_t> status, flags, turned;
    void Grow(size_t n) {
      for (auto* v : {&vx, &vy}) throng::Grow(*v, n);
      for (auto* v : {&status, &flags, &turned}) throng::Grow(*v, n);
    }
    RepairOutputView View() { return {Raw(vx), Raw(vy), Raw(status), Raw(flags), Raw(turned)}; }
  };
  Repaired repaired_;
  // Sorted indices of the agents that turned in the last pass; of those that re-solve in
  // this one; one mark per agent (0 between passes; false: a pass threw before clearing
  // them); the two lists' lengths, per pass.
  Vector<uint32_t> turned_, work_, marks_, counts_;
  bool marks_clear_ = true;
};

}  // namespace throng
