// The cuda backend's class, shared by its translation units (docs/BUILDING.md): one .cu
// file per pipeline (cuda_orca.cu, cuda_vehicles.cu, cuda_forward.cu, cuda_contacts.cu,
// cuda_path_check.cu) and cuda_backend.cu for the world data they share. A pipeline's
// buffers are a part that only its own file defines, so this header includes no kernel
// and a change to one pipeline recompiles one file.
#pragma once

#include <cuda_runtime.h>
#include <thrust/device_vector.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/backends/cuda_backend.h"
#include "kernels/backends/cuda_check.cuh"
#include "kernels/backends/cuda_temporaries.cuh"
#include "kernels/backends/raw_pointer.cuh"
#include "kernels/orca/obstacle_select.cuh"
#include "kernels/steering/forward_scene.h"
#include "kernels/vehicles/path_check.cuh"
#include "kernels/vehicles/spline.h"

namespace throng {

struct GridPointsView;  // kernels/backends/grid_build.cuh

template <class T>
using DeviceVector = thrust::device_vector<T>;

class CudaBackend final : public Backend {
 public:
  CudaBackend();
  ~CudaBackend() override;

  BackendKind kind() const override { return BackendKind::kCuda; }

  // cuda_backend.cu: the world data more than one pipeline reads.
  void SetSplines(const std::vector<SplineDesc>& splines) override;
  void SetObstacles(const std::vector<Polygon>& polygons) override;
  // cuda_vehicles.cu
  void FollowSplines(const FollowerParams& params, float world_speed_limit, const VehicleColumns& v,
                     const FollowRunOptions& options, FollowerResults* out) override;
  void QuerySplines(const SplineQueries& q, SplineQueryResults* out) override;
  // cuda_forward.cu
  void SetFanObstacles(const FanShapes& shapes, float cell) override;
  uint64_t PrepareForwardScene(const ForwardPrepareParams& params,
                               const ForwardPrepareScene& scene) override;
  ForwardSums SteerForwardScene(const ForwardSteerParams& params, const StopRequested& stop,
                                const ForwardSteerOutput& out) override;
  void SteerForward(const FanParams& params, float dt, const ForwardAgentColumns& a,
                    FanResults* out) override;
  // cuda_contacts.cu
  CollisionCounts CountContacts(const ContactScene& scene, const StopRequested& stop) override;
  // cuda_path_check.cu
  void CheckPaths(const PathCheckParams& params, float max_brake_decel, const PathCheckScene& scene,
                  const StopRequested& stop, std::vector<float>* clear) override;
  // cuda_orca.cu
  void SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                 const OrcaRunOptions& options, OrcaResult* out) override;
  uint64_t PreparePedestrians(const PedestrianPrepareParams& params,
                              const PedestrianPrepareScene& scene,
                              const PedestrianPrepareOutput& out) override;
  uint64_t SteerNavigating(const NavSteerParams& params, const NavSteerWorld& world,
                           const NavSteerScene& scene, const NavSteerOutput& out) override;
  uint64_t NavigationRoutes(const NavSteerParams& params, const NavSteerWorld& world,
                            const NavSteerScene& scene, const NavRoutesOutput& out) override;
  void MovePedestrians(const PedestrianMoveParams& params, const PedestrianMoveScene& scene,
                       const PedestrianMoveOutput& out) override;
  uint64_t PrepareVehicles(const VehiclePrepareParams& params, const VehiclePrepareScene& scene,
                           const VehiclePrepareOutput& out) override;
  void MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& scene,
                    const VehicleMoveOutput& out) override;
  void MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                         const ForwardMoveOutput& out) override;
  uint64_t BrakeForPaths(const PathBrakingScene& scene, const PathBrakingOutput& out) override;
  void WriteVehicleDiscs(const VehicleDiscScene& scene, const VehicleDiscOutput& out) override;
  PedestrianSums ReportPedestrians(const PedestrianReportParams& params,
                                   const PedestrianReportScene& scene,
                                   const PedestrianReportOutput& out) override;
  void KeepPedestrians() override;
  void FetchKeptPedestrians(const KeptPedestrianRows& out) override;
  void KeepVehicles() override;
  void FetchKeptVehicles(const KeptVehicleRows& out) override;
  void KeepForward() override;
  void FetchKeptForward(const KeptForwardRows& out) override;

  // Copies on the backend's stream. The host memory must outlive the copy: every caller
  // synchronises before it returns.
  template <class T>
  void Upload(const std::vector<T>& host, DeviceVector<T>& device) const {
    Upload(host.data(), host.size(), device);
  }
  template <class T>
  void Upload(const T* host, size_t count, DeviceVector<T>& device) const {
    device.resize(count);
    if (count > 0) {
      THRONG_CUDA_CHECK(
          cudaMemcpyAsync(Raw(device), host, count * sizeof(T), cudaMemcpyHostToDevice, stream_));
      transferred_.to_backend += count * sizeof(T);
    }
  }
  template <class T>
  void Download(const DeviceVector<T>& device, std::vector<T>& host) const {
    host.resize(device.size());
    if (!host.empty()) {
      THRONG_CUDA_CHECK(cudaMemcpyAsync(host.data(), Raw(device), host.size() * sizeof(T),
                                        cudaMemcpyDeviceToHost, stream_));
      transferred_.to_host += host.size() * sizeof(T);
    }
  }
  template <class T>
  void Download(const T* device, size_t count, T* host) const {
    if (count > 0) {
      THRONG_CUDA_CHECK(
          cudaMemcpyAsync(host, device, count * sizeof(T), cudaMemcpyDeviceToHost, stream_));
      transferred_.to_host += count * sizeof(T);
    }
  }
  TransferredBytes transferred() const override { return transferred_; }
  // Upload as a callable, for the pipelines' Set(host, copy) members.
  auto Uploader() const {
    return [this](const auto& host, auto& device) { Upload(host, device); };
  }
  // A copy within the device's memory, on the backend's stream (not a transfer: it is not
  // counted in transferred()).
  void CopyOnDevice(void* to, const void* from, size_t bytes) const {
    if (bytes > 0) {
      THRONG_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, stream_));
    }
  }
  void Synchronize() const { THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  // Thrust's execution policy for every pipeline: the backend's stream, no synchronisation
  // of its own, scratch storage from the backend's cache (cuda_temporaries.cuh).
  auto Policy() const { return thrust::cuda::par_nosync(temporaries_).on(stream_); }

 private:
  // Each pipeline's buffers, defined in its own .cu file and made there on first use.
  struct VehiclePart;
  struct ForwardPart;
  struct ContactPart;
  struct PathPart;
  struct OrcaPart;
  struct DropPart {  // each overload is defined beside its part
    void operator()(VehiclePart* p) const;
    void operator()(ForwardPart* p) const;
    void operator()(ContactPart* p) const;
    void operator()(PathPart* p) const;
    void operator()(OrcaPart* p) const;
  };
  template <class Part>
  using Owned = std::unique_ptr<Part, DropPart>;

  // cuda_contacts.cu: the contact count's obstacle rings, built with the obstacles.
  void SetContactObstacles(const std::vector<Polygon>& polygons);
  // cuda_orca.cu: the last ORCA solve's agents in grid order (grid_build.cuh), for the
  // path check; count 0 when there was none.
  GridPointsView LastOrcaGrid() const;
  // cuda_orca.cu: the pedestrians' x, y and radius as this tick's calls left them on the
  // device (ContactScene::columns): rows [0, count) of the last solve's agents, with x and
  // y as the last move left them when `moved`. False when those calls did not leave
  // `count` rows (the caller then copies the host's).
  bool PedestriansThisTick(size_t count, bool moved, const float** x, const float** y,
                           const float** radius) const;
  // cuda_orca.cu: this tick's prepared pedestrians' px, py, radius and z on the device
  // (`out` in that order), when the last PreparePedestrians prepared `count` rows; false
  // otherwise. PedestriansPreparedOnDeviceOnly: it left them there only (the host's are
  // stale).
  bool PreparedPedestrians(size_t count, const float* out[4]) const;
  bool PedestriansPreparedOnDeviceOnly() const;
  // cuda_orca.cu: the last solve's agent columns px, py, vx, vy and radius on the device
  // (`out` in that order), when it solved at least `count` rows; false otherwise.
  bool SolvedAgents(size_t count, const float* out[5]) const;
  // cuda_vehicles.cu: the agent columns the last WriteVehicleDiscs left on the device, its
  // first row in the solve's table and its row count (0: none).
  struct DeviceAgentRows {
    AgentColumnsOut columns{};
    uint32_t first_id = 0;
    size_t count = 0;
    bool on_device_only = false;  // the host's copies were not written (VehicleDiscOutput)
  };
  DeviceAgentRows LastDiscRows() const;
  // cuda_vehicles.cu: this tick's vehicle columns on the device, for the calls after their
  // makers that promise ColumnSource::kThisTick: the last preparation's, the last
  // follower's answers (throttle, brake and target speed as the braking capped them, in
  // place) and the bodies as the last move moved them. A group is null unless its call ran
  // this tick (since the last PrepareVehicles) and left `count` rows.
  struct DeviceVehicleColumns {
    // PrepareVehicles' outputs
    const VehicleBody* bodies = nullptr;
    const uint32_t* lane = nullptr;
    const float *px = nullptr, *py = nullptr, *pz = nullptr, *yaw = nullptr, *speed = nullptr,
                *wheel_angle = nullptr;
    const uint16_t* profile = nullptr;  // null also where the vehicles have no profiles
    // FollowSplines' answers
    float *steering = nullptr, *throttle = nullptr, *brake = nullptr, *target_speed = nullptr,
          *progress = nullptr;
    // MoveVehicles' bodies
    const VehicleBody* moved_bodies = nullptr;
    // The last preparation left its columns on the device only (VehiclePrepareParams::
    // outputs_to_host), whatever their count: a call promised them that cannot read them
    // here must not read the host's either (ThrowIfPreparedOnDeviceOnly).
    bool prepared_on_device_only = false;
    // The last follower left target speed, throttle and brake on the device only
    // (FollowRunOptions::braking_follows): the braking must cap them there.
    bool answers_on_device_only = false;
  };
  DeviceVehicleColumns VehiclesThisTick(size_t count) const;
  // cuda_vehicles.cu: the follower's answers are the host's again (the braking brought them
  // home).
  void ForgetAnswersOnDeviceOnly();
  // Throws std::logic_error naming `call` when it was promised this tick's prepared vehicles
  // (`promised`), could not read them on the device (`read_here` false) and the host never
  // got them.
  static void ThrowIfPreparedOnDeviceOnly(const char* call, bool promised, bool read_here,
                                          const DeviceVehicleColumns& kept);

  // cuda_orca.cu: the navigation's world, target column and memory on the device (copied
  // as `params` and the world's version say), and the scene with this tick's prepared
  // pedestrians where the preparation left them, for SteerNavigating and NavigationRoutes
  // (`call` names the caller in the error when the preparation did not leave as many rows).
  void NavigationOnDevice(const char* call, const NavSteerParams& params,
                          const NavSteerWorld& world, const NavSteerScene& scene,
                          NavSteerWorld* device_world, NavSteerScene* device_scene);

  SplineSetView Lanes() const;
  orca::ObstacleView Obstacles() const;

  cudaStream_t stream_ = nullptr;
  // Every copy's bytes (Upload, Download, the ORCA pipeline's staged blocks).
  mutable TransferredBytes transferred_;
  // Thrust's scratch storage: the cache, and the allocator over it that Policy() hands to
  // Thrust (mutable: Thrust takes it by reference, and allocating changes the cache).
  std::unique_ptr<cub::CachingDeviceAllocator> temporaries_cache_;
  mutable CudaTemporaries temporaries_;

  // The lanes (SetSplines): read by the follower, the spline queries and the path check.
  size_t spline_count_ = 0;
  std::vector<uint32_t> spline_ids_;
  DeviceVector<SplineHeader> d_headers_;
  DeviceVector<Vec3> d_coeff_;
  DeviceVector<SplineKnot> d_knots_;
  DeviceVector<SplineSample> d_table_;

  // The obstacles (SetObstacles): their vertices and edge grid for ORCA, their edges as
  // segments for the fan and the path check.
  int obstacle_count_ = 0;
  orca::EdgeGridView grid_;  // device pointers into d_grid_start_, d_grid_index_
  DeviceVector<Vec2> d_obst_point_, d_obst_dir_;
  DeviceVector<uint8_t> d_obst_convex_;
  DeviceVector<int32_t> d_obst_next_, d_obst_prev_;
  DeviceVector<int32_t> d_grid_start_, d_grid_index_;  // the obstacle edge grid (CSR)
  DeviceVector<Vec2> d_segments_;

  // How many times PrepareVehicles began: what a vehicle call leaves on the device is this
  // tick's while the count is the one it saw (the path check's answer, for the braking).
  uint64_t vehicle_tick_ = 0;

  Owned<VehiclePart> vehicles_;
  Owned<ForwardPart> forward_;
  Owned<ContactPart> contacts_;
  Owned<PathPart> paths_;
  Owned<OrcaPart> orca_;
};

}  // namespace throng
