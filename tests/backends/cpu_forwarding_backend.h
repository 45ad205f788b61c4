// A Backend that hands every call to a cpu backend unchanged: the base of the tests'
// decorators, which override only the calls they watch (tests/world/chain_check_backend.h,
// tests/world/world_transfer_test.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/backends/cpu_backend.h"

namespace throng::testing {

class CpuForwardingBackend : public Backend {
 public:
  BackendKind kind() const override { return BackendKind::kCpu; }

  void SetSplines(const std::vector<SplineDesc>& splines) override { cpu_.SetSplines(splines); }
  void QuerySplines(const SplineQueries& q, SplineQueryResults* out) override {
    cpu_.QuerySplines(q, out);
  }
  void SetObstacles(const std::vector<Polygon>& polygons) override { cpu_.SetObstacles(polygons); }
  void SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                 const OrcaRunOptions& options, OrcaResult* out) override {
    cpu_.SolveOrca(params, agents, options, out);
  }
  uint64_t PreparePedestrians(const PedestrianPrepareParams& params,
                              const PedestrianPrepareScene& scene,
                              const PedestrianPrepareOutput& out) override {
    return cpu_.PreparePedestrians(params, scene, out);
  }
  uint64_t SteerNavigating(const NavSteerParams& params, const NavSteerWorld& world,
                           const NavSteerScene& scene, const NavSteerOutput& out) override {
    return cpu_.SteerNavigating(params, world, scene, out);
  }
  uint64_t NavigationRoutes(const NavSteerParams& params, const NavSteerWorld& world,
                            const NavSteerScene& scene, const NavRoutesOutput& out) override {
    return cpu_.NavigationRoutes(params, world, scene, out);
  }
  PedestrianSums ReportPedestrians(const PedestrianReportParams& params,
                                   const PedestrianReportScene& scene,
                                   const PedestrianReportOutput& out) override {
    return cpu_.ReportPedestrians(params, scene, out);
  }
  void MovePedestrians(const PedestrianMoveParams& params, const PedestrianMoveScene& scene,
                       const PedestrianMoveOutput& out) override {
    cpu_.MovePedestrians(params, scene, out);
  }
  TransferredBytes transferred() const override { return cpu_.transferred(); }
  void KeepPedestrians() override { cpu_.KeepPedestrians(); }
  void FetchKeptPedestrians(const KeptPedestrianRows& out) override {
    cpu_.FetchKeptPedestrians(out);
  }
  void KeepVehicles() override { cpu_.KeepVehicles(); }
  void FetchKeptVehicles(const KeptVehicleRows& out) override { cpu_.FetchKeptVehicles(out); }
  uint64_t PrepareVehicles(const VehiclePrepareParams& params, const VehiclePrepareScene& scene,
                           const VehiclePrepareOutput& out) override {
    return cpu_.PrepareVehicles(params, scene, out);
  }
  void FollowSplines(const FollowerParams& params, float world_speed_limit,
                     const VehicleColumns& vehicles, const FollowRunOptions& options,
                     FollowerResults* out) override {
    cpu_.FollowSplines(params, world_speed_limit, vehicles, options, out);
  }
  void MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& scene,
                    const VehicleMoveOutput& out) override {
    cpu_.MoveVehicles(params, scene, out);
  }
  void WriteVehicleDiscs(const VehicleDiscScene& scene, const VehicleDiscOutput& out) override {
    cpu_.WriteVehicleDiscs(scene, out);
  }
  void SteerForward(const FanParams& params, float dt, const ForwardAgentColumns& agents,
                    FanResults* out) override {
    cpu_.SteerForward(params, dt, agents, out);
  }
  void SetFanObstacles(const FanShapes& shapes, float cell) override {
    cpu_.SetFanObstacles(shapes, cell);
  }
  uint64_t PrepareForwardScene(const ForwardPrepareParams& params,
                               const ForwardPrepareScene& scene) override {
    return cpu_.PrepareForwardScene(params, scene);
  }
  ForwardSums SteerForwardScene(const ForwardSteerParams& params, const StopRequested& stop,
                                const ForwardSteerOutput& out) override {
    return cpu_.SteerForwardScene(params, stop, out);
  }
  void MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                         const ForwardMoveOutput& out) override {
    cpu_.MoveForwardAgents(params, scene, out);
  }
  void KeepForward() override { cpu_.KeepForward(); }
  void FetchKeptForward(const KeptForwardRows& out) override { cpu_.FetchKeptForward(out); }
  CollisionCounts CountContacts(const ContactScene& scene, const StopRequested& stop) override {
    return cpu_.CountContacts(scene, stop);
  }
  void CheckPaths(const PathCheckParams& params, float max_brake_decel, const PathCheckScene& scene,
                  const StopRequested& stop, std::vector<float>* clear) override {
    cpu_.CheckPaths(params, max_brake_decel, scene, stop, clear);
  }
  uint64_t BrakeForPaths(const PathBrakingScene& scene, const PathBrakingOutput& out) override {
    return cpu_.BrakeForPaths(scene, out);
  }

 protected:
  CpuBackend cpu_;
};

}  // namespace throng::testing
