// The reference's obstacles: RVO2's vertex records (RVOSimulator::addObstacle), the edges
// an agent considers, and RVO2 2.0's obstacle line for one edge, in double precision.
#include <algorithm>
#include <cassert>
#include <utility>

#include "kernels/reference/orca_ref_geometry.h"

namespace throng::reference::detail {

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
                     const AgentState& self, double tau_obst, bool corner_lines,
                     std::vector<Line>* lines) {
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
  // the cut-off line. Which leg, seen so, runs back along this very edge (the right one
  // from its first vertex, the left one from its second): docs/ORCA.md, "Corner lines".
  Vec2d left_leg;
  Vec2d right_leg;
  enum class AlongEdge { kNeither, kLeftLeg, kRightLeg };
  AlongEdge along_edge = AlongEdge::kNeither;
  if (s < 0.0 && dist_sq_line <= radius_sq) {
    if (!vertices[v1].convex) return;
    along_edge = AlongEdge::kRightLeg;
    v2 = v1;
    const double leg1 = std::sqrt(dist_sq1 - radius_sq);
    left_leg = Divide({rel1.x * leg1 - rel1.y * radius, rel1.x * radius + rel1.y * leg1}, dist_sq1);
    right_leg =
        Divide({rel1.x * leg1 + rel1.y * radius, -rel1.x * radius + rel1.y * leg1}, dist_sq1);
  } else if (s > 1.0 && dist_sq_line <= radius_sq) {
    if (!vertices[v2].convex) return;
    along_edge = AlongEdge::kLeftLeg;
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
    // A foreign leg is the neighbouring edge's to line; seen end-on, that edge is this one.
    if (!left_leg_foreign || (corner_lines && along_edge == AlongEdge::kLeftLeg)) {
      lines->push_back(offset_line(left_cutoff, left_leg));
    }
  } else {
    if (!right_leg_foreign || (corner_lines && along_edge == AlongEdge::kRightLeg)) {
      lines->push_back(offset_line(right_cutoff, -right_leg));
    }
  }
}

}  // namespace throng::reference::detail
