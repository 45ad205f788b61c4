// The cuda backend's forward agents: the cast fan against the obstacles' edges
// (SteerForward), the fan in a world's scene of static shapes and moving bodies, and the
// move along the direction it chose.
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/backends/cuda_staging.cuh"
#include "kernels/backends/fan_kernel.cuh"
#include "kernels/backends/forward_scene_buffers.cuh"
#include "kernels/steering/forward_move.cuh"

namespace throng {

struct CudaBackend::ForwardPart {
  ForwardSceneBuffers<thrust::device_vector> scene;
  // The snapshot's forward columns in one block; the pedestrians' and vehicles' bodies in
  // another where this tick's preparations did not leave them here.
  DeviceVector<uint8_t> prepare_in, bodies_in;
  size_t prepare_in_at[15] = {}, bodies_in_at[6] = {};
  // The fan's answers in the caller's frame, in one block.
  DeviceVector<uint8_t> answers;
  size_t answers_at[6] = {};
  DeviceVector<float> fan_in[5], fan_out[5];
  DeviceVector<int16_t> fan_probe;
  DeviceVector<uint8_t> fan_blocked;
  // The move's columns in one block each way (cuda_staging.cuh).
  CudaStaging staging;
  DeviceVector<uint8_t> move_in, move_out;
  size_t move_in_at[3] = {}, move_out_at[6] = {};
  // Which of the preparation's fifteen columns the last one had (bit k: in_data[k]), and
  // its rows.
  uint32_t prepare_in_present = 0;
  size_t prepared_rows = 0;
  // This tick's move ran (since the last preparation), with its rows, and left the next
  // state here only; what KeepForward kept of it (the move's block, x to forward_z).
  bool moved = false, moved_on_device_only = false;
  size_t moved_rows = 0;
  DeviceVector<uint8_t> kept_state;
  size_t kept_state_at[6] = {};
  size_t kept_rows = 0;
  bool kept_on_device_only = false;
};

void CudaBackend::DropPart::operator()(ForwardPart* p) const { delete p; }

void CudaBackend::SetFanObstacles(const FanShapes& shapes, float cell) {
  if (!forward_) forward_.reset(new ForwardPart);
  forward_->scene.SetStatic(BuildFanObstacleSet(shapes), cell, Uploader());
  Synchronize();
}

// The snapshot's forward columns go up in one block; the pedestrians and the vehicles are
// read where this tick's preparations left them (else the host's go up in a second block).
uint64_t CudaBackend::PrepareForwardScene(const ForwardPrepareParams& params,
                                          const ForwardPrepareScene& scene) {
  if (!forward_) forward_.reset(new ForwardPart);
  ForwardPart& d = *forward_;
  const size_t n = scene.count, f = n * sizeof(float);
  auto bytes = [](const void* column, size_t size) { return column != nullptr ? size : 0; };
  const void* in_data[15] = {
      scene.x,         scene.y,      scene.z,          scene.forward_x,    scene.forward_y,
      scene.forward_z, scene.speed,  scene.radius,     scene.goal_x,       scene.goal_y,
      scene.goal_z,    scene.probes, scene.half_angle, scene.probe_length, scene.turn_speed};
  uint32_t present = 0;
  for (int k = 0; k < 15; ++k) present |= in_data[k] != nullptr ? 1u << k : 0u;
  // The kept tick's: its preparation's columns still in the input block, at the same places
  // (the same columns present, the six moved ones among them), and its move's next state.
  const bool last_tick = params.columns == ColumnSource::kLastTick && n > 0 &&
                         d.prepared_rows == n && d.kept_rows == n && (present & 0x3fu) == 0x3fu &&
                         d.prepare_in_present == present;
  if (params.columns == ColumnSource::kLastTick && n > 0 && !last_tick && d.kept_on_device_only) {
    throw std::logic_error(
        "PrepareForwardScene: the state was promised from the kept tick, which left it on the "
        "device only, and it does not match");
  }
  d.moved = false;  // a new tick
  if (last_tick) {
    // Only the moved columns, from the kept move's block (x, y, z, forward_x, forward_y,
    // forward_z in both).
    for (int k = 0; k < 6; ++k) {
      CopyOnDevice(Raw(d.prepare_in) + d.prepare_in_at[k], Raw(d.kept_state) + d.kept_state_at[k],
                   f);
    }
  } else {
    HostColumnIn in_columns[15];
    for (int k = 0; k < 15; ++k) in_columns[k] = {in_data[k], bytes(in_data[k], f)};  // 4 bytes
    transferred_.to_backend +=
        d.staging.Upload(in_columns, 15, d.prepare_in, d.prepare_in_at, stream_);
  }
  d.prepare_in_present = present;
  d.prepared_rows = n;
  const uint8_t* in_block = Raw(d.prepare_in);
  auto in_f = [&](int k) {
    return in_data[k] != nullptr ? reinterpret_cast<const float*>(in_block + d.prepare_in_at[k])
                                 : nullptr;
  };
  ForwardPrepareScene device = scene;
  device.x = in_f(0);
  device.y = in_f(1);
  device.z = in_f(2);
  device.forward_x = in_f(3);
  device.forward_y = in_f(4);
  device.forward_z = in_f(5);
  device.speed = in_f(6);
  device.radius = in_f(7);
  device.goal_x = in_f(8);
  device.goal_y = in_f(9);
  device.goal_z = in_f(10);
  device.probes = scene.probes != nullptr
                      ? reinterpret_cast<const uint32_t*>(in_block + d.prepare_in_at[11])
                      : nullptr;
  device.half_angle = in_f(12);
  device.probe_length = in_f(13);
  device.turn_speed = in_f(14);

  // The bodies: this tick's where its preparations left them.
  const size_t p = scene.pedestrians, m = scene.vehicles;
  const float* pedestrians[4] = {};
  const bool pedestrians_here =
      params.pedestrians == ColumnSource::kThisTick && p > 0 && PreparedPedestrians(p, pedestrians);
  const DeviceVehicleColumns vehicles = VehiclesThisTick(m);
  const bool vehicles_here =
      params.vehicles == ColumnSource::kThisTick && m > 0 && vehicles.bodies != nullptr;
  ThrowIfPreparedOnDeviceOnly("PrepareForwardScene",
                              params.vehicles == ColumnSource::kThisTick && m > 0, vehicles_here,
                              vehicles);
  if (params.pedestrians == ColumnSource::kThisTick && p > 0 && !pedestrians_here &&
      PedestriansPreparedOnDeviceOnly()) {
    throw std::logic_error(
        "PrepareForwardScene: this tick's pedestrians were promised, left on the device only, "
        "and not found there");
  }
  const size_t pf = p * sizeof(float), mf = m * sizeof(float);
  const HostColumnIn body_columns[6] = {
      {scene.pedestrian_x, pedestrians_here ? 0 : pf},
      {scene.pedestrian_y, pedestrians_here ? 0 : pf},
      {scene.pedestrian_radius, pedestrians_here ? 0 : pf},
      {scene.pedestrian_z, pedestrians_here ? 0 : pf},
      {scene.vehicle_bodies, vehicles_here ? 0 : m * sizeof(VehicleBody)},
      {scene.vehicle_z, vehicles_here ? 0 : mf}};
  transferred_.to_backend +=
      d.staging.Upload(body_columns, 6, d.bodies_in, d.bodies_in_at, stream_);
  const uint8_t* bodies_block = Raw(d.bodies_in);
  auto body_f = [&](int k) {
    return reinterpret_cast<const float*>(bodies_block + d.bodies_in_at[k]);
  };
  if (pedestrians_here) {
    device.pedestrian_x = pedestrians[0];
    device.pedestrian_y = pedestrians[1];
    device.pedestrian_radius = pedestrians[2];
    device.pedestrian_z = pedestrians[3];
  } else {
    device.pedestrian_x = body_f(0);
    device.pedestrian_y = body_f(1);
    device.pedestrian_radius = body_f(2);
    device.pedestrian_z = body_f(3);
  }
  if (vehicles_here) {
    device.vehicle_bodies = vehicles.bodies;
    device.vehicle_z = vehicles.pz;
  } else {
    device.vehicle_bodies = reinterpret_cast<const VehicleBody*>(bodies_block + d.bodies_in_at[4]);
    device.vehicle_z = body_f(5);
  }
  const uint64_t refused =
      d.scene.Prepare(Policy(), params, device,
                      [this](const DeviceVector<Vec2>& lo, const DeviceVector<Vec2>& hi, float cell,
                             AabbGridBuffers<thrust::device_vector>* grid,
                             AabbGridScratch<thrust::device_vector>& scratch) {
                        BuildAabbGridOn(Policy(), Raw(lo), Raw(hi), static_cast<int32_t>(lo.size()),
                                        cell, scratch, grid);
                      });
  THRONG_CUDA_CHECK(cudaGetLastError());
  Synchronize();  // the staged host columns may go
  return refused;
}

ForwardSums CudaBackend::SteerForwardScene(const ForwardSteerParams& params,
                                           const StopRequested& stop,
                                           const ForwardSteerOutput& out) {
  ThrowIfStopRequested(stop, "forward");  // one launch, as the ORCA stages
  if (!forward_) forward_.reset(new ForwardPart);
  ForwardPart& d = *forward_;
  const size_t n = d.scene.prepared();
  thrust::for_each_n(Policy(), thrust::counting_iterator<uint32_t>(0), static_cast<uint32_t>(n),
                     d.scene.Functor());
  THRONG_CUDA_CHECK(cudaGetLastError());
  const size_t f = n * sizeof(float);
  const size_t answer_bytes[6] = {f, f, f, n * sizeof(uint16_t), f, n};
  d.answers.resize(LayOutColumns(answer_bytes, 6, d.answers_at));
  uint8_t* block = Raw(d.answers);
  auto at_f = [&](int k) { return reinterpret_cast<float*>(block + d.answers_at[k]); };
  const ForwardSteerOutput device_out{at_f(0), at_f(1),
                                      at_f(2), reinterpret_cast<uint16_t*>(block + d.answers_at[3]),
                                      at_f(4), block + d.answers_at[5]};
  const ForwardSums sums = d.scene.Answer(Policy(), params.frame, device_out);
  if (params.results_to_host) {
    const HostColumnOut answers[6] = {{out.move_x, f},       {out.move_y, f},
                                      {out.move_z, f},       {out.probe, n * sizeof(uint16_t)},
                                      {out.hit_distance, f}, {out.all_blocked, n}};
    transferred_.to_host += d.staging.Download(d.answers, d.answers_at, answers, 6, stream_);
  }
  Synchronize();
  return sums;
}

void CudaBackend::SteerForward(const FanParams& params, float dt, const ForwardAgentColumns& a,
                               FanResults* out) {
  ValidateFan(params, dt, a);
  if (!forward_) forward_.reset(new ForwardPart);
  ForwardPart& d = *forward_;
  const size_t n = a.size();
  Upload(a.px, d.fan_in[0]);
  Upload(a.py, d.fan_in[1]);
  Upload(a.fx, d.fan_in[2]);
  Upload(a.fy, d.fan_in[3]);
  Upload(a.radius, d.fan_in[4]);
  for (auto& column : d.fan_out) column.resize(n);
  d.fan_probe.resize(n);
  d.fan_blocked.resize(n);
  const FanFunctor f{Raw(d.fan_in[0]),
                     Raw(d.fan_in[1]),
                     Raw(d.fan_in[2]),
                     Raw(d.fan_in[3]),
                     Raw(d.fan_in[4]),
                     Raw(d_segments_),
                     static_cast<int>(d_segments_.size() / 2),
                     params,
                     dt,
                     Raw(d.fan_out[0]),
                     Raw(d.fan_out[1]),
                     Raw(d.fan_out[2]),
                     Raw(d.fan_out[3]),
                     Raw(d.fan_probe),
                     Raw(d.fan_out[4]),
                     Raw(d.fan_blocked)};
  thrust::for_each_n(Policy(), thrust::counting_iterator<size_t>(0), n, f);
  THRONG_CUDA_CHECK(cudaGetLastError());
  out->Resize(n);
  Download(d.fan_out[0], out->move_x);
  Download(d.fan_out[1], out->move_y);
  Download(d.fan_out[2], out->chosen_x);
  Download(d.fan_out[3], out->chosen_y);
  Download(d.fan_out[4], out->hit_distance);
  Download(d.fan_probe, out->probe);
  Download(d.fan_blocked, out->all_blocked);
  Synchronize();
}

// The positions, directions and speeds go up in one block, unless this tick's preparation
// and fan left them here; the next state's six columns come down in one.
void CudaBackend::MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                                    const ForwardMoveOutput& out) {
  const size_t n = scene.count;
  if (n == 0) return;
  if (!forward_) forward_.reset(new ForwardPart);
  ForwardPart& d = *forward_;
  const bool this_tick = params.columns == ColumnSource::kThisTick;
  if (this_tick && n != d.scene.prepared()) {
    throw std::logic_error("MoveForwardAgents: " + std::to_string(n) +
                           " agents promised from a preparation of " +
                           std::to_string(d.scene.prepared()));
  }
  const size_t v = n * sizeof(Vec3), f = n * sizeof(float);
  ForwardMoveScene device_scene{nullptr, nullptr, nullptr, n};
  const float* step = nullptr;
  if (this_tick) {
    device_scene.position = d.scene.positions();
    device_scene.move = d.scene.moves();
    step = d.scene.steps();
  } else {
    const HostColumnIn in_columns[3] = {{scene.position, v}, {scene.move, v}, {scene.speed, f}};
    transferred_.to_backend += d.staging.Upload(in_columns, 3, d.move_in, d.move_in_at, stream_);
    const uint8_t* in_block = Raw(d.move_in);
    device_scene.position = reinterpret_cast<const Vec3*>(in_block + d.move_in_at[0]);
    device_scene.move = reinterpret_cast<const Vec3*>(in_block + d.move_in_at[1]);
    device_scene.speed = reinterpret_cast<const float*>(in_block + d.move_in_at[2]);
  }
  const size_t out_bytes[6] = {f, f, f, f, f, f};
  d.move_out.resize(LayOutColumns(out_bytes, 6, d.move_out_at));
  uint8_t* out_block = Raw(d.move_out);
  auto at = [&](int k) { return reinterpret_cast<float*>(out_block + d.move_out_at[k]); };
  const ForwardMoveOutput device_out{at(0), at(1), at(2), at(3), at(4), at(5)};
  thrust::for_each_n(Policy(), thrust::counting_iterator<size_t>(0), n,
                     ForwardMoveFunctor{params, device_scene, device_out, step});
  THRONG_CUDA_CHECK(cudaGetLastError());
  if (params.next_state_to_host) {
    const HostColumnOut next[6] = {{out.x, f},         {out.y, f},         {out.z, f},
                                   {out.forward_x, f}, {out.forward_y, f}, {out.forward_z, f}};
    transferred_.to_host += d.staging.Download(d.move_out, d.move_out_at, next, 6, stream_);
  } else {
    Synchronize();
  }
  d.moved = true;
  d.moved_rows = n;
  d.moved_on_device_only = !params.next_state_to_host;
}

// The move's block becomes the kept state (the next move writes the other block).
void CudaBackend::KeepForward() {
  if (!forward_) return;
  ForwardPart& d = *forward_;
  if (d.moved) {
    std::swap(d.kept_state, d.move_out);
    std::copy(d.move_out_at, d.move_out_at + 6, d.kept_state_at);
    d.kept_rows = d.moved_rows;
    d.kept_on_device_only = d.moved_on_device_only;
  } else {
    d.kept_rows = 0;
    d.kept_on_device_only = false;
  }
  d.moved = false;
}

void CudaBackend::FetchKeptForward(const KeptForwardRows& out) {
  const size_t kept = forward_ ? forward_->kept_rows : 0;
  if (kept != out.rows) {
    throw std::logic_error("FetchKeptForward: " + std::to_string(out.rows) + " rows asked for, " +
                           std::to_string(kept) + " kept");
  }
  if (kept == 0) return;
  ForwardPart& d = *forward_;
  const size_t f = kept * sizeof(float);
  const HostColumnOut rows[6] = {{out.x, f},         {out.y, f},         {out.z, f},
                                 {out.forward_x, f}, {out.forward_y, f}, {out.forward_z, f}};
  transferred_.to_host += d.staging.Download(d.kept_state, d.kept_state_at, rows, 6, stream_);
  d.kept_on_device_only = false;
}

}  // namespace throng
