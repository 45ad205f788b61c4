// The cuda backend's path check (kernels/backends/path_check_pipeline.cuh): each vehicle's
// lane walked over the pedestrians and vehicle discs in the backend's neighbour grid.
#include <thrust/system/cuda/execution_policy.h>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/backends/path_check_pipeline.cuh"

namespace throng {

struct CudaBackend::PathPart {
  PathCheckPipeline<thrust::device_vector> pipeline;
  DeviceVector<float> in[7], clear;
  DeviceVector<VehicleBody> bodies;
  DeviceVector<uint32_t> spline;
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
    d.pipeline.Run(Policy(), params, max_brake_decel, Lanes(), Raw(d_segments_), edge_count, grid_,
                   view, {}, static_cast<uint32_t>(m), Raw(d.clear));
  }
  THRONG_CUDA_CHECK(cudaGetLastError());
  Download(d.clear, *clear);
  Synchronize();
}

}  // namespace throng
