// Right of way in a jam (docs/ORCA.md, "Right of way"; OrcaParams::right_of_way): of two
// cooperative agents that stand nearly still within reach of each other, one goes first and the
// other gives way to it with full responsibility, both at the velocity it has and at the one it
// wants (its preferred velocity after the walls, "want"; two lines: with the wanted one
// alone, the agent giving way stepped into where the other still stood). Reciprocal
// avoidance splits the way evenly, and in a jam an even split leaves both standing: at a
// door, the two pressed against the jambs and the one between them block each other for
// good.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/orca.cuh"
#include "kernels/orca/orca_lp.cuh"

namespace throng::orca {

// Slow: under this share of the agent's preferred speed (an agent that prefers to stand is
// slow only while it stands), or under kRightOfWaySlowFloor of its max speed. The floor is
// for a jam's creep: the arrive and navigate behaviours steer with unit mass, so a nearly
// stopped agent prefers little more than it has (a time step's share of the way to its
// desired velocity, up to 0.14 m/s more for a pedestrian at 0.1 s),
// so at a door two people creeping at 0.04-0.07 m/s against each other wanted only 0.13-0.17
// m/s, neither counted as slow, and the door stood for 13-15 s at a time (docs/PERFORMANCE.md,
// "Right of way for those who creep").
constexpr float kRightOfWaySlowShare = 0.2f;
constexpr float kRightOfWaySlowFloor = 0.05f;
// Within reach: centres closer than this many radius sums (1.05 let the 1 m door and the
// crossing jam again, docs/PERFORMANCE.md).
constexpr float kRightOfWayReach = 1.25f;

// Ties: progress shares within this of each other, then positions along the pair's way
// within this share of the radius sum, then the lower id goes first.
constexpr float kRightOfWayProgressTie = 0.1f;
constexpr float kRightOfWayAheadTie = 0.05f;

THRONG_HD inline bool SlowForRightOfWay(Vec2 v, Vec2 v_pref, float max_speed) {
  const float speed_sq = LengthSq(v);
  const float floor = kRightOfWaySlowFloor * max_speed;
  return speed_sq <= kRightOfWaySlowShare * kRightOfWaySlowShare * LengthSq(v_pref) ||
         speed_sq <= floor * floor;
}

// The velocity an agent would take with only the walls in its way: LP2 over its obstacle
// lines toward v_pref (v_pref itself when nothing is in the way; 0 when even the walls
// leave nothing).
THRONG_HD inline Vec2 WantedVelocity(const AgentState& agent, const ObstacleView& obstacles,
                                     const OrcaParams& params) {
  LocalArray<Line, kMaxObstacleLinesLimit> line_storage;
  Line* const lines = line_storage.data();
  const int count = ObstacleLines(agent, obstacles, params, lines);
  Vec2 want{0.f, 0.f};
  if (LinearProgram2(lines, count, agent.max_speed, agent.v_pref, false, &want) < count)
    return Vec2{0.f, 0.f};
  return want;
}

// How much of its preferred velocity the walls leave an agent: 1 with a free way, 0
// pressed straight into a wall (or preferring to stand).
THRONG_HD inline float WantedProgress(Vec2 want, Vec2 v_pref) {
  const float pref_sq = LengthSq(v_pref);
  return pref_sq > 0.f ? Dot(want, v_pref) / pref_sq : 0.f;
}

// Whether agent a gives way to neighbour b (whose max speed is b_max_speed): both
// cooperative and slow, within reach, and b goes first. First the one the walls leave more
// of its way (at a door, the one in front of the opening before those pressed against the
// jambs), then the one further along the pair's preferred direction (a queue empties from
// its front), then the lower id. Exactly antisymmetric: a and b, seen from either side,
// agree on who goes first.
THRONG_HD inline bool GivesWayTo(const AgentState& a, Vec2 a_want, const NeighborState& b,
                                 Vec2 b_want, float b_max_speed) {
  if (b.non_cooperative) return false;
  if (!SlowForRightOfWay(a.v, a.v_pref, a.max_speed) ||
      !SlowForRightOfWay(b.v, b.v_pref, b_max_speed)) {
    return false;
  }
  const float radius_sum = a.radius + b.radius;
  const float reach = kRightOfWayReach * radius_sum;
  if (LengthSq(b.p - a.p) > reach * reach) return false;
  const float progress_lead = WantedProgress(b_want, b.v_pref) - WantedProgress(a_want, a.v_pref);
  if (progress_lead > kRightOfWayProgressTie) return true;
  if (progress_lead < -kRightOfWayProgressTie) return false;
  const float a_pref = Length(a.v_pref);
  const float b_pref = Length(b.v_pref);
  Vec2 way{0.f, 0.f};
  if (a_pref > 0.f) way = way + a.v_pref / a_pref;
  if (b_pref > 0.f) way = way + b.v_pref / b_pref;
  const float ahead = Dot(b.p - a.p, way);
  const float tie = kRightOfWayAheadTie * radius_sum;
  if (ahead > tie) return true;
  if (ahead < -tie) return false;
  return b.id < a.id;
}

}  // namespace throng::orca
