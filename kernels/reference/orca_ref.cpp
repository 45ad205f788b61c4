// Independent double-precision ORCA reference; see orca_ref.h and docs/ORCA.md.
// The geometry follows RVO2 2.0 (Agent.cpp computeNewVelocity, linearProgram1/2/3;
// RVOSimulator::addObstacle) written afresh; deviations are the ones docs/ORCA.md fixes.
#include "kernels/reference/orca_ref.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>

namespace throng::reference {
namespace lp {

bool LinearProgram1(const std::vector<Line>& lines, size_t line_no, double radius,
                    Vec2d opt_velocity, bool direction_opt, Vec2d* result) {
  const Line& line = lines[line_no];
  const double dot_product = Dot(line.point, line.direction);
  const double discriminant =
      dot_product * dot_product + radius * radius - Dot(line.point, line.point);
  if (discriminant < 0.0) return false;  // the speed disc misses line line_no entirely

  const double sqrt_discriminant = std::sqrt(discriminant);
  double t_left = -dot_product - sqrt_discriminant;
  double t_right = -dot_product + sqrt_discriminant;

  for (size_t i = 0; i < line_no; ++i) {
    const double denominator = Det(line.direction, lines[i].direction);
    const double numerator = Det(lines[i].direction, line.point - lines[i].point);
    if (std::fabs(denominator) <= kEpsilon) {
      // Lines line_no and i are (almost) parallel: either i excludes all of line_no or
      // none of it.
      if (numerator < 0.0) return false;
      continue;
    }
    const double t = numerator / denominator;
    if (denominator >= 0.0) {
      t_right = std::min(t_right, t);  // line i bounds line line_no on the right
    } else {
      t_left = std::max(t_left, t);  // line i bounds line line_no on the left
    }
    if (t_left > t_right) return false;
  }

  if (direction_opt) {
    const double t = Dot(opt_velocity, line.direction) > 0.0 ? t_right : t_left;
    *result = line.point + t * line.direction;
  } else {
    // Closest point of the feasible segment to opt_velocity.
    const double t = std::clamp(Dot(line.direction, opt_velocity - line.point), t_left, t_right);
    *result = line.point + t * line.direction;
  }
  return true;
}

size_t LinearProgram2(const std::vector<Line>& lines, double radius, Vec2d opt_velocity,
                      bool direction_opt, Vec2d* result) {
  if (direction_opt) {
    *result = radius * opt_velocity;  // opt_velocity is a unit direction here
  } else if (Dot(opt_velocity, opt_velocity) > radius * radius) {
    *result = (radius / std::sqrt(Dot(opt_velocity, opt_velocity))) * opt_velocity;
  } else {
    *result = opt_velocity;
  }

  for (size_t i = 0; i < lines.size(); ++i) {
    if (Det(lines[i].direction, lines[i].point - *result) > 0.0) {
      // The optimum so far violates line i: the new optimum lies on line i.
      const Vec2d previous = *result;
      if (!LinearProgram1(lines, i, radius, opt_velocity, direction_opt, result)) {
        *result = previous;
        return i;
      }
    }
  }
  return lines.size();
}

void LinearProgram3(const std::vector<Line>& lines, size_t num_obstacle_lines, size_t begin_line,
                    double radius, Vec2d* result) {
  double distance = 0.0;  // largest violation of the agent lines so far
  for (size_t i = begin_line; i < lines.size(); ++i) {
    if (Det(lines[i].direction, lines[i].point - *result) <= distance) continue;

    // Line i is violated more than the current worst: solve, over the obstacle lines and
    // the bisectors of line i with each earlier agent line, for the point that goes
    // furthest into line i's allowed side.
    std::vector<Line> projected(lines.begin(),
                                lines.begin() + static_cast<std::ptrdiff_t>(num_obstacle_lines));
    for (size_t j = num_obstacle_lines; j < i; ++j) {
      Line bisector;
      const double determinant = Det(lines[i].direction, lines[j].direction);
      if (std::fabs(determinant) <= kEpsilon) {
        if (Dot(lines[i].direction, lines[j].direction) > 0.0) continue;  // same direction
        bisector.point = 0.5 * (lines[i].point + lines[j].point);         // opposite
      } else {
        bisector.point = lines[i].point +
                         (Det(lines[j].direction, lines[i].point - lines[j].point) / determinant) *
                             lines[i].direction;
      }
      const Vec2d d = lines[j].direction - lines[i].direction;
      bisector.direction = (1.0 / std::sqrt(Dot(d, d))) * d;
      projected.push_back(bisector);
    }

    const Vec2d previous = *result;
    const Vec2d inward = {-lines[i].direction.y, lines[i].direction.x};
    if (LinearProgram2(projected, radius, inward, true, result) < projected.size()) {
      // In exact arithmetic impossible (previous is feasible here); keep previous.
      *result = previous;
    }
    distance = Det(lines[i].direction, lines[i].point - *result);
  }
}

}  // namespace lp

namespace {

using lp::Det;
using lp::Dot;
using lp::Line;
using lp::Vec2d;

// Tolerance of the safe-stop test: v = 0 may violate a hard line by this much (m/s).
constexpr double kSafeStopTolerance = 1e-5;

double AbsSq(Vec2d a) { return Dot(a, a); }
Vec2d Divide(Vec2d a, double s) { return {a.x / s, a.y / s}; }
Vec2d Normalize(Vec2d a) { return Divide(a, std::sqrt(AbsSq(a))); }
Vec2d ToDouble(Vec2 a) { return {a.x, a.y}; }

// RVO2's leftOf: > 0 when c lies left of the directed line a -> b.
double LeftOf(Vec2d a, Vec2d b, Vec2d c) { return Det(a - c, b - a); }

double DistSqPointSegment(Vec2d a, Vec2d b, Vec2d c) {
  const double r = Dot(c - a, b - a) / AbsSq(b - a);
  if (r < 0.0) return AbsSq(c - a);
  if (r > 1.0) return AbsSq(c - b);
  return AbsSq(c - (a + r * (b - a)));
}

// One obstacle vertex with RVO2's per-vertex data; vertex k starts edge k.
struct ObstacleVertex {
  Vec2d point;
  Vec2d unit_dir;  // towards next
  bool convex = true;
  size_t next = 0;
  size_t prev = 0;
};

// As RVOSimulator::addObstacle, polygon after polygon in input order.
std::vector<ObstacleVertex> BuildObstacleVertices(const std::vector<Polygon>& polygons) {
  std::vector<ObstacleVertex> out;
  for (const Polygon& polygon : polygons) {
    const size_t n = polygon.vertices.size();
    assert(n >= 2);
    const size_t base = out.size();
    for (size_t i = 0; i < n; ++i) {
      const size_t next = (i + 1) % n;
      const size_t prev = (i + n - 1) % n;
      ObstacleVertex v;
      v.point = ToDouble(polygon.vertices[i]);
      v.unit_dir = Normalize(ToDouble(polygon.vertices[next]) - v.point);
      // A two-vertex wall blocks from both sides, so both ends count as convex.
      v.convex = n == 2 || LeftOf(ToDouble(polygon.vertices[prev]), v.point,
                                  ToDouble(polygon.vertices[next])) >= 0.0;
      v.next = base + next;
      v.prev = base + prev;
      out.push_back(v);
    }
  }
  return out;
}

// The snapshot of one agent, widened to double.
struct AgentState {
  Vec2d position;
  Vec2d velocity;
  Vec2d pref_velocity;
  double radius = 0.0;
  double max_speed = 0.0;
  uint32_t id = 0;
  bool non_cooperative = false;
};

AgentState ReadAgent(const AgentColumns& a, size_t i) {
  AgentState s;
  s.position = {a.px[i], a.py[i]};
  s.velocity = {a.vx[i], a.vy[i]};
  s.pref_velocity = {a.pref_vx[i], a.pref_vy[i]};
  s.radius = a.radius[i];
  s.max_speed = a.max_speed[i];
  s.id = a.id[i];
  s.non_cooperative = (a.flags[i] & kAgentNonCooperative) != 0;
  return s;
}

// Edges agent `self` considers, ordered by (squared distance, edge index), capped.
std::vector<size_t> SelectObstacleEdges(const std::vector<ObstacleVertex>& vertices,
                                        const AgentState& self, double tau_obst) {
  const double range = tau_obst * self.max_speed + self.radius;
  const double range_sq = range * range;
  std::vector<std::pair<double, size_t>> edges;
  for (size_t k = 0; k < vertices.size(); ++k) {
    const Vec2d p1 = vertices[k].point;
    const Vec2d p2 = vertices[vertices[k].next].point;
    // Only the outside (right) of an edge of a counter-clockwise polygon sees it.
    if (Det(p2 - p1, self.position - p1) >= 0.0) continue;
    const double dist_sq = DistSqPointSegment(p1, p2, self.position);
    if (dist_sq < range_sq) edges.emplace_back(dist_sq, k);
  }
  std::sort(edges.begin(), edges.end());  // pairs compare (distance, index): deterministic
  if (edges.size() > static_cast<size_t>(kMaxObstacleLinesLimit)) {
    edges.resize(kMaxObstacleLinesLimit);
  }
  std::vector<size_t> out;
  out.reserve(edges.size());
  for (const auto& e : edges) out.push_back(e.second);
  return out;
}

// RVO2 2.0's obstacle part for one edge; appends at most one line.
void AddObstacleLine(const std::vector<ObstacleVertex>& vertices, size_t edge,
                     const AgentState& self, double tau_obst, std::vector<Line>* lines) {
  const double inv_tau = 1.0 / tau_obst;
  const double radius = self.radius;
  const double radius_sq = radius * radius;
  size_t v1 = edge;
  size_t v2 = vertices[edge].next;
  const Vec2d rel1 = vertices[v1].point - self.position;
  const Vec2d rel2 = vertices[v2].point - self.position;

  // Skip the edge when an earlier obstacle line already excludes its whole velocity
  // obstacle (both cut-off discs lie beyond that line).
  for (const Line& line : *lines) {
    if (Det(inv_tau * rel1 - line.point, line.direction) - inv_tau * radius >= -lp::kEpsilon &&
        Det(inv_tau * rel2 - line.point, line.direction) - inv_tau * radius >= -lp::kEpsilon) {
      return;
    }
  }

  const double dist_sq1 = AbsSq(rel1);
  const double dist_sq2 = AbsSq(rel2);
  const Vec2d obstacle_vector = vertices[v2].point - vertices[v1].point;
  const double s = Dot(-rel1, obstacle_vector) / AbsSq(obstacle_vector);
  const double dist_sq_line = AbsSq(-rel1 - s * obstacle_vector);

  // Already overlapping: forbid moving further in (the line passes through v = 0).
  if (s < 0.0 && dist_sq1 <= radius_sq) {
    if (vertices[v1].convex) {
      lines->push_back({{0.0, 0.0}, Normalize({-rel1.y, rel1.x})});
    }
    return;
  }
  if (s > 1.0 && dist_sq2 <= radius_sq) {
    // The right vertex; left to the next edge unless this edge faces the agent there.
    if (vertices[v2].convex && Det(rel2, vertices[v2].unit_dir) >= 0.0) {
      lines->push_back({{0.0, 0.0}, Normalize({-rel2.y, rel2.x})});
    }
    return;
  }
  if (s >= 0.0 && s <= 1.0 && dist_sq_line <= radius_sq) {
    lines->push_back({{0.0, 0.0}, -vertices[v1].unit_dir});
    return;
  }

  // No collision: the velocity obstacle is bounded by two legs and a cut-off. Seen
  // obliquely, both legs come from one vertex; at a non-convex vertex the leg extends
  // the cut-off line.
  Vec2d left_leg;
  Vec2d right_leg;
  if (s < 0.0 && dist_sq_line <= radius_sq) {
    if (!vertices[v1].convex) return;
    v2 = v1;
    const double leg1 = std::sqrt(dist_sq1 - radius_sq);
    left_leg = Divide({rel1.x * leg1 - rel1.y * radius, rel1.x * radius + rel1.y * leg1}, dist_sq1);
    right_leg =
        Divide({rel1.x * leg1 + rel1.y * radius, -rel1.x * radius + rel1.y * leg1}, dist_sq1);
  } else if (s > 1.0 && dist_sq_line <= radius_sq) {
    if (!vertices[v2].convex) return;
    v1 = v2;
    const double leg2 = std::sqrt(dist_sq2 - radius_sq);
    left_leg = Divide({rel2.x * leg2 - rel2.y * radius, rel2.x * radius + rel2.y * leg2}, dist_sq2);
    right_leg =
        Divide({rel2.x * leg2 + rel2.y * radius, -rel2.x * radius + rel2.y * leg2}, dist_sq2);
  } else {
    if (vertices[v1].convex) {
      const double leg1 = std::sqrt(dist_sq1 - radius_sq);
      left_leg =
          Divide({rel1.x * leg1 - rel1.y * radius, rel1.x * radius + rel1.y * leg1}, dist_sq1);
    } else {
      left_leg = -vertices[v1].unit_dir;
    }
    if (vertices[v2].convex) {
      const double leg2 = std::sqrt(dist_sq2 - radius_sq);
      right_leg =
          Divide({rel2.x * leg2 + rel2.y * radius, -rel2.x * radius + rel2.y * leg2}, dist_sq2);
    } else {
      right_leg = vertices[v1].unit_dir;
    }
  }

  // A leg may not point into the neighbouring edge at a convex vertex; use that edge's
  // direction instead, and add no line if the velocity projects onto such a foreign leg.
  const ObstacleVertex& left_neighbor = vertices[vertices[v1].prev];
  bool left_leg_foreign = false;
  bool right_leg_foreign = false;
  if (vertices[v1].convex && Det(left_leg, -left_neighbor.unit_dir) >= 0.0) {
    left_leg = -left_neighbor.unit_dir;
    left_leg_foreign = true;
  }
  if (vertices[v2].convex && Det(right_leg, vertices[v2].unit_dir) <= 0.0) {
    right_leg = vertices[v2].unit_dir;
    right_leg_foreign = true;
  }

  const Vec2d left_cutoff = inv_tau * (vertices[v1].point - self.position);
  const Vec2d right_cutoff = inv_tau * (vertices[v2].point - self.position);
  const Vec2d cutoff_vec = right_cutoff - left_cutoff;
  const bool one_vertex = v1 == v2;
  const Vec2d velocity = self.velocity;

  // Where the current velocity projects: cut-off discs, cut-off segment, or legs.
  const double t = one_vertex ? 0.5 : Dot(velocity - left_cutoff, cutoff_vec) / AbsSq(cutoff_vec);
  const double t_left = Dot(velocity - left_cutoff, left_leg);
  const double t_right = Dot(velocity - right_cutoff, right_leg);

  if ((t < 0.0 && t_left < 0.0) || (one_vertex && t_left < 0.0 && t_right < 0.0)) {
    const Vec2d unit_w = Normalize(velocity - left_cutoff);
    lines->push_back({left_cutoff + radius * inv_tau * unit_w, {unit_w.y, -unit_w.x}});
    return;
  }
  if (t > 1.0 && t_right < 0.0) {
    const Vec2d unit_w = Normalize(velocity - right_cutoff);
    lines->push_back({right_cutoff + radius * inv_tau * unit_w, {unit_w.y, -unit_w.x}});
    return;
  }

  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double dist_sq_cutoff =
      (t < 0.0 || t > 1.0 || one_vertex) ? kInf : AbsSq(velocity - (left_cutoff + t * cutoff_vec));
  const double dist_sq_left =
      t_left < 0.0 ? kInf : AbsSq(velocity - (left_cutoff + t_left * left_leg));
  const double dist_sq_right =
      t_right < 0.0 ? kInf : AbsSq(velocity - (right_cutoff + t_right * right_leg));

  // The line is offset outward by radius / tau_obst from the leg or cut-off segment.
  auto offset_line = [&](Vec2d base, Vec2d direction) {
    return Line{base + radius * inv_tau * Vec2d{-direction.y, direction.x}, direction};
  };
  if (dist_sq_cutoff <= dist_sq_left && dist_sq_cutoff <= dist_sq_right) {
    lines->push_back(offset_line(left_cutoff, -vertices[v1].unit_dir));
  } else if (dist_sq_left <= dist_sq_right) {
    if (!left_leg_foreign) lines->push_back(offset_line(left_cutoff, left_leg));
  } else {
    if (!right_leg_foreign) lines->push_back(offset_line(right_cutoff, -right_leg));
  }
}

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

// docs/ORCA.md's conflict and infeasibility knobs as one solve uses them.
struct SolveRules {
  bool ordered = true;  // false: the RVO2 baseline (silent LP3, status ok)
  double side_bias = 0.0;
  double side_bias_fade = 0.0;
  double contact_margin_ratio = 0.0;
  bool shorten_horizon = false;
  bool overlap_is_hard = false;
  bool revalidate = false;
  int revalidate_passes = 1;
  bool revalidate_fallback = false;
};

SolveRules RulesFor(const OrcaParams& params, const OrcaOptions& options) {
  SolveRules rules;
  if (options.fallback == Fallback::kPlainRvo2) {
    rules.ordered = false;  // everything else plain
    return rules;
  }
  rules.side_bias = params.side_bias;
  rules.side_bias_fade = params.side_bias_fade;
  rules.contact_margin_ratio = params.contact_margin_ratio;
  rules.shorten_horizon = params.shorten_horizon;
  rules.overlap_is_hard = params.overlap_is_hard;
  rules.revalidate = params.revalidate;
  rules.revalidate_passes = params.revalidate_passes;
  rules.revalidate_fallback = params.revalidate_fallback;
  return rules;
}

// What one agent's solves share, whatever the horizon and the pass: the agent, its
// obstacle lines (tau_obst) and its kept neighbours (chosen with the full tau).
struct AgentSetup {
  AgentState self;
  std::vector<Line> obstacle_lines;
  size_t candidate_count = 0;
  std::vector<size_t> neighbors;  // agent indices, closest first
};

AgentSetup SetUpAgent(const OrcaScene& scene, const std::vector<ObstacleVertex>& vertices,
                      size_t agent) {
  AgentSetup setup;
  const AgentColumns& agents = scene.agents;
  const OrcaParams& params = scene.params;
  setup.self = ReadAgent(agents, agent);
  if (setup.self.non_cooperative) return setup;
  const AgentState& self = setup.self;

  const double tau_obst = params.time_horizon_obst;
  for (size_t edge : SelectObstacleEdges(vertices, self, tau_obst)) {
    AddObstacleLine(vertices, edge, self, tau_obst, &setup.obstacle_lines);
  }

  // Conservative candidates: no contact within tau is possible beyond this radius.
  const double tau = params.time_horizon;
  const double cap = params.neighbor_dist;
  // (tier, dist_sq, id, index); tier 0: non-cooperative neighbours are kept first.
  std::vector<std::tuple<int, double, uint32_t, size_t>> candidates;
  for (size_t j = 0; j < agents.size(); ++j) {
    if (j == agent) continue;
    const double dx = static_cast<double>(agents.px[j]) - self.position.x;
    const double dy = static_cast<double>(agents.py[j]) - self.position.y;
    const double dist_sq = dx * dx + dy * dy;
    const double reach = self.radius + static_cast<double>(agents.radius[j]) +
                         (self.max_speed + static_cast<double>(agents.max_speed[j])) * tau;
    if (dist_sq > reach * reach) continue;
    if (cap > 0.0 && dist_sq > cap * cap) continue;
    const int tier = (agents.flags[j] & kAgentNonCooperative) ? 0 : 1;
    candidates.emplace_back(tier, dist_sq, agents.id[j], j);
  }
  setup.candidate_count = candidates.size();
  std::sort(candidates.begin(), candidates.end());  // closest first, ties by id
  const size_t keep = std::min(candidates.size(), static_cast<size_t>(params.max_neighbors));
  for (size_t k = 0; k < keep; ++k) setup.neighbors.push_back(std::get<3>(candidates[k]));
  return setup;
}

// The lines of one solve: obstacle lines, then one agent line per kept neighbour at
// horizon agent_tau. previous (repair passes only): a neighbour whose status there is not
// ok is treated as non-cooperative, moving at its velocity there.
AgentProblem MakeProblem(const OrcaScene& scene, const AgentSetup& setup, double agent_tau,
                         double margin_ratio, const OrcaResult* previous) {
  AgentProblem problem;
  if (setup.self.non_cooperative) return problem;
  problem.lines = setup.obstacle_lines;
  problem.obstacle_line_count = problem.lines.size();
  problem.hard.assign(problem.lines.size(), true);
  problem.overlapping.assign(problem.lines.size(), false);
  problem.candidate_count = setup.candidate_count;
  problem.neighbors = setup.neighbors;
  const double time_step = scene.params.time_step;
  for (size_t j : setup.neighbors) {
    AgentState other = ReadAgent(scene.agents, j);
    if (previous != nullptr && previous->status[j] != static_cast<uint8_t>(SolveStatus::kOk)) {
      other.non_cooperative = true;
      other.velocity = {previous->vx[j], previous->vy[j]};
    }
    bool overlapping = false;
    problem.lines.push_back(
        AgentLine(setup.self, other, time_step, agent_tau, margin_ratio, &overlapping));
    problem.hard.push_back(other.non_cooperative);
    problem.overlapping.push_back(overlapping);
  }
  return problem;
}

uint16_t SaturateU16(size_t n) {
  return static_cast<uint16_t>(std::min<size_t>(n, std::numeric_limits<uint16_t>::max()));
}

}  // namespace

AgentProblem BuildProblem(const OrcaScene& scene, size_t agent) {
  const AgentSetup setup = SetUpAgent(scene, BuildObstacleVertices(scene.obstacles), agent);
  return MakeProblem(scene, setup, scene.params.time_horizon, scene.params.contact_margin_ratio,
                     nullptr);
}

std::vector<lp::Line> BuildLines(const OrcaScene& scene, size_t agent,
                                 size_t* obstacle_line_count) {
  AgentProblem problem = BuildProblem(scene, agent);
  if (obstacle_line_count != nullptr) *obstacle_line_count = problem.obstacle_line_count;
  return std::move(problem.lines);
}

namespace {

// docs/ORCA.md, step 0, "Passing side": how much of side_bias a conflicting neighbour asks
// for. Measured along the two agents' preferred closing direction: nothing if they would
// not close, everything if the neighbour is on the agent's left of that path (or on it),
// less the further right it is, down to nothing at `fade` combined radii (a quarter of
// that when the neighbour comes the other way or stands); everything when both prefer the
// same velocity or the fade is off.
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

struct AgentSolution {
  Vec2d velocity;
  SolveStatus status = SolveStatus::kOk;
  uint8_t flags = 0;          // SolveFlag bits of this solve (kSolveShortenedHorizon)
  bool lp2_succeeded = true;  // at tau or at a shortened horizon
  double horizon = 0.0;       // agent-line horizon of the problem the velocity came from
  bool target_biased = false;
};

// One agent's solve, docs/ORCA.md "Solve and infeasibility": pass 1 when previous is
// null, else a repair pass against previous's non-ok neighbours. feasible_only stops after
// steps 0-2 (the caller keeps its earlier result when no LP2 succeeds).
AgentSolution SolveAgent(const OrcaScene& scene, const AgentSetup& setup, const SolveRules& rules,
                         const OrcaResult* previous, bool feasible_only, SolveDiagnostics* diag) {
  const OrcaParams& params = scene.params;
  const AgentState& self = setup.self;
  const double tau = params.time_horizon;
  const double time_step = params.time_step;
  AgentSolution out;
  out.horizon = tau;
  const AgentProblem problem = MakeProblem(scene, setup, tau, rules.contact_margin_ratio, previous);

  // Step 0: the target. v_pref, turned clockwise by side_bias times the largest share
  // any neighbour whose agent line of the full-tau problem v_pref breaks asks for
  // (obstacle lines do not count).
  Vec2d target = self.pref_velocity;
  if (rules.side_bias != 0.0) {
    double share = 0.0;
    for (size_t k = problem.obstacle_line_count; k < problem.lines.size(); ++k) {
      const Line& line = problem.lines[k];
      if (Det(line.direction, line.point - self.pref_velocity) > 0.0) {
        const size_t j = setup.neighbors[k - problem.obstacle_line_count];
        share =
            std::max(share, SideBiasShare(self, ReadAgent(scene.agents, j), rules.side_bias_fade));
      }
    }
    out.target_biased = share > 0.0;
    if (out.target_biased) {
      const double c = std::cos(rules.side_bias * share);
      const double s = std::sin(rules.side_bias * share);
      target = {c * target.x + s * target.y, -s * target.x + c * target.y};
    }
  }

  // Step 1: LP2 at tau.
  if (diag != nullptr) {
    ++diag->lp2_solves;
    if (previous != nullptr) ++diag->pass_two_lp2_solves;
  }
  size_t failed = lp::LinearProgram2(problem.lines, self.max_speed, target, false, &out.velocity);
  if (failed == problem.lines.size()) return out;  // ok

  // Step 2: shorter horizons tau_k = max(tau / 2^k, time_step), while the previous one
  // was longer than time_step; only the agent lines change.
  const AgentProblem* last = &problem;  // the problem of the last LP2 (LP3 starts there)
  AgentProblem shortened;
  if (rules.shorten_horizon) {
    double tau_k = tau;
    while (tau_k > time_step) {
      tau_k = std::max(0.5 * tau_k, time_step);
      shortened = MakeProblem(scene, setup, tau_k, rules.contact_margin_ratio, previous);
      if (diag != nullptr) {
        ++diag->shortened_lp2_solves;
        if (previous != nullptr) ++diag->pass_two_lp2_solves;
      }
      Vec2d velocity;
      const size_t f =
          lp::LinearProgram2(shortened.lines, self.max_speed, target, false, &velocity);
      out.velocity = velocity;  // the optimum, or LP2's partial one (LP3's start)
      out.horizon = tau_k;
      if (f == shortened.lines.size()) {
        out.flags = kSolveShortenedHorizon;
        return out;  // ok at a shorter horizon
      }
      failed = f;
      last = &shortened;
    }
  }
  out.lp2_succeeded = false;
  if (feasible_only) return out;

  // Step 3: safe stop iff v = 0 meets every hard line of the full-tau problem.
  bool stop_is_safe = rules.ordered;
  for (size_t k = 0; stop_is_safe && k < problem.lines.size(); ++k) {
    const Line& line = problem.lines[k];
    const bool hard = problem.hard[k] || (rules.overlap_is_hard && problem.overlapping[k]);
    // v = 0 is allowed by this line iff Det(direction, point - 0) <= 0.
    if (hard && Det(line.direction, line.point) > kSafeStopTolerance) stop_is_safe = false;
  }
  if (stop_is_safe) {
    out.velocity = {0.0, 0.0};
    out.status = SolveStatus::kSafeStop;
    return out;
  }

  // Step 4: LP3 on the last problem's lines, from that LP2's failure and partial result.
  if (diag != nullptr) ++diag->lp3_solves;
  lp::LinearProgram3(last->lines, last->obstacle_line_count, failed, self.max_speed, &out.velocity);
  // The RVO2 baseline hides the failure; the ordered handling reports it.
  out.status = rules.ordered ? SolveStatus::kEmergency : SolveStatus::kOk;
  return out;
}

void StoreVelocity(const AgentSolution& s, size_t i, OrcaResult* result, SolveDiagnostics* diag) {
  result->vx[i] = static_cast<float>(s.velocity.x);
  result->vy[i] = static_cast<float>(s.velocity.y);
  result->status[i] = static_cast<uint8_t>(s.status);
  if (diag != nullptr) {
    diag->horizon[i] = s.horizon;
    diag->target_biased[i] = s.target_biased;
  }
}

}  // namespace

OrcaResult SolveOrca(const OrcaScene& scene, const OrcaOptions& options,
                     SolveDiagnostics* diagnostics) {
  const AgentColumns& agents = scene.agents;
  const size_t n = agents.size();
  assert(scene.params.max_neighbors >= 1 && scene.params.max_neighbors <= kMaxNeighborsLimit);
  const std::vector<ObstacleVertex> vertices = BuildObstacleVertices(scene.obstacles);
  const SolveRules rules = RulesFor(scene.params, options);

  OrcaResult result;
  result.vx.assign(n, 0.f);
  result.vy.assign(n, 0.f);
  result.status.assign(n, static_cast<uint8_t>(SolveStatus::kOk));
  result.candidates.assign(n, 0);
  result.neighbors.assign(n, 0);
  result.constraints.assign(n, 0);
  result.solve_flags.assign(n, 0);
  if (diagnostics != nullptr) {
    diagnostics->horizon.assign(n, 0.0);
    diagnostics->target_biased.assign(n, false);
  }

  // Pass 1.
  std::vector<AgentSetup> setups(n);
  for (size_t i = 0; i < n; ++i) {
    if (i % 256 == 0) ThrowIfStopRequested(options.stop, "orca");
    if ((agents.flags[i] & kAgentNonCooperative) != 0) {
      // Not solved: keeps its input velocity, status ok, no flags, no counted work.
      result.vx[i] = agents.vx[i];
      result.vy[i] = agents.vy[i];
      continue;
    }
    setups[i] = SetUpAgent(scene, vertices, i);
    const AgentSetup& setup = setups[i];
    const AgentSolution s = SolveAgent(scene, setup, rules, nullptr, false, diagnostics);
    StoreVelocity(s, i, &result, diagnostics);
    result.solve_flags[i] = s.flags;
    result.candidates[i] = SaturateU16(setup.candidate_count);
    result.neighbors[i] = SaturateU16(setup.neighbors.size());
    result.constraints[i] = SaturateU16(setup.obstacle_lines.size() + setup.neighbors.size());
  }

  // Repair passes (docs/ORCA.md): each reads only the previous pass's results; counts do
  // not change (same lines, same number). turned[i]: i is not ok in the previous pass's
  // results and was ok before it (after pass 1: not ok).
  const auto ok = static_cast<uint8_t>(SolveStatus::kOk);
  std::vector<bool> turned(n);
  for (size_t i = 0; i < n; ++i) turned[i] = result.status[i] != ok;
  const int passes = rules.revalidate ? rules.revalidate_passes : 0;
  for (int pass = 0; pass < passes; ++pass) {
    if (std::none_of(turned.begin(), turned.end(), [](bool t) { return t; })) break;
    const OrcaResult previous = result;
    std::vector<bool> turned_now(n, false);
    for (size_t i = 0; i < n; ++i) {
      if (i % 256 == 0) ThrowIfStopRequested(options.stop, "orca");
      if ((agents.flags[i] & kAgentNonCooperative) != 0 || previous.status[i] != ok) continue;
      const std::vector<size_t>& kept = setups[i].neighbors;
      if (std::none_of(kept.begin(), kept.end(), [&](size_t j) { return turned[j]; })) continue;
      const AgentSolution s =
          SolveAgent(scene, setups[i], rules, &previous, !rules.revalidate_fallback, diagnostics);
      uint8_t& flags = result.solve_flags[i];
      if (s.lp2_succeeded) {
        StoreVelocity(s, i, &result, diagnostics);  // status ok
        flags = static_cast<uint8_t>((flags & ~kSolveShortenedHorizon) | kSolveRevalidated |
                                     kSolveAdopted | s.flags);
      } else if (rules.revalidate_fallback) {
        StoreVelocity(s, i, &result, diagnostics);  // safe stop or emergency
        flags = static_cast<uint8_t>((flags & ~(kSolveShortenedHorizon | kSolveAdopted)) |
                                     kSolveRevalidated | s.flags);
        turned_now[i] = true;
      } else {
        flags |= kSolveRevalidated;  // keeps its earlier velocity and flags
      }
    }
    turned.swap(turned_now);
  }

  // What a caller is told is finite, and a solved velocity is inside the speed disc: a
  // case beyond either becomes an emergency with a finite velocity (docs/ORCA.md).
  for (size_t i = 0; i < n; ++i) {
    if ((agents.flags[i] & kAgentNonCooperative) != 0) continue;
    const double vx = result.vx[i], vy = result.vy[i];
    const double speed = std::sqrt(vx * vx + vy * vy);
    const double max_speed = agents.max_speed[i];
    if (speed <= max_speed * (1.0 + 1e-4)) continue;  // false for NaN too
    const double scale = std::isfinite(speed) && speed > 0.0 ? max_speed / speed : 0.0;
    const bool finite = std::isfinite(vx) && std::isfinite(vy);
    result.vx[i] = finite ? static_cast<float>(vx * scale) : 0.f;
    result.vy[i] = finite ? static_cast<float>(vy * scale) : 0.f;
    result.status[i] = static_cast<uint8_t>(SolveStatus::kEmergency);
  }

  result.CountStatuses();
  return result;
}

OrcaResult StepScene(OrcaScene& scene, const OrcaOptions& options, SolveDiagnostics* diagnostics) {
  OrcaResult result = SolveOrca(scene, options, diagnostics);
  AgentColumns& agents = scene.agents;
  const double dt = scene.params.time_step;
  // Second phase: every velocity was computed from the same snapshot above.
  for (size_t i = 0; i < agents.size(); ++i) {
    agents.vx[i] = result.vx[i];
    agents.vy[i] = result.vy[i];
    agents.px[i] = static_cast<float>(agents.px[i] + static_cast<double>(agents.vx[i]) * dt);
    agents.py[i] = static_cast<float>(agents.py[i] + static_cast<double>(agents.vy[i]) * dt);
  }
  return result;
}

}  // namespace throng::reference
