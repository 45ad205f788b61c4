// The cuda backend's forward agents: the cast fan against the obstacles' edges
// (SteerForward), the fan in a world's scene of static shapes and moving bodies, and the
// move along the direction it chose.
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/backends/cuda_staging.cuh"
#include "kernels/backends/fan_kernel.cuh"
#include "kernels/backends/forward_scene_buffers.cuh"
#include "kernels/steering/forward_move.cuh"

namespace throng {

struct CudaBackend::ForwardPart {
  ForwardSceneBuffers<thrust::device_vector> scene;
  DeviceVector<float> fan_in[5], fan_out[5];
  DeviceVector<int16_t> fan_probe;
  DeviceVector<uint8_t> fan_blocked;
  // The move's columns in one block each way (cuda_staging.cuh).
  CudaStaging staging;
  DeviceVector<uint8_t> move_in, move_out;
  size_t move_in_at[3] = {}, move_out_at[6] = {};
};

void CudaBackend::DropPart::operator()(ForwardPart* p) const { delete p; }

void CudaBackend::SetFanObstacles(const FanShapes& shapes, float cell) {
  if (!forward_) forward_.reset(new ForwardPart);
  forward_->scene.SetStatic(BuildFanObstacleSet(shapes), cell, Uploader());
  Synchronize();
}

void CudaBackend::SteerForwardScene(FanMode mode, float dt, const ForwardSceneAgents& agents,
                                    const FanBodies& bodies, const StopRequested& stop,
                                    ForwardSceneResults* out) {
  ThrowIfStopRequested(stop, "forward");  // one launch, as the ORCA stages
  if (!forward_) forward_.reset(new ForwardPart);
  ForwardSceneBuffers<thrust::device_vector>& scene = forward_->scene;
  const ForwardSceneFunctor f = scene.Prepare(mode, dt, agents, bodies, Uploader());
  thrust::for_each_n(Policy(), thrust::counting_iterator<uint32_t>(0),
                     static_cast<uint32_t>(agents.size()), f);
  THRONG_CUDA_CHECK(cudaGetLastError());
  out->Resize(agents.size());
  scene.Results(out, [this](const auto& device, auto& host) { Download(device, host); });
  Synchronize();
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

// The positions, directions and speeds go up in one block; the next state's six columns come
// down in one (until the state lives here, issue 37).
void CudaBackend::MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                                    const ForwardMoveOutput& out) {
  const size_t n = scene.count;
  if (n == 0) return;
  if (!forward_) forward_.reset(new ForwardPart);
  ForwardPart& d = *forward_;
  const size_t v = n * sizeof(Vec3), f = n * sizeof(float);
  const HostColumnIn in_columns[3] = {{scene.position, v}, {scene.move, v}, {scene.speed, f}};
  transferred_.to_backend += d.staging.Upload(in_columns, 3, d.move_in, d.move_in_at, stream_);
  const size_t out_bytes[6] = {f, f, f, f, f, f};
  d.move_out.resize(LayOutColumns(out_bytes, 6, d.move_out_at));
  const uint8_t* in_block = Raw(d.move_in);
  uint8_t* out_block = Raw(d.move_out);
  auto at = [&](int k) { return reinterpret_cast<float*>(out_block + d.move_out_at[k]); };
  const ForwardMoveScene device_scene{reinterpret_cast<const Vec3*>(in_block + d.move_in_at[0]),
                                      reinterpret_cast<const Vec3*>(in_block + d.move_in_at[1]),
                                      reinterpret_cast<const float*>(in_block + d.move_in_at[2]),
                                      n};
  const ForwardMoveOutput device_out{at(0), at(1), at(2), at(3), at(4), at(5)};
  thrust::for_each_n(Policy(), thrust::counting_iterator<size_t>(0), n,
                     ForwardMoveFunctor{params, device_scene, device_out});
  THRONG_CUDA_CHECK(cudaGetLastError());
  const HostColumnOut next[6] = {{out.x, f},         {out.y, f},         {out.z, f},
                                 {out.forward_x, f}, {out.forward_y, f}, {out.forward_z, f}};
  transferred_.to_host += d.staging.Download(d.move_out, d.move_out_at, next, 6, stream_);
}

}  // namespace throng
