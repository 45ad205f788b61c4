// The cuda backend's forward agents: the cast fan against the obstacles' edges
// (SteerForward) and the fan in a world's scene of static shapes and moving bodies.
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/backends/fan_kernel.cuh"
#include "kernels/backends/forward_scene_buffers.cuh"

namespace throng {

struct CudaBackend::ForwardPart {
  ForwardSceneBuffers<thrust::device_vector> scene;
  DeviceVector<float> fan_in[5], fan_out[5];
  DeviceVector<int16_t> fan_probe;
  DeviceVector<uint8_t> fan_blocked;
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

}  // namespace throng
