// The cuda backend's ORCA step (kernels/backends/orca_pipeline.cuh): the agents sorted
// into the neighbour grid and one per-agent solve, against the installed obstacles.
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/backends/cuda_staging.cuh"
#include "kernels/backends/orca_pipeline.cuh"
#include "kernels/backends/orca_result_stats.h"
#include "kernels/backends/prepare_rows.cuh"
#include "kernels/detection/pedestrian_report.cuh"
#include "kernels/navigation/nav_steer.cuh"
#include "kernels/orca/orca_validate.h"
#include "kernels/steering/pedestrian_move.cuh"
#include "kernels/steering/pedestrian_prepare.cuh"

namespace throng {

struct CudaBackend::OrcaPart {
  OrcaPipeline<thrust::device_vector> pipeline;
  // The input columns in one block, the output columns in another (cuda_staging.cuh), in
  // the order of the views below.
  DeviceVector<uint8_t> inputs, outputs;
  size_t in_at[10] = {}, out_at[8] = {};
  DeviceVector<uint32_t> kept_out;
  std::vector<uint16_t> missed_host;
  CudaStaging staging;
  // The pedestrians made ready for a solve: the snapshot's columns in one block (an absent
  // optional column takes no room), the prepared columns in another.
  DeviceVector<uint8_t> prepare_in, prepare_out;
  size_t prepare_in_at[16] = {}, prepare_out_at[15] = {};
  // The pedestrians' report after a solve: its inputs in one block, its outputs in another
  // (the order of ReportPedestrians' lists), the memory it writes there (read from the kept
  // memory, or updated in place over the host's).
  DeviceVector<uint8_t> report_in, report_out;
  size_t report_in_at[16] = {}, report_out_at[9] = {};
  DeviceVector<AgentMemory> memory;
  // The pedestrians' move: what it reads and the positions it moves in one block, what it
  // writes in another.
  DeviceVector<uint8_t> move_in, move_out;
  size_t move_in_at[9] = {}, move_out_at[6] = {};
  // The rows each call of this tick left in its blocks, for the calls after it that read
  // them there (ColumnSource::kThisTick). A call forgets what the calls after it left: a
  // promise can only name the calls before.
  size_t prepared_rows = 0, solved_rows = 0, reported_rows = 0, moved_rows = 0;
  // Which of the preparation's sixteen input columns the last one had (bit k: in_data[k]).
  uint32_t prepare_in_present = 0;
  // The last preparation left its outputs on the device only (outputs_to_host false): the
  // host's copies are stale, and a solve that cannot read the device's must not read them.
  bool prepared_on_device_only = false;
  // This tick's report and move ran to the end (KeepPedestrians keeps what they wrote), with
  // their row counts, and whether they left it on the device only.
  bool reported = false, moved = false;
  size_t reported_count = 0, moved_count = 0;
  bool memory_on_device_only = false, next_state_on_device_only = false;
  // What the world kept (KeepPedestrians): the kept tick's report's memory and its move's
  // next state (x, y, z, vx, vy, vz in the move's output order), which kLastTick promises
  // name. A tick that fails leaves them; the next kept one replaces them.
  DeviceVector<AgentMemory> kept_memory;
  DeviceVector<uint8_t> kept_state;
  size_t kept_state_at[6] = {};
  size_t kept_memory_rows = 0, kept_state_rows = 0;
  bool kept_memory_on_device_only = false, kept_state_on_device_only = false;
  // The navigation's world (SteerNavigating), copied when the world's version is new: its
  // targets, keys and rings, the heading table, and every field's cells in one block with a
  // view of each (the fields, then the crowd fields); and the last call's target column.
  DeviceVector<NavSteerTarget> nav_targets;
  DeviceVector<NavTargetKey> nav_keys;
  DeviceVector<Vec2> nav_rings, nav_headings;
  DeviceVector<uint8_t> nav_cells;
  DeviceVector<NavFieldView> nav_fields;
  bool nav_copied = false;
  uint64_t nav_version = 0;
  DeviceVector<uint32_t> nav_target;
  DeviceVector<AgentMemory> nav_memory;
  DeviceVector<uint8_t> nav_routed;  // NavigationRoutes' marks, a byte per target
};

namespace {

// The solve's input block's columns, in the order SolveOrca lays them out, as indices of
// AgentColumnsOut's (id, px, py, vx, vy, radius, max_speed, pref_vx, pref_vy, flags).
constexpr int kSolveInFromAgentColumnsOut[10] = {1, 2, 3, 4, 5, 6, 7, 8, 0, 9};
// Their element sizes.
constexpr size_t kSolveInSize[10] = {4, 4, 4, 4, 4, 4, 4, 4, 4, 1};
// Where the preparation's own columns lie in its output block, after the ten agent columns.
constexpr int kPreparedZ = 10, kPreparedVz = 11, kPreparedGoal = 12, kPreparedHasGoal = 13,
              kPreparedNavigates = 14;

}  // namespace

void CudaBackend::DropPart::operator()(OrcaPart* p) const { delete p; }

GridPointsView CudaBackend::LastOrcaGrid() const {
  return orca_ ? orca_->pipeline.LastGrid() : GridPointsView{};
}

void CudaBackend::SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                            const OrcaRunOptions& options, OrcaResult* out) {
  using Clock = std::chrono::steady_clock;
  auto ms_since = [](Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  };
  OrcaStageTimes times;
  auto t0 = Clock::now();
  if (!orca_) orca_.reset(new OrcaPart);
  OrcaPart& d = *orca_;
  const size_t n = agents.size();
  // Rows [0, k) as the preparation left them, rows [k, n) as the discs did.
  const size_t k = d.prepared_rows;
  const DeviceAgentRows discs = LastDiscRows();
  const bool this_tick = options.agents == ColumnSource::kThisTick && k <= n &&
                         (n == k || (discs.count == n - k && discs.first_id == k));
  if (!this_tick && (d.prepared_on_device_only || discs.on_device_only) &&
      options.agents == ColumnSource::kThisTick) {
    throw std::logic_error(
        "SolveOrca: the agents were promised from this tick's preparation and discs, "
        "which left them on the device, and they do not match");
  }
  ValidateOrcaParams(params);
  // This tick's agents are the backend's own, made from a checked snapshot (and perhaps
  // not on the host): only the host's are checked.
  if (!this_tick) ValidateAgents(agents);
  times.validate_ms = ms_since(t0);

  t0 = Clock::now();
  d.solved_rows = d.reported_rows = d.moved_rows = 0;
  const HostColumnIn in_columns[] = {
      {agents.px.data(), n * sizeof(float)},        {agents.py.data(), n * sizeof(float)},
      {agents.vx.data(), n * sizeof(float)},        {agents.vy.data(), n * sizeof(float)},
      {agents.radius.data(), n * sizeof(float)},    {agents.max_speed.data(), n * sizeof(float)},
      {agents.pref_vx.data(), n * sizeof(float)},   {agents.pref_vy.data(), n * sizeof(float)},
      {agents.id.data(), n * sizeof(uint32_t)},     {agents.flags.data(), n * sizeof(uint8_t)}};
  if (this_tick) {
    size_t in_bytes[10];
    for (int c = 0; c < 10; ++c) in_bytes[c] = in_columns[c].bytes;
    d.inputs.resize(LayOutColumns(in_bytes, 10, d.in_at));
    const AgentColumnsOut prepared = AgentColumnsOutAt(Raw(d.prepare_out), d.prepare_out_at);
    void* const from_prepared[10] = {
        prepared.id,     prepared.px,        prepared.py,      prepared.vx,      prepared.vy,
        prepared.radius, prepared.max_speed, prepared.pref_vx, prepared.pref_vy, prepared.flags};
    void* const from_discs[10] = {
        discs.columns.id,      discs.columns.px,     discs.columns.py,        discs.columns.vx,
        discs.columns.vy,      discs.columns.radius, discs.columns.max_speed, discs.columns.pref_vx,
        discs.columns.pref_vy, discs.columns.flags};
    for (int c = 0; c < 10; ++c) {
      uint8_t* to = Raw(d.inputs) + d.in_at[c];
      const int a = kSolveInFromAgentColumnsOut[c];
      CopyOnDevice(to, from_prepared[a], k * kSolveInSize[c]);
      if (n > k) CopyOnDevice(to + k * kSolveInSize[c], from_discs[a], (n - k) * kSolveInSize[c]);
    }
  } else {
    transferred_.to_backend += d.staging.Upload(in_columns, 10, d.inputs, d.in_at, stream_);
  }
  // The outputs' block, laid out as the downloads below read it.
  const size_t out_bytes[8] = {n * sizeof(float),    n * sizeof(float),    n * sizeof(uint8_t),
                               n * sizeof(uint16_t), n * sizeof(uint16_t), n * sizeof(uint16_t),
                               n * sizeof(uint8_t),  n * sizeof(uint16_t)};
  d.outputs.resize(LayOutColumns(out_bytes, 8, d.out_at));
  if (options.record_kept) d.kept_out.resize(n * static_cast<size_t>(params.max_neighbors));
  Synchronize();
  times.upload_ms = ms_since(t0);

  uint8_t* in_block = Raw(d.inputs);
  uint8_t* out_block = Raw(d.outputs);
  auto in_at = [&](int k) { return in_block + d.in_at[k]; };
  auto out_at = [&](int k) { return out_block + d.out_at[k]; };
  const AgentInputView in{reinterpret_cast<const float*>(in_at(0)),
                          reinterpret_cast<const float*>(in_at(1)),
                          reinterpret_cast<const float*>(in_at(2)),
                          reinterpret_cast<const float*>(in_at(3)),
                          reinterpret_cast<const float*>(in_at(4)),
                          reinterpret_cast<const float*>(in_at(5)),
                          reinterpret_cast<const float*>(in_at(6)),
                          reinterpret_cast<const float*>(in_at(7)),
                          reinterpret_cast<const uint32_t*>(in_at(8)),
                          reinterpret_cast<const uint8_t*>(in_at(9)),
                          static_cast<uint32_t>(n)};
  const OrcaOutputView view{reinterpret_cast<float*>(out_at(0)),
                            reinterpret_cast<float*>(out_at(1)),
                            reinterpret_cast<uint8_t*>(out_at(2)),
                            reinterpret_cast<uint16_t*>(out_at(3)),
                            reinterpret_cast<uint16_t*>(out_at(4)),
                            reinterpret_cast<uint16_t*>(out_at(5)),
                            reinterpret_cast<uint8_t*>(out_at(6)),
                            reinterpret_cast<uint16_t*>(out_at(7)),
                            options.record_kept ? Raw(d.kept_out) : nullptr};
  cudaStream_t stream = stream_;
  // One launch per stage (chunk: all n).
  d.pipeline.Run(
      Policy(), [stream] { THRONG_CUDA_CHECK(cudaStreamSynchronize(stream)); }, in, params,
      Obstacles(), options, /*chunk=*/static_cast<uint32_t>(n), view, &times);
  THRONG_CUDA_CHECK(cudaGetLastError());

  t0 = Clock::now();
  out->Resize(n);
  d.missed_host.resize(n);
  if (options.results_to_host) {
    const HostColumnOut out_columns[] = {{out->vx.data(), n * sizeof(float)},
                                         {out->vy.data(), n * sizeof(float)},
                                         {out->status.data(), n * sizeof(uint8_t)},
                                         {out->candidates.data(), n * sizeof(uint16_t)},
                                         {out->neighbors.data(), n * sizeof(uint16_t)},
                                         {out->constraints.data(), n * sizeof(uint16_t)},
                                         {out->solve_flags.data(), n * sizeof(uint8_t)},
                                         {d.missed_host.data(), n * sizeof(uint16_t)}};
    transferred_.to_host += d.staging.Download(d.outputs, d.out_at, out_columns, 8, stream_);
  } else if (options.audit_every > 0 && n > 0) {  // the audit's column alone
    THRONG_CUDA_CHECK(cudaMemcpyAsync(d.missed_host.data(), Raw(d.outputs) + d.out_at[7],
                                      n * sizeof(uint16_t), cudaMemcpyDeviceToHost, stream_));
    transferred_.to_host += n * sizeof(uint16_t);
  } else {
    std::fill(d.missed_host.begin(), d.missed_host.end(), kNotAudited);
  }
  if (options.record_kept) Download(d.kept_out, out->kept_ids);
  Synchronize();
  times.download_ms = ms_since(t0);
  if (options.results_to_host) {
    out->CountStatuses();
  } else {  // the columns stayed on the device: no counts from them
    for (uint64_t& c : out->status_count) c = 0;
    out->shortened_horizon = out->revalidated = out->revalidation_adopted = out->jam_steps = 0;
  }
  TallyAudit(d.missed_host, n, out);
  out->times = times;
  d.solved_rows = n;
}

bool CudaBackend::SolvedAgents(size_t count, const float* out[5]) const {
  if (!orca_ || orca_->solved_rows < count) return false;
  const OrcaPart& d = *orca_;
  const uint8_t* solved = thrust::raw_pointer_cast(d.inputs.data());
  const int columns[5] = {0, 1, 2, 3, 4};  // px, py, vx, vy, radius in the solve's block
  for (int k = 0; k < 5; ++k) out[k] = reinterpret_cast<const float*>(solved + d.in_at[columns[k]]);
  return true;
}

bool CudaBackend::PedestriansThisTick(size_t count, bool moved, const float** x, const float** y,
                                      const float** radius) const {
  if (!orca_) return false;
  const OrcaPart& d = *orca_;
  if (d.solved_rows < count || (moved && d.moved_rows != count)) return false;
  const uint8_t* solved = thrust::raw_pointer_cast(d.inputs.data());
  const uint8_t* positions = moved ? thrust::raw_pointer_cast(d.move_in.data()) : solved;
  const size_t* at = moved ? d.move_in_at : d.in_at;  // x and y first in both
  *x = reinterpret_cast<const float*>(positions + at[0]);
  *y = reinterpret_cast<const float*>(positions + at[1]);
  *radius = reinterpret_cast<const float*>(solved + d.in_at[4]);
  return true;
}

bool CudaBackend::PreparedPedestrians(size_t count, const float* out[4]) const {
  if (!orca_ || orca_->prepared_rows != count) return false;
  const OrcaPart& d = *orca_;
  const uint8_t* block = thrust::raw_pointer_cast(d.prepare_out.data());
  const int columns[4] = {1, 2, 5, kAgentColumnsOutCount};  // px, py, radius, then z
  for (int k = 0; k < 4; ++k) {
    out[k] = reinterpret_cast<const float*>(block + d.prepare_out_at[columns[k]]);
  }
  return true;
}

bool CudaBackend::PedestriansPreparedOnDeviceOnly() const {
  return orca_ && orca_->prepared_on_device_only;
}

// The snapshot's columns go up in one block, the prepared ones come down in another (until
// the state lives here, issue 37).
uint64_t CudaBackend::PreparePedestrians(const PedestrianPrepareParams& params,
                                         const PedestrianPrepareScene& scene,
                                         const PedestrianPrepareOutput& out) {
  const size_t n = scene.count;
  if (!orca_) orca_.reset(new OrcaPart);
  OrcaPart& d = *orca_;
  const size_t f = n * sizeof(float), b = n * sizeof(uint8_t);
  auto bytes = [](const void* column, size_t size) { return column != nullptr ? size : 0; };
  const void* in_data[16] = {scene.x,      scene.y,        scene.z,       scene.vx,
                             scene.vy,     scene.vz,       scene.radius,  scene.max_speed,
                             scene.flags,  scene.behavior, scene.goal_x,  scene.goal_y,
                             scene.goal_z, scene.pref_vx,  scene.pref_vy, scene.pref_vz};
  uint32_t present = 0;
  for (int k = 0; k < 16; ++k) present |= in_data[k] != nullptr ? 1u << k : 0u;
  // The last tick's: its preparation's columns still in the input block, where the same
  // columns lie at the same places (the same columns present, all six moved ones among
  // them: bits 0-5; a caller's first snapshot may lack some), and its move's state.
  const bool last_tick = params.columns == ColumnSource::kLastTick && n > 0 &&
                         d.prepared_rows == n && d.kept_state_rows == n &&
                         (present & 0x3fu) == 0x3fu && d.prepare_in_present == present;
  if (params.columns == ColumnSource::kLastTick && n > 0 && !last_tick &&
      d.kept_state_on_device_only) {
    throw std::logic_error(
        "PreparePedestrians: the state was promised from the kept tick, which left it on the "
        "device only, and it does not match");
  }
  d.prepared_rows = d.solved_rows = d.reported_rows = d.moved_rows = 0;  // a new tick
  d.reported = d.moved = false;
  if (n == 0) return 0;
  HostColumnIn in_columns[16];
  for (int k = 0; k < 16; ++k) {
    in_columns[k] = {in_data[k], bytes(in_data[k], k == 8 || k == 9 ? b : f)};
  }
  if (last_tick) {
    // Only the moved columns, from the kept move's block (x, y, z, vx, vy, vz in both).
    for (int k = 0; k < 6; ++k) {
      CopyOnDevice(Raw(d.prepare_in) + d.prepare_in_at[k], Raw(d.kept_state) + d.kept_state_at[k],
                   f);
    }
  } else {
    transferred_.to_backend +=
        d.staging.Upload(in_columns, 16, d.prepare_in, d.prepare_in_at, stream_);
  }
  d.prepare_in_present = present;
  // The solve's agent columns first, then the stages' own.
  size_t out_bytes[15];
  AgentColumnsOutBytes(n, out_bytes);
  const size_t own_bytes[5] = {f, f, n * sizeof(Vec2), b, b};
  std::copy(own_bytes, own_bytes + 5, out_bytes + kAgentColumnsOutCount);
  d.prepare_out.resize(LayOutColumns(out_bytes, 15, d.prepare_out_at));

  const uint8_t* in_block = Raw(d.prepare_in);
  uint8_t* out_block = Raw(d.prepare_out);
  // An absent column stays absent on the device.
  auto in_f = [&](int k) {
    return in_data[k] != nullptr ? reinterpret_cast<const float*>(in_block + d.prepare_in_at[k])
                                 : nullptr;
  };
  auto in_b = [&](int k) {
    return in_data[k] != nullptr ? in_block + d.prepare_in_at[k] : nullptr;
  };
  auto at = [&](int k) { return out_block + d.prepare_out_at[k]; };
  auto at_f = [&](int k) { return reinterpret_cast<float*>(at(k)); };
  const PedestrianPrepareScene device_scene{
      in_f(0), in_f(1),  in_f(2),  in_f(3),  in_f(4),  in_f(5),  in_f(6),  in_f(7), in_b(8),
      in_b(9), in_f(10), in_f(11), in_f(12), in_f(13), in_f(14), in_f(15), n};
  const PedestrianPrepareOutput device_out{AgentColumnsOutAt(out_block, d.prepare_out_at),
                                           at_f(10),
                                           at_f(11),
                                           reinterpret_cast<Vec2*>(at(12)),
                                           at(13),
                                           at(14)};
  // The snapshot's values checked where they are: no pass on the host reads the columns.
  const uint64_t refused = PrepareRows(
      Policy(), n, PedestrianPrepareFunctor{params, device_scene, device_out}, params.checks.on);
  THRONG_CUDA_CHECK(cudaGetLastError());
  if (params.outputs_to_host) {
    HostColumnOut out_columns[15];
    AgentColumnsOutDownload(out.agents, n, out_columns);
    const HostColumnOut own[5] = {{out.z, f},
                                  {out.vz, f},
                                  {out.goal, n * sizeof(Vec2)},
                                  {out.has_goal, b},
                                  {out.navigates, b}};
    std::copy(own, own + 5, out_columns + kAgentColumnsOutCount);
    transferred_.to_host +=
        d.staging.Download(d.prepare_out, d.prepare_out_at, out_columns, 15, stream_);
  }
  d.prepared_on_device_only = !params.outputs_to_host;
  d.prepared_rows = n;
  return refused;
}

// The world's targets and fields go up when their version is new; the target column when
// it is not the last call's; the memory when it is not the kept report's; the goals and the
// prepared columns are read where the preparation left them.
void CudaBackend::NavigationOnDevice(const char* call, const NavSteerParams& params,
                                     const NavSteerWorld& world, const NavSteerScene& scene,
                                     NavSteerWorld* device_world, NavSteerScene* device_scene) {
  const size_t n = scene.count;
  if (!orca_ || orca_->prepared_rows != n) {
    throw std::logic_error(std::string(call) + ": " + std::to_string(n) +
                           " pedestrians without this tick's preparation of as many");
  }
  OrcaPart& d = *orca_;
  if (!d.nav_copied || d.nav_version != world.version) {
    const size_t t = world.target_count;
    Upload(world.targets, t, d.nav_targets);
    Upload(world.keys, t, d.nav_keys);
    Upload(world.rings, world.ring_points, d.nav_rings);
    Upload(world.headings, 256, d.nav_headings);
    std::vector<NavFieldView> views(2 * t);
    std::vector<size_t> offsets(2 * t, 0);
    size_t cells = 0;
    for (size_t k = 0; k < 2 * t; ++k) {
      views[k] = k < t ? world.fields[k] : world.crowd_fields[k - t];
      offsets[k] = cells;
      if (views[k].heading != nullptr) cells += views[k].spec.cells();
    }
    d.nav_cells.resize(cells);
    for (size_t k = 0; k < 2 * t; ++k) {
      if (views[k].heading == nullptr) continue;
      const size_t bytes = views[k].spec.cells();
      if (bytes > 0) {
        THRONG_CUDA_CHECK(cudaMemcpyAsync(Raw(d.nav_cells) + offsets[k], views[k].heading, bytes,
                                          cudaMemcpyHostToDevice, stream_));
        transferred_.to_backend += bytes;
      }
      views[k].heading = Raw(d.nav_cells) + offsets[k];
    }
    Upload(views, d.nav_fields);
    Synchronize();  // the views are this call's host memory
    d.nav_copied = true;
    d.nav_version = world.version;
  }
  if (!(params.targets == ColumnSource::kLastTick && d.nav_target.size() == n)) {
    Upload(scene.target, n, d.nav_target);
  }
  const bool kept_memory = params.memory == ColumnSource::kLastTick && d.kept_memory_rows == n &&
                           d.kept_memory.size() == n;
  const AgentMemory* memory = nullptr;
  if (kept_memory) {
    memory = Raw(d.kept_memory);
  } else if (scene.memory != nullptr) {
    Upload(scene.memory, n, d.nav_memory);
    memory = Raw(d.nav_memory);
  }
  const size_t t = world.target_count;
  *device_world = world;
  device_world->targets = Raw(d.nav_targets);
  device_world->keys = Raw(d.nav_keys);
  device_world->rings = Raw(d.nav_rings);
  device_world->headings = Raw(d.nav_headings);
  device_world->fields = Raw(d.nav_fields);
  device_world->crowd_fields = Raw(d.nav_fields) + t;
  uint8_t* prepared = Raw(d.prepare_out);
  const AgentColumnsOut agents = AgentColumnsOutAt(prepared, d.prepare_out_at);
  const uint8_t* in_block = Raw(d.prepare_in);
  auto goal = [&](int k) {  // the preparation's input columns 10, 11, 12: goal_x, goal_y, goal_z
    return (d.prepare_in_present >> k) & 1u
               ? reinterpret_cast<const float*>(in_block + d.prepare_in_at[k])
               : nullptr;
  };
  *device_scene = NavSteerScene{Raw(d.nav_target),
                                goal(10),
                                goal(11),
                                goal(12),
                                memory,
                                agents.px,
                                agents.py,
                                agents.vx,
                                agents.vy,
                                agents.max_speed,
                                prepared + d.prepare_out_at[kPreparedNavigates],
                                n};
}

uint64_t CudaBackend::SteerNavigating(const NavSteerParams& params, const NavSteerWorld& world,
                                      const NavSteerScene& scene, const NavSteerOutput& out) {
  const size_t n = scene.count;
  if (n == 0) return 0;
  NavSteerWorld device_world;
  NavSteerScene device_scene;
  NavigationOnDevice("SteerNavigating", params, world, scene, &device_world, &device_scene);
  const AgentColumnsOut agents = AgentColumnsOutAt(Raw(orca_->prepare_out), orca_->prepare_out_at);
  const thrust::counting_iterator<size_t> first(0);
  // The count of unknown targets comes back: thrust waits for it on the backend's stream.
  const uint64_t refused = thrust::transform_reduce(
      Policy(), first, first + n,
      NavSteerFunctor{params, device_world, device_scene, {agents.pref_vx, agents.pref_vy}},
      uint64_t{0}, thrust::plus<uint64_t>());
  THRONG_CUDA_CHECK(cudaGetLastError());
  if (params.outputs_to_host) {
    Download(agents.pref_vx, n, out.pref_vx);
    Download(agents.pref_vy, n, out.pref_vy);
  }
  Synchronize();
  return refused;
}

// The marks and the count come back (a byte per target and one sum); the positions only
// when asked.
uint64_t CudaBackend::NavigationRoutes(const NavSteerParams& params, const NavSteerWorld& world,
                                       const NavSteerScene& scene, const NavRoutesOutput& out) {
  const size_t n = scene.count, t = world.target_count;
  std::fill(out.routed, out.routed + t, uint8_t{0});
  if (n == 0) return 0;
  NavSteerWorld device_world;
  NavSteerScene device_scene;
  NavigationOnDevice("NavigationRoutes", params, world, scene, &device_world, &device_scene);
  OrcaPart& d = *orca_;
  d.nav_routed.resize(t);
  THRONG_CUDA_CHECK(cudaMemsetAsync(Raw(d.nav_routed), 0, t, stream_));
  const thrust::counting_iterator<size_t> first(0);
  // The sum comes back to the host: thrust waits for it on the backend's stream.
  const uint64_t rerouted = thrust::transform_reduce(
      Policy(), first, first + n, NavRoutesFunctor{device_world, device_scene, Raw(d.nav_routed)},
      uint64_t{0}, thrust::plus<uint64_t>());
  THRONG_CUDA_CHECK(cudaGetLastError());
  Download(Raw(d.nav_routed), t, out.routed);
  if (out.x != nullptr) {
    Download(device_scene.px, n, out.x);
    Download(device_scene.py, n, out.y);
  }
  Synchronize();
  return rerouted;
}

// Each column the report reads goes up in one block (unless this tick's calls left it here),
// the results come down in another when the host wants them, and the memory is read from
// the kept tick's (else the host's goes up) and comes back when the host wants it.
PedestrianSums CudaBackend::ReportPedestrians(const PedestrianReportParams& params,
                                              const PedestrianReportScene& scene,
                                              const PedestrianReportOutput& out) {
  const size_t n = scene.count;
  if (!orca_) orca_.reset(new OrcaPart);
  OrcaPart& d = *orca_;
  d.reported_rows = d.moved_rows = 0;
  d.reported = d.moved = false;
  if (n == 0) {
    d.memory.clear();
    d.reported = true;
    d.reported_count = 0;
    d.memory_on_device_only = false;
    return {};
  }
  // The solve's columns where it left them, and the preparation's own.
  const bool this_tick =
      params.columns == ColumnSource::kThisTick && d.solved_rows >= n && d.prepared_rows == n;
  const size_t f = n * sizeof(float), b = n * sizeof(uint8_t), h = n * sizeof(uint16_t);
  const HostColumnIn in_columns[16] = {
      {scene.px, f},          {scene.py, f},          {scene.pref_vx, f},
      {scene.pref_vy, f},     {scene.flags, b},       {scene.vx, f},
      {scene.vy, f},          {scene.status, b},      {scene.constraints, h},
      {scene.solve_flags, b}, {scene.candidates, h},  {scene.neighbors, h},
      {scene.vz, f},          {scene.goal, n * sizeof(Vec2)}, {scene.has_goal, b},
      {scene.navigates, b}};
  if (!this_tick) {
    transferred_.to_backend +=
        d.staging.Upload(in_columns, 16, d.report_in, d.report_in_at, stream_);
  }
  // The memory the kept tick's report wrote, else the host's (then updated in place).
  const bool kept_memory = params.memory == ColumnSource::kLastTick && d.kept_memory_rows == n &&
                           d.kept_memory.size() == n;
  if (params.memory == ColumnSource::kLastTick && !kept_memory && d.kept_memory_on_device_only) {
    throw std::logic_error(
        "ReportPedestrians: the memory was promised from the kept tick, which left it on the "
        "device only, and it does not match");
  }
  if (kept_memory) {
    d.memory.resize(n);
  } else {
    Upload(scene.memory, n, d.memory);
  }
  const AgentMemory* memory_in = kept_memory ? Raw(d.kept_memory) : Raw(d.memory);
  // The local columns (3, 4, 5, 7) take no room when not wanted.
  const bool local = out.pref_vx != nullptr;
  const size_t out_bytes[9] = {
      f, f, f, local ? f : 0, local ? f : 0, local ? f : 0, b, local ? h : 0, b};
  d.report_out.resize(LayOutColumns(out_bytes, 9, d.report_out_at));

  // Each of the report's inputs, in the order of its list above: in its own block, or
  // where this tick's calls left it.
  const uint8_t* in_block = Raw(d.report_in);
  const uint8_t* solve_in = Raw(d.inputs);
  const uint8_t* solve_out = Raw(d.outputs);
  const uint8_t* prepared = Raw(d.prepare_out);
  const uint8_t* const left_by_this_tick[16] = {solve_in + d.in_at[0],
                                                solve_in + d.in_at[1],
                                                solve_in + d.in_at[6],
                                                solve_in + d.in_at[7],
                                                solve_in + d.in_at[9],
                                                solve_out + d.out_at[0],
                                                solve_out + d.out_at[1],
                                                solve_out + d.out_at[2],
                                                solve_out + d.out_at[5],
                                                solve_out + d.out_at[6],
                                                solve_out + d.out_at[3],
                                                solve_out + d.out_at[4],
                                                prepared + d.prepare_out_at[kPreparedVz],
                                                prepared + d.prepare_out_at[kPreparedGoal],
                                                prepared + d.prepare_out_at[kPreparedHasGoal],
                                                prepared + d.prepare_out_at[kPreparedNavigates]};
  uint8_t* out_block = Raw(d.report_out);
  auto in = [&](int k) { return this_tick ? left_by_this_tick[k] : in_block + d.report_in_at[k]; };
  auto at = [&](int k) { return out_block + d.report_out_at[k]; };
  const PedestrianReportScene device_scene{reinterpret_cast<const float*>(in(0)),
                                           reinterpret_cast<const float*>(in(1)),
                                           reinterpret_cast<const float*>(in(2)),
                                           reinterpret_cast<const float*>(in(3)),
                                           reinterpret_cast<const uint8_t*>(in(4)),
                                           reinterpret_cast<const float*>(in(5)),
                                           reinterpret_cast<const float*>(in(6)),
                                           reinterpret_cast<const uint8_t*>(in(7)),
                                           reinterpret_cast<const uint16_t*>(in(8)),
                                           reinterpret_cast<const uint8_t*>(in(9)),
                                           reinterpret_cast<const uint16_t*>(in(10)),
                                           reinterpret_cast<const uint16_t*>(in(11)),
                                           reinterpret_cast<const float*>(in(12)),
                                           reinterpret_cast<const Vec2*>(in(13)),
                                           reinterpret_cast<const uint8_t*>(in(14)),
                                           reinterpret_cast<const uint8_t*>(in(15)),
                                           memory_in,
                                           n};
  auto local_at = [&](int k) { return local ? at(k) : nullptr; };
  const PedestrianReportOutput device_out{
      reinterpret_cast<float*>(at(0)),       reinterpret_cast<float*>(at(1)),
      reinterpret_cast<float*>(at(2)),       reinterpret_cast<float*>(local_at(3)),
      reinterpret_cast<float*>(local_at(4)), reinterpret_cast<float*>(local_at(5)),
      reinterpret_cast<uint8_t*>(at(6)),     reinterpret_cast<uint16_t*>(local_at(7)),
      reinterpret_cast<uint8_t*>(at(8)),     Raw(d.memory)};
  const thrust::counting_iterator<size_t> first(0);
  // The sum is returned to the host: thrust waits for it on the backend's stream.
  const PedestrianSums sums = thrust::transform_reduce(
      Policy(), first, first + n, PedestrianReportFunctor{params, device_scene, device_out},
      PedestrianSums{}, AddPedestrianSums{});
  THRONG_CUDA_CHECK(cudaGetLastError());

  const HostColumnOut out_columns[9] = {{out.vx, f},
                                        {out.vy, f},
                                        {out.vz, f},
                                        {out.pref_vx, out_bytes[3]},
                                        {out.pref_vy, out_bytes[4]},
                                        {out.pref_vz, out_bytes[5]},
                                        {out.status, b},
                                        {out.constraints, out_bytes[7]},
                                        {out.flags, b}};
  if (params.results_to_host) {
    transferred_.to_host +=
        d.staging.Download(d.report_out, d.report_out_at, out_columns, 9, stream_);
  }
  if (params.memory_to_host) {
    THRONG_CUDA_CHECK(cudaMemcpyAsync(out.memory, Raw(d.memory), n * sizeof(AgentMemory),
                                      cudaMemcpyDeviceToHost, stream_));
    transferred_.to_host += n * sizeof(AgentMemory);
  }
  Synchronize();
  d.reported_rows = n;
  d.reported = true;
  d.reported_count = n;
  d.memory_on_device_only = !params.memory_to_host;
  return sums;
}

// The velocities and the positions go up in one block (unless this tick's calls left them
// here); the moved positions and the next state's columns come down when the host wants
// them.
void CudaBackend::MovePedestrians(const PedestrianMoveParams& params,
                                  const PedestrianMoveScene& scene,
                                  const PedestrianMoveOutput& out) {
  const size_t n = scene.count;
  if (!orca_) orca_.reset(new OrcaPart);
  OrcaPart& d = *orca_;
  d.moved_rows = 0;
  d.moved = false;
  if (n == 0) {
    d.move_out.clear();
    d.moved = true;
    d.moved_count = 0;
    d.next_state_on_device_only = false;
    return;
  }
  // The positions from the solve's block and the preparation's, the velocities where the
  // solve, the preparation and the report left them.
  const bool this_tick = params.columns == ColumnSource::kThisTick && d.solved_rows >= n &&
                         d.prepared_rows == n && d.reported_rows == n;
  const size_t f = n * sizeof(float);
  // The positions first: the download of the moved ones then copies only them.
  const HostColumnIn in_columns[9] = {
      {out.px, f},          {out.py, f},          {out.pz, f},
      {scene.vx, f},        {scene.vy, f},        {scene.vz, f},
      {scene.result_vx, f}, {scene.result_vy, f}, {scene.result_vz, f}};
  const uint8_t* solve_in = Raw(d.inputs);
  const uint8_t* solve_out = Raw(d.outputs);
  const uint8_t* prepared = Raw(d.prepare_out);
  const uint8_t* reported = Raw(d.report_out);
  if (this_tick) {
    // Only the positions are copied (on the device): the move changes them in place.
    const size_t in_bytes[9] = {f, f, f, 0, 0, 0, 0, 0, 0};
    d.move_in.resize(LayOutColumns(in_bytes, 9, d.move_in_at));
    CopyOnDevice(Raw(d.move_in) + d.move_in_at[0], solve_in + d.in_at[0], f);
    CopyOnDevice(Raw(d.move_in) + d.move_in_at[1], solve_in + d.in_at[1], f);
    CopyOnDevice(Raw(d.move_in) + d.move_in_at[2], prepared + d.prepare_out_at[kPreparedZ], f);
  } else {
    transferred_.to_backend += d.staging.Upload(in_columns, 9, d.move_in, d.move_in_at, stream_);
  }
  const size_t out_bytes[6] = {f, f, f, f, f, f};
  d.move_out.resize(LayOutColumns(out_bytes, 6, d.move_out_at));
  uint8_t* in_block = Raw(d.move_in);
  uint8_t* out_block = Raw(d.move_out);
  auto in = [&](int k) { return reinterpret_cast<float*>(in_block + d.move_in_at[k]); };
  auto at = [&](int k) { return reinterpret_cast<float*>(out_block + d.move_out_at[k]); };
  auto left = [](const uint8_t* block, size_t at_k) {
    return reinterpret_cast<const float*>(block + at_k);
  };
  const PedestrianMoveScene device_scene =
      this_tick ? PedestrianMoveScene{left(solve_out, d.out_at[0]),
                                      left(solve_out, d.out_at[1]),
                                      left(prepared, d.prepare_out_at[kPreparedVz]),
                                      left(reported, d.report_out_at[0]),
                                      left(reported, d.report_out_at[1]),
                                      left(reported, d.report_out_at[2]),
                                      n}
                : PedestrianMoveScene{in(3), in(4), in(5), in(6), in(7), in(8), n};
  // The moved internal positions stay in the input block, where they were.
  const PedestrianMoveOutput device_out{in(0), in(1), in(2), at(0), at(1),
                                        at(2), at(3), at(4), at(5)};
  thrust::for_each_n(Policy(), thrust::counting_iterator<size_t>(0), n,
                     PedestrianMoveFunctor{params, device_scene, device_out});
  THRONG_CUDA_CHECK(cudaGetLastError());
  // The moved internal positions (the input block's first three columns) when the host
  // wants them, then the rest.
  if (params.positions_to_host) {
    const HostColumnOut moved[3] = {{out.px, f}, {out.py, f}, {out.pz, f}};
    transferred_.to_host += d.staging.Download(d.move_in, d.move_in_at, moved, 3, stream_);
  }
  if (params.next_state_to_host) {
    const HostColumnOut next[6] = {{out.x, f},       {out.y, f},       {out.z, f},
                                   {out.next_vx, f}, {out.next_vy, f}, {out.next_vz, f}};
    transferred_.to_host += d.staging.Download(d.move_out, d.move_out_at, next, 6, stream_);
  }
  d.moved_rows = n;
  d.moved = true;
  d.moved_count = n;
  d.next_state_on_device_only = !params.next_state_to_host;
}

// The buffers this tick's report and move wrote become the kept ones (swapped: nothing is
// copied); the old kept ones are theirs to overwrite next tick.
void CudaBackend::KeepPedestrians() {
  if (!orca_) return;
  OrcaPart& d = *orca_;
  if (d.reported) {
    d.memory.swap(d.kept_memory);
    d.kept_memory_rows = d.reported_count;
    d.kept_memory_on_device_only = d.memory_on_device_only;
  }
  if (d.moved) {
    d.move_out.swap(d.kept_state);
    std::copy(d.move_out_at, d.move_out_at + 6, d.kept_state_at);
    d.kept_state_rows = d.moved_count;
    d.kept_state_on_device_only = d.next_state_on_device_only;
  }
  d.reported = d.moved = false;
}

void CudaBackend::FetchKeptPedestrians(const KeptPedestrianRows& out) {
  const size_t kept_state = orca_ ? orca_->kept_state_rows : 0;
  const size_t kept_memory = orca_ ? orca_->kept_memory_rows : 0;
  if ((out.x != nullptr && out.state_rows != kept_state) ||
      (out.memory != nullptr && out.memory_rows != kept_memory)) {
    throw std::logic_error("FetchKeptPedestrians: " + std::to_string(out.state_rows) +
                           " state and " + std::to_string(out.memory_rows) +
                           " memory rows asked for, " + std::to_string(kept_state) + " and " +
                           std::to_string(kept_memory) + " kept");
  }
  if (!orca_) return;
  OrcaPart& d = *orca_;
  if (out.x != nullptr && kept_state > 0) {
    const size_t f = kept_state * sizeof(float);
    const HostColumnOut next[6] = {{out.x, f},  {out.y, f},  {out.z, f},
                                   {out.vx, f}, {out.vy, f}, {out.vz, f}};
    transferred_.to_host += d.staging.Download(d.kept_state, d.kept_state_at, next, 6, stream_);
  }
  if (out.memory != nullptr && kept_memory > 0) {
    THRONG_CUDA_CHECK(cudaMemcpyAsync(out.memory, Raw(d.kept_memory),
                                      kept_memory * sizeof(AgentMemory), cudaMemcpyDeviceToHost,
                                      stream_));
    transferred_.to_host += kept_memory * sizeof(AgentMemory);
  }
  Synchronize();
}

}  // namespace throng
