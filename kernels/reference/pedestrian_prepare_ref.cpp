// The snapshot's pedestrians made ready for the solve, one after another, written from the
// definitions (docs/ALGORITHMS.md §3, the AgentBehavior and AgentDefaults comments): the
// columns in the internal frame with the defaults (exact: signs and swaps), and the
// behaviours' preferred velocities in double with the reference's own steering
// (steering_ref.cpp), rounded to float once at the end.
#include <cmath>

#include "kernels/reference/frame_ref.h"
#include "kernels/reference/reference_backend.h"
#include "kernels/reference/steering_ref.h"

namespace throng::reference {
namespace {

float Value(const float* column, size_t i, float absent) {
  return column == nullptr ? absent : column[i];
}

// Which behaviour makes agent i's preferred velocity. The order of precedence: the agent's
// own value; a flag asking for the preferred-velocity columns; the world's default; else
// what the columns imply (goals mean arrive, no goals mean the preferred velocity).
AgentBehavior BehaviorOf(const PedestrianPrepareScene& s, size_t i, AgentBehavior world_default) {
  if (s.behavior != nullptr && s.behavior[i] != static_cast<uint8_t>(AgentBehavior::kByColumns)) {
    return static_cast<AgentBehavior>(s.behavior[i]);
  }
  if (s.flags != nullptr && (s.flags[i] & kSnapshotUsesPreferredVelocity) != 0) {
    return AgentBehavior::kPreferredVelocity;
  }
  if (world_default != AgentBehavior::kByColumns) return world_default;
  if (s.goal_x == nullptr) return AgentBehavior::kPreferredVelocity;
  return AgentBehavior::kArrive;
}

// Whether agent i's values pass `checks` (PedestrianChecks): every present float column in
// its bounds, then the row's flags and behaviour, rule by rule.
bool Passes(const PedestrianChecks& checks, const PedestrianPrepareScene& s, size_t i,
            AgentBehavior world_default) {
  const float* const columns[kPedestrianFloatColumns] = {
      s.x,         s.y,      s.z,      s.vx,     s.vy,      s.vz,      s.radius,
      s.max_speed, s.goal_x, s.goal_y, s.goal_z, s.pref_vx, s.pref_vy, s.pref_vz};
  for (int k = 0; k < kPedestrianFloatColumns; ++k) {
    if (columns[k] == nullptr) continue;
    const float v = columns[k][i];
    if (std::isnan(v) || v < checks.bounds[k].min || v > checks.bounds[k].max) return false;
  }
  const unsigned flags = s.flags != nullptr ? s.flags[i] : 0u;
  if ((flags & ~unsigned{kSnapshotNonCooperative | kSnapshotUsesPreferredVelocity}) != 0) {
    return false;
  }
  const unsigned own = s.behavior != nullptr ? s.behavior[i] : 0u;
  if (own >= kAgentBehaviorCount) return false;
  auto wants_a_goal = [](AgentBehavior b) {
    return b == AgentBehavior::kArrive || b == AgentBehavior::kSeek || b == AgentBehavior::kFlee;
  };
  const auto own_behavior = static_cast<AgentBehavior>(own);
  const bool asks_for_preferred = (flags & kSnapshotUsesPreferredVelocity) != 0;
  if (asks_for_preferred &&
      (wants_a_goal(own_behavior) || own_behavior == AgentBehavior::kNavigate)) {
    return false;
  }
  const AgentBehavior behavior = BehaviorOf(s, i, world_default);
  if (s.goal_x == nullptr && wants_a_goal(behavior)) return false;
  // Navigation where the world has targets and the snapshot a target column (the steering
  // checks the target).
  return behavior != AgentBehavior::kNavigate || checks.navigation;
}

}  // namespace

uint64_t ReferenceBackend::PreparePedestrians(const PedestrianPrepareParams& params,
                                              const PedestrianPrepareScene& s,
                                              const PedestrianPrepareOutput& out) {
  const AgentDefaults& defaults = params.defaults;
  const double dt = params.dt;
  uint64_t refused = 0;
  for (size_t i = 0; i < s.count; ++i) {
    if (params.checks.on && !Passes(params.checks, s, i, defaults.behavior)) {
      ++refused;  // not prepared: its values never reach the steering
      continue;
    }
    float p[3], v[3];
    FromCaller(params.frame, s.x[i], s.y[i], Value(s.z, i, 0.f), p);
    FromCaller(params.frame, Value(s.vx, i, 0.f), Value(s.vy, i, 0.f), Value(s.vz, i, 0.f), v);
    const bool scripted = s.flags != nullptr && (s.flags[i] & kSnapshotNonCooperative) != 0;
    double speed_limit = Value(s.max_speed, i, defaults.max_speed);
    if (scripted) {  // never slower than the velocity it is given
      speed_limit = std::fmax(speed_limit, std::hypot(double{v[0]}, double{v[1]}));
    }
    out.agents.id[i] = static_cast<uint32_t>(i);
    out.agents.px[i] = p[0];
    out.agents.py[i] = p[1];
    out.z[i] = p[2];
    out.agents.vx[i] = v[0];
    out.agents.vy[i] = v[1];
    out.vz[i] = v[2];
    out.agents.radius[i] = Value(s.radius, i, defaults.radius);
    out.agents.max_speed[i] = static_cast<float>(speed_limit);
    out.agents.flags[i] = scripted ? kAgentNonCooperative : 0;
    out.goal[i] = {0.f, 0.f};
    out.has_goal[i] = 0;
    out.navigates[i] = 0;

    D2 preferred{0, 0};
    if (scripted) {
      preferred = {v[0], v[1]};
    } else {
      const AgentBehavior behavior = BehaviorOf(s, i, defaults.behavior);
      const D2 position{p[0], p[1]}, velocity{v[0], v[1]};
      const ArriveParamsD arrive{speed_limit, defaults.max_accel, 1.0, defaults.slowing_radius};
      D2 goal{0, 0};
      if (s.goal_x != nullptr) {
        float g[3];
        FromCaller(params.frame, s.goal_x[i], s.goal_y[i], Value(s.goal_z, i, 0.f), g);
        goal = {g[0], g[1]};
      }
      if (behavior == AgentBehavior::kArrive || behavior == AgentBehavior::kSeek) {
        out.goal[i] = {static_cast<float>(goal.x), static_cast<float>(goal.y)};
        out.has_goal[i] = 1;
        preferred = behavior == AgentBehavior::kArrive
                        ? ArriveStep(position, velocity, goal, arrive, dt)
                        : SteerToward(velocity, Seek(position, goal, speed_limit), arrive, dt);
      } else if (behavior == AgentBehavior::kFlee) {
        preferred = SteerToward(velocity, Flee(position, goal, speed_limit), arrive, dt);
      } else if (behavior == AgentBehavior::kNavigate) {
        out.navigates[i] = 1;  // the world steers it along its field
      } else if (s.pref_vx != nullptr) {
        float q[3];
        FromCaller(params.frame, s.pref_vx[i], s.pref_vy[i], Value(s.pref_vz, i, 0.f), q);
        preferred = {q[0], q[1]};
      }
    }
    out.agents.pref_vx[i] = static_cast<float>(preferred.x);
    out.agents.pref_vy[i] = static_cast<float>(preferred.y);
  }
  return refused;
}

}  // namespace throng::reference
