// Per-agent ORCA solve (docs/ORCA.md), written once for the CUDA and the CPU backend:
// obstacle edge selection, obstacle and agent half-planes, LP and infeasibility handling.
// Float only, fixed-capacity local arrays, no allocation, no recursion.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/local_array.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/obstacle_select.cuh"
#include "kernels/orca/orca_lp.cuh"
#include "kernels/orca/orca_types.h"

namespace throng::orca {

// The agent being solved, from the tick's snapshot.
struct AgentState {
  Vec2 p, v, v_pref;
  float radius, max_speed;
  uint32_t id;
};

// A kept neighbour (closest first, chosen by the caller per docs/ORCA.md).
struct NeighborState {
  Vec2 p, v, v_pref;
  float radius;
  uint32_t id;
  bool non_cooperative;  // avoided with full responsibility; its line is hard
  // A cooperative neighbour that a repair pass treats as non-cooperative (it turned non-ok
  // in the pass before): it does give way, so it is no reason for the jam step to push.
  bool demoted = false;
  // A neighbour this agent gives way to (right of way): avoided at the velocity it has and,
  // with a second line, at the one it wants (v_want), both with full responsibility.
  bool goes_first = false;
  Vec2 v_want = {0.f, 0.f};
};

struct SolveOutput {
  Vec2 velocity;
  SolveStatus status;
  int constraints;  // obstacle lines + agent lines built
  uint8_t flags;    // SolveFlag bits (kSolveShortenedHorizon)
  bool feasible;    // an LP2 succeeded (status ok)
};

namespace detail {

// Zero-velocity slack of the safe-stop test (docs/ORCA.md, "Solve and infeasibility").
constexpr float kHardLineSlack = 1e-5f;

// RVO2's leg directions from the agent to a vertex at relative position rel (|rel| > r).
THRONG_HD inline Vec2 LeftLeg(Vec2 rel, float dist_sq, float r, float leg) {
  return Vec2{rel.x * leg - rel.y * r, rel.x * r + rel.y * leg} / dist_sq;
}
THRONG_HD inline Vec2 RightLeg(Vec2 rel, float dist_sq, float r, float leg) {
  return Vec2{rel.x * leg + rel.y * r, -rel.x * r + rel.y * leg} / dist_sq;
}
// The line through `anchor + r/tau * left normal of direction` (legs and cut-off line).
THRONG_HD inline Line OffsetLine(Vec2 anchor, Vec2 direction, float r_inv_tau) {
  return {anchor + r_inv_tau * Vec2{-direction.y, direction.x}, direction};
}

// One edge's line, RVO2 2.0's obstacle part of Agent::computeNewVelocity. Returns false
// when the edge adds no line (already covered, hidden by a non-convex vertex, foreign leg).
// corner_lines (OrcaParams): an edge seen end-on keeps the line of its leg along itself.
THRONG_HD inline bool ObstacleLine(const AgentState& agent, const ObstacleView& obs, int edge,
                                   float inv_tau_obst, bool corner_lines, const Line* lines,
                                   int line_count, Line* out) {
  const float r = agent.radius;
  int i1 = edge;
  int i2 = obs.next[edge];
  const Vec2 rel1 = obs.point[i1] - agent.p;
  const Vec2 rel2 = obs.point[i2] - agent.p;

  // Skip an edge whose velocity obstacle earlier obstacle lines already exclude.
  for (int j = 0; j < line_count; ++j) {
    if (Det(inv_tau_obst * rel1 - lines[j].point, lines[j].direction) - inv_tau_obst * r >=
            -kLpEpsilon &&
        Det(inv_tau_obst * rel2 - lines[j].point, lines[j].direction) - inv_tau_obst * r >=
            -kLpEpsilon) {
      return false;
    }
  }

  const float dist_sq1 = LengthSq(rel1);
  const float dist_sq2 = LengthSq(rel2);
  const float r_sq = r * r;
  const Vec2 obstacle_vector = obs.point[i2] - obs.point[i1];
  const float s = Dot(-rel1, obstacle_vector) / LengthSq(obstacle_vector);
  const float dist_sq_line = LengthSq(-rel1 - s * obstacle_vector);

  // Already overlapping: a line through the origin that forbids moving further in.
  if (s < 0.f && dist_sq1 <= r_sq) {
    if (!obs.convex[i1]) return false;  // a reflex vertex is handled by its edges
    *out = {Vec2{0.f, 0.f}, Normalize(Vec2{-rel1.y, rel1.x})};
    return true;
  }
  if (s > 1.f && dist_sq2 <= r_sq) {
    // The right vertex is the next edge's left vertex: only handled here when convex and
    // when that edge will not see it (agent not right of the next edge's direction).
    if (!obs.convex[i2] || !(Det(rel2, obs.unit_dir[i2]) >= 0.f)) return false;
    *out = {Vec2{0.f, 0.f}, Normalize(Vec2{-rel2.y, rel2.x})};
    return true;
  }
  if (s >= 0.f && s <= 1.f && dist_sq_line <= r_sq) {
    *out = {Vec2{0.f, 0.f}, -obs.unit_dir[i1]};
    return true;
  }

  // No overlap: legs of the truncated velocity obstacle. Viewed obliquely, one vertex
  // defines both legs; a non-convex vertex extends the cut-off line instead of a leg.
  // Seen end-on from beyond one end, the "foreign" leg on the edge's own side is the edge
  // itself, which no other edge will line (docs/ORCA.md, "Corner lines").
  Vec2 left_leg, right_leg;
  bool left_own = false;
  bool right_own = false;
  if (s < 0.f && dist_sq_line <= r_sq) {
    if (!obs.convex[i1]) return false;
    right_own = corner_lines;
    i2 = i1;
    const float leg1 = sqrtf(dist_sq1 - r_sq);
    left_leg = LeftLeg(rel1, dist_sq1, r, leg1);
    right_leg = RightLeg(rel1, dist_sq1, r, leg1);
  } else if (s > 1.f && dist_sq_line <= r_sq) {
    if (!obs.convex[i2]) return false;
    left_own = corner_lines;
    i1 = i2;
    const float leg2 = sqrtf(dist_sq2 - r_sq);
    left_leg = LeftLeg(rel2, dist_sq2, r, leg2);
    right_leg = RightLeg(rel2, dist_sq2, r, leg2);
  } else {
    if (obs.convex[i1]) {
      left_leg = LeftLeg(rel1, dist_sq1, r, sqrtf(dist_sq1 - r_sq));
    } else {
      left_leg = -obs.unit_dir[i1];
    }
    if (obs.convex[i2]) {
      right_leg = RightLeg(rel2, dist_sq2, r, sqrtf(dist_sq2 - r_sq));
    } else {
      right_leg = obs.unit_dir[i1];
    }
  }

  // A leg of a convex vertex may not point into the neighbouring edge; the neighbour's
  // cut-off direction replaces it, and a projection onto such a "foreign" leg adds nothing
  // (the neighbour lines it), unless that edge is this one, seen end-on.
  const int left_neighbor = obs.prev[i1];
  bool left_foreign = false;
  bool right_foreign = false;
  if (obs.convex[i1] && Det(left_leg, -obs.unit_dir[left_neighbor]) >= 0.f) {
    left_leg = -obs.unit_dir[left_neighbor];
    left_foreign = true;
  }
  if (obs.convex[i2] && Det(right_leg, obs.unit_dir[i2]) <= 0.f) {
    right_leg = obs.unit_dir[i2];
    right_foreign = true;
  }

  const Vec2 left_cutoff = inv_tau_obst * (obs.point[i1] - agent.p);
  const Vec2 right_cutoff = inv_tau_obst * (obs.point[i2] - agent.p);
  const Vec2 cutoff_vec = right_cutoff - left_cutoff;
  const bool same_vertex = i1 == i2;
  const Vec2 v = agent.v;
  const float r_inv_tau = r * inv_tau_obst;

  // Project the current velocity on the truncated velocity obstacle.
  const float t = same_vertex ? 0.5f : Dot(v - left_cutoff, cutoff_vec) / LengthSq(cutoff_vec);
  const float t_left = Dot(v - left_cutoff, left_leg);
  const float t_right = Dot(v - right_cutoff, right_leg);

  if ((t < 0.f && t_left < 0.f) || (same_vertex && t_left < 0.f && t_right < 0.f)) {
    const Vec2 unit_w = Normalize(v - left_cutoff);  // left cut-off circle
    *out = {left_cutoff + r_inv_tau * unit_w, Vec2{unit_w.y, -unit_w.x}};
    return true;
  }
  if (t > 1.f && t_right < 0.f) {
    const Vec2 unit_w = Normalize(v - right_cutoff);  // right cut-off circle
    *out = {right_cutoff + r_inv_tau * unit_w, Vec2{unit_w.y, -unit_w.x}};
    return true;
  }

  // Otherwise the closest of cut-off line, left leg and right leg.
  const float dist_sq_cutoff =
      (t < 0.f || t > 1.f || same_vertex) ? INFINITY : LengthSq(v - (left_cutoff + t * cutoff_vec));
  const float dist_sq_left =
      t_left < 0.f ? INFINITY : LengthSq(v - (left_cutoff + t_left * left_leg));
  const float dist_sq_right =
      t_right < 0.f ? INFINITY : LengthSq(v - (right_cutoff + t_right * right_leg));

  if (dist_sq_cutoff <= dist_sq_left && dist_sq_cutoff <= dist_sq_right) {
    *out = OffsetLine(left_cutoff, -obs.unit_dir[i1], r_inv_tau);
    return true;
  }
  if (dist_sq_left <= dist_sq_right) {
    if (left_foreign && !left_own) return false;
    *out = OffsetLine(left_cutoff, left_leg, r_inv_tau);
    return true;
  }
  if (right_foreign && !right_own) return false;
  *out = OffsetLine(right_cutoff, -right_leg, r_inv_tau);
  return true;
}

// The pair's radius sum widened by the contact margin (docs/ORCA.md, "Contact margin").
THRONG_HD inline float CombinedRadius(float radius_a, float radius_b, float contact_margin_ratio) {
  const float sum = radius_a + radius_b;
  return sum + contact_margin_ratio * sum;
}

// RVO2's agent line toward neighbour b, with per-pair responsibility and the coincident
// rule of docs/ORCA.md.
THRONG_HD inline Line AgentLine(const AgentState& a, const NeighborState& b, float inv_tau,
                                float inv_time_step, float contact_margin_ratio) {
  const Vec2 relative_position = b.p - a.p;
  const Vec2 relative_velocity = a.v - b.v;
  const float dist_sq = LengthSq(relative_position);
  const float combined_radius = CombinedRadius(a.radius, b.radius, contact_margin_ratio);
  const float combined_radius_sq = combined_radius * combined_radius;
  // The id order picks opposite sides for the two agents of a coincident pair.
  const Vec2 fallback_unit_w = a.id < b.id ? Vec2{-1.f, 0.f} : Vec2{1.f, 0.f};

  Line line;
  Vec2 u;
  if (dist_sq > combined_radius_sq && !(a.p == b.p)) {
    const Vec2 w = relative_velocity - inv_tau * relative_position;  // from cut-off centre
    const float w_length_sq = LengthSq(w);
    const float dot_product1 = Dot(w, relative_position);
    if (dot_product1 < 0.f && dot_product1 * dot_product1 > combined_radius_sq * w_length_sq) {
      // Project on the cut-off circle.
      const float w_length = sqrtf(w_length_sq);
      const Vec2 unit_w = w / w_length;
      line.direction = {unit_w.y, -unit_w.x};
      u = (combined_radius * inv_tau - w_length) * unit_w;
    } else {
      // Project on the nearer leg.
      const float leg = sqrtf(dist_sq - combined_radius_sq);
      if (Det(relative_position, w) > 0.f) {
        line.direction = LeftLeg(relative_position, dist_sq, combined_radius, leg);
      } else {
        line.direction = -RightLeg(relative_position, dist_sq, combined_radius, leg);
      }
      u = Dot(relative_velocity, line.direction) * line.direction - relative_velocity;
    }
  } else {
    // Overlapping: leave within one time step (cut-off circle of time_step).
    Vec2 unit_w = fallback_unit_w;
    float w_length = 0.f;
    if (!(a.p == b.p)) {
      const Vec2 w = relative_velocity - inv_time_step * relative_position;
      w_length = Length(w);
      // w == 0 exactly would make RVO2 divide by zero; take the coincident rule's side.
      if (w_length > 0.f) unit_w = w / w_length;
    }
    line.direction = {unit_w.y, -unit_w.x};
    u = (combined_radius * inv_time_step - w_length) * unit_w;
  }
  const float responsibility = b.non_cooperative ? 1.f : 0.5f;
  line.point = a.v + responsibility * u;
  return line;
}

// Passing side (docs/ORCA.md, step 0): a neighbour whose preferred velocities are more
// than about 134 degrees from the agent's counts as oncoming.
constexpr float kOncomingCos = -0.7f;
// The oncoming fade: a quarter of side_bias_fade (lanes in counter-flows; measured in
// docs/PERFORMANCE.md).
constexpr float kOncomingFadeShare = 0.25f;

// The share of side_bias that neighbour b, whose agent line v_pref breaks, asks of the
// agent (docs/ORCA.md, step 0): the pair's preferred closing direction u (v_pref minus b's
// v_pref) and b's offset d; none when the two would not close (d . u <= 0), all of it when
// b lies ahead on the left of the agent's closing path or straight ahead, and fading out
// as b lies further to the right (where passing on the left is the natural side): over
// `fade` combined radii, a quarter of that for an oncoming or standing neighbour. Equal preferences
// (nothing to tell the side by) and fade 0 keep the whole bias.
THRONG_HD inline float SideBiasShare(const AgentState& a, const NeighborState& b, float fade) {
  if (!(fade > 0.f)) return 1.f;
  const Vec2 closing = a.v_pref - b.v_pref;
  const float closing_length = Length(closing);
  const float pref_length = Length(a.v_pref);
  if (!(closing_length > 1e-6f * pref_length)) return 1.f;
  const Vec2 u = closing / closing_length;
  const Vec2 d = b.p - a.p;
  if (!(Dot(d, u) > 0.f)) return 0.f;
  const float b_pref_length = Length(b.v_pref);
  // Someone standing is walked at head-on, as an oncoming neighbour is.
  const bool oncoming = !(b_pref_length > 0.f) ||
                        Dot(a.v_pref, b.v_pref) < kOncomingCos * pref_length * b_pref_length;
  const float reach = (oncoming ? kOncomingFadeShare * fade : fade) * (a.radius + b.radius);
  const float right = MaxF(0.f, -Det(u, d));  // > 0: b lies right of the closing path
  return MaxF(0.f, 1.f - right / reach);
}

// Jam step (docs/ORCA.md, step 5): the shares of LP3's velocity tried, largest first.
constexpr int kJamStepShareCount = 4;
THRONG_HD inline float JamStepShare(int k) {
  return k == 0 ? 1.f : k == 1 ? 0.5f : k == 2 ? 0.25f : 0.1f;
}

// How far one time step at velocity v presses a body beyond what is allowed. For every
// kept neighbour, the pair's overlap after the step (radius sum, without the contact
// margin, minus the distance) is judged twice: with the neighbour moving on at its own
// velocity, and with it making the same step towards the agent (it may be jam-stepping
// this very tick; judged only as moving on or standing, two agents stepping towards each
// other each used the whole allowance and overlaps ratcheted deeper, docs/ORCA.md), each
// against the larger of `depth` and the overlap now (a step that does not deepen an
// overlap is allowed); the largest excess of all. <= 0: the step keeps bodies clear.
THRONG_HD inline float StepExcessOverlap(const AgentState& a, const NeighborState* neighbors,
                                         int neighbor_count, Vec2 v, float time_step, float depth) {
  float worst = -INFINITY;
  const Vec2 own_step = time_step * v;
  for (int k = 0; k < neighbor_count; ++k) {
    const NeighborState& b = neighbors[k];
    const float touch = a.radius + b.radius;
    const Vec2 now = b.p - a.p;
    const float allowed = MaxF(depth, touch - Length(now));
    const Vec2 next_moving = now + time_step * b.v - own_step;
    const Vec2 next_mirrored = now - 2.f * own_step;
    const float closest = MinF(Length(next_moving), Length(next_mirrored));
    worst = MaxF(worst, touch - closest - allowed);
  }
  return worst;
}

// Squeeze step (docs/ORCA.md, step 5, OrcaParams::squeeze_step), for an agent the jam step
// leaves standing or creeping (slower than kSqueezePace of its max speed) against a wall
// (a wall's line within that pace of standing still): the first pair of neighbours it
// gives way to (closest first) that touch it, centres within kSqueezeTouch radius sums,
// from opposite sides; of the two steps square to the line between them at kSqueezePace of
// the max speed (its left first), the first that keeps every wall's line (within
// kHardLineSlack) and the bodies' allowance. Why: at contact ORCA's line to each of the two
// is square to the line between the centres, so against a wall the least violation is to
// stand or to creep into the wall, and all three stay for good. Away from walls the jam
// step and right of way have room to work, and the step only swapped one contact for
// another (overlaps and oscillation trebled in the crossing and the random crowd of
// 10,000: docs/PERFORMANCE.md, "The squeeze step against walls"). false (velocity
// untouched): no such step.
constexpr float kSqueezeTouch = 1.05f;  // radius sums, centre to centre
constexpr float kSqueezePace = 0.1f;    // of the max speed
THRONG_HD inline bool SqueezeStep(const AgentState& a, const NeighborState* neighbors,
                                  int neighbor_count, const Line* wall_lines, int wall_count,
                                  float time_step, float depth, Vec2* velocity) {
  const float pace = kSqueezePace * a.max_speed;
  bool against_wall = false;  // a creep at the pace toward some wall would break its line
  for (int k = 0; k < wall_count && !against_wall; ++k) {
    against_wall = Det(wall_lines[k].direction, wall_lines[k].point) > -pace;
  }
  if (!against_wall) return false;
  auto touching_first = [&](const NeighborState& b) {
    const float reach = kSqueezeTouch * (a.radius + b.radius);
    return b.goes_first && LengthSq(b.p - a.p) <= reach * reach;
  };
  for (int i = 0; i < neighbor_count; ++i) {
    if (!touching_first(neighbors[i])) continue;
    for (int j = i + 1; j < neighbor_count; ++j) {
      if (!touching_first(neighbors[j])) continue;
      if (!(Dot(neighbors[i].p - a.p, neighbors[j].p - a.p) < 0.f)) continue;  // one side
      const Vec2 along = Normalize(neighbors[j].p - neighbors[i].p);
      const Vec2 square = pace * Vec2{-along.y, along.x};
      for (int side = 0; side < 2; ++side) {
        const Vec2 v = side == 0 ? square : -square;
        bool walls_kept = true;
        for (int k = 0; k < wall_count && walls_kept; ++k) {
          walls_kept = Det(wall_lines[k].direction, wall_lines[k].point - v) <= kHardLineSlack;
        }
        if (walls_kept &&
            StepExcessOverlap(a, neighbors, neighbor_count, v, time_step, depth) <= 0.f) {
          *velocity = v;
          return true;
        }
      }
    }
  }
  return false;
}

// Density-aware preferred speed (docs/ORCA.md, step 0, OrcaParams::density_speed): the
// share of its own preferred speed an agent keeps at density rho (people per m^2),
// Weidmann's fundamental diagram divided by its free speed, 1 - exp(-1.913 (1/rho -
// 1/5.4)), never under kDensitySpeedFloor (a crowd at rest must still creep forward).
constexpr float kDensitySpeedFloor = 0.1f;
THRONG_HD inline float DensitySpeedShare(float density) {
  if (!(density > 0.f)) return 1.f;
  const float share = 1.f - expf(-1.913f * (1.f / density - 1.f / 5.4f));
  return MinF(1.f, MaxF(kDensitySpeedFloor, share));
}

// The density ahead of the agent, people per m^2: a Gaussian kernel of kDensitySigma
// around the point kDensityLead ahead (along v_pref) summed over the agent and its kept
// neighbours (Menge's PedVO samples its density ahead the same way), each neighbour
// weighted by how far it walks the agent's way (standing: fully). The agent counts: on a
// lattice the sum over all its points is the density, and 0.6 m ahead its own weight is
// 0.24 /m^2, so someone alone keeps 0.9995 of its speed. The ten nearest cover the kernel
// up to about 2.5 /m^2, so it reads low beyond. 0 without a direction.
constexpr float kDensityLead = 0.6f;   // m
constexpr float kDensitySigma = 0.3f;  // m
THRONG_HD inline float DensityAhead(const AgentState& a, const NeighborState* neighbors,
                                    int neighbor_count) {
  const float pref = Length(a.v_pref);
  if (!(pref > 0.f)) return 0.f;
  const Vec2 q = a.p + (kDensityLead / pref) * a.v_pref;
  const float inv_two_sigma_sq = 1.f / (2.f * kDensitySigma * kDensitySigma);
  float sum = expf(-LengthSq(a.p - q) * inv_two_sigma_sq);
  for (int k = 0; k < neighbor_count; ++k) {
    // Weighted by how far the neighbour walks the agent's way (cos of the angle between
    // their preferred velocities, none for the other way): Weidmann's curve is of one-way
    // flows, and where streams cross or meet, slowing for the others locked the plaza.
    const float b_pref = Length(neighbors[k].v_pref);
    const float along =
        b_pref > 0.f ? MaxF(0.f, Dot(neighbors[k].v_pref, a.v_pref) / (b_pref * pref)) : 1.f;
    sum += along * expf(-LengthSq(neighbors[k].p - q) * inv_two_sigma_sq);
  }
  return sum * inv_two_sigma_sq / 3.14159265f;
}

// Headway speed (docs/ORCA.md, step 0, OrcaParams::headway_speed): Tordeux's collision-free
// speed model with anticipation. The agent keeps the share (s + A v_b - l) / (T |v_pref|)
// of its preferred speed, s the distance to the nearest kept neighbour in line ahead, v_b
// how fast that neighbour walks the agent's way, l the pair's radius sum, T the time gap
// and A the anticipation; never under kDensitySpeedFloor. In line: ahead along v_pref,
// less than kHeadwayLane * l to either side, and preferring to walk the agent's way (its
// preferred velocity within kHeadwayCone of the agent's; someone standing, crossing or
// coming the other way is ORCA's to avoid, not to follow). The lane is narrow because a
// neighbour offset by more can be passed with a small side step, which keeps the doors
// flowing; an anticipation (none by default) lets a queue start as its front does
// (docs/PERFORMANCE.md, "Headway speed"). At a steady speed v_b = v, so the walk is
// v = (s - l) / (T - A).
constexpr float kHeadwayLane = 0.25f;
// cos 30 deg: a neighbour counts as in line only when it prefers to walk within 30 degrees
// of the agent's way. One crossing at a steeper angle clears the lane by itself; followed,
// it slowed the crossing's streams, at 10,000 people even with a 45-degree cone
// (docs/PERFORMANCE.md, "Headway speed's cone" and "A 30-degree cone").
constexpr float kHeadwayCone = 0.8660254f;
THRONG_HD inline float HeadwaySpeedShare(const AgentState& a, const NeighborState* neighbors,
                                         int neighbor_count, float time_gap, float anticipation) {
  const float pref = Length(a.v_pref);
  if (!(pref > 0.f)) return 1.f;
  const Vec2 e = (1.f / pref) * a.v_pref;
  const float gap = time_gap * pref;
  float share = 1.f;
  for (int k = 0; k < neighbor_count; ++k) {
    const NeighborState& b = neighbors[k];
    const Vec2 d = b.p - a.p;
    const float l = a.radius + b.radius;
    const float lateral = fabsf(d.x * e.y - d.y * e.x);
    // One test for ahead and in the lane (&, not &&): whether a neighbour is ahead is a
    // coin toss in a crowd, and mispredicted jumps on it cost more than the test; few are
    // in the narrow lane, so the jump on both is nearly always right (docs/PERFORMANCE.md,
    // "the layer's cost").
    if (!((Dot(d, e) > 0.f) & !(lateral >= kHeadwayLane * l))) continue;
    if (!(Dot(b.v_pref, e) > kHeadwayCone * Length(b.v_pref))) continue;
    const float lead = MaxF(0.f, Dot(b.v, e));
    share = MinF(share, (Length(d) + anticipation * lead - l) / gap);
  }
  return MinF(1.f, MaxF(kDensitySpeedFloor, share));
}

// Round a standing obstacle-like neighbour (OrcaParams::standing_detour; docs/ORCA.md,
// step 0): a preferred velocity that runs into a standing non-cooperative neighbour (a
// waiting car's discs, a player standing) within kDetourLook is turned to the nearer edge of
// the directions those neighbours block, each disc blocking the cone of its radius sum plus
// kDetourClearance, overlapping cones merged. ORCA alone projects a preferred velocity
// square to a row of standing discs onto almost nothing along them, so a walker whose goal
// lies behind a car stands at its side (docs/PERFORMANCE.md, "The town of 10,000's stalls").
// Ties turn right, as the passing side does; a cone wider than kDetourWidest either way
// leaves the preferred velocity as it was (going round would mean walking back).
constexpr float kDetourLook = 2.f;         // m from the agent's body to the disc's
constexpr float kDetourStanding = 0.25f;   // m/s: at most this fast counts as standing
constexpr float kDetourClearance = 0.05f;  // m added to each radius sum
constexpr float kDetourWidest = 2.0944f;   // rad, 120 degrees
// The way round is walked at least at this share of the max speed: a walker pressed
// against a car prefers little more than it has (the arrive behaviour's acceleration), and
// turned, that little slid it along a queue of cars at 0.2 m/s.
constexpr float kDetourPace = 0.5f;
// kCap: the solve's neighbour cap (SolveAgent), which sizes the local arrays; count <= kCap.
template <int kCap = kMaxNeighborsLimit>
THRONG_HD inline Vec2 StandingDetour(const AgentState& a, const NeighborState* neighbors,
                                     int count) {
  const float speed_sq = LengthSq(a.v_pref);
  if (!(speed_sq > 0.f)) return a.v_pref;
  // Most agents have no standing neighbour the caller drives: they pay for this test only.
  auto counts = [&](const NeighborState& b) {
    return b.non_cooperative && !b.demoted && LengthSq(b.v) <= kDetourStanding * kDetourStanding;
  };
  int first = 0;
  while (first < count && !counts(neighbors[first])) ++first;
  if (first == count) return a.v_pref;
  const float heading = atan2f(a.v_pref.y, a.v_pref.x);
  // Each standing disc's cone, as offsets from the heading: centre and half-width.
  float centre[kCap], half[kCap];
  int cones = 0;
  for (int k = first; k < count && k < kCap; ++k) {
    const NeighborState& b = neighbors[k];
    if (!counts(b)) continue;
    const Vec2 d = b.p - a.p;
    const float dist = Length(d);
    const float reach = a.radius + b.radius + kDetourClearance;
    if (!(dist > reach) || dist - reach > kDetourLook) continue;
    centre[cones] = WrapAngle(atan2f(d.y, d.x) - heading);
    half[cones] = asinf(reach / dist);
    ++cones;
  }
  // The blocked interval that holds the heading (offset 0, [lo, hi] = [0, 0] until a cone
  // meets it), grown by every cone it meets until none widens it.
  float lo = 0.f, hi = 0.f;
  bool blocked = false;
  for (bool grew = true; grew;) {
    grew = false;
    for (int k = 0; k < cones; ++k) {
      const float c_lo = centre[k] - half[k], c_hi = centre[k] + half[k];
      if (c_hi < lo || c_lo > hi) continue;
      if (!blocked || c_lo < lo || c_hi > hi) grew = true;
      lo = blocked ? MinF(lo, c_lo) : c_lo;
      hi = blocked ? MaxF(hi, c_hi) : c_hi;
      blocked = true;
    }
  }
  if (!blocked) return a.v_pref;
  // Clockwise (to the right) is the negative offset.
  const float turn = -lo <= hi ? lo : hi;
  if (turn < -kDetourWidest || turn > kDetourWidest) return a.v_pref;
  const float c = cosf(turn), s = sinf(turn);
  const Vec2 turned{c * a.v_pref.x - s * a.v_pref.y, s * a.v_pref.x + c * a.v_pref.y};
  const float pace = kDetourPace * a.max_speed;
  return speed_sq < pace * pace ? turned * (pace / sqrtf(speed_sq)) : turned;
}

}  // namespace detail

// The agent's obstacle lines (hard, tau_obst) for the edges within its reach, written to
// lines[0 ..); returns their count (at most kMaxObstacleLinesLimit).
THRONG_HD inline int ObstacleLines(const AgentState& agent, const ObstacleView& obstacles,
                                   const OrcaParams& params, Line* lines) {
  detail::EdgeCandidate edges[kMaxObstacleLinesLimit];
  const float range = params.time_horizon_obst * agent.max_speed + agent.radius;
  const int edge_count = detail::SelectObstacleEdges(agent.p, range * range, obstacles, edges);
  const float inv_tau_obst = 1.f / params.time_horizon_obst;
  int line_count = 0;
  for (int e = 0; e < edge_count; ++e) {
    if (detail::ObstacleLine(agent, obstacles, edges[e].index, inv_tau_obst, params.corner_lines,
                             lines, line_count, &lines[line_count])) {
      ++line_count;
    }
  }
  return line_count;
}

// Whether the pair already overlaps (the collision branch of AgentLine).
THRONG_HD inline bool Overlapping(const AgentState& a, const NeighborState& b,
                                  float contact_margin_ratio) {
  const float r = detail::CombinedRadius(a.radius, b.radius, contact_margin_ratio);
  return a.p == b.p || LengthSq(b.p - a.p) <= r * r;
}

// Solves one cooperative agent (docs/ORCA.md, "Solve and infeasibility"): obstacle lines
// (hard, tau_obst), one line per neighbour (tau), LP2 toward v_pref or, when v_pref
// breaks an agent line, toward v_pref turned right by up to side_bias -> ok; else the same at
// shorter horizons -> ok (flagged); else v = 0 if it meets the hard lines -> safe_stop;
// else LP3 -> emergency; with jam_step, both take the largest share of LP3's velocity that
// keeps bodies clear (step 5). feasible_only stops after the LP2 attempts (repair passes
// without revalidate_fallback).
// neighbor_count above kNeighborCap is cut there. kNeighborCap sizes the local arrays (the
// lines, two copies in LP3, the second lines' owners): on a GPU they are every thread's
// stack, reserved for every thread the device can hold, so a pipeline whose max_neighbors
// is small instantiates a small cap (kSmallNeighborCap). Results do not depend on it: the
// line capacity below never cuts a solve that max_neighbors <= kNeighborCap allows.
template <int kNeighborCap = kMaxNeighborsLimit>
THRONG_HD inline SolveOutput SolveAgent(const AgentState& agent_in, const NeighborState* neighbors,
                                        int neighbor_count, const ObstacleView& obstacles,
                                        const OrcaParams& params, bool feasible_only = false) {
  // Obstacle lines, one line per neighbour and a second one for each it gives way to; never
  // more than the full-size solve's kMaxLines, so that the largest cap behaves as before.
  constexpr int kLineCap = kMaxObstacleLinesLimit + 2 * kNeighborCap < kMaxLines
                               ? kMaxObstacleLinesLimit + 2 * kNeighborCap
                               : kMaxLines;
  if (neighbor_count > kNeighborCap) neighbor_count = kNeighborCap;
  if (neighbor_count < 0) neighbor_count = 0;
  // Step 0, density-aware and headway speed: the agent prefers the speed people walk at in
  // the density ahead of it, or behind the person ahead of it, everywhere below (target,
  // side bias).
  AgentState agent = agent_in;
  if (params.density_speed) {
    agent.v_pref =
        detail::DensitySpeedShare(detail::DensityAhead(agent, neighbors, neighbor_count)) *
        agent.v_pref;
  }
  if (params.headway_speed) {
    agent.v_pref = detail::HeadwaySpeedShare(agent, neighbors, neighbor_count, params.headway_time,
                                             params.headway_anticipation) *
                   agent.v_pref;
  }
  if (params.standing_detour)
    agent.v_pref = detail::StandingDetour<kNeighborCap>(agent, neighbors, neighbor_count);

  LocalArray<Line, kLineCap> line_storage;
  Line* const lines = line_storage.data();
  int line_count = ObstacleLines(agent, obstacles, params, lines);
  const int num_obst_lines = line_count;
  line_count += neighbor_count;
  // Right of way: a second line for each neighbour the agent gives way to, at the velocity
  // that neighbour wants, as long as there is room for it.
  const int first_extra = line_count;
  uint8_t extra_of[kNeighborCap];  // neighbour index of each second line
  for (int k = 0; k < neighbor_count && line_count < kLineCap; ++k) {
    if (neighbors[k].goes_first) extra_of[line_count++ - first_extra] = static_cast<uint8_t>(k);
  }
  auto neighbor_of_line = [&](int j) -> const NeighborState& {
    return j < first_extra ? neighbors[j - num_obst_lines] : neighbors[extra_of[j - first_extra]];
  };

  const float inv_time_step = 1.f / params.time_step;
  const float margin = params.contact_margin_ratio;
  auto build_agent_lines = [&](float tau) {
    const float inv_tau = 1.f / tau;
    for (int k = 0; k < neighbor_count; ++k) {
      lines[num_obst_lines + k] =
          detail::AgentLine(agent, neighbors[k], inv_tau, inv_time_step, margin);
    }
    for (int j = first_extra; j < line_count; ++j) {
      NeighborState wanting = neighbor_of_line(j);
      wanting.v = wanting.v_want;
      lines[j] = detail::AgentLine(agent, wanting, inv_tau, inv_time_step, margin);
    }
  };
  build_agent_lines(params.time_horizon);

  // Judged on the full-tau problem, before shorter horizons overwrite the agent lines.
  bool zero_is_safe = true;
  bool zero_breaks_non_cooperative = false;  // the jam step's exception (step 5)
  float bias_share = 0.f;                    // the largest share any neighbour in conflict asks for
  for (int j = 0; j < line_count; ++j) {
    const bool agent_line = j >= num_obst_lines;
    const NeighborState* nb = agent_line ? &neighbor_of_line(j) : nullptr;
    if (agent_line && bias_share < 1.f &&
        Det(lines[j].direction, lines[j].point - agent.v_pref) > 0.f) {
      bias_share = MaxF(bias_share, detail::SideBiasShare(agent, *nb, params.side_bias_fade));
    }
    const bool hard = !agent_line || nb->non_cooperative ||
                      (params.overlap_is_hard && Overlapping(agent, *nb, margin));
    if (hard && !(Det(lines[j].direction, lines[j].point) <= detail::kHardLineSlack)) {
      zero_is_safe = false;
      if (agent_line && nb->non_cooperative && !nb->demoted) zero_breaks_non_cooperative = true;
    }
  }
  Vec2 target = agent.v_pref;
  if (bias_share > 0.f && params.side_bias != 0.f) {
    // Clockwise, i.e. to the agent's right (Z up). A whole share is the bias itself, so
    // side_bias_fade = 0 turns exactly as before the fade.
    const float angle = bias_share < 1.f ? params.side_bias * bias_share : params.side_bias;
    const float c = cosf(angle), s = sinf(angle);
    target = {c * agent.v_pref.x + s * agent.v_pref.y, -s * agent.v_pref.x + c * agent.v_pref.y};
  }

  SolveOutput out;
  out.constraints = first_extra;  // right of way's second lines are not counted
  out.flags = 0;
  out.feasible = true;
  out.status = SolveStatus::kOk;
  int fail = LinearProgram2(lines, line_count, agent.max_speed, target, false, &out.velocity);
  if (fail >= line_count) return out;
  if (params.shorten_horizon) {
    float tau = params.time_horizon;
    while (tau > params.time_step) {
      // Halving is exact in binary, so every backend walks the same horizons.
      tau = MaxF(0.5f * tau, params.time_step);
      build_agent_lines(tau);
      fail = LinearProgram2(lines, line_count, agent.max_speed, target, false, &out.velocity);
      if (fail >= line_count) {
        out.flags = kSolveShortenedHorizon;
        return out;
      }
    }
  }

  out.feasible = false;
  if (feasible_only) return out;
  if (params.rvo2_fallback) {
    // The baseline hides the failure, as the RVO2 library does.
    LinearProgram3<kLineCap>(lines, line_count, num_obst_lines, fail, agent.max_speed,
                             &out.velocity);
    out.velocity = ClampLength(out.velocity, agent.max_speed);
    return out;
  }
  if (zero_is_safe && !params.jam_step) {
    out.velocity = Vec2{0.f, 0.f};
    out.status = SolveStatus::kSafeStop;
    return out;
  }
  LinearProgram3<kLineCap>(lines, line_count, num_obst_lines, fail, agent.max_speed, &out.velocity);
  // Exact LP3 stays in the speed disc; in float, nearly parallel agent lines put projected
  // lines' points far out and the rounding can leave it by a few percent.
  out.velocity = ClampLength(out.velocity, agent.max_speed);
  out.status = zero_is_safe ? SolveStatus::kSafeStop : SolveStatus::kEmergency;
  if (params.jam_step) {
    // Step 5: the largest share of the least-violation velocity that keeps bodies clear.
    // None does: stand, unless standing breaks the line of a neighbour that will not give
    // way (a vehicle, a player): then, as without the rule, the whole LP3 velocity.
    const Vec2 least_violation = out.velocity;
    bool stepped = false;
    for (int k = 0; k < detail::kJamStepShareCount && !stepped; ++k) {
      const Vec2 v = detail::JamStepShare(k) * least_violation;
      if (detail::StepExcessOverlap(agent, neighbors, neighbor_count, v, params.time_step,
                                    params.jam_step_depth) <= 0.f) {
        out.velocity = v;
        stepped = true;
      }
    }
    if (!stepped && !zero_breaks_non_cooperative) out.velocity = Vec2{0.f, 0.f};
    // The squeeze step, for an agent the jam step leaves standing or creeping (not one that
    // takes LP3's whole velocity for a neighbour that will not give way).
    const float creep = detail::kSqueezePace * agent.max_speed;
    if (params.squeeze_step && (stepped || !zero_breaks_non_cooperative) &&
        LengthSq(out.velocity) < creep * creep &&
        detail::SqueezeStep(agent, neighbors, neighbor_count, lines, num_obst_lines,
                            params.time_step, params.jam_step_depth, &out.velocity)) {
      stepped = true;
    }
    if (stepped && !(out.velocity == Vec2{0.f, 0.f})) out.flags |= kSolveJamStep;
  }
  return out;
}

// The last check on what a caller is told. A velocity that is not finite, or a solved one
// beyond the agent's speed by more than float rounding, is never reported as it is: it
// becomes an emergency with a finite velocity inside the speed disc (0 when it had no
// direction). Validation keeps inputs where this should never fire; it is there so that a
// case nobody foresaw costs an emergency, not a wrong answer marked ok.
constexpr float kSpeedSlack = 1e-4f;  // relative; LP2 answers sit on the disc within 1e-7

THRONG_HD inline void GuardResult(float max_speed, Vec2* velocity, SolveStatus* status) {
  const float speed_sq = LengthSq(*velocity);
  const float limit = max_speed * (1.f + kSpeedSlack);
  if (speed_sq <= limit * limit) return;  // false for NaN too
  // x - x is 0 for every finite x and NaN otherwise (no <cmath> in device code needed).
  const bool finite = velocity->x - velocity->x == 0.f && velocity->y - velocity->y == 0.f;
  // Onto the disc's edge in its direction; scaled by the larger component first, since
  // the square of a finite 4e19 is already infinite in float.
  const float largest = MaxF(fabsf(velocity->x), fabsf(velocity->y));
  *velocity = finite ? Normalize(*velocity / largest) * max_speed : Vec2{0.f, 0.f};
  *status = SolveStatus::kEmergency;
}

}  // namespace throng::orca
