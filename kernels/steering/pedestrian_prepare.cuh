// One pedestrian made ready for the solve, as the parallel backends run it
// (Backend::PreparePedestrians; the types: pedestrian_prepare_types.h): its columns in the
// internal frame with the world's defaults, and the preferred velocity of its behaviour.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/math/column_or.cuh"
#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/orca_types.h"
#include "kernels/steering/pedestrian_prepare_types.h"
#include "kernels/steering/steering.cuh"

namespace throng {

// The behaviour an agent moves by, never kByColumns: its own value first, then its
// kSnapshotUsesPreferredVelocity flag, then the world's default, then the columns (goals:
// arrive; none: its preferred velocity).
THRONG_HD inline AgentBehavior ResolveBehavior(uint8_t own, uint8_t flags,
                                               AgentBehavior world_default, bool has_goals) {
  if (static_cast<AgentBehavior>(own) != AgentBehavior::kByColumns) {
    return static_cast<AgentBehavior>(own);
  }
  if (flags & kSnapshotUsesPreferredVelocity) return AgentBehavior::kPreferredVelocity;
  if (world_default != AgentBehavior::kByColumns) return world_default;
  return has_goals ? AgentBehavior::kArrive : AgentBehavior::kPreferredVelocity;
}

THRONG_HD inline bool BehaviorNeedsGoal(AgentBehavior b) {
  return b == AgentBehavior::kArrive || b == AgentBehavior::kSeek || b == AgentBehavior::kFlee;
}

// The scene's float columns in PedestrianFloatColumn order (absent ones null).
THRONG_HD inline void PedestrianFloatColumns(const PedestrianPrepareScene& in,
                                             const float* columns[kPedestrianFloatColumns]) {
  columns[kPedestrianX] = in.x;
  columns[kPedestrianY] = in.y;
  columns[kPedestrianZ] = in.z;
  columns[kPedestrianVx] = in.vx;
  columns[kPedestrianVy] = in.vy;
  columns[kPedestrianVz] = in.vz;
  columns[kPedestrianRadius] = in.radius;
  columns[kPedestrianMaxSpeed] = in.max_speed;
  columns[kPedestrianGoalX] = in.goal_x;
  columns[kPedestrianGoalY] = in.goal_y;
  columns[kPedestrianGoalZ] = in.goal_z;
  columns[kPedestrianPrefVx] = in.pref_vx;
  columns[kPedestrianPrefVy] = in.pref_vy;
  columns[kPedestrianPrefVz] = in.pref_vz;
}

// Whether row i's present float values lie within their bounds (a NaN in none).
THRONG_HD inline bool RowValuesWithin(const PedestrianChecks& checks,
                                      const PedestrianPrepareScene& in, size_t i) {
  const float* columns[kPedestrianFloatColumns];
  PedestrianFloatColumns(in, columns);
  bool within = true;
  for (int k = 0; k < kPedestrianFloatColumns; ++k) {
    if (columns[k] == nullptr) continue;
    const float v = columns[k][i];
    within = within & (v >= checks.bounds[k].min) & (v <= checks.bounds[k].max);
  }
  return within;
}

// Whether row i's flags and behaviour pass the host's rules short of navigation's
// targets: known flag bits, a known behaviour, arrive, seek, flee or navigate never with
// the "uses preferred velocity" flag, and a behaviour that needs goals only with them;
// where they do, `*behavior` is the behaviour the row moves by (ResolveBehavior). The
// host's one pass (AgentsPassAtOnce) checks a navigating row's target after it.
THRONG_HD inline bool RowFlagsAndBehaviorPass(const PedestrianPrepareScene& in, size_t i,
                                              AgentBehavior world_default,
                                              AgentBehavior* behavior) {
  constexpr uint8_t kKnown = kSnapshotNonCooperative | kSnapshotUsesPreferredVelocity;
  const uint8_t flags = ColumnOr<uint8_t>(in.flags, i, 0);
  const uint8_t own_value = ColumnOr<uint8_t>(in.behavior, i, 0);
  if ((flags & ~kKnown) != 0 || own_value >= kAgentBehaviorCount) return false;
  const auto own = static_cast<AgentBehavior>(own_value);
  if ((BehaviorNeedsGoal(own) || own == AgentBehavior::kNavigate) &&
      (flags & kSnapshotUsesPreferredVelocity) != 0) {
    return false;
  }
  const bool has_goals = in.goal_x != nullptr;
  *behavior = ResolveBehavior(own_value, flags, world_default, has_goals);
  return has_goals || !BehaviorNeedsGoal(*behavior);
}

// Whether row i's flags and behaviour pass PedestrianChecks: RowFlagsAndBehaviorPass, and
// navigation only where the world and the snapshot allow it (`navigation`: targets and a
// target column; the steering checks the target itself).
THRONG_HD inline bool RowRulesPass(const PedestrianPrepareScene& in, size_t i,
                                   AgentBehavior world_default, bool navigation) {
  AgentBehavior behavior = AgentBehavior::kByColumns;
  return RowFlagsAndBehaviorPass(in, i, world_default, &behavior) &&
         (behavior != AgentBehavior::kNavigate || navigation);
}

struct PedestrianPrepareFunctor {
  PedestrianPrepareParams params;
  PedestrianPrepareScene in;
  PedestrianPrepareOutput out;

  // Prepares row i and answers 0, or answers 1 where params.checks refuse its values and
  // writes nothing for it (the world rejects the tick; values the checks refuse never
  // reach the steering).
  THRONG_HD uint32_t operator()(size_t i) const { return Row(i, /*values_within=*/false); }

  // As operator(), where `values_within` may say that the caller has found row i's float
  // values within their bounds already (the cpu checks them a block of rows at a time,
  // each column in a loop the compiler vectorises).
  // Where `arrive_waits` is given, an arriving row's preferred velocity is left to the
  // caller (*arrive_waits true; ArriveStepOf over several rows at once, from the row's
  // prepared position, velocity, goal and max speed), and its pref_vx, pref_vy are not
  // written; elsewhere *arrive_waits is false.
  THRONG_HD uint32_t Row(size_t i, bool values_within, bool* arrive_waits = nullptr) const {
    if (arrive_waits != nullptr) *arrive_waits = false;
    if (params.checks.on &&
        !((values_within || RowValuesWithin(params.checks, in, i)) &&
          RowRulesPass(in, i, params.defaults.behavior, params.checks.navigation))) {
      return 1u;
    }
    Prepare(i, arrive_waits);
    return 0u;
  }

  // The ArriveParams of row i's arrive step (`max_speed`: its prepared max speed).
  THRONG_HD ArriveParams Arrive(float max_speed) const {
    return {max_speed, params.defaults.max_accel, 1.f, params.defaults.slowing_radius};
  }

  THRONG_HD void Prepare(size_t i, bool* arrive_waits = nullptr) const {
    const Frame frame = params.frame;
    const AgentDefaults& ad = params.defaults;
    const Vec3 p = frame.ToInternal({in.x[i], in.y[i], ColumnOr(in.z, i, 0.f)});
    const Vec3 v = frame.ToInternal(
        {ColumnOr(in.vx, i, 0.f), ColumnOr(in.vy, i, 0.f), ColumnOr(in.vz, i, 0.f)});
    const uint8_t snapshot_flags = ColumnOr<uint8_t>(in.flags, i, 0);
    const bool non_cooperative = (snapshot_flags & kSnapshotNonCooperative) != 0;
    float max_speed = ColumnOr(in.max_speed, i, ad.max_speed);
    // A non-cooperative agent moves at its own velocity, whatever its max speed says; the
    // solve sizes everyone's neighbour search by max speeds, so it gets at least that.
    if (non_cooperative) max_speed = MaxF(max_speed, Length(Vec2{v.x, v.y}));
    out.agents.id[i] = static_cast<uint32_t>(i);  // ids order ties; snapshot order is deterministic
    out.agents.px[i] = p.x;
    out.agents.py[i] = p.y;
    out.agents.vx[i] = v.x;
    out.agents.vy[i] = v.y;
    out.agents.radius[i] = ColumnOr(in.radius, i, ad.radius);
    out.agents.max_speed[i] = max_speed;
    out.agents.flags[i] = non_cooperative ? kAgentNonCooperative : 0;
    out.z[i] = p.z;
    out.vz[i] = v.z;

    Vec2 pref{}, goal{};
    uint8_t has_goal = 0, navigates = 0;
    if (non_cooperative) {
      pref = {v.x, v.y};
    } else {
      const bool has_goals = in.goal_x != nullptr;
      const AgentBehavior behavior = ResolveBehavior(ColumnOr<uint8_t>(in.behavior, i, 0),
                                                     snapshot_flags, ad.behavior, has_goals);
      const ArriveParams arrive = Arrive(max_speed);
      const Vec2 position{p.x, p.y}, velocity{v.x, v.y};
      Vec2 target{};
      if (has_goals && behavior != AgentBehavior::kPreferredVelocity) {
        const Vec3 g = frame.ToInternal({in.goal_x[i], in.goal_y[i], ColumnOr(in.goal_z, i, 0.f)});
        target = {g.x, g.y};
      }
      switch (behavior) {
        case AgentBehavior::kArrive:
        case AgentBehavior::kSeek:
          // Progress (stall detection) is measured toward the goal; a fleeing agent's
          // along its preferred direction instead.
          goal = target;
          has_goal = 1;
          if (behavior == AgentBehavior::kSeek) {
            pref = SteerToward(velocity, Seek(position, target, max_speed), arrive, params.dt);
          } else if (arrive_waits != nullptr) {
            *arrive_waits = true;
          } else {
            pref = ArriveStep(position, velocity, target, arrive, params.dt);
          }
          break;
        case AgentBehavior::kFlee:
          pref = SteerToward(velocity, Flee(position, target, max_speed), arrive, params.dt);
          break;
        case AgentBehavior::kNavigate:
          navigates = 1;  // steered by the world along its field
          break;
        default:
          if (in.pref_vx != nullptr) {
            const Vec3 q =
                frame.ToInternal({in.pref_vx[i], in.pref_vy[i], ColumnOr(in.pref_vz, i, 0.f)});
            pref = {q.x, q.y};
          }
          break;
      }
    }
    if (arrive_waits == nullptr || !*arrive_waits) {
      out.agents.pref_vx[i] = pref.x;
      out.agents.pref_vy[i] = pref.y;
    }
    out.goal[i] = goal;
    out.has_goal[i] = has_goal;
    out.navigates[i] = navigates;
  }
};

}  // namespace throng
