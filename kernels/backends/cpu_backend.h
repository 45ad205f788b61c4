#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/orca/obstacle_grid.h"
#include "kernels/orca/obstacles.h"
#include "kernels/steering/forward_scene.h"
#include "kernels/vehicles/path_check.cuh"
#include "kernels/vehicles/spline.h"

namespace throng {

template <template <class...> class Vector>
class OrcaPipeline;
template <template <class...> class Vector>
class ForwardSceneBuffers;
template <template <class...> class Vector>
class ContactPipeline;
template <template <class...> class Vector>
class PathCheckPipeline;

class CpuBackend final : public HostMemoryBackend {
 public:
  CpuBackend();
  ~CpuBackend() override;

  BackendKind kind() const override { return BackendKind::kCpu; }
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
  PedestrianSums ReportPedestrians(const PedestrianReportParams& params,
                                   const PedestrianReportScene& scene,
                                   const PedestrianReportOutput& out) override;
  void FollowSplines(const FollowerParams& params, float world_speed_limit,
                     const VehicleColumns& vehicles, const FollowRunOptions& options,
                     FollowerResults* out) override;
  uint64_t PrepareVehicles(const VehiclePrepareParams& params, const VehiclePrepareScene& scene,
                           const VehiclePrepareOutput& out) override;
  void MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& scene,
                    const VehicleMoveOutput& out) override;
  void MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                         const ForwardMoveOutput& out) override;
  uint64_t BrakeForPaths(const PathBrakingScene& scene, const PathBrakingOutput& out) override;
  void WriteVehicleDiscs(const VehicleDiscScene& scene, const VehicleDiscOutput& out) override;
  void SteerForward(const FanParams& params, float dt, const ForwardAgentColumns& agents,
                    FanResults* out) override;
  void SetFanObstacles(const FanShapes& shapes, float cell) override;
  uint64_t PrepareForwardScene(const ForwardPrepareParams& params,
                               const ForwardPrepareScene& scene) override;
  ForwardSums SteerForwardScene(const ForwardSteerParams& params, const StopRequested& stop,
                                const ForwardSteerOutput& out) override;
  CollisionCounts CountContacts(const ContactScene& scene, const StopRequested& stop) override;
  void CheckPaths(const PathCheckParams& params, float max_brake_decel, const PathCheckScene& scene,
                  const StopRequested& stop, std::vector<float>* clear) override;

  // Off: the solve and the path check scan every obstacle edge instead of querying the
  // edge grid. Same results bit for bit; for the tests and benchmarks that show it. On by
  // default.
  void UseEdgeGrid(bool on) { use_edge_grid_ = on; }
  // How many contact counts read the last ORCA solve's grid rather than sorting their own
  // (docs/ARCHITECTURE.md, "One grid per tick"); for the tests that show it.
  uint64_t contact_counts_on_solve_grid() const { return counts_on_solve_grid_; }

 private:
  SplineSet splines_;
  ObstacleVertices obstacles_;
  EdgeGrid edge_grid_;  // built once per SetObstacles
  bool use_edge_grid_ = true;
  uint64_t counts_on_solve_grid_ = 0;
  std::vector<Vec2> segments_;  // obstacle edges for casts
  std::unique_ptr<OrcaPipeline<std::vector>> orca_;
  std::unique_ptr<ForwardSceneBuffers<std::vector>> forward_;
  std::unique_ptr<ContactPipeline<std::vector>> contacts_;
  std::unique_ptr<PathCheckPipeline<std::vector>> paths_;
  std::vector<uint16_t> audit_missed_;
};

}  // namespace throng
