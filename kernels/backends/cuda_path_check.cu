// The cuda backend's path check (kernels/backends/path_check_pipeline.cuh): each vehicle's
// lane walked over the pedestrians and vehicle discs in the backend's neighbour grid; and
// the braking for what it found (kernels/vehicles/path_braking.cuh).
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform_reduce.h>

#include <cstring>
#include <stdexcept>
#include <vector>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/backends/cuda_staging.cuh"
#include "kernels/backends/path_check_pipeline.cuh"
#include "kernels/vehicles/path_braking.cuh"

namespace throng {

struct CudaBackend::PathPart {
  PathCheckPipeline<thrust::device_vector> pipeline;
  DeviceVector<float> in[7], clear;
  // The rows of `clear` the last check left, and the vehicle tick it ran in (the braking
  // reads it there: PathBrakingScene::columns).
  size_t clear_rows = 0;
  uint64_t clear_tick = 0;
  DeviceVector<VehicleBody> bodies;
  DeviceVector<uint32_t> spline;
  // The braking's columns in one block, moved in place (cuda_staging.cuh).
  CudaStaging staging;
  DeviceVector<uint8_t> brake_block;
  size_t brake_at[7] = {};
  // The profiles' table the block holds (at brake_at[6]), as last uploaded: a braking on
  // this tick's columns with the same table uploads nothing.
  std::vector<BrakingProfile> table;
  bool table_in_block = false;
  // The capped answers, gathered for their download when the follower's were capped where
  // they lie.
  DeviceVector<uint8_t> answers;
  size_t answers_at[3] = {};
};

void CudaBackend::DropPart::operator()(PathPart* p) const { delete p; }

void CudaBackend::CheckPaths(const PathCheckParams& params, float max_brake_decel,
                             const PathCheckScene& scene, const StopRequested& stop,
                             std::vector<float>* clear) {
  const size_t n = scene.agents, m = scene.vehicles;
  clear->clear();
  if (m == 0) return;  // as on the other backends: nothing to check, nothing to stop
  ThrowIfStopRequested(stop, "vehicles");  // one launch, as the ORCA stages
  if (!paths_) paths_.reset(new PathPart);
  PathPart& d = *paths_;
  d.clear_rows = 0;
  // The vehicles where this tick's preparation and follower left them, else the host's.
  const DeviceVehicleColumns kept = VehiclesThisTick(m);
  PathVehiclesView vehicles{kept.bodies, kept.lane, kept.progress, kept.speed};
  const bool promised = scene.vehicle_columns == ColumnSource::kThisTick;
  const bool this_tick = promised && kept.bodies != nullptr && kept.progress != nullptr;
  ThrowIfPreparedOnDeviceOnly("CheckPaths", promised, this_tick, kept);
  if (!this_tick) {
    Upload(scene.progress, m, d.in[5]);
    Upload(scene.speed, m, d.in[6]);
    Upload(scene.bodies, m, d.bodies);
    Upload(scene.spline, m, d.spline);
    vehicles = {Raw(d.bodies), Raw(d.spline), Raw(d.in[5]), Raw(d.in[6])};
  }
  d.clear.resize(m);
  PathSceneView view{nullptr,  nullptr,
                     nullptr,  nullptr,
                     nullptr,  static_cast<uint32_t>(n),
                     vehicles, static_cast<uint32_t>(m)};
  const auto edge_count = static_cast<int32_t>(d_segments_.size() / 2);
  // The ORCA solve's grid already holds these points on the device: no upload, no sort.
  const bool shared = scene.points_were_last_solve &&
                      d.pipeline.RunOnOrcaGrid(Policy(), params, max_brake_decel, Lanes(),
                                               Raw(d_segments_), edge_count, grid_, LastOrcaGrid(),
                                               view, {}, static_cast<uint32_t>(m), Raw(d.clear));
  if (!shared) {
    // The solve's agents where it left them (the host's may be stale: the preparation's
    // outputs can stay on the device), else the host's.
    const float* solved[5] = {};
    if (scene.points_were_last_solve && SolvedAgents(n, solved)) {
      view.agent_x = solved[0];
      view.agent_y = solved[1];
      view.agent_vx = solved[2];
      view.agent_vy = solved[3];
      view.agent_radius = solved[4];
    } else {
      Upload(scene.agent_x, n, d.in[0]);
      Upload(scene.agent_y, n, d.in[1]);
      Upload(scene.agent_radius, n, d.in[2]);
      Upload(scene.agent_vx, n, d.in[3]);
      Upload(scene.agent_vy, n, d.in[4]);
      view.agent_x = Raw(d.in[0]);
      view.agent_y = Raw(d.in[1]);
      view.agent_radius = Raw(d.in[2]);
      view.agent_vx = Raw(d.in[3]);
      view.agent_vy = Raw(d.in[4]);
    }
    d.pipeline.Run(Policy(), params, max_brake_decel, Lanes(), Raw(d_segments_), edge_count, grid_,
                   view, {}, static_cast<uint32_t>(m), Raw(d.clear));
  }
  THRONG_CUDA_CHECK(cudaGetLastError());
  if (scene.clear_to_host) {
    Download(d.clear, *clear);
    Synchronize();
  }
  d.clear_rows = m;
  d.clear_tick = vehicle_tick_;
}

// The columns and the profiles go up in one block, unless this tick's path check,
// preparation and follower left them here (the profiles' table then goes up alone, and the
// follower's answers are capped where they lie); the capped answers come down.
uint64_t CudaBackend::BrakeForPaths(const PathBrakingScene& scene, const PathBrakingOutput& out) {
  const size_t m = scene.count;
  if (m == 0) return 0;
  if (!paths_) paths_.reset(new PathPart);
  PathPart& d = *paths_;
  const DeviceVehicleColumns kept = VehiclesThisTick(m);
  const bool this_tick = scene.columns == ColumnSource::kThisTick && kept.speed != nullptr &&
                         kept.throttle != nullptr && d.clear_rows == m &&
                         d.clear_tick == vehicle_tick_ &&
                         (scene.profile == nullptr || kept.profile != nullptr);
  ThrowIfPreparedOnDeviceOnly("BrakeForPaths", scene.columns == ColumnSource::kThisTick, this_tick,
                              kept);
  if (!this_tick && kept.answers_on_device_only) {
    throw std::logic_error(
        "BrakeForPaths: the follower left its answers on the device for a braking that "
        "reads them there, and this one cannot");
  }
  const size_t f = m * sizeof(float), up = this_tick ? 0 : f;
  const HostColumnIn columns[7] = {
      {out.target_speed, up},
      {out.throttle, up},
      {out.brake, up},
      {scene.clear, up},
      {scene.speed, up},
      {scene.profile, scene.profile != nullptr && !this_tick ? m * sizeof(uint16_t) : 0},
      {scene.profiles, scene.profile_count * sizeof(BrakingProfile)}};
  const bool same_table =
      this_tick && d.table_in_block && d.table.size() == scene.profile_count &&
      (scene.profile_count == 0 || std::memcmp(d.table.data(), scene.profiles,
                                               scene.profile_count * sizeof(BrakingProfile)) == 0);
  if (!same_table) {
    d.table_in_block = false;  // until the upload is made
    transferred_.to_backend += d.staging.Upload(columns, 7, d.brake_block, d.brake_at, stream_);
    d.table.assign(scene.profiles, scene.profiles + scene.profile_count);
    d.table_in_block = true;
  }
  uint8_t* block = Raw(d.brake_block);
  auto at = [&](int k) { return reinterpret_cast<float*>(block + d.brake_at[k]); };
  PathBrakingScene device_scene = scene;
  device_scene.profiles = reinterpret_cast<const BrakingProfile*>(block + d.brake_at[6]);
  PathBrakingOutput device_out{at(0), at(1), at(2)};
  if (this_tick) {
    device_scene.clear = Raw(d.clear);
    device_scene.speed = kept.speed;
    device_scene.profile = scene.profile != nullptr ? kept.profile : nullptr;
    device_out = {kept.target_speed, kept.throttle, kept.brake};
  } else {
    device_scene.clear = at(3);
    device_scene.speed = at(4);
    device_scene.profile = scene.profile != nullptr
                               ? reinterpret_cast<const uint16_t*>(block + d.brake_at[5])
                               : nullptr;
  }
  const thrust::counting_iterator<size_t> first(0);
  const uint64_t slowed = thrust::transform_reduce(Policy(), first, first + m,
                                                   PathBrakingFunctor{device_scene, device_out},
                                                   uint64_t{0}, thrust::plus<uint64_t>());
  THRONG_CUDA_CHECK(cudaGetLastError());
  const HostColumnOut answers[3] = {{out.target_speed, f}, {out.throttle, f}, {out.brake, f}};
  if (this_tick && !scene.answers_to_host) return slowed;  // capped where they lie, for the move
  ForgetAnswersOnDeviceOnly();  // the host has them, capped, once the download below is done
  if (this_tick) {
    // The capped answers gathered in one block, for one download (the block's last
    // download has finished: Download waits for it).
    const size_t bytes[3] = {f, f, f};
    d.answers.resize(LayOutColumns(bytes, 3, d.answers_at));
    uint8_t* gathered = Raw(d.answers);
    CopyOnDevice(gathered + d.answers_at[0], device_out.target_speed, f);
    CopyOnDevice(gathered + d.answers_at[1], device_out.throttle, f);
    CopyOnDevice(gathered + d.answers_at[2], device_out.brake, f);
    transferred_.to_host += d.staging.Download(d.answers, d.answers_at, answers, 3, stream_);
  } else {
    transferred_.to_host += d.staging.Download(d.brake_block, d.brake_at, answers, 3, stream_);
    // The follower's copies capped too, so that they stay what the host holds.
    if (kept.throttle != nullptr) {
      CopyOnDevice(kept.target_speed, at(0), f);
      CopyOnDevice(kept.throttle, at(1), f);
      CopyOnDevice(kept.brake, at(2), f);
    }
  }
  return slowed;
}

}  // namespace throng
