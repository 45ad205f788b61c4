// Pieces of the independent ORCA reference (orca_ref.h) that its units share: double
// geometry, the widened agent, RVO2's obstacle vertices, and the lines of one agent.
// Internal to kernels/reference/orca_ref*.cpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/reference/orca_ref.h"

namespace throng::reference::detail {

using lp::Det;
using lp::Dot;
using lp::Line;
using lp::Vec2d;

inline double AbsSq(Vec2d a) { return Dot(a, a); }
inline Vec2d Divide(Vec2d a, double s) { return {a.x / s, a.y / s}; }
inline Vec2d Normalize(Vec2d a) { return Divide(a, std::sqrt(AbsSq(a))); }
inline Vec2d ToDouble(Vec2 a) { return {a.x, a.y}; }

// RVO2's leftOf: > 0 when c lies left of the directed line a -> b.
inline double LeftOf(Vec2d a, Vec2d b, Vec2d c) { return Det(a - c, b - a); }

inline double DistSqPointSegment(Vec2d a, Vec2d b, Vec2d c) {
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

inline AgentState ReadAgent(const AgentColumns& a, size_t i) {
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

// As RVOSimulator::addObstacle, polygon after polygon in input order.
std::vector<ObstacleVertex> BuildObstacleVertices(const std::vector<Polygon>& polygons);

// Edges agent `self` considers, ordered by (squared distance, edge index), capped.
std::vector<size_t> SelectObstacleEdges(const std::vector<ObstacleVertex>& vertices,
                                        const AgentState& self, double tau_obst);

// RVO2 2.0's obstacle part for one edge; appends at most one line. corner_lines
// (OrcaParams): an edge seen end-on lines its own leg, which RVO2 leaves to no edge.
void AddObstacleLine(const std::vector<ObstacleVertex>& vertices, size_t edge,
                     const AgentState& self, double tau_obst, bool corner_lines,
                     std::vector<Line>* lines);

// RVO2's agent line for neighbour `other`, with docs/ORCA.md's responsibility,
// coincident-agent rule and contact margin (the combined radius widened by that fraction
// of itself, also in the collision-branch test). tau: the agent-line horizon (params.time_horizon,
// or a shortened tau_k). *overlapping (if not null) says whether the collision branch was taken.
Line AgentLine(const AgentState& self, const AgentState& other, double time_step, double tau,
               double margin_ratio, bool* overlapping);

// docs/ORCA.md, step 0, "Passing side": how much of side_bias a conflicting neighbour asks
// for. Measured along the two agents' preferred closing direction: nothing if they would
// not close, everything if the neighbour is on the agent's left of that path (or on it),
// less the further right it is, down to nothing at `fade` combined radii (a quarter of
// that when the neighbour comes the other way or stands); everything when both prefer the
// same velocity or the fade is off.
double SideBiasShare(const AgentState& self, const AgentState& other, double fade);

}  // namespace throng::reference::detail
