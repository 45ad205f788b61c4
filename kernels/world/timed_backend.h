// The world's backend, timed: every call is forwarded to the backend the world was given,
// and the wall time spent inside it is added up. A tick can then say how much of it ran
// outside its backend (on the host only, whatever the backend: docs/ARCHITECTURE.md) and
// how long its ORCA solve took, which is what issue 37's targets compare the tick with
// (TickStats::backend_ms, TickStats::orca_solve_ms; docs/PERFORMANCE.md).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "kernels/backend_api/backend.h"
#include "kernels/world/world_types.h"

namespace throng {

class TimedBackend final : public Backend {
 public:
  explicit TimedBackend(std::unique_ptr<Backend> inner);

  // Milliseconds spent inside the inner backend's calls since this was made, call by call
  // (SolveOrca's is kSolveOrca's). Read before and after a tick for the tick's share.
  double call_ms(BackendCall call) const { return call_ms_[static_cast<size_t>(call)]; }

  BackendKind kind() const override { return inner_->kind(); }
  TransferredBytes transferred() const override { return inner_->transferred(); }
  void SetSplines(const std::vector<SplineDesc>& splines) override;
  void QuerySplines(const SplineQueries& q, SplineQueryResults* out) override;
  void SetObstacles(const std::vector<Polygon>& polygons) override;
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
  // Not timed: it hands buffers over. The fetch is booked as the report's (kept memory and
  // state are what the report and the move left).
  void KeepPedestrians() override { inner_->KeepPedestrians(); }
  void FetchKeptPedestrians(const KeptPedestrianRows& out) override;
  // Likewise; the fetch is booked as the follower's (the memory it completed, and after
  // a failed Advance the next state besides).
  void KeepVehicles() override { inner_->KeepVehicles(); }
  void FetchKeptVehicles(const KeptVehicleRows& out) override;
  void KeepForward() override { inner_->KeepForward(); }
  // Booked with the move ("fly").
  void FetchKeptForward(const KeptForwardRows& out) override;
  void FollowSplines(const FollowerParams& params, float world_speed_limit,
                     const VehicleColumns& vehicles, const FollowRunOptions& options,
                     FollowerResults* out) override;
  void SteerForward(const FanParams& params, float dt, const ForwardAgentColumns& agents,
                    FanResults* out) override;
  void SetFanObstacles(const FanShapes& shapes, float cell) override;
  // Booked with the fan ("forward").
  uint64_t PrepareForwardScene(const ForwardPrepareParams& params,
                               const ForwardPrepareScene& scene) override;
  ForwardSums SteerForwardScene(const ForwardSteerParams& params, const StopRequested& stop,
                                const ForwardSteerOutput& out) override;
  CollisionCounts CountContacts(const ContactScene& scene, const StopRequested& stop) override;
  void CheckPaths(const PathCheckParams& params, float max_brake_decel, const PathCheckScene& scene,
                  const StopRequested& stop, std::vector<float>* clear) override;

 private:
  std::unique_ptr<Backend> inner_;
  // Adds the time from its making to its end to the call's own counter.
  class CallTimer;
  std::array<double, kBackendCallCount> call_ms_{};
};

}  // namespace throng
