// The cuda backend's path check (kernels/backends/path_check_pipeline.cuh): each vehicle's
// lane walked over the pedestrians and vehicle discs in the backend's neighbour grid; and
// the braking for what it found (kernels/vehicles/path_braking.cuh).
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform_reduce.h>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/backends/cuda_staging.cuh"
#include "kernels/backends/path_check_pipeline.cuh"
#include "kernels/vehicles/path_braking.cuh"

namespace throng {

struct CudaBackend::PathPart {
  PathCheckPipeline<thrust::device_vector> pipeline;
  DeviceVector<float> in[7], clear;
  DeviceVector<VehicleBody> bodies;
  DeviceVector<uint32_t> spline;
  // The braking's columns in one block, moved in place (cuda_staging.cuh).
  CudaStaging staging;
  DeviceVector<uint8_t> brake_block;
  size_t brake_at[7] = {};
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
  Upload(scene.progress, m, d.in[5]);
  Upload(scene.speed, m, d.in[6]);
  Upload(scene.bodies, m, d.bodies);
  Upload(scene.spline, m, d.spline);
  d.clear.resize(m);
  PathSceneView view{nullptr,
                     nullptr,
                     nullptr,
                     nullptr,
                     nullptr,
                     static_cast<uint32_t>(n),
                     {Raw(d.bodies), Raw(d.spline), Raw(d.in[5]), Raw(d.in[6])},
                     static_cast<uint32_t>(m)};
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
  Download(d.clear, *clear);
  Synchronize();
}

// The columns and the profiles go up in one block; the capped answers come down from it.
uint64_t CudaBackend::BrakeForPaths(const PathBrakingScene& scene, const PathBrakingOutput& out) {
  const size_t m = scene.count;
  if (m == 0) return 0;
  if (!paths_) paths_.reset(new PathPart);
  PathPart& d = *paths_;
  const size_t f = m * sizeof(float);
  const HostColumnIn columns[7] = {
      {out.target_speed, f},
      {out.throttle, f},
      {out.brake, f},
      {scene.clear, f},
      {scene.speed, f},
      {scene.profile, scene.profile != nullptr ? m * sizeof(uint16_t) : 0},
      {scene.profiles, scene.profile_count * sizeof(BrakingProfile)}};
  transferred_.to_backend += d.staging.Upload(columns, 7, d.brake_block, d.brake_at, stream_);
  uint8_t* block = Raw(d.brake_block);
  auto at = [&](int k) { return reinterpret_cast<float*>(block + d.brake_at[k]); };
  PathBrakingScene device_scene = scene;
  device_scene.clear = at(3);
  device_scene.speed = at(4);
  device_scene.profile =
      scene.profile != nullptr ? reinterpret_cast<const uint16_t*>(block + d.brake_at[5]) : nullptr;
  device_scene.profiles = reinterpret_cast<const BrakingProfile*>(block + d.brake_at[6]);
  const thrust::counting_iterator<size_t> first(0);
  const uint64_t slowed = thrust::transform_reduce(
      Policy(), first, first + m, PathBrakingFunctor{device_scene, {at(0), at(1), at(2)}},
      uint64_t{0}, thrust::plus<uint64_t>());
  THRONG_CUDA_CHECK(cudaGetLastError());
  const HostColumnOut answers[3] = {{out.target_speed, f}, {out.throttle, f}, {out.brake, f}};
  transferred_.to_host += d.staging.Download(d.brake_block, d.brake_at, answers, 3, stream_);
  return slowed;
}

}  // namespace throng
