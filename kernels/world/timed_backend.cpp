#include "kernels/world/timed_backend.h"

#include <chrono>
#include <stdexcept>
#include <utility>

namespace throng {
namespace {

using Clock = std::chrono::steady_clock;

// Adds the time from its making to its end to each counter given, also when the call
// throws (a rejected input or a cancelled tick still spent that time in the backend).
class CallTimer {
 public:
  explicit CallTimer(double* busy, double* also = nullptr)
      : busy_(busy), also_(also), start_(Clock::now()) {}
  ~CallTimer() {
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
    *busy_ += ms;
    if (also_ != nullptr) *also_ += ms;
  }
  CallTimer(const CallTimer&) = delete;
  CallTimer& operator=(const CallTimer&) = delete;

 private:
  double* busy_;
  double* also_;
  Clock::time_point start_;
};

}  // namespace

TimedBackend::TimedBackend(std::unique_ptr<Backend> inner) : inner_(std::move(inner)) {
  if (!inner_) throw std::invalid_argument("backend: none given");
}

void TimedBackend::SetSplines(const std::vector<SplineDesc>& splines) {
  CallTimer timer(&busy_ms_);
  inner_->SetSplines(splines);
}

void TimedBackend::QuerySplines(const SplineQueries& q, SplineQueryResults* out) {
  CallTimer timer(&busy_ms_);
  inner_->QuerySplines(q, out);
}

void TimedBackend::SetObstacles(const std::vector<Polygon>& polygons) {
  CallTimer timer(&busy_ms_);
  inner_->SetObstacles(polygons);
}

void TimedBackend::SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                             const OrcaRunOptions& options, OrcaResult* out) {
  CallTimer timer(&busy_ms_, &orca_ms_);
  inner_->SolveOrca(params, agents, options, out);
}

void TimedBackend::PreparePedestrians(const PedestrianPrepareParams& params,
                                      const PedestrianPrepareScene& scene,
                                      const PedestrianPrepareOutput& out) {
  CallTimer timer(&busy_ms_);
  inner_->PreparePedestrians(params, scene, out);
}

void TimedBackend::MovePedestrians(const PedestrianMoveParams& params,
                                   const PedestrianMoveScene& scene,
                                   const PedestrianMoveOutput& out) {
  CallTimer timer(&busy_ms_);
  inner_->MovePedestrians(params, scene, out);
}

PedestrianSums TimedBackend::ReportPedestrians(const PedestrianReportParams& params,
                                               const PedestrianReportScene& scene,
                                               const PedestrianReportOutput& out) {
  CallTimer timer(&busy_ms_);
  return inner_->ReportPedestrians(params, scene, out);
}

void TimedBackend::FollowSplines(const FollowerParams& params, float world_speed_limit,
                                 const VehicleColumns& vehicles, FollowerResults* out) {
  CallTimer timer(&busy_ms_);
  inner_->FollowSplines(params, world_speed_limit, vehicles, out);
}

void TimedBackend::SteerForward(const FanParams& params, float dt,
                                const ForwardAgentColumns& agents, FanResults* out) {
  CallTimer timer(&busy_ms_);
  inner_->SteerForward(params, dt, agents, out);
}

void TimedBackend::SetFanObstacles(const FanShapes& shapes, float cell) {
  CallTimer timer(&busy_ms_);
  inner_->SetFanObstacles(shapes, cell);
}

void TimedBackend::SteerForwardScene(FanMode mode, float dt, const ForwardSceneAgents& agents,
                                     const FanBodies& bodies, const StopRequested& stop,
                                     ForwardSceneResults* out) {
  CallTimer timer(&busy_ms_);
  inner_->SteerForwardScene(mode, dt, agents, bodies, stop, out);
}

CollisionCounts TimedBackend::CountContacts(const ContactScene& scene, const StopRequested& stop) {
  CallTimer timer(&busy_ms_);
  return inner_->CountContacts(scene, stop);
}

void TimedBackend::CheckPaths(const PathCheckParams& params, float max_brake_decel,
                              const PathCheckScene& scene, const StopRequested& stop,
                              std::vector<float>* clear) {
  CallTimer timer(&busy_ms_);
  inner_->CheckPaths(params, max_brake_decel, scene, stop, clear);
}

}  // namespace throng
