// The cuda backend: the same per-agent kernels as the cpu backend, compiled by nvcc and
// launched through Thrust's CUDA system on a stream of the backend's own.
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "kernels/backends/contact_pipeline.cuh"
#include "kernels/backends/cuda_backend.h"
#include "kernels/backends/cuda_check.cuh"
#include "kernels/backends/fan_kernel.cuh"
#include "kernels/backends/follower_kernel.cuh"
#include "kernels/backends/forward_scene_buffers.cuh"
#include "kernels/backends/orca_pipeline.cuh"
#include "kernels/backends/orca_result_stats.h"
#include "kernels/backends/path_check_pipeline.cuh"
#include "kernels/backends/spline_query_kernel.cuh"
#include "kernels/orca/obstacle_grid.h"
#include "kernels/orca/obstacles.h"
#include "kernels/orca/orca_validate.h"

namespace throng {
namespace {

template <class T>
using DeviceVector = thrust::device_vector<T>;

template <class T>
void Upload(const std::vector<T>& host, DeviceVector<T>& device, cudaStream_t stream) {
  device.resize(host.size());
  if (!host.empty()) {
    THRONG_CUDA_CHECK(cudaMemcpyAsync(Raw(device), host.data(), host.size() * sizeof(T),
                                      cudaMemcpyHostToDevice, stream));
  }
}

template <class T>
void Download(const DeviceVector<T>& device, std::vector<T>& host, cudaStream_t stream) {
  host.resize(device.size());
  if (!host.empty()) {
    THRONG_CUDA_CHECK(cudaMemcpyAsync(host.data(), Raw(device), host.size() * sizeof(T),
                                      cudaMemcpyDeviceToHost, stream));
  }
}

template <class T>
void Upload(const T* host, size_t count, DeviceVector<T>& device, cudaStream_t stream) {
  device.resize(count);
  if (count > 0) {
    THRONG_CUDA_CHECK(
        cudaMemcpyAsync(Raw(device), host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
}

// ForwardSceneBuffers' copy: Upload on one stream.
struct StreamUpload {
  cudaStream_t stream;
  template <class T>
  void operator()(const std::vector<T>& host, DeviceVector<T>& device) const {
    Upload(host, device, stream);
  }
};

class CudaBackend final : public Backend {
 public:
  CudaBackend() { THRONG_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~CudaBackend() override { cudaStreamDestroy(stream_); }

  BackendKind kind() const override { return BackendKind::kCuda; }

  void SetSplines(const std::vector<SplineDesc>& splines) override {
    SplineSet set = BuildSplineSet(splines);
    Upload(set.headers, d_headers_, stream_);
    Upload(set.coeff, d_coeff_, stream_);
    Upload(set.knots, d_knots_, stream_);
    Upload(set.table, d_table_, stream_);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
    spline_count_ = set.size();
    spline_ids_ = set.ids;
  }

  void FollowSplines(const FollowerParams& params, float world_speed_limit, const VehicleColumns& v,
                     FollowerResults* out) override {
    ValidateFollowerParams(params, world_speed_limit);
    const std::vector<uint32_t> spline = ValidateVehicles(v, spline_ids_);
    const size_t n = v.size();
    Upload(spline, d_v_spline_, stream_);
    Upload(v.px, d_v_px_, stream_);
    Upload(v.py, d_v_py_, stream_);
    Upload(v.pz, d_v_pz_, stream_);
    Upload(v.yaw, d_v_yaw_, stream_);
    Upload(v.speed, d_v_speed_, stream_);
    Upload(v.progress_hint, d_v_hint_, stream_);
    Upload(v.max_speed, d_v_max_speed_, stream_);
    Upload(v.profile, d_v_profile_, stream_);
    Upload(v.wheel_angle, d_v_wheel_, stream_);
    const std::vector<FollowerParams> table = ParameterTable(params, v);
    Upload(table, d_v_params_, stream_);
    for (auto& column : d_f_out_) column.resize(n);
    const FollowerFunctor f{
        {Raw(d_headers_), Raw(d_coeff_), Raw(d_knots_), Raw(d_table_),
         static_cast<uint32_t>(spline_count_)},
        {Raw(d_v_spline_), Raw(d_v_px_), Raw(d_v_py_), Raw(d_v_pz_), Raw(d_v_yaw_), Raw(d_v_speed_),
         Raw(d_v_hint_), Raw(d_v_max_speed_), v.profile.empty() ? nullptr : Raw(d_v_profile_),
         v.wheel_angle.empty() ? nullptr : Raw(d_v_wheel_)},
        Raw(d_v_params_),
        world_speed_limit,
        {Raw(d_f_out_[0]), Raw(d_f_out_[1]), Raw(d_f_out_[2]), Raw(d_f_out_[3]), Raw(d_f_out_[4]),
         Raw(d_f_out_[5]), Raw(d_f_out_[6]), Raw(d_f_out_[7]), Raw(d_f_out_[8]), Raw(d_f_out_[9]),
         Raw(d_f_out_[10]), Raw(d_f_out_[11]), Raw(d_f_out_[12]), Raw(d_f_out_[13]),
         Raw(d_f_out_[14]), Raw(d_f_out_[15]), Raw(d_f_out_[16]), Raw(d_f_out_[17])}};
    thrust::for_each_n(thrust::cuda::par_nosync.on(stream_), thrust::counting_iterator<size_t>(0),
                       n, f);
    THRONG_CUDA_CHECK(cudaGetLastError());
    out->Resize(n);
    std::vector<float>* host[] = {&out->steering,       &out->throttle,      &out->brake,
                                  &out->target_speed,   &out->cte,           &out->progress,
                                  &out->position_delta, &out->heading_delta, &out->look_ahead,
                                  &out->target_x,       &out->target_y,      &out->target_z,
                                  &out->progress_x,     &out->progress_y,    &out->progress_z,
                                  &out->tangent_x,      &out->tangent_y,     &out->tangent_z};
    for (int k = 0; k < kFollowerOutputs; ++k) Download(d_f_out_[k], *host[k], stream_);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void QuerySplines(const SplineQueries& q, SplineQueryResults* out) override {
    ValidateSplineQueries(q, spline_count_);
    const size_t n = q.size();
    Upload(q.spline, d_spline_, stream_);
    Upload(q.s, d_s_, stream_);
    Upload(q.px, d_px_, stream_);
    Upload(q.py, d_py_, stream_);
    Upload(q.pz, d_pz_, stream_);
    Upload(q.s_hint, d_hint_, stream_);
    for (auto* v : {&d_x_, &d_y_, &d_z_, &d_tx_, &d_ty_, &d_tz_, &d_k_, &d_progress_}) v->resize(n);
    const SplineQueryFunctor f{
        {Raw(d_headers_), Raw(d_coeff_), Raw(d_knots_), Raw(d_table_),
         static_cast<uint32_t>(spline_count_)},
        {Raw(d_spline_), Raw(d_s_), Raw(d_px_), Raw(d_py_), Raw(d_pz_), Raw(d_hint_), q.window},
        {Raw(d_x_), Raw(d_y_), Raw(d_z_), Raw(d_tx_), Raw(d_ty_), Raw(d_tz_), Raw(d_k_),
         Raw(d_progress_)}};
    thrust::for_each_n(thrust::cuda::par_nosync.on(stream_), thrust::counting_iterator<size_t>(0),
                       n, f);
    THRONG_CUDA_CHECK(cudaGetLastError());
    out->Resize(n);
    Download(d_x_, out->x, stream_);
    Download(d_y_, out->y, stream_);
    Download(d_z_, out->z, stream_);
    Download(d_tx_, out->tx, stream_);
    Download(d_ty_, out->ty, stream_);
    Download(d_tz_, out->tz, stream_);
    Download(d_k_, out->curvature, stream_);
    Download(d_progress_, out->progress, stream_);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void SetObstacles(const std::vector<Polygon>& polygons) override {
    const ObstacleVertices v = BuildObstacleVertices(polygons);
    Upload(v.point, d_obst_point_, stream_);
    Upload(v.unit_dir, d_obst_dir_, stream_);
    Upload(v.convex, d_obst_convex_, stream_);
    Upload(v.next, d_obst_next_, stream_);
    Upload(v.prev, d_obst_prev_, stream_);
    Upload(EdgeSegments(v), d_segments_, stream_);
    // The edge grid is built on the host once per world and travels with the vertices.
    const EdgeGrid grid = BuildEdgeGrid(v);
    Upload(grid.cell_start, d_grid_start_, stream_);
    Upload(grid.edge_index, d_grid_index_, stream_);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
    contacts_.SetObstacles(polygons, Uploader());
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
    obstacle_count_ = static_cast<int>(v.size());
    grid_ = grid.View();  // host pointers replaced by the device copies' below
    grid_.cell_start = grid.cell_start.empty() ? nullptr : Raw(d_grid_start_);
    grid_.edge_index = grid.cell_start.empty() ? nullptr : Raw(d_grid_index_);
  }

  void SetFanObstacles(const FanObstacleSet& shapes, float cell) override {
    forward_.SetStatic(shapes, cell, Uploader());
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void SteerForwardScene(FanMode mode, float dt, const ForwardSceneAgents& agents,
                         const FanBodies& bodies, const StopRequested& stop,
                         ForwardSceneResults* out) override {
    ThrowIfStopRequested(stop, "forward");  // one launch, as the ORCA stages
    const ForwardSceneFunctor f = forward_.Prepare(mode, dt, agents, bodies, Uploader());
    thrust::for_each_n(thrust::cuda::par_nosync.on(stream_), thrust::counting_iterator<uint32_t>(0),
                       static_cast<uint32_t>(agents.size()), f);
    THRONG_CUDA_CHECK(cudaGetLastError());
    out->Resize(agents.size());
    forward_.Results(out,
                     [this](const auto& device, auto& host) { Download(device, host, stream_); });
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  CollisionCounts CountContacts(const ContactScene& scene, const StopRequested& stop) override {
    ValidateContactScene(scene);
    Upload(scene.x, scene.count, d_contact_x_, stream_);
    Upload(scene.y, scene.count, d_contact_y_, stream_);
    Upload(scene.radius, scene.count, d_contact_radius_, stream_);
    Upload(scene.bodies, scene.body_count, d_contact_bodies_, stream_);
    const CollisionCounts counts =
        contacts_.Count(thrust::cuda::par_nosync.on(stream_), Raw(d_contact_x_), Raw(d_contact_y_),
                        Raw(d_contact_radius_), static_cast<uint32_t>(scene.count),
                        Raw(d_contact_bodies_), static_cast<uint32_t>(scene.body_count), stop);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return counts;
  }

  void CheckPaths(const PathCheckParams& params, float max_brake_decel, const PathCheckScene& scene,
                  const StopRequested& stop, std::vector<float>* clear) override {
    const size_t n = scene.agents, m = scene.vehicles;
    clear->clear();
    if (m == 0) return;  // as on the other backends: nothing to check, nothing to stop
    ThrowIfStopRequested(stop, "vehicles");  // one launch, as the ORCA stages
    Upload(scene.agent_x, n, d_path_in_[0], stream_);
    Upload(scene.agent_y, n, d_path_in_[1], stream_);
    Upload(scene.agent_radius, n, d_path_in_[2], stream_);
    Upload(scene.agent_vx, n, d_path_in_[3], stream_);
    Upload(scene.agent_vy, n, d_path_in_[4], stream_);
    Upload(scene.progress, m, d_path_in_[5], stream_);
    Upload(scene.speed, m, d_path_in_[6], stream_);
    Upload(scene.bodies, m, d_path_bodies_, stream_);
    Upload(scene.spline, m, d_path_spline_, stream_);
    d_path_clear_.resize(m);
    const PathSceneView view{
        Raw(d_path_in_[0]),
        Raw(d_path_in_[1]),
        Raw(d_path_in_[2]),
        Raw(d_path_in_[3]),
        Raw(d_path_in_[4]),
        static_cast<uint32_t>(n),
        {Raw(d_path_bodies_), Raw(d_path_spline_), Raw(d_path_in_[5]), Raw(d_path_in_[6])},
        static_cast<uint32_t>(m)};
    const SplineSetView lanes{Raw(d_headers_), Raw(d_coeff_), Raw(d_knots_), Raw(d_table_),
                              static_cast<uint32_t>(spline_count_)};
    paths_.Run(thrust::cuda::par_nosync.on(stream_), params, max_brake_decel, lanes,
               Raw(d_segments_), static_cast<int32_t>(d_segments_.size() / 2), view, {},
               static_cast<uint32_t>(m > 0 ? m : 1), Raw(d_path_clear_));
    THRONG_CUDA_CHECK(cudaGetLastError());
    Download(d_path_clear_, *clear, stream_);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void SteerForward(const FanParams& params, float dt, const ForwardAgentColumns& a,
                    FanResults* out) override {
    ValidateFan(params, dt, a);
    const size_t n = a.size();
    Upload(a.px, d_fan_in_[0], stream_);
    Upload(a.py, d_fan_in_[1], stream_);
    Upload(a.fx, d_fan_in_[2], stream_);
    Upload(a.fy, d_fan_in_[3], stream_);
    Upload(a.radius, d_fan_in_[4], stream_);
    for (auto& column : d_fan_out_) column.resize(n);
    d_fan_probe_.resize(n);
    d_fan_blocked_.resize(n);
    const FanFunctor f{Raw(d_fan_in_[0]),
                       Raw(d_fan_in_[1]),
                       Raw(d_fan_in_[2]),
                       Raw(d_fan_in_[3]),
                       Raw(d_fan_in_[4]),
                       Raw(d_segments_),
                       static_cast<int>(d_segments_.size() / 2),
                       params,
                       dt,
                       Raw(d_fan_out_[0]),
                       Raw(d_fan_out_[1]),
                       Raw(d_fan_out_[2]),
                       Raw(d_fan_out_[3]),
                       Raw(d_fan_probe_),
                       Raw(d_fan_out_[4]),
                       Raw(d_fan_blocked_)};
    thrust::for_each_n(thrust::cuda::par_nosync.on(stream_), thrust::counting_iterator<size_t>(0),
                       n, f);
    THRONG_CUDA_CHECK(cudaGetLastError());
    out->Resize(n);
    Download(d_fan_out_[0], out->move_x, stream_);
    Download(d_fan_out_[1], out->move_y, stream_);
    Download(d_fan_out_[2], out->chosen_x, stream_);
    Download(d_fan_out_[3], out->chosen_y, stream_);
    Download(d_fan_out_[4], out->hit_distance, stream_);
    Download(d_fan_probe_, out->probe, stream_);
    Download(d_fan_blocked_, out->all_blocked, stream_);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                 const OrcaRunOptions& options, OrcaResult* out) override {
    using Clock = std::chrono::steady_clock;
    auto ms_since = [](Clock::time_point t0) {
      return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    };
    OrcaStageTimes times;
    auto t0 = Clock::now();
    ValidateOrcaParams(params);
    ValidateAgents(agents);
    times.validate_ms = ms_since(t0);

    t0 = Clock::now();
    const size_t n = agents.size();
    Upload(agents.px, d_px_in_, stream_);
    Upload(agents.py, d_py_in_, stream_);
    Upload(agents.vx, d_vx_in_, stream_);
    Upload(agents.vy, d_vy_in_, stream_);
    Upload(agents.radius, d_radius_in_, stream_);
    Upload(agents.max_speed, d_speed_in_, stream_);
    Upload(agents.pref_vx, d_pref_vx_in_, stream_);
    Upload(agents.pref_vy, d_pref_vy_in_, stream_);
    Upload(agents.id, d_id_in_, stream_);
    Upload(agents.flags, d_flags_in_, stream_);
    for (auto* v : {&d_vx_out_, &d_vy_out_}) v->resize(n);
    d_status_out_.resize(n);
    d_flags_out_.resize(n);
    for (auto* v : {&d_candidates_out_, &d_neighbors_out_, &d_constraints_out_, &d_missed_out_})
      v->resize(n);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
    times.upload_ms = ms_since(t0);

    const AgentInputView in{Raw(d_px_in_),      Raw(d_py_in_),           Raw(d_vx_in_),
                            Raw(d_vy_in_),      Raw(d_radius_in_),       Raw(d_speed_in_),
                            Raw(d_pref_vx_in_), Raw(d_pref_vy_in_),      Raw(d_id_in_),
                            Raw(d_flags_in_),   static_cast<uint32_t>(n)};
    const OrcaOutputView view{
        Raw(d_vx_out_),        Raw(d_vy_out_),          Raw(d_status_out_), Raw(d_candidates_out_),
        Raw(d_neighbors_out_), Raw(d_constraints_out_), Raw(d_flags_out_),  Raw(d_missed_out_)};
    const orca::ObstacleView obstacles{Raw(d_obst_point_),
                                       Raw(d_obst_dir_),
                                       Raw(d_obst_convex_),
                                       Raw(d_obst_next_),
                                       Raw(d_obst_prev_),
                                       obstacle_count_,
                                       grid_};
    cudaStream_t stream = stream_;
    orca_.Run(
        thrust::cuda::par_nosync.on(stream),
        [stream] { THRONG_CUDA_CHECK(cudaStreamSynchronize(stream)); }, in, params, obstacles,
        options, /*chunk=*/static_cast<uint32_t>(n), view, &times);  // one launch per stage
    THRONG_CUDA_CHECK(cudaGetLastError());

    t0 = Clock::now();
    out->Resize(n);
    Download(d_vx_out_, out->vx, stream_);
    Download(d_vy_out_, out->vy, stream_);
    Download(d_status_out_, out->status, stream_);
    Download(d_candidates_out_, out->candidates, stream_);
    Download(d_neighbors_out_, out->neighbors, stream_);
    Download(d_constraints_out_, out->constraints, stream_);
    Download(d_flags_out_, out->solve_flags, stream_);
    Download(d_missed_out_, missed_host_, stream_);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
    times.download_ms = ms_since(t0);
    out->CountStatuses();
    TallyAudit(missed_host_, n, out);
    out->times = times;
  }

 private:
  cudaStream_t stream_ = nullptr;
  OrcaPipeline<thrust::device_vector> orca_;
  ForwardSceneBuffers<thrust::device_vector> forward_;
  ContactPipeline<thrust::device_vector> contacts_;
  PathCheckPipeline<thrust::device_vector> paths_;
  DeviceVector<float> d_path_in_[7], d_path_clear_;
  DeviceVector<VehicleBody> d_path_bodies_;
  DeviceVector<uint32_t> d_path_spline_;
  DeviceVector<float> d_contact_x_, d_contact_y_, d_contact_radius_;
  DeviceVector<VehicleBody> d_contact_bodies_;
  // Uploads on the backend's stream; the host vectors outlive the copies because every
  // caller synchronises before returning.
  StreamUpload Uploader() const { return {stream_}; }
  int obstacle_count_ = 0;
  orca::EdgeGridView grid_;  // device pointers into d_grid_start_, d_grid_index_
  DeviceVector<Vec2> d_segments_;
  DeviceVector<float> d_fan_in_[5], d_fan_out_[5];
  DeviceVector<int16_t> d_fan_probe_;
  DeviceVector<uint8_t> d_fan_blocked_;
  DeviceVector<Vec2> d_obst_point_, d_obst_dir_;
  DeviceVector<uint8_t> d_obst_convex_;
  DeviceVector<int32_t> d_obst_next_, d_obst_prev_;
  DeviceVector<int32_t> d_grid_start_, d_grid_index_;  // the obstacle edge grid (CSR)
  DeviceVector<float> d_px_in_, d_py_in_, d_vx_in_, d_vy_in_, d_radius_in_, d_speed_in_,
      d_pref_vx_in_, d_pref_vy_in_;
  DeviceVector<uint32_t> d_id_in_;
  DeviceVector<uint8_t> d_flags_in_;
  DeviceVector<float> d_vx_out_, d_vy_out_;
  DeviceVector<uint8_t> d_status_out_, d_flags_out_;
  DeviceVector<uint16_t> d_candidates_out_, d_neighbors_out_, d_constraints_out_, d_missed_out_;
  std::vector<uint16_t> missed_host_;
  size_t spline_count_ = 0;
  std::vector<uint32_t> spline_ids_;
  DeviceVector<uint32_t> d_v_spline_;
  DeviceVector<float> d_v_px_, d_v_py_, d_v_pz_, d_v_yaw_, d_v_speed_, d_v_hint_, d_v_max_speed_;
  static constexpr int kFollowerOutputs = 18;  // FollowerOutputView's columns
  DeviceVector<float> d_f_out_[kFollowerOutputs];
  DeviceVector<uint16_t> d_v_profile_;
  DeviceVector<float> d_v_wheel_;
  DeviceVector<FollowerParams> d_v_params_;
  DeviceVector<SplineHeader> d_headers_;
  DeviceVector<Vec3> d_coeff_;
  DeviceVector<SplineKnot> d_knots_;
  DeviceVector<SplineSample> d_table_;
  DeviceVector<uint32_t> d_spline_;
  DeviceVector<float> d_s_, d_px_, d_py_, d_pz_, d_hint_;
  DeviceVector<float> d_x_, d_y_, d_z_, d_tx_, d_ty_, d_tz_, d_k_, d_progress_;
};

}  // namespace

bool CudaDevicePresent() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

std::unique_ptr<Backend> MakeCudaBackend() { return std::make_unique<CudaBackend>(); }

}  // namespace throng
