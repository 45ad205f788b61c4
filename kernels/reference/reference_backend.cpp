#include "kernels/reference/reference_backend.h"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/orca/orca_validate.h"
#include "kernels/reference/forward_scene_ref.h"
#include "kernels/reference/orca_ref.h"
#include "kernels/reference/steering_ref.h"
#include "kernels/reference/vehicle_ref.h"

namespace throng::reference {
namespace {

// docs/VEHICLES.md: profile 0 is the world's parameters, k > 0 the vehicles' profiles[k - 1].
const FollowerParams& ProfileOf(const FollowerParams& world, const VehicleColumns& v, size_t i) {
  const uint16_t profile = v.profile.empty() ? 0 : v.profile[i];
  return profile == 0 ? world : v.profiles[profile - 1];
}

// The memory a world keeps for the next tick (docs/WORLD.md, "Per-id state"): the progress
// found, and the wheel angle the reference's move turns to over the tick (LaggedWheel).
void RememberFollowed(const FollowerParams& told, const FollowerResults& followed,
                      VehicleMemory* memory) {
  for (size_t i = 0; i < followed.progress.size(); ++i) {
    VehicleMemory& m = memory[i];
    m.progress = followed.progress[i];
    m.wheel_angle =
        static_cast<float>(LaggedWheel(m.wheel_angle, followed.steering[i], told.max_steer_angle,
                                       told.steering_lag, told.control_period));
  }
}

}  // namespace

void ReferenceBackend::SetSplines(const std::vector<SplineDesc>& splines) {
  // The engine's input checks (unique ids here, clean points in ReferenceSpline), then the
  // reference's own geometry; no arc-length table is built just to validate.
  ValidateSplineIds(splines);
  std::vector<ReferenceSpline> built;
  built.reserve(splines.size());
  for (size_t i = 0; i < splines.size(); ++i) built.emplace_back(splines[i], i);
  splines_ = std::move(built);
  spline_ids_.clear();
  spline_speed_limits_.clear();
  for (const SplineDesc& d : splines) {
    spline_ids_.push_back(d.id);
    spline_speed_limits_.push_back(d.speed_limit);
  }
}

void ReferenceBackend::QuerySplines(const SplineQueries& q, SplineQueryResults* out) {
  ValidateSplineQueries(q, splines_.size());
  out->Resize(q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    const ReferenceSpline& spline = splines_[q.spline[i]];
    const P3 p = spline.LocationAt(q.s[i]);
    const P3 t = spline.DirectionAt(q.s[i]);
    out->x[i] = static_cast<float>(p.x);
    out->y[i] = static_cast<float>(p.y);
    out->z[i] = static_cast<float>(p.z);
    out->tx[i] = static_cast<float>(t.x);
    out->ty[i] = static_cast<float>(t.y);
    out->tz[i] = static_cast<float>(t.z);
    out->curvature[i] = static_cast<float>(spline.CurvatureAt(q.s[i]));
    out->progress[i] =
        static_cast<float>(spline.Project({q.px[i], q.py[i], q.pz[i]}, q.s_hint[i], q.window));
  }
}

void ReferenceBackend::SetObstacles(const std::vector<Polygon>& polygons) {
  ValidateObstacles(polygons);  // the input contract; the reference builds its own vertices
  obstacles_ = polygons;
}

void ReferenceBackend::SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                                 const OrcaRunOptions& run, OrcaResult* out) {
  const auto t0 = std::chrono::steady_clock::now();
  ValidateOrcaParams(params);
  // This tick's agents (kThisTick) are the backend's own, made from a checked snapshot, as
  // on every backend: only the host's are checked.
  if (run.agents != ColumnSource::kThisTick) ValidateAgents(agents);
  const auto t1 = std::chrono::steady_clock::now();
  const OrcaScene scene{params, agents, obstacles_};
  OrcaOptions options;
  // rvo2_fallback switches the fallback only; the rules stay as the params set them
  // (PlainRvo2Params turns them off), as on the parallel backends.
  options.fallback = params.rvo2_fallback ? Fallback::kSilentLp3 : Fallback::kOrdered;
  options.stop = run.stop;
  options.record_kept = run.record_kept;
  *out = reference::SolveOrca(scene, options);
  out->times = {};
  out->times.validate_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  out->times.solve_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
}

void ReferenceBackend::FollowSplines(const FollowerParams& params, float world_speed_limit,
                                     const VehicleColumns& v, const FollowRunOptions& options,
                                     FollowerResults* out) {
  ValidateFollowerParams(params, world_speed_limit);
  const std::vector<uint32_t> spline = ValidateVehicles(v, spline_ids_);
  out->Resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    VehicleState state{};
    state.position = {v.px[i], v.py[i], v.pz[i]};
    state.yaw = v.yaw[i];
    state.speed = v.speed[i];
    state.spline = spline[i];
    state.progress_hint = v.progress_hint[i];
    state.max_speed = v.max_speed[i];
    state.wheel_angle = v.wheel_angle.empty() ? 0.f : v.wheel_angle[i];
    if (!v.turn_before_move.empty()) state.turn_before_move = v.turn_before_move[i];
    const FollowerOutput f =
        reference::FollowSpline(splines_[spline[i]], spline_speed_limits_[spline[i]], state,
                                ProfileOf(params, v, i), world_speed_limit);
    out->steering[i] = f.steering;
    out->throttle[i] = f.throttle;
    out->brake[i] = f.brake;
    out->target_speed[i] = f.target_speed;
    out->cte[i] = f.cte;
    out->progress[i] = f.progress;
    out->position_delta[i] = f.position_delta;
    out->heading_delta[i] = f.heading_delta;
    out->look_ahead[i] = f.look_ahead;
    out->target_x[i] = f.target.x;
    out->target_y[i] = f.target.y;
    out->target_z[i] = f.target.z;
    out->progress_x[i] = f.progress_point.x;
    out->progress_y[i] = f.progress_point.y;
    out->progress_z[i] = f.progress_point.z;
    out->tangent_x[i] = f.tangent.x;
    out->tangent_y[i] = f.tangent.y;
    out->tangent_z[i] = f.tangent.z;
  }
  if (options.memory != nullptr) RememberFollowed(params, *out, options.memory);
}

void ReferenceBackend::SteerForward(const FanParams& params, float dt, const ForwardAgentColumns& a,
                                    FanResults* out) {
  ValidateFan(params, dt, a);
  // The reference's own segment list, straight from the polygons.
  std::vector<Segment> segments;
  for (const Polygon& polygon : obstacles_) {
    const size_t m = polygon.vertices.size();
    for (size_t k = 0; k < m; ++k) {
      const Vec2 p0 = polygon.vertices[k], p1 = polygon.vertices[(k + 1) % m];
      segments.push_back({{p0.x, p0.y}, {p1.x, p1.y}});
    }
  }
  out->Resize(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const double len = std::hypot(static_cast<double>(a.fx[i]), static_cast<double>(a.fy[i]));
    const D2 forward{a.fx[i] / len, a.fy[i] / len};
    const D2 eye{a.px[i] + forward.x * a.radius[i], a.py[i] + forward.y * a.radius[i]};
    const FanChoiceD c = ChooseFanDirection2D(forward, eye, a.radius[i], params.max_distance,
                                              params.fov, params.probes, segments);
    const D2 move = TurnToward(forward, c.direction, dt, params.turn_speed);
    out->move_x[i] = static_cast<float>(move.x);
    out->move_y[i] = static_cast<float>(move.y);
    out->chosen_x[i] = static_cast<float>(c.direction.x);
    out->chosen_y[i] = static_cast<float>(c.direction.y);
    out->probe[i] = static_cast<int16_t>(c.probe);
    out->hit_distance[i] = static_cast<float>(c.hit_distance);
    out->all_blocked[i] = c.all_blocked ? 1 : 0;
  }
}

void ReferenceBackend::SetFanObstacles(const FanShapes& shapes, float /*cell*/) {
  fan_shapes_ = shapes;
}

}  // namespace throng::reference
