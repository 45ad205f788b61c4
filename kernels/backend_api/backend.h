// The interface every backend implements, the reference included: one plain C++ class (no
// Thrust or CUDA types) over the types of the concepts it computes. Which backends a build
// has, and how one is made, is kernels/backends/backend.h.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/backend_api/contacts.h"
#include "kernels/backend_api/kept_forward.h"
#include "kernels/backend_api/kept_pedestrians.h"
#include "kernels/backend_api/kept_vehicles.h"
#include "kernels/detection/pedestrian_report_types.h"
#include "kernels/input/stop_request.h"
#include "kernels/navigation/nav_steer_types.h"
#include "kernels/orca/orca_types.h"
#include "kernels/steering/forward_batch.h"
#include "kernels/steering/forward_move_types.h"
#include "kernels/steering/forward_prepare_types.h"
#include "kernels/steering/forward_scene_types.h"
#include "kernels/steering/pedestrian_move_types.h"
#include "kernels/steering/pedestrian_prepare_types.h"
#include "kernels/vehicles/path_check_types.h"
#include "kernels/vehicles/spline_desc.h"
#include "kernels/vehicles/spline_queries.h"
#include "kernels/vehicles/vehicle_batch.h"
#include "kernels/vehicles/vehicle_disc_types.h"
#include "kernels/vehicles/vehicle_move_types.h"
#include "kernels/vehicles/vehicle_prepare_types.h"

namespace throng {

enum class BackendKind { kAuto, kCuda, kCpu, kReference };

// Bytes copied between host memory and a backend's own memory (Backend::transferred).
struct TransferredBytes {
  uint64_t to_backend = 0;
  uint64_t to_host = 0;
};

// A backend owns its memory (host or device) and stream. Not thread-safe: one caller at a
// time per instance; separate instances run in parallel.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendKind kind() const = 0;

  // Bytes copied between host memory and the backend's memory since it was made: every
  // explicit copy of a column or table (a reduction's few-byte result is not counted).
  // Zero on the backends that read and write host memory in place (cpu, reference). The
  // world books each tick stage's share (TickStats::stage_bytes_*).
  virtual TransferredBytes transferred() const = 0;

  // Installs a world's splines (validated; throws std::invalid_argument naming the
  // offending point). Replaces any earlier set.
  virtual void SetSplines(const std::vector<SplineDesc>& splines) = 0;
  // Location, direction and curvature at q.s, and the local projection of q.p, for every
  // query. Bad queries throw std::invalid_argument (ValidateSplineQueries).
  virtual void QuerySplines(const SplineQueries& q, SplineQueryResults* out) = 0;

  // Installs a world's static obstacles (validated; throws std::invalid_argument naming
  // the polygon and vertex). Replaces any earlier set.
  virtual void SetObstacles(const std::vector<Polygon>& polygons) = 0;
  // One ORCA solve over every agent (docs/ORCA.md), against the installed obstacles.
  // Validates agents from the host first (std::invalid_argument naming column and index;
  // OrcaRunOptions::agents kThisTick: the world's own, not checked again); on error `out` is
  // left untouched. Velocities are not applied: the caller decides (two-phase step).
  virtual void SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                         const OrcaRunOptions& options, OrcaResult* out) = 0;

  // The snapshot's pedestrians made ready for the solve (pedestrian_prepare_types.h): the
  // solve's agents in the internal frame with the world's defaults, and each one's
  // preferred velocity from its behaviour (navigating agents excepted: the world steers
  // them). Host memory in and out. The world passes a snapshot whose lengths and ids it
  // checked, and its values too unless it asks for params.checks: then the answer is how
  // many rows the checks refused (0: every row passed; the world rejects the tick
  // otherwise), and 0 where they are off.
  virtual uint64_t PreparePedestrians(const PedestrianPrepareParams& params,
                                      const PedestrianPrepareScene& scene,
                                      const PedestrianPrepareOutput& out) = 0;

  // After PreparePedestrians, in a world with navigation targets: each navigating
  // pedestrian's preferred velocity along its target's field (docs/NAVIGATION.md;
  // kernels/navigation/nav_steer.cuh), written where the preparation left the others
  // (ColumnSource::kThisTick for the solve). Host memory in and out; the world's own
  // targets and fields. The answer is how many navigating rows name a target the world
  // does not have (0: all of them steered; the world rejects the tick otherwise): the
  // preparation's checks leave the targets to this call.
  virtual uint64_t SteerNavigating(const NavSteerParams& params, const NavSteerWorld& world,
                                   const NavSteerScene& scene, const NavSteerOutput& out) = 0;
  // Before SteerNavigating, in a world that re-routes: which targets' crowd fields the
  // steering will read (NavRoutesOutput::routed: where a navigating pedestrian that this
  // tick's preparation left names the target and its memory says it is re-routed), and,
  // when asked, the prepared positions, the crowd a refresh builds those fields from. The
  // answer is how many pedestrians are re-routed. Reads as SteerNavigating does; host
  // memory out.
  virtual uint64_t NavigationRoutes(const NavSteerParams& params, const NavSteerWorld& world,
                                    const NavSteerScene& scene, const NavRoutesOutput& out) = 0;

  // After an ORCA solve, for its first scene.count agents (the pedestrians): each one's
  // results in the caller's frame, the detectors' flags with its memory (last tick's read
  // from the scene, this tick's written to `out`, which may be the same rows),
  // re-routing, and the tick's sums over them (kernels/detection/pedestrian_report.cuh).
  // Host memory in and out. The world makes the scene from a validated snapshot and its
  // own solve: it is not validated again.
  virtual PedestrianSums ReportPedestrians(const PedestrianReportParams& params,
                                           const PedestrianReportScene& scene,
                                           const PedestrianReportOutput& out) = 0;

  // Each pedestrian moved by its chosen velocity for dt (pedestrian_move_types.h): its
  // internal position in place, the next state's position and velocity. Host memory in
  // and out; the world's own columns, not validated again.
  virtual void MovePedestrians(const PedestrianMoveParams& params, const PedestrianMoveScene& scene,
                               const PedestrianMoveOutput& out) = 0;

  // The world keeps the tick whose calls just ran (it committed): the memory its
  // ReportPedestrians wrote and the next state its MovePedestrians wrote are what later
  // calls' kLastTick promises name, until the next KeepPedestrians; a tick that fails after
  // it changes neither. Nothing to do on the backends that write host memory in place:
  // their host rows are the kept ones.
  virtual void KeepPedestrians() = 0;
  // Copies what the last KeepPedestrians kept to host memory: the rows a call left on the
  // backend only (PedestrianReportParams::memory_to_host, PedestrianMoveParams::
  // next_state_to_host false). Throws std::logic_error when it kept other row counts than
  // `out` asks for. Nothing to copy on the backends that write host memory in place.
  virtual void FetchKeptPedestrians(const KeptPedestrianRows& out) = 0;
  // Likewise for the vehicles: the memory this tick's FollowSplines completed
  // (FollowRunOptions::memory) and the next state its MoveVehicles wrote are what the next
  // preparation's kLastTick promises name (VehiclePrepareParams::memory and columns), until
  // the next KeepVehicles; a tick that fails after it changes neither. Nothing to do on the
  // backends that write host memory in place.
  virtual void KeepVehicles() = 0;
  // Copies what the last KeepVehicles kept to host memory: the rows a call left on the
  // backend only (FollowRunOptions::memory_to_host, VehicleMoveParams::next_state_to_host
  // false). Throws std::logic_error when it kept other row counts than `out` asks for.
  // Nothing to copy on the backends that write host memory in place.
  virtual void FetchKeptVehicles(const KeptVehicleRows& out) = 0;
  // Likewise for the forward agents: the next state this tick's MoveForwardAgents wrote is
  // what the next PrepareForwardScene's kLastTick promise names (ForwardPrepareParams::
  // columns), until the next KeepForward; a tick that fails after it changes it not, and a
  // tick that moved none keeps none.
  virtual void KeepForward() = 0;
  // Copies what the last KeepForward kept to host memory (the rows a move left on the
  // backend only, ForwardMoveParams::next_state_to_host false). Throws std::logic_error when
  // it kept another row count than `out` asks for. Nothing to copy on the backends that
  // write host memory in place.
  virtual void FetchKeptForward(const KeptForwardRows& out) = 0;

  // The snapshot's vehicles made ready for the follower (vehicle_prepare_types.h): each
  // one's lane, its pose in the internal frame with the world's defaults, its progress
  // hint (the snapshot's, else its memory's, else a search along the whole lane on the
  // installed splines), what its motion since last tick says about the caller's physics
  // (its memory updated in place) and its body. Host memory in and out. The world passes a
  // snapshot whose lengths and ids it checked, and its values too unless it asks for
  // params.checks: then the answer is how many rows the checks refused (0: every row
  // passed; the world rejects the tick otherwise), and 0 where they are off.
  virtual uint64_t PrepareVehicles(const VehiclePrepareParams& params,
                                   const VehiclePrepareScene& scene,
                                   const VehiclePrepareOutput& out) = 0;

  // Three-factor spline following (docs/VEHICLES.md) for every vehicle, on the installed
  // splines. Validates first (std::invalid_argument naming column and index; unknown
  // spline ids are errors); on error `out` is left untouched.
  virtual void FollowSplines(const FollowerParams& params, float world_speed_limit,
                             const VehicleColumns& vehicles, const FollowRunOptions& options,
                             FollowerResults* out) = 0;

  // Each vehicle moved by the world's bicycle for dt under its controls
  // (vehicle_move_types.h): its wheel angle, its body, the next state's pose. Host memory in
  // and out; the world's own columns, not validated again.
  virtual void MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& scene,
                            const VehicleMoveOutput& out) = 0;

  // Each vehicle's body as non-cooperative discs in the ORCA solve's agent columns
  // (vehicle_disc_types.h), at the rows the caller laid out. Host memory in and out; the
  // world's own columns, not validated again.
  virtual void WriteVehicleDiscs(const VehicleDiscScene& scene, const VehicleDiscOutput& out) = 0;

  // Cast-fan avoidance (docs/ALGORITHMS.md §4) for forward-only agents against the installed
  // obstacles' edges: the chosen probe and the direction to move along after turning
  // toward it for dt. Validates first (std::invalid_argument naming the field).
  virtual void SteerForward(const FanParams& params, float dt, const ForwardAgentColumns& agents,
                            FanResults* out) = 0;

  // Forward agents in a world (kernels/steering/forward_scene.h): installs the static shapes their
  // casts meet, indexed with cells of `cell` m (about one probe reach). Replaces any
  // earlier set. The world validates them.
  virtual void SetFanObstacles(const FanShapes& shapes, float cell) = 0;
  // The snapshot's forward agents made ready for their fans (forward_prepare_types.h): each
  // one in the internal frame with the world's defaults, and every body their casts meet
  // this tick (the pedestrians upright, the vehicles as boxes, the agents as spheres),
  // indexed. Kept on the backend for the two calls below. The world passes a validated
  // snapshot, or asks the preparation to check its values (ForwardPrepareParams::checks):
  // then answers how many rows they refused, and where any is, prepares nothing.
  virtual uint64_t PrepareForwardScene(const ForwardPrepareParams& params,
                                       const ForwardPrepareScene& scene) = 0;
  // The cast fan of every agent the last PrepareForwardScene made ready, against the
  // installed shapes and the bodies, in the ground plane or in 3D, and the direction to
  // move along after turning for dt (kept for MoveForwardAgents); the answers in the
  // caller's frame (ForwardSteerParams::results_to_host) and their sums. `stop` is asked
  // between chunks of agents (TickCancelled): a crowd packed onto one point costs every
  // agent a cast against every other, and must not hold a tick past its deadline.
  virtual ForwardSums SteerForwardScene(const ForwardSteerParams& params, const StopRequested& stop,
                                        const ForwardSteerOutput& out) = 0;
  // Each forward agent moved for dt along the direction its fan chose (forward_move_types.h):
  // the next state's position and heading. Host memory in and out (ForwardMoveParams::
  // columns kThisTick: where the last PrepareForwardScene put them and the direction the
  // last SteerForwardScene chose); the world's own columns, not validated again.
  virtual void MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                                 const ForwardMoveOutput& out) = 0;

  // Contacts at the end of a tick (kernels/backend_api/contacts.h): pedestrian pairs, pedestrians
  // touching vehicle bodies, pedestrians touching or inside the installed obstacles. The
  // counts are equal on every backend. `stop` is asked between chunks of agents
  // (TickCancelled).
  virtual CollisionCounts CountContacts(const ContactScene& scene, const StopRequested& stop) = 0;

  // The vehicles' path check (kernels/vehicles/path_check.cuh) on the installed splines
  // and obstacle edges: clear[v], metres free ahead of vehicle v. Equal on every backend.
  // The world validates the scene (lane indices in range, finite values). `stop` is asked
  // between chunks of vehicles (TickCancelled).
  virtual void CheckPaths(const PathCheckParams& params, float max_brake_decel,
                          const PathCheckScene& scene, const StopRequested& stop,
                          std::vector<float>* clear) = 0;
  // Braking for what the path check found (path_check_types.h): target speeds capped,
  // throttle and brake to match, in place. Returns how many vehicles it slowed. Host
  // memory in and out; the world's own columns, not validated again.
  virtual uint64_t BrakeForPaths(const PathBrakingScene& scene, const PathBrakingOutput& out) = 0;
};

// What a backend that reads and writes host memory in place (cpu, reference) has nothing to
// do for: it copies nothing and keeps nothing apart (its host rows are the kept ones).
// Backend leaves these pure so that a decorator that forgets to forward one does not
// compile (a forgotten KeepForward kept nothing, silently).
class HostMemoryBackend : public Backend {
 public:
  TransferredBytes transferred() const override { return {}; }
  void KeepPedestrians() override {}
  void FetchKeptPedestrians(const KeptPedestrianRows&) override {}
  void KeepVehicles() override {}
  void FetchKeptVehicles(const KeptVehicleRows&) override {}
  void KeepForward() override {}
  void FetchKeptForward(const KeptForwardRows&) override {}
};

}  // namespace throng
