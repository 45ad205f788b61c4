// The vehicles' path check on a parallel backend (kernels/vehicles/path_check.cuh), written
// once with Thrust execution policies for cpu and cuda: pedestrians and the vehicles' discs
// as one set of points in a neighbour grid, then one walk per vehicle along its lane. The
// grid is the ORCA solve's when that solve had the same points (RunOnOrcaGrid), else its
// own (Run, SortIntoGrid). Buffers only grow.
#pragma once

#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <cstdint>

#include "kernels/backends/grid_build.cuh"
#include "kernels/backends/light_policy.cuh"
#include "kernels/input/stop_request.h"
#include "kernels/math/scalar.cuh"
#include "kernels/spatial/grid.cuh"
#include "kernels/vehicles/path_check.cuh"
#include "kernels/vehicles/vehicle_discs.cuh"

namespace throng {

// The scene's columns in the backend's memory.
struct PathSceneView {
  const float* agent_x;
  const float* agent_y;
  const float* agent_radius;
  const float* agent_vx;
  const float* agent_vy;
  uint32_t agents;
  PathVehiclesView vehicles;
  uint32_t vehicle_count;
};

// Points in input order: pedestrians first, then each vehicle's discs from disc_start[v].
struct PathPointsWriter {
  PathSceneView scene;
  const uint32_t* disc_start;
  float *x, *y, *r, *vx, *vy;
  int32_t* owner;
  THRONG_HD void Pedestrian(uint32_t k) const {
    x[k] = scene.agent_x[k];
    y[k] = scene.agent_y[k];
    r[k] = scene.agent_radius[k];
    vx[k] = scene.agent_vx[k];
    vy[k] = scene.agent_vy[k];
    owner[k] = -1;
  }
  THRONG_HD void Discs(uint32_t v) const {
    const VehicleBody body = scene.vehicles.bodies[v];
    const uint32_t first = scene.agents + disc_start[v];
    for (int j = 0; j < body.DiscCount(); ++j) {
      const Vec2 c = body.Disc(j);
      const uint32_t k = first + static_cast<uint32_t>(j);
      x[k] = c.x;
      y[k] = c.y;
      r[k] = body.DiscRadius();
      vx[k] = 0.f;
      vy[k] = 0.f;
      owner[k] = static_cast<int32_t>(v);
    }
  }
};

struct WritePedestrians {
  PathPointsWriter w;
  THRONG_HD void operator()(uint32_t k) const { w.Pedestrian(k); }
};
struct WriteDiscs {
  PathPointsWriter w;
  THRONG_HD void operator()(uint32_t v) const { w.Discs(v); }
};

// Copies the points into grid order, packed as the walk reads them.
struct PathGatherFunctor {
  const uint32_t* order;
  const float *x_in, *y_in, *r_in, *vx_in, *vy_in;
  const int32_t* owner_in;
  PathPoint* point;
  float *vx, *vy;
  THRONG_HD void operator()(uint32_t i) const {
    const uint32_t src = order[i];
    point[i] = {x_in[src], y_in[src], r_in[src], owner_in[src]};
    vx[i] = vx_in[src];
    vy[i] = vy_in[src];
  }
};

// The fastest pedestrian and the largest one: what widens a corridor's search across.
struct WalkerExtent {
  float speed, radius;
};
struct LargerWalkerExtent {
  THRONG_HD WalkerExtent operator()(const WalkerExtent& a, const WalkerExtent& b) const {
    return {MaxF(a.speed, b.speed), MaxF(a.radius, b.radius)};
  }
};
struct WalkerExtentOf {
  const float *vx, *vy, *r;
  THRONG_HD WalkerExtent operator()(uint32_t k) const { return {Length(Vec2{vx[k], vy[k]}), r[k]}; }
};

// Each disc's vehicle, at the disc's place after the pedestrians' (disc_start[v] on).
struct WriteDiscOwners {
  const VehicleBody* bodies;
  const uint32_t* disc_start;
  int32_t* disc_owner;
  THRONG_HD void operator()(uint32_t v) const {
    for (int j = 0; j < bodies[v].DiscCount(); ++j) {
      disc_owner[disc_start[v] + static_cast<uint32_t>(j)] = static_cast<int32_t>(v);
    }
  }
};

// Each slot of the ORCA grid packed as the walk reads it, with its owner: -1 for a
// pedestrian (its row is below `pedestrians`), else the disc's vehicle. Returns the
// slot's speed and radius if a pedestrian's, zeros for a disc: the reduction over it finds
// the fastest and the largest walker in the same pass.
struct SlotPointFunctor {
  GridPointsView solved;
  uint32_t pedestrians;
  const int32_t* disc_owner;
  PathPoint* point;
  THRONG_HD WalkerExtent operator()(uint32_t slot) const {
    const uint32_t k = solved.input_index[slot];
    const int32_t owner = k < pedestrians ? -1 : disc_owner[k - pedestrians];
    point[slot] = {solved.x[slot], solved.y[slot], solved.radius[slot], owner};
    if (owner >= 0) return {0.f, 0.f};
    return {Length(Vec2{solved.vx[slot], solved.vy[slot]}), solved.radius[slot]};
  }
};
struct ValueOf {
  const float* values;
  THRONG_HD float operator()(uint32_t k) const { return values[k]; }
};
struct BodyWidthOf {
  const VehicleBody* bodies;
  THRONG_HD float operator()(uint32_t v) const { return bodies[v].width; }
};
struct MaxOf {
  THRONG_HD float operator()(float a, float b) const { return MaxF(a, b); }
};

struct PathCheckFunctor {
  PathCheckParams params;
  float max_brake_decel;
  SplineSetView lanes;
  PathPointsView points;  // grid order
  PathVehiclesView vehicles;
  const Vec2* edges;
  int32_t edge_count;
  orca::EdgeGridView edge_grid;
  const uint32_t* offsets;
  GridSpec grid;
  float* clear;
  THRONG_HD void operator()(uint32_t v) const {
    clear[v] = PathClearAhead(
        params, max_brake_decel, lanes, points, vehicles, edges, edge_count, edge_grid, v,
        [&](Vec2 p, Vec2 half, auto&& f) { ForEachBoxRowRange(grid, offsets, p, half, f); });
  }
};

template <template <class...> class Vector>
class PathCheckPipeline {
 public:
  // clear: backend memory, one entry per vehicle. edges: two points per obstacle edge,
  // indexed by edge_grid (backend memory). `stop` is asked between chunks of `chunk`
  // vehicles.
  template <class Policy>
  void Run(const Policy& policy, const PathCheckParams& params, float max_brake_decel,
           const SplineSetView& lanes, const Vec2* edges, int32_t edge_count,
           const orca::EdgeGridView& edge_grid, const PathSceneView& scene,
           const StopRequested& stop, uint32_t chunk, float* clear) {
    const uint32_t n = scene.agents, m = scene.vehicle_count;
    if (m == 0) return;
    const thrust::counting_iterator<uint32_t> first(0);
    const uint32_t total = n + CountDiscs(policy, scene.vehicles.bodies, m);
    for (auto* column : {&x_, &y_, &r_, &vx_, &vy_, &svx_, &svy_}) Grow(*column, total);
    Grow(owner_, total);
    Grow(point_, total);
    const PathPointsWriter writer{scene,   Raw(disc_start_), Raw(x_),  Raw(y_),
                                  Raw(r_), Raw(vx_),         Raw(vy_), Raw(owner_)};
    thrust::for_each_n(Light(policy), first, n, WritePedestrians{writer});
    thrust::for_each_n(Light(policy), first, m, WriteDiscs{writer});

    const float r_max = thrust::transform_reduce(Light(policy), first, first + total,
                                                 ValueOf{Raw(r_)}, 0.f, MaxOf{});
    const WalkerExtent walkers =
        thrust::transform_reduce(Light(policy), first, first + n,
                                 WalkerExtentOf{scene.agent_vx, scene.agent_vy, scene.agent_radius},
                                 WalkerExtent{0.f, 0.f}, LargerWalkerExtent{});
    // The points as the walk reads them, once the gather below has packed them.
    const PathPointsView points{Raw(point_), Raw(svx_),     Raw(svy_),
                                r_max,       walkers.speed, walkers.radius};
    const float reach_max = ReachMax(policy, params, scene.vehicles.bodies, m, points);
    // 2 m cells suit walkers; a far reach (a large body, a fast pedestrian) gets cells of
    // an eighth of it, so that one query reads at most ~17 rows of cells.
    const GridSpec grid = MakeGridSpec(total, std::max(2.f, reach_max / 8.f));
    SortIntoGrid(policy, Raw(x_), Raw(y_), total, grid, buckets_, order_, offsets_);
    thrust::for_each_n(Light(policy), first, total,
                       PathGatherFunctor{Raw(order_), Raw(x_), Raw(y_), Raw(r_), Raw(vx_), Raw(vy_),
                                         Raw(owner_), Raw(point_), Raw(svx_), Raw(svy_)});
    Walk(policy, params, max_brake_decel, lanes, edges, edge_count, edge_grid, points,
         scene.vehicles, Raw(offsets_), grid, m, stop, chunk, clear);
  }

  // As Run, on the grid of an ORCA solve whose agents were the scene's pedestrians
  // (scene.agents of them, first) and then each vehicle's discs in order, as the world
  // passes them to both: the same points, so the same clear distances, without a second
  // sort. The scene's pedestrian columns are not read. Returns false, having done
  // nothing, when the solve's count does not match or its cells are too small for the
  // corridor's reach (more than about 17 rows a query): Run is the caller's fallback.
  template <class Policy>
  bool RunOnOrcaGrid(const Policy& policy, const PathCheckParams& params, float max_brake_decel,
                     const SplineSetView& lanes, const Vec2* edges, int32_t edge_count,
                     const orca::EdgeGridView& edge_grid, const GridPointsView& solved,
                     const PathSceneView& scene, const StopRequested& stop, uint32_t chunk,
                     float* clear) {
    const uint32_t n = scene.agents, m = scene.vehicle_count;
    if (m == 0) return true;
    const thrust::counting_iterator<uint32_t> first(0);
    const uint32_t discs = CountDiscs(policy, scene.vehicles.bodies, m);
    const uint32_t total = n + discs;
    if (solved.count != total) return false;
    Grow(disc_owner_, discs);
    Grow(point_, total);
    thrust::for_each_n(Light(policy), first, m,
                       WriteDiscOwners{scene.vehicles.bodies, Raw(disc_start_), Raw(disc_owner_)});
    const float r_max = solved.r_max;  // the solve's own, over these points
    const WalkerExtent walkers =
        thrust::transform_reduce(Light(policy), first, first + total,
                                 SlotPointFunctor{solved, n, Raw(disc_owner_), Raw(point_)},
                                 WalkerExtent{0.f, 0.f}, LargerWalkerExtent{});
    const PathPointsView points{Raw(point_), solved.vx,     solved.vy,
                                r_max,       walkers.speed, walkers.radius};
    const float reach_max = ReachMax(policy, params, scene.vehicles.bodies, m, points);
    if (!(solved.grid.cell * 8.f >= reach_max)) return false;
    Walk(policy, params, max_brake_decel, lanes, edges, edge_count, edge_grid, points,
         scene.vehicles, solved.offsets, solved.grid, m, stop, chunk, clear);
    return true;
  }

 private:
  // Each vehicle's first disc after the pedestrians (disc_start_), and the discs' total: a
  // reduction on the policy's own stream, so it returns once the work queued before it is
  // done (an element read would go through another stream).
  template <class Policy>
  uint32_t CountDiscs(const Policy& policy, const VehicleBody* bodies, uint32_t m) {
    const thrust::counting_iterator<uint32_t> first(0);
    Grow(disc_start_, m);
    thrust::transform(Light(policy), first, first + m, disc_start_.begin(), DiscCountOf{bodies});
    const uint32_t discs = thrust::transform_reduce(
        Light(policy), first, first + m, DiscCountOf{bodies}, 0u, thrust::plus<uint32_t>());
    thrust::exclusive_scan(policy, disc_start_.begin(), disc_start_.begin() + m,
                           disc_start_.begin());
    return discs;
  }

  // The widest reach of a sample's query across the corridor, over every vehicle and the
  // longest horizon (the walk's own, CorridorReachAcross, never reaches further).
  template <class Policy>
  static float ReachMax(const Policy& policy, const PathCheckParams& params,
                        const VehicleBody* bodies, uint32_t m, const PathPointsView& extent) {
    const thrust::counting_iterator<uint32_t> first(0);
    const float width_max = thrust::transform_reduce(Light(policy), first, first + m,
                                                     BodyWidthOf{bodies}, 0.f, MaxOf{});
    return CorridorReachAcross(0.5f * width_max + params.lateral_margin, extent,
                               kPredictionHorizon);
  }

  template <class Policy>
  static void Walk(const Policy& policy, const PathCheckParams& params, float max_brake_decel,
                   const SplineSetView& lanes, const Vec2* edges, int32_t edge_count,
                   const orca::EdgeGridView& edge_grid, const PathPointsView& points,
                   const PathVehiclesView& vehicles, const uint32_t* offsets, const GridSpec& grid,
                   uint32_t m, const StopRequested& stop, uint32_t chunk, float* clear) {
    const thrust::counting_iterator<uint32_t> first(0);
    const PathCheckFunctor f{params,     max_brake_decel, lanes,   points, vehicles, edges,
                             edge_count, edge_grid,       offsets, grid,   clear};
    for (uint32_t begin = 0; begin < m; begin += chunk) {
      ThrowIfStopRequested(stop, "vehicles");
      thrust::for_each_n(policy, first + begin, std::min(chunk, m - begin), f);
    }
  }

  Vector<uint32_t> disc_start_, buckets_, order_, offsets_;
  Vector<float> x_, y_, r_, vx_, vy_, svx_, svy_;
  Vector<int32_t> owner_, disc_owner_;
  Vector<PathPoint> point_;
};

}  // namespace throng
