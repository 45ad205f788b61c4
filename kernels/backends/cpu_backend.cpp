// The cpu backend: the per-agent kernels run on all cores through Thrust's OpenMP system
// (with one-region reductions: cpu_policy.h).
// Compiled by the host compiler only; shares kernel source with cuda_backend.cu.
#include "kernels/backends/cpu_backend.h"

#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/backends/contact_pipeline.cuh"
#include "kernels/backends/cpu_policy.h"
#include "kernels/backends/fan_kernel.cuh"
#include "kernels/backends/follower_kernel.cuh"
#include "kernels/backends/forward_scene_buffers.cuh"
#include "kernels/backends/orca_pipeline.cuh"
#include "kernels/backends/orca_result_stats.h"
#include "kernels/backends/path_check_pipeline.cuh"
#include "kernels/backends/spline_query_kernel.cuh"
#include "kernels/detection/pedestrian_report.cuh"
#include "kernels/math/float_lanes.h"
#include "kernels/navigation/nav_steer.cuh"
#include "kernels/orca/orca_validate.h"
#include "kernels/steering/forward_move.cuh"
#include "kernels/steering/pedestrian_move.cuh"
#include "kernels/steering/pedestrian_prepare.cuh"
#include "kernels/vehicles/path_braking.cuh"
#include "kernels/vehicles/vehicle_discs.cuh"
#include "kernels/vehicles/vehicle_move.cuh"
#include "kernels/vehicles/vehicle_prepare.cuh"
#include "kernels/vehicles/vehicle_remember.cuh"

namespace throng {

namespace {

// The cpu backend's "upload": its memory is the host's.
const auto kCopy = [](const auto& from, auto& to) { to.assign(from.begin(), from.end()); };

}  // namespace

CpuBackend::CpuBackend()
    : orca_(std::make_unique<OrcaPipeline<std::vector>>()),
      forward_(std::make_unique<ForwardSceneBuffers<std::vector>>()),
      contacts_(std::make_unique<ContactPipeline<std::vector>>()),
      paths_(std::make_unique<PathCheckPipeline<std::vector>>()) {}
CpuBackend::~CpuBackend() = default;

void CpuBackend::SetSplines(const std::vector<SplineDesc>& splines) {
  splines_ = BuildSplineSet(splines);
}

void CpuBackend::QuerySplines(const SplineQueries& q, SplineQueryResults* out) {
  ValidateSplineQueries(q, splines_.size());
  const size_t n = q.size();
  out->Resize(n);
  const SplineQueryFunctor f{
      splines_.View(),
      {q.spline.data(), q.s.data(), q.px.data(), q.py.data(), q.pz.data(), q.s_hint.data(),
       q.window},
      {out->x.data(), out->y.data(), out->z.data(), out->tx.data(), out->ty.data(), out->tz.data(),
       out->curvature.data(), out->progress.data()}};
  thrust::for_each_n(cpu_system::par, thrust::counting_iterator<size_t>(0), n, f);
}

void CpuBackend::SetObstacles(const std::vector<Polygon>& polygons) {
  ObstacleVertices vertices = BuildObstacleVertices(polygons);
  segments_ = EdgeSegments(vertices);
  edge_grid_ = BuildEdgeGrid(vertices);
  obstacles_ = std::move(vertices);
  contacts_->SetObstacles(polygons, kCopy);
}

void CpuBackend::SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                           const OrcaRunOptions& options, OrcaResult* out) {
  const auto t0 = std::chrono::steady_clock::now();
  ValidateOrcaParams(params);
  // This tick's agents (kThisTick) are the backend's own, made from a checked snapshot, as
  // on every backend: only the host's are checked.
  if (options.agents != ColumnSource::kThisTick) ValidateAgents(agents);
  OrcaStageTimes times;
  times.validate_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  const size_t n = agents.size();
  out->Resize(n);
  audit_missed_.resize(n);
  // Host memory is the cpu backend's device memory: no upload, no download.
  const AgentInputView in{agents.px.data(),      agents.py.data(),        agents.vx.data(),
                          agents.vy.data(),      agents.radius.data(),    agents.max_speed.data(),
                          agents.pref_vx.data(), agents.pref_vy.data(),   agents.id.data(),
                          agents.flags.data(),   static_cast<uint32_t>(n)};
  if (options.record_kept) out->kept_ids.resize(n * static_cast<size_t>(params.max_neighbors));
  const OrcaOutputView view{out->vx.data(),
                            out->vy.data(),
                            out->status.data(),
                            out->candidates.data(),
                            out->neighbors.data(),
                            out->constraints.data(),
                            out->solve_flags.data(),
                            audit_missed_.data(),
                            options.record_kept ? out->kept_ids.data() : nullptr};
  // 64k agents per launch: a stopped tick ends within ~50 ms of work on 2 cores,
  // and the extra fork/joins cost well under 1% of the step. An audit scans all n agents
  // for every audited one, so with audits a chunk holds about 2e7 audited pairs.
  uint64_t chunk = 65536;
  if (options.audit_every > 0 && n > 0) {
    chunk = std::clamp<uint64_t>(20'000'000ull * options.audit_every / n, 64, chunk);
  }
  orca_->Run(
      cpu_system::par, [] {}, in, params,
      use_edge_grid_ ? ViewOf(obstacles_, edge_grid_) : ViewOf(obstacles_), options,
      static_cast<uint32_t>(chunk), view, &times);
  out->CountStatuses();
  TallyAudit(audit_missed_, n, out);
  out->times = times;
}

namespace {

// The preferred velocities of rows [begin, end) whose arrive step the preparation left to
// its caller (`waits`, from begin), FloatLanes::kCount rows at a time: a walker's arrive
// step is a chain of roots and divisions (a sixth of the town's tick beyond its solve as
// one call per row), four of each in one instruction here. Bit for bit ArriveStep's.
void ArriveWaitingRows(const PedestrianPrepareFunctor& prepare, size_t begin, size_t end,
                       const bool* waits) {
  constexpr size_t kLanes = FloatLanes::kCount;
  const AgentColumnsOut& a = prepare.out.agents;
  const Vec2* goal = prepare.out.goal;
  // Every row's max speed is its own: the other parameters are the world's.
  const ArriveParams p = prepare.Arrive(0.f);
  size_t i = begin;
  for (; i + kLanes <= end; i += kLanes) {
    const bool* w = waits + (i - begin);
    bool any = false;
    for (size_t k = 0; k < kLanes; ++k) any |= w[k];
    if (!any) continue;
    float tx[kLanes], ty[kLanes];
    for (size_t k = 0; k < kLanes; ++k) {
      tx[k] = goal[i + k].x;
      ty[k] = goal[i + k].y;
    }
    const ArriveLanes<FloatLanes> lanes{
        FloatLanes::Load(a.px + i),       FloatLanes::Load(a.py + i), FloatLanes::Load(a.vx + i),
        FloatLanes::Load(a.vy + i),       FloatLanes::Load(tx),       FloatLanes::Load(ty),
        FloatLanes::Load(a.max_speed + i)};
    FloatLanes pref_x, pref_y;
    ArriveStepOf(lanes, p, prepare.params.dt, &pref_x, &pref_y);
    for (size_t k = 0; k < kLanes; ++k) {
      if (!w[k]) continue;
      a.pref_vx[i + k] = pref_x.v[k];
      a.pref_vy[i + k] = pref_y.v[k];
    }
  }
  for (; i < end; ++i) {
    if (!waits[i - begin]) continue;
    const Vec2 v = ArriveStep({a.px[i], a.py[i]}, {a.vx[i], a.vy[i]}, goal[i],
                              prepare.Arrive(a.max_speed[i]), prepare.params.dt);
    a.pref_vx[i] = v.x;
    a.pref_vy[i] = v.y;
  }
}

}  // namespace

uint64_t CpuBackend::PreparePedestrians(const PedestrianPrepareParams& params,
                                        const PedestrianPrepareScene& scene,
                                        const PedestrianPrepareOutput& out) {
  // A block of rows at a time: its float values checked (when asked) column by column, in
  // loops the compiler vectorises, then its rows prepared while those columns are still in
  // cache, so the checks read no column twice. Checked one row at a time, as the GPU does
  // (PedestrianPrepareFunctor::operator()), they cost the cpu more than the host's own pass
  // did (docs/PERFORMANCE.md, "The pedestrians' values checked where they are read"). One
  // loop for both cases: GCC inlines the preparation into one call site, not into two.
  // The block's arriving rows then get their preferred velocities four at a time.
  const PedestrianPrepareFunctor prepare{params, scene, out};
  const size_t n = scene.count;
  const float* columns[kPedestrianFloatColumns];
  PedestrianFloatColumns(scene, columns);
  constexpr size_t kBlock = 1024;
  const auto blocks = static_cast<int64_t>((n + kBlock - 1) / kBlock);
  uint64_t refused = 0;
#pragma omp parallel for schedule(static) reduction(+ : refused) \
    if (n >= static_cast<size_t>(cpu_system::kLightSerialBelow))
  for (int64_t b = 0; b < blocks; ++b) {
    const size_t begin = static_cast<size_t>(b) * kBlock, end = std::min(n, begin + kBlock);
    int within = 1;
    if (params.checks.on) {
      for (int k = 0; k < kPedestrianFloatColumns; ++k) {
        const float* values = columns[k];
        if (values == nullptr) continue;
        const float lo = params.checks.bounds[k].min, hi = params.checks.bounds[k].max;
        int in = 1;
        for (size_t i = begin; i < end; ++i) in &= (values[i] >= lo) & (values[i] <= hi);
        within &= in;
      }
    }
    bool arrive_waits[kBlock];
    for (size_t i = begin; i < end; ++i) {
      refused += prepare.Row(i, within != 0, &arrive_waits[i - begin]);
    }
    ArriveWaitingRows(prepare, begin, end, arrive_waits);
  }
  return refused;
}

uint64_t CpuBackend::SteerNavigating(const NavSteerParams& params, const NavSteerWorld& world,
                                     const NavSteerScene& scene, const NavSteerOutput& out) {
  const thrust::counting_iterator<size_t> first(0);
  return thrust::transform_reduce(Light(cpu_system::par), first, first + scene.count,
                                  NavSteerFunctor{params, world, scene, out}, uint64_t{0},
                                  thrust::plus<uint64_t>());
}

// Each thread marks the targets of its rows in its own bytes, then the marks are merged: the
// same answer as one pass in order, without two threads writing one byte.
uint64_t CpuBackend::NavigationRoutes(const NavSteerParams&, const NavSteerWorld& world,
                                      const NavSteerScene& scene, const NavRoutesOutput& out) {
  const size_t n = scene.count, t = world.target_count;
  std::fill(out.routed, out.routed + t, uint8_t{0});
  uint64_t rerouted = 0;
  const bool parallel = n >= static_cast<size_t>(cpu_system::kLightSerialBelow);
#pragma omp parallel if (parallel) reduction(+ : rerouted)
  {
    std::vector<uint8_t> mine(t, 0);
    const NavRoutesFunctor mark{world, scene, mine.data()};
#pragma omp for schedule(static)
    for (size_t i = 0; i < n; ++i) rerouted += mark(i);
#pragma omp critical(throng_nav_routes)
    for (size_t k = 0; k < t; ++k) out.routed[k] |= mine[k];
  }
  if (out.x != nullptr) {
    std::copy(scene.px, scene.px + n, out.x);
    std::copy(scene.py, scene.py + n, out.y);
  }
  return rerouted;
}

void CpuBackend::MovePedestrians(const PedestrianMoveParams& params,
                                 const PedestrianMoveScene& scene,
                                 const PedestrianMoveOutput& out) {
  thrust::for_each_n(Light(cpu_system::par), thrust::counting_iterator<size_t>(0), scene.count,
                     PedestrianMoveFunctor{params, scene, out});
}

uint64_t CpuBackend::PrepareVehicles(const VehiclePrepareParams& params,
                                     const VehiclePrepareScene& scene,
                                     const VehiclePrepareOutput& out) {
  const thrust::counting_iterator<size_t> first(0);
  return thrust::transform_reduce(Light(cpu_system::par), first, first + scene.count,
                                  VehiclePrepareFunctor{params, splines_.View(), scene, out},
                                  uint64_t{0}, thrust::plus<uint64_t>());
}

void CpuBackend::MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& scene,
                              const VehicleMoveOutput& out) {
  thrust::for_each_n(Light(cpu_system::par), thrust::counting_iterator<size_t>(0), scene.count,
                     VehicleMoveFunctor{params, scene, out});
}

void CpuBackend::MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                                   const ForwardMoveOutput& out) {
  ForwardMoveFunctor move{params, scene, out};
  if (params.columns == ColumnSource::kThisTick) {  // the scene's pointers are not read
    if (scene.count != forward_->prepared()) {
      throw std::logic_error("MoveForwardAgents: " + std::to_string(scene.count) +
                             " agents promised from a preparation of " +
                             std::to_string(forward_->prepared()));
    }
    move.in = {forward_->positions(), forward_->moves(), nullptr, scene.count};
    move.step = forward_->steps();
  }
  thrust::for_each_n(Light(cpu_system::par), thrust::counting_iterator<size_t>(0), scene.count,
                     move);
}

uint64_t CpuBackend::BrakeForPaths(const PathBrakingScene& scene, const PathBrakingOutput& out) {
  const thrust::counting_iterator<size_t> first(0);
  return thrust::transform_reduce(Light(cpu_system::par), first, first + scene.count,
                                  PathBrakingFunctor{scene, out}, uint64_t{0},
                                  thrust::plus<uint64_t>());
}

void CpuBackend::WriteVehicleDiscs(const VehicleDiscScene& scene, const VehicleDiscOutput& out) {
  thrust::for_each_n(Light(cpu_system::par), thrust::counting_iterator<size_t>(0), scene.count,
                     VehicleDiscFunctor{scene, out});
}

PedestrianSums CpuBackend::ReportPedestrians(const PedestrianReportParams& params,
                                             const PedestrianReportScene& scene,
                                             const PedestrianReportOutput& out) {
  const thrust::counting_iterator<size_t> first(0);
  return thrust::transform_reduce(cpu_system::par, first, first + scene.count,
                                  PedestrianReportFunctor{params, scene, out}, PedestrianSums{},
                                  AddPedestrianSums{});
}

void CpuBackend::FollowSplines(const FollowerParams& params, float world_speed_limit,
                               const VehicleColumns& v, const FollowRunOptions& options,
                               FollowerResults* out) {
  ValidateFollowerParams(params, world_speed_limit);
  const std::vector<uint32_t> spline = ValidateVehicles(v, splines_.ids);
  const std::vector<FollowerParams> table = ParameterTable(params, v);
  const size_t n = v.size();
  out->Resize(n);
  const FollowerFunctor f{
      splines_.View(),
      {spline.data(), v.px.data(), v.py.data(), v.pz.data(), v.yaw.data(), v.speed.data(),
       v.progress_hint.data(), v.max_speed.data(), v.profile.empty() ? nullptr : v.profile.data(),
       v.wheel_angle.empty() ? nullptr : v.wheel_angle.data(),
       v.turn_before_move.empty() ? nullptr : v.turn_before_move.data()},
      table.data(),
      world_speed_limit,
      {out->steering.data(), out->throttle.data(), out->brake.data(), out->target_speed.data(),
       out->cte.data(), out->progress.data(), out->position_delta.data(), out->heading_delta.data(),
       out->look_ahead.data(), out->target_x.data(), out->target_y.data(), out->target_z.data(),
       out->progress_x.data(), out->progress_y.data(), out->progress_z.data(),
       out->tangent_x.data(), out->tangent_y.data(), out->tangent_z.data()}};
  thrust::for_each_n(cpu_system::par, thrust::counting_iterator<size_t>(0), n, f);
  if (options.memory != nullptr) {
    thrust::for_each_n(cpu_system::par, thrust::counting_iterator<size_t>(0), n,
                       VehicleRememberFunctor::For(params, options.memory, out->progress.data(),
                                                   out->steering.data()));
  }
}

void CpuBackend::SteerForward(const FanParams& params, float dt, const ForwardAgentColumns& a,
                              FanResults* out) {
  ValidateFan(params, dt, a);
  const size_t n = a.size();
  out->Resize(n);
  const FanFunctor f{a.px.data(),
                     a.py.data(),
                     a.fx.data(),
                     a.fy.data(),
                     a.radius.data(),
                     segments_.data(),
                     static_cast<int>(segments_.size() / 2),
                     params,
                     dt,
                     out->move_x.data(),
                     out->move_y.data(),
                     out->chosen_x.data(),
                     out->chosen_y.data(),
                     out->probe.data(),
                     out->hit_distance.data(),
                     out->all_blocked.data()};
  thrust::for_each_n(cpu_system::par, thrust::counting_iterator<size_t>(0), n, f);
}

void CpuBackend::SetFanObstacles(const FanShapes& shapes, float cell) {
  forward_->SetStatic(BuildFanObstacleSet(shapes), cell, kCopy);
}

uint64_t CpuBackend::PrepareForwardScene(const ForwardPrepareParams& params,
                                         const ForwardPrepareScene& scene) {
  // The bodies' bounds are host memory here: the host's grid build, a counting pass, costs
  // less than the sort a device needs (about 0.5 ms a tick for 10,000 birds).
  return forward_->Prepare(cpu_system::par, params, scene,
                           [](const std::vector<Vec2>& lo, const std::vector<Vec2>& hi, float cell,
                              AabbGridBuffers<std::vector>* grid, AabbGridScratch<std::vector>&) {
                             grid->Set(BuildAabbGrid(lo, hi, cell), kCopy);
                           });
}

ForwardSums CpuBackend::SteerForwardScene(const ForwardSteerParams& params,
                                          const StopRequested& stop,
                                          const ForwardSteerOutput& out) {
  const ForwardSceneFunctor& f = forward_->Functor();
  const auto n = static_cast<uint32_t>(forward_->prepared());
  constexpr uint32_t kChunk = 8192;
  for (uint32_t begin = 0; begin < n; begin += kChunk) {
    ThrowIfStopRequested(stop, "forward");
    thrust::for_each_n(cpu_system::par, thrust::counting_iterator<uint32_t>(begin),
                       std::min(kChunk, n - begin), f);
  }
  // Host memory is this backend's: the answers are written whatever results_to_host says.
  return forward_->Answer(Light(cpu_system::par), params.frame, out);
}

CollisionCounts CpuBackend::CountContacts(const ContactScene& scene, const StopRequested& stop) {
  ValidateContactScene(scene);
  CollisionCounts counts;
  if (contacts_->CountOnSolveGrid(cpu_system::par, orca_->LastGrid(), scene.x, scene.y,
                                  scene.radius, static_cast<uint32_t>(scene.count), scene.bodies,
                                  static_cast<uint32_t>(scene.body_count), kCpuContactChunk, stop,
                                  &counts)) {
    ++counts_on_solve_grid_;
    return counts;
  }
  return contacts_->Count(cpu_system::par, scene.x, scene.y, scene.radius,
                          static_cast<uint32_t>(scene.count), scene.bodies,
                          static_cast<uint32_t>(scene.body_count), kCpuContactChunk, stop);
}

void CpuBackend::CheckPaths(const PathCheckParams& params, float max_brake_decel,
                            const PathCheckScene& scene, const StopRequested& stop,
                            std::vector<float>* clear) {
  clear->assign(scene.vehicles, INFINITY);
  const PathSceneView view{scene.agent_x,
                           scene.agent_y,
                           scene.agent_radius,
                           scene.agent_vx,
                           scene.agent_vy,
                           static_cast<uint32_t>(scene.agents),
                           {scene.bodies, scene.spline, scene.progress, scene.speed},
                           static_cast<uint32_t>(scene.vehicles)};
  // 1,024 vehicles per launch: a stopped tick still runs about 2 ms of corridors in the
  // town of 100,000 (2,000 vehicles, 3.3 ms), and each launch wakes the sleeping threads
  // (tens of microseconds under OMP_WAIT_POLICY=PASSIVE; 256 a launch made eight).
  constexpr uint32_t kPathCheckChunk = 1024;
  const orca::EdgeGridView edge_grid = use_edge_grid_ ? edge_grid_.View() : orca::EdgeGridView{};
  const auto edge_count = static_cast<int32_t>(segments_.size() / 2);
  if (scene.points_were_last_solve &&
      paths_->RunOnOrcaGrid(cpu_system::par, params, max_brake_decel, splines_.View(),
                            segments_.data(), edge_count, edge_grid, orca_->LastGrid(), view, stop,
                            kPathCheckChunk, clear->data())) {
    return;
  }
  paths_->Run(cpu_system::par, params, max_brake_decel, splines_.View(), segments_.data(),
              edge_count, edge_grid, view, stop, kPathCheckChunk, clear->data());
}

}  // namespace throng
