// Scene builders and checks shared by the tests of the independent ORCA reference
// (tests/reference/orca_ref_*_test.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <vector>

#include "kernels/reference/orca_ref.h"

namespace throng::reference::orca_ref_test {

using lp::Det;
using lp::Line;
using lp::Vec2d;

struct AgentSpec {
  uint32_t id = 0;
  float px = 0.f, py = 0.f;
  float vx = 0.f, vy = 0.f;
  float radius = 0.5f;
  float max_speed = 2.f;
  float pref_vx = 0.f, pref_vy = 0.f;
  uint8_t flags = 0;
};

// AgentColumns::Resize is not needed: columns grow one value at a time.
inline void AddAgent(OrcaScene* scene, const AgentSpec& a) {
  AgentColumns& c = scene->agents;
  c.id.push_back(a.id);
  c.px.push_back(a.px);
  c.py.push_back(a.py);
  c.vx.push_back(a.vx);
  c.vy.push_back(a.vy);
  c.radius.push_back(a.radius);
  c.max_speed.push_back(a.max_speed);
  c.pref_vx.push_back(a.pref_vx);
  c.pref_vy.push_back(a.pref_vy);
  c.flags.push_back(a.flags);
}

// How far v lies outside the line (> 0: violated).
inline double Violation(const Line& line, Vec2d v) { return Det(line.direction, line.point - v); }

inline uint64_t StatusSum(const OrcaResult& r) {
  return r.status_count[0] + r.status_count[1] + r.status_count[2];
}

// docs/ALGORITHMS.md §5's plain order: LP2, safe stop, LP3, and nothing else (docs/ORCA.md).
// Every rule off as PlainRvo2Params turns them off (one list), the fallback left as it was.
inline void MakePlain(OrcaScene* scene) {
  const bool rvo2_fallback = scene->params.rvo2_fallback;
  scene->params = PlainRvo2Params(scene->params);
  scene->params.rvo2_fallback = rvo2_fallback;
}

constexpr uint8_t Status(SolveStatus s) { return static_cast<uint8_t>(s); }

// The result's counters agree with its per-agent columns.
inline void ExpectCountsConsistent(const OrcaResult& r) {
  OrcaResult recount = r;
  recount.CountStatuses();
  for (int k = 0; k < kSolveStatusCount; ++k) EXPECT_EQ(r.status_count[k], recount.status_count[k]);
  EXPECT_EQ(r.shortened_horizon, recount.shortened_horizon);
  EXPECT_EQ(r.revalidated, recount.revalidated);
  EXPECT_EQ(r.revalidation_adopted, recount.revalidation_adopted);
  EXPECT_EQ(r.jam_steps, recount.jam_steps);
  EXPECT_EQ(StatusSum(r), r.status.size());
  EXPECT_EQ(r.solve_flags.size(), r.status.size());
}

// Centres 4 m apart, radii 0.5, closing at 2 m/s (1 m/s each): contact after 1.5 s.
// Plain order (the worked examples are docs/ALGORITHMS.md §5's); tests switch rules on.
inline OrcaScene HeadOnPair(float tau, uint8_t flags_b = 0) {
  OrcaScene scene;
  MakePlain(&scene);
  scene.params.time_horizon = tau;
  AddAgent(&scene, {.id = 0, .px = 0.f, .vx = 1.f, .pref_vx = 1.f});
  AddAgent(&scene, {.id = 1, .px = 4.f, .vx = -1.f, .pref_vx = -1.f, .flags = flags_b});
  return scene;
}

}  // namespace throng::reference::orca_ref_test
