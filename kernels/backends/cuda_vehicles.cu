// The cuda backend's vehicle pipelines: the vehicles made ready for the follower,
// three-factor spline following and the spline queries, on the lanes that SetSplines
// installed (cuda_backend.cu), the vehicles' move by the world's bicycle, and their bodies
// as discs for the ORCA solve.
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/backends/cuda_staging.cuh"
#include "kernels/backends/follower_kernel.cuh"
#include "kernels/backends/prepare_rows.cuh"
#include "kernels/backends/spline_query_kernel.cuh"
#include "kernels/vehicles/vehicle_discs.cuh"
#include "kernels/vehicles/vehicle_move.cuh"
#include "kernels/vehicles/vehicle_prepare.cuh"
#include "kernels/vehicles/vehicle_remember.cuh"

namespace throng {

struct CudaBackend::VehiclePart {
  // The follower's inputs and outputs.
  DeviceVector<uint32_t> spline;
  DeviceVector<float> px, py, pz, yaw, speed, hint, max_speed;
  // FollowerOutputView's columns (out_at in its order) in one block, laid out in
  // kOutputLayout's order: the three answers the host always wants, the three the braking
  // caps (and brings home itself when it follows), then the debug signals. A download
  // copies the block from its start to the last column it wants: one copy.
  static constexpr int kFollowerOutputs = 18;
  static constexpr int kOutputLayout[kFollowerOutputs] = {0, 4,  5,  1,  2,  3,  6,  7,  8,
                                                          9, 10, 11, 12, 13, 14, 15, 16, 17};
  DeviceVector<uint8_t> out_block;
  size_t out_at[kFollowerOutputs] = {};
  float* Out(int k) { return reinterpret_cast<float*>(Raw(out_block) + out_at[k]); }
  DeviceVector<uint16_t> profile;
  DeviceVector<float> wheel;
  DeviceVector<float> turn_before_move;
  DeviceVector<FollowerParams> params;
  // The spline queries' inputs and outputs.
  DeviceVector<uint32_t> q_spline;
  DeviceVector<float> q_s, q_px, q_py, q_pz, q_hint;
  DeviceVector<float> x, y, z, tx, ty, tz, k, progress;
  // The preparation's columns in one block each way (the input block's rows and columns
  // present, for a kLastTick preparation that reads it again), last tick's memory when it
  // goes up, and the memory it writes, which the follower completes.
  DeviceVector<uint8_t> prepare_in, prepare_out;
  size_t prepare_in_at[14] = {}, prepare_out_at[14] = {};
  size_t prepare_in_rows = 0;
  uint32_t prepare_in_present = 0;
  DeviceVector<VehicleMemory> memory_in, memory;
  // The rows of `memory` this tick's follower completed (0 while none has, from the next
  // preparation on), and what the world kept (KeepVehicles): the kept tick's completed
  // memory, which a kLastTick preparation reads. A tick that fails leaves it.
  size_t completed_rows = 0;
  DeviceVector<VehicleMemory> kept_memory;
  size_t kept_memory_rows = 0;
  // The last move left its next state on the device only (VehicleMoveParams::
  // next_state_to_host false), and what the world kept of it: the kept tick's move's output
  // block (wheel angle, then x to progress hint), which a kLastTick preparation reads.
  bool next_state_on_device_only = false;
  DeviceVector<uint8_t> kept_state;
  size_t kept_state_at[7] = {};
  size_t kept_state_rows = 0;
  bool kept_state_on_device_only = false;
  // The rows the last preparation left in prepare_out (the follower reads them there:
  // FollowRunOptions::vehicles), 0 while one runs or after one that failed.
  size_t prepared_rows = 0;
  bool prepared_profiles = false;  // the last preparation wrote profiles
  // The last preparation's columns stayed here: the host's rows are stale.
  bool prepared_on_device_only = false;
  // The rows the last follower left in `out` and the last move in move_in's bodies, this
  // tick (VehiclesThisTick); 0 while one runs, and from the next preparation on.
  size_t followed_rows = 0, moved_rows = 0;
  // The last follower's target speed, throttle and brake are on the device only, for the
  // braking that follows (FollowRunOptions::braking_follows), until it brings them home.
  bool answers_on_device_only = false;
  // The move's columns in one block each way (cuda_staging.cuh); the bodies move in place
  // in the input block.
  CudaStaging staging;
  DeviceVector<uint8_t> move_in, move_out;
  size_t move_in_at[11] = {}, move_out_at[7] = {};
  // The discs' inputs in one block, the agent columns they fill in another.
  DeviceVector<uint8_t> discs_in, discs_out;
  size_t discs_in_at[3] = {}, discs_out_at[10] = {};
  // The discs' layout made here from this tick's prepared bodies (each body's disc count,
  // scanned): the same as the caller's, which VehicleDiscScene says the bodies determine.
  DeviceVector<uint32_t> disc_start;
  // What the last call left in discs_out (the solve reads it there: LastDiscRows), and
  // whether it left it there only.
  uint32_t disc_first_id = 0;
  size_t disc_rows = 0;
  bool discs_on_device_only = false;
};

void CudaBackend::DropPart::operator()(VehiclePart* p) const { delete p; }

// The vehicles go up column by column, unless this tick's preparation left them here; the
// results come down in one block, the debug signals after them only when the host wants them.
void CudaBackend::FollowSplines(const FollowerParams& params, float world_speed_limit,
                                const VehicleColumns& v, const FollowRunOptions& options,
                                FollowerResults* out) {
  ValidateFollowerParams(params, world_speed_limit);
  if (!vehicles_) vehicles_.reset(new VehiclePart);
  VehiclePart& d = *vehicles_;
  const size_t n = v.size();
  d.followed_rows = 0;
  const bool promised = options.vehicles == ColumnSource::kThisTick;
  const bool this_tick = promised && n > 0 && d.prepared_rows == n;
  ThrowIfPreparedOnDeviceOnly("FollowSplines", promised && n > 0, this_tick, VehiclesThisTick(n));
  // This tick's prepared vehicles are the backend's own, made from a checked snapshot (and
  // perhaps never copied to the host): only the caller's own columns are checked here.
  const std::vector<uint32_t> spline =
      this_tick ? std::vector<uint32_t>{} : ValidateVehicles(v, spline_ids_);
  VehicleInputView in{};
  if (this_tick) {
    // The preparation's output block: id, spline id, px, py, pz, yaw, speed, hint,
    // max speed, wheel angle, turn before move, profile, lane, body.
    const uint8_t* block = Raw(d.prepare_out);
    auto at_f = [&](int k) { return reinterpret_cast<const float*>(block + d.prepare_out_at[k]); };
    in = {reinterpret_cast<const uint32_t*>(block + d.prepare_out_at[12]),
          at_f(2),
          at_f(3),
          at_f(4),
          at_f(5),
          at_f(6),
          at_f(7),
          at_f(8),
          v.profile.empty() ? nullptr
                            : reinterpret_cast<const uint16_t*>(block + d.prepare_out_at[11]),
          v.wheel_angle.empty() ? nullptr : at_f(9),
          v.turn_before_move.empty() ? nullptr : at_f(10)};
  } else {
    Upload(spline, d.spline);
    Upload(v.px, d.px);
    Upload(v.py, d.py);
    Upload(v.pz, d.pz);
    Upload(v.yaw, d.yaw);
    Upload(v.speed, d.speed);
    Upload(v.progress_hint, d.hint);
    Upload(v.max_speed, d.max_speed);
    Upload(v.profile, d.profile);
    Upload(v.wheel_angle, d.wheel);
    Upload(v.turn_before_move, d.turn_before_move);
    in = {Raw(d.spline),
          Raw(d.px),
          Raw(d.py),
          Raw(d.pz),
          Raw(d.yaw),
          Raw(d.speed),
          Raw(d.hint),
          Raw(d.max_speed),
          v.profile.empty() ? nullptr : Raw(d.profile),
          v.wheel_angle.empty() ? nullptr : Raw(d.wheel),
          v.turn_before_move.empty() ? nullptr : Raw(d.turn_before_move)};
  }
  const std::vector<FollowerParams> table = ParameterTable(params, v);
  Upload(table, d.params);
  size_t out_bytes[VehiclePart::kFollowerOutputs], laid_out[VehiclePart::kFollowerOutputs];
  for (size_t& bytes : out_bytes) bytes = n * sizeof(float);
  d.out_block.resize(LayOutColumns(out_bytes, VehiclePart::kFollowerOutputs, laid_out));
  for (int j = 0; j < VehiclePart::kFollowerOutputs; ++j) {
    d.out_at[VehiclePart::kOutputLayout[j]] = laid_out[j];
  }
  const FollowerFunctor f{Lanes(),
                          in,
                          Raw(d.params),
                          world_speed_limit,
                          {d.Out(0), d.Out(1), d.Out(2), d.Out(3), d.Out(4), d.Out(5), d.Out(6),
                           d.Out(7), d.Out(8), d.Out(9), d.Out(10), d.Out(11), d.Out(12), d.Out(13),
                           d.Out(14), d.Out(15), d.Out(16), d.Out(17)}};
  thrust::for_each_n(Policy(), thrust::counting_iterator<size_t>(0), n, f);
  THRONG_CUDA_CHECK(cudaGetLastError());
  if (options.memory != nullptr) {
    // This tick's preparation left the memory here; else the caller's rows go up.
    if (!this_tick) Upload(options.memory, n, d.memory);
    thrust::for_each_n(Policy(), thrust::counting_iterator<size_t>(0), n,
                       VehicleRememberFunctor::For(params, Raw(d.memory), d.Out(5), d.Out(0)));
    THRONG_CUDA_CHECK(cudaGetLastError());
    d.completed_rows = n;
  }
  out->Resize(n);
  std::vector<float>* host[] = {&out->steering,       &out->throttle,      &out->brake,
                                &out->target_speed,   &out->cte,           &out->progress,
                                &out->position_delta, &out->heading_delta, &out->look_ahead,
                                &out->target_x,       &out->target_y,      &out->target_z,
                                &out->progress_x,     &out->progress_y,    &out->progress_z,
                                &out->tangent_x,      &out->tangent_y,     &out->tangent_z};
  // The first six are the results (when the host wants them); the rest are debug signals.
  // Target speed, throttle and brake (1 to 3) come from the braking when it follows.
  const int wanted = options.debug_to_host ? VehiclePart::kFollowerOutputs : 6;
  HostColumnOut columns[VehiclePart::kFollowerOutputs] = {};
  size_t wanted_bytes = 0;
  for (int k = 0; k < wanted; ++k) {
    const bool braked_later = options.braking_follows && k >= 1 && k <= 3;
    const bool result = k < 6;
    const bool down = result ? options.answers_to_host && !braked_later : true;
    columns[k] = {host[k]->data(), down ? n * sizeof(float) : 0};
    wanted_bytes += columns[k].bytes;
  }
  // The memory first: the answers' download waits for both.
  const bool memory_down = options.memory != nullptr && options.memory_to_host;
  if (memory_down) Download(Raw(d.memory), n, options.memory);
  transferred_.to_host +=
      d.staging.Download(d.out_block, d.out_at, columns, static_cast<size_t>(wanted), stream_);
  if (wanted_bytes == 0 && memory_down) Synchronize();
  d.followed_rows = n;
  d.answers_on_device_only = options.braking_follows;
}

void CudaBackend::QuerySplines(const SplineQueries& q, SplineQueryResults* out) {
  ValidateSplineQueries(q, spline_count_);
  if (!vehicles_) vehicles_.reset(new VehiclePart);
  VehiclePart& d = *vehicles_;
  const size_t n = q.size();
  Upload(q.spline, d.q_spline);
  Upload(q.s, d.q_s);
  Upload(q.px, d.q_px);
  Upload(q.py, d.q_py);
  Upload(q.pz, d.q_pz);
  Upload(q.s_hint, d.q_hint);
  for (auto* v : {&d.x, &d.y, &d.z, &d.tx, &d.ty, &d.tz, &d.k, &d.progress}) v->resize(n);
  const SplineQueryFunctor f{
      Lanes(),
      {Raw(d.q_spline), Raw(d.q_s), Raw(d.q_px), Raw(d.q_py), Raw(d.q_pz), Raw(d.q_hint), q.window},
      {Raw(d.x), Raw(d.y), Raw(d.z), Raw(d.tx), Raw(d.ty), Raw(d.tz), Raw(d.k), Raw(d.progress)}};
  thrust::for_each_n(Policy(), thrust::counting_iterator<size_t>(0), n, f);
  THRONG_CUDA_CHECK(cudaGetLastError());
  out->Resize(n);
  Download(d.x, out->x);
  Download(d.y, out->y);
  Download(d.z, out->z);
  Download(d.tx, out->tx);
  Download(d.ty, out->ty);
  Download(d.tz, out->tz);
  Download(d.k, out->curvature);
  Download(d.progress, out->progress);
  Synchronize();
}

// The snapshot's columns, the lanes by id and the memory (unless it is the kept one) go up
// in one block; the follower's columns, lanes and bodies come back in another, and the
// memory apart, each when asked for (a world's follower completes the memory here, and the
// world keeps it here: KeepVehicles).
uint64_t CudaBackend::PrepareVehicles(const VehiclePrepareParams& params,
                                      const VehiclePrepareScene& scene,
                                      const VehiclePrepareOutput& out) {
  const size_t n = scene.count;
  ++vehicle_tick_;  // a new tick: what the vehicle calls left is no longer this tick's
  if (vehicles_) {
    vehicles_->prepared_rows = vehicles_->followed_rows = vehicles_->moved_rows = 0;
    vehicles_->completed_rows = 0;
    vehicles_->answers_on_device_only = false;
  }
  const size_t kept_rows = vehicles_ ? vehicles_->kept_memory_rows : 0;
  const bool kept_memory = params.memory == ColumnSource::kLastTick;
  if (kept_memory && kept_rows != n) {
    throw std::logic_error("PrepareVehicles: last tick's memory of " + std::to_string(n) +
                           " vehicles promised, " + std::to_string(kept_rows) + " kept");
  }
  if (!vehicles_) vehicles_.reset(new VehiclePart);
  VehiclePart& d = *vehicles_;
  const size_t f = n * sizeof(float), u = n * sizeof(uint32_t);
  const size_t lanes = scene.lanes.count * sizeof(uint32_t);
  auto bytes = [](const void* column, size_t size) { return column != nullptr ? size : 0; };
  const void* in_data[14] = {
      scene.id,        scene.spline_id,  scene.x,         scene.y,
      scene.z,         scene.yaw,        scene.speed,     scene.progress_hint,
      scene.length,    scene.width,      scene.max_speed, scene.profile,
      scene.lanes.ids, scene.lanes.index};
  uint32_t present = 0;
  for (int k = 0; k < 14; ++k) present |= in_data[k] != nullptr ? 1u << k : 0u;
  // The last tick's: its preparation's columns still in the input block, where the same
  // columns lie at the same places (the same columns present, all six moved ones among
  // them: bits 2-7; a caller's first snapshot may lack some), and its move's next state.
  constexpr uint32_t kMoved = 0xfcu;
  const bool last_tick = params.columns == ColumnSource::kLastTick && n > 0 &&
                         d.prepare_in_rows == n && d.kept_state_rows == n &&
                         (present & kMoved) == kMoved && d.prepare_in_present == present;
  if (params.columns == ColumnSource::kLastTick && n > 0 && !last_tick &&
      d.kept_state_on_device_only) {
    throw std::logic_error(
        "PrepareVehicles: the state was promised from the kept tick, which left it on the "
        "device only, and it does not match");
  }
  if (n == 0) return 0;
  if (last_tick) {
    // Only the moved columns, from the kept move's block (x to progress hint: its 1 to 6).
    for (int k = 0; k < 6; ++k) {
      CopyOnDevice(Raw(d.prepare_in) + d.prepare_in_at[2 + k],
                   Raw(d.kept_state) + d.kept_state_at[1 + k], f);
    }
  } else {
    const size_t in_bytes[14] = {u, u, f, f, f, f, f, f, f, f, f, u, lanes, lanes};
    HostColumnIn in_columns[14];
    for (int k = 0; k < 14; ++k) in_columns[k] = {in_data[k], bytes(in_data[k], in_bytes[k])};
    d.prepare_in_rows = 0;  // until the upload is made
    transferred_.to_backend +=
        d.staging.Upload(in_columns, 14, d.prepare_in, d.prepare_in_at, stream_);
  }
  d.prepare_in_rows = n;
  d.prepare_in_present = present;
  // Last tick's memory: the kept one where it is, else the caller's, up on its own (the
  // world's first tick, and a tick whose ids changed).
  if (!kept_memory) Upload(scene.memory, n, d.memory_in);
  const bool profiles = scene.profile != nullptr;
  const size_t out_bytes[14] = {u, u,
                                f, f,
                                f, f,
                                f, f,
                                f, f,
                                f, profiles ? n * sizeof(uint16_t) : 0,
                                u, n * sizeof(VehicleBody)};
  d.prepare_out.resize(LayOutColumns(out_bytes, 14, d.prepare_out_at));
  uint8_t* in_block = Raw(d.prepare_in);
  uint8_t* out_block = Raw(d.prepare_out);
  // An absent column stays absent on the device.
  auto in = [&](int k) -> const void* {
    return in_data[k] != nullptr ? in_block + d.prepare_in_at[k] : nullptr;
  };
  auto in_f = [&](int k) { return static_cast<const float*>(in(k)); };
  auto in_u = [&](int k) { return static_cast<const uint32_t*>(in(k)); };
  auto at = [&](int k) { return out_block + d.prepare_out_at[k]; };
  auto at_f = [&](int k) { return reinterpret_cast<float*>(at(k)); };
  auto at_u = [&](int k) { return reinterpret_cast<uint32_t*>(at(k)); };
  const VehicleMemory* memory = kept_memory ? Raw(d.kept_memory) : Raw(d.memory_in);
  d.memory.resize(n);
  const VehiclePrepareScene device_scene{in_u(0),
                                         in_u(1),
                                         in_f(2),
                                         in_f(3),
                                         in_f(4),
                                         in_f(5),
                                         in_f(6),
                                         in_f(7),
                                         in_f(8),
                                         in_f(9),
                                         in_f(10),
                                         in_u(11),
                                         {in_u(12), in_u(13), scene.lanes.count},
                                         memory,
                                         n};
  const VehiclePrepareOutput device_out{
      at_u(0),      at_u(1),
      at_f(2),      at_f(3),
      at_f(4),      at_f(5),
      at_f(6),      at_f(7),
      at_f(8),      at_f(9),
      at_f(10),     profiles ? reinterpret_cast<uint16_t*>(at(11)) : nullptr,
      at_u(12),     reinterpret_cast<VehicleBody*>(at(13)),
      Raw(d.memory)};
  // The snapshot's values checked where they are.
  const uint64_t refused =
      PrepareRows(Policy(), n, VehiclePrepareFunctor{params, Lanes(), device_scene, device_out},
                  params.checks.on);
  THRONG_CUDA_CHECK(cudaGetLastError());
  if (params.memory_to_host) Download(Raw(d.memory), n, out.memory);
  d.prepared_on_device_only = !params.outputs_to_host;
  if (!params.outputs_to_host) {
    Synchronize();  // the memory's download, and the upload's host rows
    d.prepared_rows = n;
    d.prepared_profiles = profiles;
    return refused;
  }
  const HostColumnOut columns[14] = {{out.id, u},
                                     {out.spline_id, u},
                                     {out.px, f},
                                     {out.py, f},
                                     {out.pz, f},
                                     {out.yaw, f},
                                     {out.speed, f},
                                     {out.progress_hint, f},
                                     {out.max_speed, f},
                                     {out.wheel_angle, f},
                                     {out.turn_before_move, f},
                                     {out.profile, profiles ? n * sizeof(uint16_t) : 0},
                                     {out.lane, u},
                                     {out.bodies, n * sizeof(VehicleBody)}};
  transferred_.to_host += d.staging.Download(d.prepare_out, d.prepare_out_at, columns, 14, stream_);
  d.prepared_rows = n;
  d.prepared_profiles = profiles;
  return refused;
}

void CudaBackend::KeepVehicles() {
  if (!vehicles_) return;
  VehiclePart& d = *vehicles_;
  d.memory.swap(d.kept_memory);
  d.kept_memory_rows = d.completed_rows;
  d.completed_rows = 0;
  if (d.moved_rows > 0) {  // this tick moved its vehicles
    d.move_out.swap(d.kept_state);
    std::copy(d.move_out_at, d.move_out_at + 7, d.kept_state_at);
    d.kept_state_rows = d.moved_rows;
    d.kept_state_on_device_only = d.next_state_on_device_only;
  }
}

void CudaBackend::FetchKeptVehicles(const KeptVehicleRows& out) {
  const size_t kept_memory = vehicles_ ? vehicles_->kept_memory_rows : 0;
  const size_t kept_state = vehicles_ ? vehicles_->kept_state_rows : 0;
  if ((out.memory != nullptr && out.memory_rows != kept_memory) ||
      (out.x != nullptr && out.state_rows != kept_state)) {
    throw std::logic_error("FetchKeptVehicles: " + std::to_string(out.memory_rows) +
                           " memory and " + std::to_string(out.state_rows) +
                           " state rows asked for, " + std::to_string(kept_memory) + " and " +
                           std::to_string(kept_state) + " kept");
  }
  if (!vehicles_) return;
  VehiclePart& d = *vehicles_;
  if (out.memory != nullptr) Download(Raw(d.kept_memory), kept_memory, out.memory);
  if (out.x != nullptr && kept_state > 0) {
    const size_t f = kept_state * sizeof(float);
    const HostColumnOut next[7] = {
        {nullptr, 0},          {out.x, f}, {out.y, f}, {out.z, f}, {out.yaw, f}, {out.speed, f},
        {out.progress_hint, f}};
    transferred_.to_host += d.staging.Download(d.kept_state, d.kept_state_at, next, 7, stream_);
  }
  Synchronize();
}

// The pose, controls and bodies go up in one block, unless this tick's preparation,
// follower and braking left them here (the bodies are then copied within the device into
// that block, where they move in place); the wheel angles and the next state's columns come
// down (until the state lives here, issue 37), the moved bodies only when asked for.
void CudaBackend::MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& scene,
                               const VehicleMoveOutput& out) {
  const size_t n = scene.count;
  if (n == 0) return;
  if (!vehicles_) vehicles_.reset(new VehiclePart);
  VehiclePart& d = *vehicles_;
  const DeviceVehicleColumns kept = VehiclesThisTick(n);
  const bool promised = params.columns == ColumnSource::kThisTick;
  const bool this_tick = promised && kept.bodies != nullptr && kept.steering != nullptr;
  ThrowIfPreparedOnDeviceOnly("MoveVehicles", promised, this_tick, kept);
  d.moved_rows = 0;
  const size_t f = n * sizeof(float), b = n * sizeof(VehicleBody);
  const size_t up = this_tick ? 0 : f;
  // The bodies first: the download of the moved ones then copies only them.
  const HostColumnIn in_columns[11] = {{out.bodies, this_tick ? 0 : b},
                                       {scene.px, up},
                                       {scene.py, up},
                                       {scene.pz, up},
                                       {scene.yaw, up},
                                       {scene.speed, up},
                                       {scene.wheel_angle, up},
                                       {scene.steering, up},
                                       {scene.throttle, up},
                                       {scene.brake, up},
                                       {scene.progress, up}};
  if (this_tick) {
    size_t in_bytes[11] = {b};
    d.move_in.resize(LayOutColumns(in_bytes, 11, d.move_in_at));
    CopyOnDevice(Raw(d.move_in) + d.move_in_at[0], kept.bodies, b);
  } else {
    transferred_.to_backend += d.staging.Upload(in_columns, 11, d.move_in, d.move_in_at, stream_);
  }
  const size_t out_bytes[7] = {f, f, f, f, f, f, f};
  d.move_out.resize(LayOutColumns(out_bytes, 7, d.move_out_at));
  uint8_t* in_block = Raw(d.move_in);
  uint8_t* out_block = Raw(d.move_out);
  auto in = [&](int k) { return reinterpret_cast<float*>(in_block + d.move_in_at[k]); };
  auto at = [&](int k) { return reinterpret_cast<float*>(out_block + d.move_out_at[k]); };
  const VehicleMoveScene device_scene =
      this_tick ? VehicleMoveScene{kept.px,
                                   kept.py,
                                   kept.pz,
                                   kept.yaw,
                                   kept.speed,
                                   kept.wheel_angle,
                                   kept.steering,
                                   kept.throttle,
                                   kept.brake,
                                   kept.progress,
                                   n}
                : VehicleMoveScene{in(1), in(2), in(3), in(4),  in(5), in(6),
                                   in(7), in(8), in(9), in(10), n};
  VehicleBody* bodies = reinterpret_cast<VehicleBody*>(in_block + d.move_in_at[0]);
  const VehicleMoveOutput device_out{at(0), bodies, at(1), at(2), at(3), at(4), at(5), at(6)};
  thrust::for_each_n(Policy(), thrust::counting_iterator<size_t>(0), n,
                     VehicleMoveFunctor{params, device_scene, device_out});
  THRONG_CUDA_CHECK(cudaGetLastError());
  if (params.bodies_to_host) {
    const HostColumnOut moved[1] = {{out.bodies, b}};
    transferred_.to_host += d.staging.Download(d.move_in, d.move_in_at, moved, 1, stream_);
  }
  if (params.next_state_to_host) {
    const HostColumnOut next[7] = {
        {out.wheel_angle, f},  {out.x, f}, {out.y, f}, {out.z, f}, {out.yaw, f}, {out.speed, f},
        {out.progress_hint, f}};
    transferred_.to_host += d.staging.Download(d.move_out, d.move_out_at, next, 7, stream_);
  } else if (!params.bodies_to_host && !this_tick) {
    Synchronize();  // the upload's host rows
  }
  d.next_state_on_device_only = !params.next_state_to_host;
  d.moved_rows = n;
}

// The bodies, speeds and layout go up in one block, unless this tick's preparation left the
// bodies and speeds here (the layout is then made here from the bodies: nothing goes up);
// the discs' ten agent columns come down in one block, when the host wants them.
void CudaBackend::WriteVehicleDiscs(const VehicleDiscScene& scene, const VehicleDiscOutput& out) {
  const size_t m = scene.count;
  if (vehicles_) vehicles_->disc_rows = 0;
  if (m == 0) return;
  const size_t discs = scene.disc_start[m];
  if (!vehicles_) vehicles_.reset(new VehiclePart);
  VehiclePart& d = *vehicles_;
  // The bodies and speeds where this tick's preparation left them, else the host's.
  const DeviceVehicleColumns kept = VehiclesThisTick(m);
  const bool this_tick = scene.columns == ColumnSource::kThisTick && kept.bodies != nullptr;
  ThrowIfPreparedOnDeviceOnly("WriteVehicleDiscs", scene.columns == ColumnSource::kThisTick,
                              this_tick, kept);
  const HostColumnIn in_columns[3] = {
      {scene.bodies, this_tick ? 0 : m * sizeof(VehicleBody)},
      {scene.speed, this_tick ? 0 : m * sizeof(float)},
      {scene.disc_start, this_tick ? 0 : (m + 1) * sizeof(uint32_t)}};
  transferred_.to_backend += d.staging.Upload(in_columns, 3, d.discs_in, d.discs_in_at, stream_);
  if (this_tick) {
    d.disc_start.resize(m + 1);
    uint32_t* start = Raw(d.disc_start);
    const thrust::counting_iterator<uint32_t> first(0);
    thrust::transform(Policy(), first, first + static_cast<uint32_t>(m), start,
                      DiscCountOf{kept.bodies});
    THRONG_CUDA_CHECK(cudaMemsetAsync(start + m, 0, sizeof(uint32_t), stream_));
    thrust::exclusive_scan(Policy(), start, start + m + 1, start);
  }
  size_t out_bytes[kAgentColumnsOutCount];
  AgentColumnsOutBytes(discs, out_bytes);
  d.discs_out.resize(LayOutColumns(out_bytes, kAgentColumnsOutCount, d.discs_out_at));
  const uint8_t* in_block = Raw(d.discs_in);
  const VehicleDiscScene device_scene{
      this_tick ? kept.bodies : reinterpret_cast<const VehicleBody*>(in_block + d.discs_in_at[0]),
      this_tick ? kept.speed : reinterpret_cast<const float*>(in_block + d.discs_in_at[1]),
      this_tick ? Raw(d.disc_start)
                : reinterpret_cast<const uint32_t*>(in_block + d.discs_in_at[2]),
      m, ColumnSource::kHost};
  const VehicleDiscOutput device_out{out.first_id,
                                     AgentColumnsOutAt(Raw(d.discs_out), d.discs_out_at)};
  thrust::for_each_n(Policy(), thrust::counting_iterator<size_t>(0), m,
                     VehicleDiscFunctor{device_scene, device_out});
  THRONG_CUDA_CHECK(cudaGetLastError());
  if (out.to_host) {
    HostColumnOut columns[kAgentColumnsOutCount];
    AgentColumnsOutDownload(out.agents, discs, columns);
    transferred_.to_host +=
        d.staging.Download(d.discs_out, d.discs_out_at, columns, kAgentColumnsOutCount, stream_);
  }
  d.disc_first_id = out.first_id;
  d.disc_rows = discs;
  d.discs_on_device_only = !out.to_host;
}

void CudaBackend::ForgetAnswersOnDeviceOnly() {
  if (vehicles_) vehicles_->answers_on_device_only = false;
}

void CudaBackend::ThrowIfPreparedOnDeviceOnly(const char* call, bool promised, bool read_here,
                                              const DeviceVehicleColumns& kept) {
  if (promised && !read_here && kept.prepared_on_device_only) {
    throw std::logic_error(std::string(call) +
                           ": the vehicles were promised from this tick's calls, which left "
                           "them on the device, and they do not match");
  }
}

CudaBackend::DeviceVehicleColumns CudaBackend::VehiclesThisTick(size_t count) const {
  DeviceVehicleColumns c;
  if (!vehicles_) return c;
  VehiclePart& d = *vehicles_;
  c.prepared_on_device_only = d.prepared_on_device_only;
  c.answers_on_device_only = d.answers_on_device_only;
  if (count == 0) return c;
  if (d.prepared_rows == count) {
    // The preparation's output block: id, spline id, px, py, pz, yaw, speed, hint, max
    // speed, wheel angle, turn before move, profile, lane, body.
    const uint8_t* block = Raw(d.prepare_out);
    auto at_f = [&](int k) { return reinterpret_cast<const float*>(block + d.prepare_out_at[k]); };
    c.px = at_f(2);
    c.py = at_f(3);
    c.pz = at_f(4);
    c.yaw = at_f(5);
    c.speed = at_f(6);
    c.wheel_angle = at_f(9);
    if (d.prepared_profiles) {
      c.profile = reinterpret_cast<const uint16_t*>(block + d.prepare_out_at[11]);
    }
    c.lane = reinterpret_cast<const uint32_t*>(block + d.prepare_out_at[12]);
    c.bodies = reinterpret_cast<const VehicleBody*>(block + d.prepare_out_at[13]);
  }
  if (d.followed_rows == count) {
    // FollowerOutputView's order: steering, throttle, brake, target speed, cte, progress.
    c.steering = d.Out(0);
    c.throttle = d.Out(1);
    c.brake = d.Out(2);
    c.target_speed = d.Out(3);
    c.progress = d.Out(5);
  }
  if (d.moved_rows == count) {
    c.moved_bodies = reinterpret_cast<const VehicleBody*>(Raw(d.move_in) + d.move_in_at[0]);
  }
  return c;
}

CudaBackend::DeviceAgentRows CudaBackend::LastDiscRows() const {
  if (!vehicles_ || vehicles_->disc_rows == 0) return {};
  VehiclePart& d = *vehicles_;
  return {AgentColumnsOutAt(Raw(d.discs_out), d.discs_out_at), d.disc_first_id, d.disc_rows,
          d.discs_on_device_only};
}

}  // namespace throng
