// The contact count on a parallel backend, written once with Thrust execution policies
// and compiled by both (cpu_backend.cpp, cuda_contacts.cu): the agents in a neighbour grid
// (the last ORCA solve's, which sorted them before they moved, or a sort of their own),
// then two reductions, one over agents (overlapping pairs, obstacles touched) and one over
// vehicle bodies. Integer sums: the counts are the same whatever the thread count, device
// or grid.
#pragma once

#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/backends/aabb_grid_buffers.cuh"
#include "kernels/backends/contact_kernel.cuh"
#include "kernels/backends/contact_rings.h"
#include "kernels/backends/grid_build.cuh"
#include "kernels/backends/light_policy.cuh"
#include "kernels/input/stop_request.h"
#include "kernels/math/scalar.cuh"
#include "kernels/orca/orca_types.h"
#include "kernels/spatial/aabb_grid.h"
#include "kernels/spatial/box_cover.h"

namespace throng {

struct ContactBounds {
  float r_max, x_lo, x_hi, y_lo, y_hi;
};

struct ContactBoundsOf {
  const float* x;
  const float* y;
  const float* radius;
  THRONG_HD ContactBounds operator()(uint32_t i) const {
    return {radius[i], x[i], x[i], y[i], y[i]};
  }
};

struct CombineContactBounds {
  THRONG_HD ContactBounds operator()(const ContactBounds& a, const ContactBounds& b) const {
    return {MaxF(a.r_max, b.r_max), MinF(a.x_lo, b.x_lo), MaxF(a.x_hi, b.x_hi),
            MinF(a.y_lo, b.y_lo), MaxF(a.y_hi, b.y_hi)};
  }
};

// Copies x, y and radius into grid order: slot k holds the agent of row input_index[k],
// or, where that row is not one of the n agents (a vehicle disc of the ORCA solve whose
// grid is read), no agent: radius -1 and position NaN, which no test counts.
struct ContactSlotGatherFunctor {
  const float* __restrict__ x_in;
  const float* __restrict__ y_in;
  const float* __restrict__ radius_in;
  uint32_t n;
  const uint32_t* __restrict__ input_index;
  float* __restrict__ x;
  float* __restrict__ y;
  float* __restrict__ radius;
  THRONG_HD void operator()(uint32_t slot) const {
    const uint32_t k = input_index[slot];
    const bool agent = k < n;
    x[slot] = agent ? x_in[k] : NAN;
    y[slot] = agent ? y_in[k] : NAN;
    radius[slot] = agent ? radius_in[k] : -1.f;
  }
};

// How far an agent moved from where the solve sorted it, and its radius.
struct MovedAndRadius {
  float moved, r_max;
};

// Gathers a slot's agent (ContactSlotGatherFunctor) and measures how far it is from where
// the solve sorted it, with its radius (0, 0 for an empty slot): the gather and the
// measure in one pass, one parallel region on the cpu instead of two.
struct GatherAndMeasureSlot {
  ContactSlotGatherFunctor gather;
  const float* sorted_x;
  const float* sorted_y;
  THRONG_HD MovedAndRadius operator()(uint32_t slot) const {
    gather(slot);
    const float r = gather.radius[slot];
    if (!(r >= 0.f)) return {0.f, 0.f};
    return {Length(Vec2{gather.x[slot] - sorted_x[slot], gather.y[slot] - sorted_y[slot]}), r};
  }
};

struct CombineMovedAndRadius {
  THRONG_HD MovedAndRadius operator()(const MovedAndRadius& a, const MovedAndRadius& b) const {
    return {MaxF(a.moved, b.moved), MaxF(a.r_max, b.r_max)};
  }
};

// Agents per contact reduction (ContactPipeline::Count): the cpu's 262,144 let a stop
// request in every few milliseconds (100,000 town agents take 4 ms on 2 cores) and count
// a world of 100,000 in one parallel region; a GPU wants a whole device's worth of
// threads per launch (an H200 holds 270,336 at once), and a 1M-agent count in 16 chunks
// paid 16 launches and 16 waits for their sums.
constexpr uint32_t kCpuContactChunk = 1u << 18;
constexpr uint32_t kGpuContactChunk = 1u << 20;

// Vector: std::vector (cpu) or a device vector (cuda). Buffers only grow.
template <template <class...> class Vector>
class ContactPipeline {
 public:
  // The world's obstacle polygons (already validated by the ORCA obstacle set), as rings
  // with boxes indexed in a box grid. `copy(host, backend_vector)` is the upload.
  template <class Copy>
  void SetObstacles(const std::vector<Polygon>& polygons, Copy copy) {
    rings_ = BuildContactRings(polygons);  // kept: an asynchronous upload may still read it
    const ContactRings& rings = rings_;
    std::vector<float> sizes(polygons.size());
    for (size_t k = 0; k < sizes.size(); ++k) {
      sizes[k] = std::max(rings.hi[k].x - rings.lo[k].x, rings.hi[k].y - rings.lo[k].y);
    }
    // Cells about a typical polygon's size: most polygons sit in one to four cells, and a
    // pedestrian's query box (its radius around it) in one to four.
    float cell = 1.f;
    if (!sizes.empty()) {
      std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
      cell = std::max(sizes[sizes.size() / 2], 1.f);
    }
    copy(rings.ring_start, ring_start_);
    copy(rings.ring, ring_);
    copy(rings.lo, lo_);
    copy(rings.hi, hi_);
    grid_.Set(BuildAabbGrid(rings.lo, rings.hi, cell), copy);
    // Cells of half a metre: a pedestrian's box (its radius around it) reads one to four.
    cover_ = BuildBoxCover(rings.lo, rings.hi, 0.5f);  // kept, as rings_
    copy(cover_.words, cover_words_);
    polygons_ = {RawOrNull(ring_start_),
                 RawOrNull(ring_),
                 RawOrNull(lo_),
                 RawOrNull(hi_),
                 grid_.view,
                 static_cast<int32_t>(polygons.size()),
                 cover_.View(RawOrNull(cover_words_))};
  }

  // Counts the contacts of n agents (x, y, radius in the backend's memory) and of
  // `body_count` vehicle bodies (backend memory) against the installed obstacles.
  // `stop` is asked between chunks of `chunk` agents: each chunk is one reduction whose
  // sum comes back to the host, so a GPU takes chunks as large as it runs at once
  // (kGpuContactChunk) and the cpu small ones (kCpuContactChunk). The counts are integers:
  // the chunking never changes them.
  template <class Policy>
  CollisionCounts Count(const Policy& policy, const float* x, const float* y, const float* radius,
                        uint32_t n, const VehicleBody* bodies, uint32_t body_count, uint32_t chunk,
                        const StopRequested& stop) {
    CollisionCounts counts;
    if (n == 0) return counts;
    const thrust::counting_iterator<uint32_t> first(0);
    const ContactBounds b = thrust::transform_reduce(
        Light(policy), first, first + n, ContactBoundsOf{x, y, radius},
        ContactBounds{0.f, INFINITY, -INFINITY, INFINITY, -INFINITY}, CombineContactBounds{});
    // The widest query is r_max + r_max; a few cells per query as in the ORCA grid.
    const float reach = 2.f * b.r_max;
    const int k = CellsPerRadius(reach, b.x_hi - b.x_lo, b.y_hi - b.y_lo, n);
    const float cell = std::max(reach * 1.0002f / static_cast<float>(k), 1e-3f);
    const GridSpec grid = MakeGridSpec(n, cell, b.x_hi - b.x_lo, b.y_hi - b.y_lo);
    SortIntoGrid(policy, x, y, n, grid, buckets_, order_, offsets_);
    Grow(x_, n);
    Grow(y_, n);
    Grow(radius_, n);
    thrust::for_each_n(
        Light(policy), first, n,
        ContactSlotGatherFunctor{x, y, radius, n, Raw(order_), Raw(x_), Raw(y_), Raw(radius_)});
    const ContactAgentsView agents{Raw(x_), Raw(y_), Raw(radius_), Raw(offsets_), grid, b.r_max, n};
    return CountIn(policy, agents, bodies, body_count, chunk, stop);
  }

  // As Count, on the grid of the last ORCA solve (`solved`) when the scene's n agents are
  // that solve's first n rows moved since (the world counts after the move): the agents
  // are gathered into the solve's slots rather than sorted, and each query reaches as far
  // again as the farthest agent moved. Exact for any positions: `moved` is measured, not
  // assumed. Returns false, having counted nothing, when the solve had fewer rows or its
  // cells are too small for the queries (a query would read more than 9 rows of cells, as
  // the count's own grid never does, and could meet a bucket row twice): Count is then
  // the caller's fallback.
  template <class Policy>
  bool CountOnSolveGrid(const Policy& policy, const GridPointsView& solved, const float* x,
                        const float* y, const float* radius, uint32_t n, const VehicleBody* bodies,
                        uint32_t body_count, uint32_t chunk, const StopRequested& stop,
                        CollisionCounts* counts) {
    if (n == 0) {
      *counts = {};
      return true;
    }
    if (solved.count < n) return false;
    const uint32_t slots = solved.count;
    const thrust::counting_iterator<uint32_t> first(0);
    Grow(x_, slots);
    Grow(y_, slots);
    Grow(radius_, slots);
    const ContactSlotGatherFunctor gather{x,       y,       radius,      n, solved.input_index,
                                          Raw(x_), Raw(y_), Raw(radius_)};
    const MovedAndRadius b = thrust::transform_reduce(
        Light(policy), first, first + slots, GatherAndMeasureSlot{gather, solved.x, solved.y},
        MovedAndRadius{0.f, 0.f}, CombineMovedAndRadius{});
    // A rounding's worth more than measured.
    const float moved = b.moved * 1.0001f + 1e-6f;
    if (!(2.f * b.r_max + moved <= 4.f * solved.grid.cell)) return false;
    ContactAgentsView agents{Raw(x_),     Raw(y_), Raw(radius_), solved.offsets,
                             solved.grid, b.r_max, slots};
    agents.moved = moved;
    *counts = CountIn(policy, agents, bodies, body_count, chunk, stop);
    return true;
  }

 private:
  // The reductions over agents (in chunks, asking `stop` between them: one very large
  // agent makes every cell large, and a stopped tick should not wait for the whole
  // count) and over vehicle bodies.
  template <class Policy>
  CollisionCounts CountIn(const Policy& policy, const ContactAgentsView& agents,
                          const VehicleBody* bodies, uint32_t body_count, uint32_t chunk,
                          const StopRequested& stop) {
    const thrust::counting_iterator<uint32_t> first(0);
    const uint32_t n = agents.count;
    chunk = std::max<uint32_t>(chunk, 1);
    AgentContactSums sums;
    for (uint32_t begin = 0; begin < n; begin += std::min(chunk, n - begin)) {
      ThrowIfStopRequested(stop, "stats");
      const uint32_t end = begin + std::min(chunk, n - begin);
      sums = AddAgentContactSums{}(
          sums, thrust::transform_reduce(policy, first + begin, first + end,
                                         AgentContactsFunctor{agents, polygons_},
                                         AgentContactSums{}, AddAgentContactSums{}));
    }
    CollisionCounts counts;
    counts.agent_pairs = sums.pairs;
    counts.agents_in_obstacles = sums.in_obstacles;
    if (body_count > 0) {
      counts.agent_vehicle = thrust::transform_reduce(policy, first, first + body_count,
                                                      BodyContactsFunctor{agents, bodies},
                                                      uint64_t{0}, thrust::plus<uint64_t>());
    }
    return counts;
  }

  ContactRings rings_;
  BoxCoverHost cover_;
  Vector<uint32_t> cover_words_;
  Vector<int32_t> ring_start_;
  Vector<Vec2> ring_, lo_, hi_;
  AabbGridBuffers<Vector> grid_;
  ContactPolygonsView polygons_;
  Vector<uint32_t> buckets_, order_, offsets_;
  Vector<float> x_, y_, radius_;
};

}  // namespace throng
