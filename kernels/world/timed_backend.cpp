#include "kernels/world/timed_backend.h"

#include <chrono>
#include <stdexcept>
#include <utility>

namespace throng {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

// Books the call's time when it ends, also when it throws (a rejected input or a
// cancelled tick still spent that time in the backend).
class TimedBackend::CallTimer {
 public:
  CallTimer(TimedBackend* owner, BackendCall call)
      : owner_(owner), call_(call), start_(Clock::now()) {}
  ~CallTimer() {
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
    owner_->call_ms_[static_cast<size_t>(call_)] += ms;
  }
  CallTimer(const CallTimer&) = delete;
  CallTimer& operator=(const CallTimer&) = delete;

 private:
  TimedBackend* owner_;
  BackendCall call_;
  Clock::time_point start_;
};

TimedBackend::TimedBackend(std::unique_ptr<Backend> inner) : inner_(std::move(inner)) {
  if (!inner_) throw std::invalid_argument("backend: none given");
}

void TimedBackend::SetSplines(const std::vector<SplineDesc>& splines) {
  CallTimer timer(this, BackendCall::kSetup);
  inner_->SetSplines(splines);
}

void TimedBackend::QuerySplines(const SplineQueries& q, SplineQueryResults* out) {
  CallTimer timer(this, BackendCall::kSetup);
  inner_->QuerySplines(q, out);
}

void TimedBackend::SetObstacles(const std::vector<Polygon>& polygons) {
  CallTimer timer(this, BackendCall::kSetup);
  inner_->SetObstacles(polygons);
}

void TimedBackend::SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                             const OrcaRunOptions& options, OrcaResult* out) {
  CallTimer timer(this, BackendCall::kSolveOrca);
  inner_->SolveOrca(params, agents, options, out);
}

uint64_t TimedBackend::PreparePedestrians(const PedestrianPrepareParams& params,
                                          const PedestrianPrepareScene& scene,
                                          const PedestrianPrepareOutput& out) {
  CallTimer timer(this, BackendCall::kPreparePedestrians);
  return inner_->PreparePedestrians(params, scene, out);
}

uint64_t TimedBackend::SteerNavigating(const NavSteerParams& params, const NavSteerWorld& world,
                                       const NavSteerScene& scene, const NavSteerOutput& out) {
  CallTimer timer(this, BackendCall::kSteerNavigating);
  return inner_->SteerNavigating(params, world, scene, out);
}

uint64_t TimedBackend::NavigationRoutes(const NavSteerParams& params, const NavSteerWorld& world,
                                        const NavSteerScene& scene, const NavRoutesOutput& out) {
  CallTimer timer(this, BackendCall::kSteerNavigating);
  return inner_->NavigationRoutes(params, world, scene, out);
}

uint64_t TimedBackend::PrepareVehicles(const VehiclePrepareParams& params,
                                       const VehiclePrepareScene& scene,
                                       const VehiclePrepareOutput& out) {
  CallTimer timer(this, BackendCall::kPrepareVehicles);
  return inner_->PrepareVehicles(params, scene, out);
}

void TimedBackend::MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& scene,
                                const VehicleMoveOutput& out) {
  CallTimer timer(this, BackendCall::kMoveVehicles);
  inner_->MoveVehicles(params, scene, out);
}

void TimedBackend::MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                                     const ForwardMoveOutput& out) {
  CallTimer timer(this, BackendCall::kMoveForwardAgents);
  inner_->MoveForwardAgents(params, scene, out);
}

uint64_t TimedBackend::BrakeForPaths(const PathBrakingScene& scene, const PathBrakingOutput& out) {
  CallTimer timer(this, BackendCall::kBrakeForPaths);
  return inner_->BrakeForPaths(scene, out);
}

void TimedBackend::WriteVehicleDiscs(const VehicleDiscScene& scene, const VehicleDiscOutput& out) {
  CallTimer timer(this, BackendCall::kWriteVehicleDiscs);
  inner_->WriteVehicleDiscs(scene, out);
}

void TimedBackend::MovePedestrians(const PedestrianMoveParams& params,
                                   const PedestrianMoveScene& scene,
                                   const PedestrianMoveOutput& out) {
  CallTimer timer(this, BackendCall::kMovePedestrians);
  inner_->MovePedestrians(params, scene, out);
}

PedestrianSums TimedBackend::ReportPedestrians(const PedestrianReportParams& params,
                                               const PedestrianReportScene& scene,
                                               const PedestrianReportOutput& out) {
  CallTimer timer(this, BackendCall::kReportPedestrians);
  return inner_->ReportPedestrians(params, scene, out);
}

void TimedBackend::FetchKeptPedestrians(const KeptPedestrianRows& out) {
  CallTimer timer(this, BackendCall::kReportPedestrians);
  inner_->FetchKeptPedestrians(out);
}

void TimedBackend::FetchKeptForward(const KeptForwardRows& out) {
  CallTimer timer(this, BackendCall::kMoveForwardAgents);
  inner_->FetchKeptForward(out);
}

void TimedBackend::FetchKeptVehicles(const KeptVehicleRows& out) {
  CallTimer timer(this, BackendCall::kFollowSplines);
  inner_->FetchKeptVehicles(out);
}

void TimedBackend::FollowSplines(const FollowerParams& params, float world_speed_limit,
                                 const VehicleColumns& vehicles, const FollowRunOptions& options,
                                 FollowerResults* out) {
  CallTimer timer(this, BackendCall::kFollowSplines);
  inner_->FollowSplines(params, world_speed_limit, vehicles, options, out);
}

void TimedBackend::SteerForward(const FanParams& params, float dt,
                                const ForwardAgentColumns& agents, FanResults* out) {
  CallTimer timer(this, BackendCall::kSteerForward);
  inner_->SteerForward(params, dt, agents, out);
}

void TimedBackend::SetFanObstacles(const FanShapes& shapes, float cell) {
  CallTimer timer(this, BackendCall::kSetup);
  inner_->SetFanObstacles(shapes, cell);
}

uint64_t TimedBackend::PrepareForwardScene(const ForwardPrepareParams& params,
                                           const ForwardPrepareScene& scene) {
  CallTimer timer(this, BackendCall::kSteerForward);
  return inner_->PrepareForwardScene(params, scene);
}

ForwardSums TimedBackend::SteerForwardScene(const ForwardSteerParams& params,
                                            const StopRequested& stop,
                                            const ForwardSteerOutput& out) {
  CallTimer timer(this, BackendCall::kSteerForward);
  return inner_->SteerForwardScene(params, stop, out);
}

CollisionCounts TimedBackend::CountContacts(const ContactScene& scene, const StopRequested& stop) {
  CallTimer timer(this, BackendCall::kCountContacts);
  return inner_->CountContacts(scene, stop);
}

void TimedBackend::CheckPaths(const PathCheckParams& params, float max_brake_decel,
                              const PathCheckScene& scene, const StopRequested& stop,
                              std::vector<float>* clear) {
  CallTimer timer(this, BackendCall::kCheckPaths);
  inner_->CheckPaths(params, max_brake_decel, scene, stop, clear);
}

}  // namespace throng
