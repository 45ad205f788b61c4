#pragma once

#include <vector>

#include "kernels/backend_api/backend.h"
#include "kernels/reference/spline_ref.h"

namespace throng::reference {

// Scalar, double precision, one query after another: slow on purpose, the oracle the
// parallel backends are checked against.
class ReferenceBackend final : public HostMemoryBackend {
 public:
  BackendKind kind() const override { return BackendKind::kReference; }
  void SetSplines(const std::vector<SplineDesc>& splines) override;
  void QuerySplines(const SplineQueries& q, SplineQueryResults* out) override;
  void SetObstacles(const std::vector<Polygon>& polygons) override;
  // Brute force in double; audit options are ignored (no index, nothing to miss).
  void SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                 const OrcaRunOptions& options, OrcaResult* out) override;
  // One agent after another, the behaviours in double (pedestrian_prepare_ref.cpp).
  uint64_t PreparePedestrians(const PedestrianPrepareParams& params,
                              const PedestrianPrepareScene& scene,
                              const PedestrianPrepareOutput& out) override;
  uint64_t SteerNavigating(const NavSteerParams& params, const NavSteerWorld& world,
                           const NavSteerScene& scene, const NavSteerOutput& out) override;
  uint64_t NavigationRoutes(const NavSteerParams& params, const NavSteerWorld& world,
                            const NavSteerScene& scene, const NavRoutesOutput& out) override;
  // One agent after another, in float as the engine's positions are (pedestrian_move_ref.cpp).
  void MovePedestrians(const PedestrianMoveParams& params, const PedestrianMoveScene& scene,
                       const PedestrianMoveOutput& out) override;
  // One agent after another, from the definitions, in float as the detectors are defined
  // (pedestrian_report_ref.cpp).
  PedestrianSums ReportPedestrians(const PedestrianReportParams& params,
                                   const PedestrianReportScene& scene,
                                   const PedestrianReportOutput& out) override;
  void FollowSplines(const FollowerParams& params, float world_speed_limit,
                     const VehicleColumns& vehicles, const FollowRunOptions& options,
                     FollowerResults* out) override;
  // One vehicle after another, the bicycle in double (vehicle_move_ref.cpp).
  uint64_t PrepareVehicles(const VehiclePrepareParams& params, const VehiclePrepareScene& scene,
                           const VehiclePrepareOutput& out) override;
  void MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& scene,
                    const VehicleMoveOutput& out) override;
  // The footprint from its definition, in double (vehicle_discs_ref.cpp).
  // One agent after another, in float as the engine's positions are (forward_move_ref.cpp).
  void MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                         const ForwardMoveOutput& out) override;
  // One vehicle after another, in double (path_braking_ref.cpp).
  uint64_t BrakeForPaths(const PathBrakingScene& scene, const PathBrakingOutput& out) override;
  void WriteVehicleDiscs(const VehicleDiscScene& scene, const VehicleDiscOutput& out) override;
  void SteerForward(const FanParams& params, float dt, const ForwardAgentColumns& agents,
                    FanResults* out) override;
  // Brute force in double (the grid's cell is not used).
  void SetFanObstacles(const FanShapes& shapes, float cell) override;
  // One agent and one body after another (forward_prepare_ref.cpp); the fan brute force in
  // double (forward_scene_ref.cpp).
  uint64_t PrepareForwardScene(const ForwardPrepareParams& params,
                               const ForwardPrepareScene& scene) override;
  ForwardSums SteerForwardScene(const ForwardSteerParams& params, const StopRequested& stop,
                                const ForwardSteerOutput& out) override;
  // Every pair, polygon and body, in double, no index (contacts_ref.cpp).
  CollisionCounts CountContacts(const ContactScene& scene, const StopRequested& stop) override;
  // Every point at every sample, no index (path_check_ref.cpp).
  void CheckPaths(const PathCheckParams& params, float max_brake_decel, const PathCheckScene& scene,
                  const StopRequested& stop, std::vector<float>* clear) override;

 private:
  std::vector<ReferenceSpline> splines_;
  std::vector<uint32_t> spline_ids_;
  std::vector<double> spline_speed_limits_;
  std::vector<Polygon> obstacles_;
  FanShapes fan_shapes_;
  // The last PrepareForwardScene's agents and bodies, and the last fan's answers.
  ForwardSceneAgents fan_agents_;
  FanBodies fan_bodies_;
  std::vector<float> fan_speed_;
  FanMode fan_mode_ = FanMode::kGround;
  float fan_dt_ = 0.f;
  ForwardSceneResults fan_results_;
};

}  // namespace throng::reference
