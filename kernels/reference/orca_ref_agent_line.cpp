// The reference's agent line (RVO2's, with docs/ORCA.md's responsibility, coincident rule
// and contact margin) and the passing side's share of the side bias, in double precision.
#include <algorithm>

#include "kernels/reference/orca_ref_geometry.h"

namespace throng::reference::detail {

// RVO2's agent line for neighbour `other`, with docs/ORCA.md's responsibility,
// coincident-agent rule and contact margin (the combined radius widened by that fraction
// of itself, also in the collision-branch test). tau: the agent-line horizon (params.time_horizon,
// or a shortened tau_k). *overlapping (if not null) says whether the collision branch was taken.
Line AgentLine(const AgentState& self, const AgentState& other, double time_step, double tau,
               double margin_ratio, bool* overlapping) {
  const Vec2d rel_pos = other.position - self.position;
  const Vec2d rel_vel = self.velocity - other.velocity;
  const double dist_sq = AbsSq(rel_pos);
  const double combined_radius = (self.radius + other.radius) * (1.0 + margin_ratio);
  const double combined_radius_sq = combined_radius * combined_radius;

  Line line;
  Vec2d u;  // smallest change of relative velocity onto the velocity obstacle boundary
  if (overlapping != nullptr) *overlapping = dist_sq <= combined_radius_sq;
  if (dist_sq > combined_radius_sq) {
    const double inv_tau = 1.0 / tau;
    const Vec2d w = rel_vel - inv_tau * rel_pos;  // from cut-off centre to rel_vel
    const double w_length_sq = AbsSq(w);
    const double dot1 = Dot(w, rel_pos);
    if (dot1 < 0.0 && dot1 * dot1 > combined_radius_sq * w_length_sq) {
      // Closest boundary point is on the cut-off disc.
      const double w_length = std::sqrt(w_length_sq);
      const Vec2d unit_w = Divide(w, w_length);
      line.direction = {unit_w.y, -unit_w.x};
      u = (combined_radius * inv_tau - w_length) * unit_w;
    } else {
      // Closest boundary point is on a leg.
      const double leg = std::sqrt(dist_sq - combined_radius_sq);
      if (Det(rel_pos, w) > 0.0) {
        line.direction = Divide({rel_pos.x * leg - rel_pos.y * combined_radius,
                                 rel_pos.x * combined_radius + rel_pos.y * leg},
                                dist_sq);
      } else {
        line.direction = -Divide({rel_pos.x * leg + rel_pos.y * combined_radius,
                                  -rel_pos.x * combined_radius + rel_pos.y * leg},
                                 dist_sq);
      }
      u = Dot(rel_vel, line.direction) * line.direction - rel_vel;
    }
  } else {
    // Overlapping: resolve within one time step (cut-off disc of time_step).
    const double inv_dt = 1.0 / time_step;
    Vec2d unit_w;
    double w_length;
    if (rel_pos.x == 0.0 && rel_pos.y == 0.0) {
      // Coincident: no direction to separate along; split along x by id, never NaN.
      unit_w = self.id < other.id ? Vec2d{-1.0, 0.0} : Vec2d{1.0, 0.0};
      w_length = 0.0;
    } else {
      const Vec2d w = rel_vel - inv_dt * rel_pos;
      w_length = std::sqrt(AbsSq(w));
      unit_w = Divide(w, w_length);
    }
    line.direction = {unit_w.y, -unit_w.x};
    u = (combined_radius * inv_dt - w_length) * unit_w;
  }
  // Non-cooperative neighbours do not yield, so this agent takes all of u.
  const double responsibility = other.non_cooperative ? 1.0 : 0.5;
  line.point = self.velocity + responsibility * u;
  return line;
}

double SideBiasShare(const AgentState& self, const AgentState& other, double fade) {
  if (fade <= 0.0) return 1.0;
  const Vec2d closing = self.pref_velocity - other.pref_velocity;
  const double closing_speed = std::hypot(closing.x, closing.y);
  const double self_speed = std::hypot(self.pref_velocity.x, self.pref_velocity.y);
  if (closing_speed <= 1e-6 * self_speed) return 1.0;
  const Vec2d along = (1.0 / closing_speed) * closing;
  const Vec2d offset = other.position - self.position;
  if (Dot(offset, along) <= 0.0) return 0.0;
  const double other_speed = std::hypot(other.pref_velocity.x, other.pref_velocity.y);
  const bool oncoming = other_speed == 0.0 || Dot(self.pref_velocity, other.pref_velocity) <
                                                  -0.7 * self_speed * other_speed;
  const double reach = (oncoming ? 0.25 * fade : fade) * (self.radius + other.radius);
  const double to_the_right = std::max(0.0, -Det(along, offset));
  return std::max(0.0, 1.0 - to_the_right / reach);
}

}  // namespace throng::reference::detail
