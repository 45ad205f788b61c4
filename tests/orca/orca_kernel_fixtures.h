// Hand-made lines, agents and parameter sets shared by the tests of the per-agent ORCA
// kernel code compiled for the host (tests/orca/*_kernel_test.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/orca/obstacles.h"
#include "kernels/orca/orca.cuh"
#include "kernels/orca/orca_agent.cuh"
#include "kernels/orca/orca_lp.cuh"

namespace throng::orca_kernel_test {

using orca::AgentState;
using orca::Line;
using orca::NeighborState;
using orca::ObstacleView;
using orca::SolveAgent;
using orca::SolveOutput;

constexpr float kTol = 1e-5f;
inline const ObstacleView kNoObstacles = {};

// Half-planes by hand: "direction (1,0) through (0,c)" allows v.y >= c (left of +x).
inline Line AtLeastY(float c) { return {{0.f, c}, {1.f, 0.f}}; }
inline Line AtMostY(float c) { return {{0.f, c}, {-1.f, 0.f}}; }
inline Line AtLeastX(float c) { return {{c, 0.f}, {0.f, -1.f}}; }

// How far v is outside the line (<= 0 inside).
inline float Violation(const Line& line, Vec2 v) { return Det(line.direction, line.point - v); }

inline OrcaParams Params(float tau, float tau_obst, float time_step) {
  OrcaParams p;
  p.time_horizon = tau;
  p.time_horizon_obst = tau_obst;
  p.time_step = time_step;
  return p;
}

// docs/ALGORITHMS.md §5's plain order (docs/ORCA.md, "Solve and infeasibility"): no side
// preference, no contact margin, no shorter horizons, no overlap hardness, no second pass, no jam
// step, and infeasibility reported as safe_stop / emergency (not RVO2's silent fallback).
// The baseline's rules off (PlainRvo2Params, one list for every rule), without its fallback.
inline OrcaParams PlainParams(OrcaParams p = OrcaParams{}) {
  p = PlainRvo2Params(p);
  p.rvo2_fallback = false;
  return p;
}

inline AgentState Agent(Vec2 p, Vec2 v, Vec2 v_pref, float radius, float max_speed, uint32_t id) {
  return {p, v, v_pref, radius, max_speed, id};
}

// A neighbour walking as it prefers (v_pref = v).
inline NeighborState Neighbor(Vec2 p, Vec2 v, float radius, uint32_t id,
                              bool non_cooperative = false) {
  return {p, v, v, radius, id, non_cooperative};
}

inline bool IsFinite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

inline AgentState HeadOnA(float max_speed = 2.f) {
  return Agent({0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, max_speed, 1);
}
inline NeighborState HeadOnB(bool non_cooperative = false) {
  return Neighbor({4.f, 0.f}, {-1.f, 0.f}, 0.5f, 2, non_cooperative);
}

inline SolveOutput SolveHeadOn(const OrcaParams& params, bool b_non_cooperative,
                               float max_speed = 2.f) {
  const NeighborState b = HeadOnB(b_non_cooperative);
  return SolveAgent(HeadOnA(max_speed), &b, 1, kNoObstacles, params);
}

inline ObstacleVertices Wall(Vec2 from, Vec2 to, int copies = 1) {
  std::vector<Polygon> polygons(static_cast<size_t>(copies), Polygon{{from, to}});
  return BuildObstacleVertices(polygons);
}

// v_pref turned clockwise (to the agent's right) by `angle` rad.
inline Vec2 TurnedRight(Vec2 v, float angle) {
  const float c = std::cos(angle), s = std::sin(angle);
  return {c * v.x + s * v.y, -s * v.x + c * v.y};
}

// The point of `line` closest to `target` (LP2's answer for one violated line, inside the disc).
inline Vec2 ProjectOnLine(const Line& line, Vec2 target) {
  return line.point + Dot(line.direction, target - line.point) * line.direction;
}

// Smallest centre distance over t in [0, horizon] for two agents on straight paths.
inline float MinDistance(Vec2 pa, Vec2 va, Vec2 pb, Vec2 vb, float horizon) {
  float min_dist = 1e9f;
  for (int k = 0; k <= 4000; ++k) {
    const float t = horizon * static_cast<float>(k) / 4000.f;
    min_dist = std::fmin(min_dist, Length((pb + t * vb) - (pa + t * va)));
  }
  return min_dist;
}

}  // namespace throng::orca_kernel_test
