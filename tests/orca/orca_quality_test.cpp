// Behaviour that docs/ALGORITHMS.md §5 says ORCA must show, on the cpu backend and on the
// reference: crowds reach their goals without overlapping, obstacles are never entered,
// and infeasible cases get the right status. Figures are printed for docs/PERFORMANCE.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kernels/backends/backend.h"
#include "kernels/scenarios/crowd.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

struct RunFigures {
  int steps = 0;
  size_t at_goal = 0;
  uint64_t colliding_pair_steps = 0;
  uint64_t deep_pair_steps = 0;  // overlapping by more than 1 cm (issue 41's measure)
  float min_distance_ratio = 1e9f;
  uint64_t statuses[kSolveStatusCount] = {0, 0, 0};
};

RunFigures RunToGoals(Backend& backend, scenarios::CrowdScenario s, int max_steps) {
  RunFigures f;
  backend.SetObstacles(s.scene.obstacles);
  OrcaResult r;
  for (f.steps = 0; f.steps < max_steps; ++f.steps) {
    if (scenarios::AgentsAtGoal(s) == s.goals.size()) break;
    scenarios::UpdatePreferredVelocities(s);
    backend.SolveOrca(s.scene.params, s.scene.agents, {}, &r);
    scenarios::ApplyVelocities(s.scene.agents, r, s.scene.params.time_step);
    const scenarios::OverlapStats o = scenarios::MeasureOverlaps(s.scene.agents);
    f.colliding_pair_steps += o.pairs;
    f.deep_pair_steps += scenarios::MeasureOverlaps(s.scene.agents, 0.01f).pairs;
    f.min_distance_ratio = std::min(f.min_distance_ratio, o.min_distance_ratio);
    for (int k = 0; k < kSolveStatusCount; ++k) f.statuses[k] += r.status_count[k];
  }
  f.at_goal = scenarios::AgentsAtGoal(s);
  return f;
}

void Print(const char* what, BackendKind kind, size_t n, const RunFigures& f) {
  std::printf(
      "[ figures  ] %s, %s, %zu agents: %d steps, %zu at goal, colliding pair-steps %llu "
      "(%llu deeper than 1 cm), closest centre distance %.4f of the radii sum, statuses ok "
      "%llu / safe_stop %llu / emergency %llu\n",
      what, std::string(BackendName(kind)).c_str(), n, f.steps, f.at_goal,
      static_cast<unsigned long long>(f.colliding_pair_steps),
      static_cast<unsigned long long>(f.deep_pair_steps),
      f.min_distance_ratio > 1e8f ? 1.0 : f.min_distance_ratio,
      static_cast<unsigned long long>(f.statuses[0]),
      static_cast<unsigned long long>(f.statuses[1]),
      static_cast<unsigned long long>(f.statuses[2]));
}

class OrcaQualityTest : public ::testing::TestWithParam<BackendKind> {};

// The antipodal circle: every agent crosses the dense centre, and everyone arrives. The
// overlap bound is a regression guard about 2x the measured value: at most 450 colliding
// pair-steps (measured 148 on cpu, 224 on the reference on 2026-12-03, 252 and 264 before
// the passing side; 1,752 before the repair passes
// and the contact margin, 1/60 of the radius sum (0.05 m here); the plain-ORCA baseline makes 1.87
// million and never gets everyone home in 4,500 steps) and no pair ever closer than 0.84 of its
// radii sum (measured 0.854 and 0.851).
TEST_P(OrcaQualityTest, antipodal_circle_of_1000_reaches_goals_without_overlap) {
  auto backend = CreateBackend(GetParam());
  const RunFigures f = RunToGoals(*backend, scenarios::Circle(1000), 6000);
  Print("circle", GetParam(), 1000, f);
  EXPECT_EQ(f.at_goal, 1000u);
  EXPECT_LE(f.colliding_pair_steps, 450u);
  EXPECT_GE(f.min_distance_ratio, 0.84f);
}

// The random scene (issue 9): 1,000 agents at 0.05 agents/m² with goals in the same
// square, 400 steps. Most agents jam (too dense to reach their goals in that time), so
// many solves are infeasible. Issue 41 holds bodies to pair-steps overlapping deeper than
// 1 cm: at most 1/100 of the plain-ORCA baseline's, which this test runs on the same
// backend. Shallower contacts (touching, under 1 cm between 1.5 m agents) are printed and
// bounded only as a regression guard: right of way, on by default since 2026-12-04, brings
// them (docs/ORCA.md, "Right of way").
TEST_P(OrcaQualityTest, random_1000_over_400_steps_has_under_1_percent_of_baseline_contacts) {
  auto backend = CreateBackend(GetParam());
  const RunFigures f = RunToGoals(*backend, scenarios::Random(1000, 1), 400);
  Print("random", GetParam(), 1000, f);
  scenarios::CrowdScenario plain = scenarios::Random(1000, 1);
  plain.scene.params = PlainRvo2Params(plain.scene.params);
  const RunFigures baseline = RunToGoals(*backend, plain, 400);
  Print("random, plain ORCA", GetParam(), 1000, baseline);
  EXPECT_EQ(f.steps, 400);
  EXPECT_GT(baseline.deep_pair_steps, 10000u);  // the baseline does jam deep
  EXPECT_LE(f.deep_pair_steps * 100, baseline.deep_pair_steps);
  // Regression guards, about 2x the measured (2026-12-04): deeper than 1 cm, 30 on cpu and
  // 1 on the reference, where plain ORCA has 106,450 and 118,380; at any depth 3,755 and
  // 4,984 (3 and 1 with right of way off; the repair passes alone gave 450, the contact
  // margin alone 1,147).
  EXPECT_LE(f.deep_pair_steps, 60u);
  EXPECT_LE(f.colliding_pair_steps, 10000u);
}

// Walls and a pillar between agents and their goals: nobody ever enters an obstacle.
TEST_P(OrcaQualityTest, agents_around_obstacles_never_enter_them) {
  auto backend = CreateBackend(GetParam());
  scenarios::CrowdScenario s;
  s.scene.params = scenarios::Rvo2BenchmarkParams();
  s.scene.params.time_horizon = 5.f;
  s.scene.params.time_horizon_obst = 2.f;
  // A square pillar in the middle and a funnel of two walls that the outer rows walk
  // into at an angle (ORCA plans no routes: walls across a path would trap anyone).
  s.scene.obstacles.push_back({{{-4, -4}, {4, -4}, {4, 4}, {-4, 4}}});
  s.scene.obstacles.push_back({{{0, 18}, {20, 10}}});
  s.scene.obstacles.push_back({{{20, -10}, {0, -18}}});
  AgentColumns& a = s.scene.agents;
  uint32_t id = 0;
  for (int row = 0; row < 8; ++row) {
    for (int col = 0; col < 5; ++col) {
      a.id.push_back(id++);
      a.px.push_back(-40.f - 4.f * col);
      a.py.push_back(-14.f + 4.f * row);
      a.vx.push_back(0);
      a.vy.push_back(0);
      a.radius.push_back(0.5f);
      a.max_speed.push_back(2.f);
      a.pref_vx.push_back(0);
      a.pref_vy.push_back(0);
      a.flags.push_back(0);
      s.goals.push_back({40.f + 4.f * col, -14.f + 4.f * row});
    }
  }
  backend->SetObstacles(s.scene.obstacles);
  float deepest = 0.f;  // largest penetration of a body into an obstacle, m
  OrcaResult r;
  int step = 0;
  for (; step < 2000 && scenarios::AgentsAtGoal(s) < s.goals.size(); ++step) {
    scenarios::UpdatePreferredVelocities(s);
    backend->SolveOrca(s.scene.params, a, {}, &r);
    scenarios::ApplyVelocities(a, r, s.scene.params.time_step);
    for (size_t i = 0; i < a.size(); ++i) {
      // Pillar: distance from the centre to the square minus the radius.
      const float dx = std::fmax(std::fabs(a.px[i]) - 4.f, 0.f),
                  dy = std::fmax(std::fabs(a.py[i]) - 4.f, 0.f);
      const bool inside = std::fabs(a.px[i]) < 4.f && std::fabs(a.py[i]) < 4.f;
      const float clearance = inside ? -1.f : std::hypot(dx, dy) - a.radius[i];
      deepest = std::fmax(deepest, -clearance);
      // Funnel walls: distance to each segment minus the radius.
      for (const auto& [p0, p1] :
           {std::pair<Vec2, Vec2>{{0, 18}, {20, 10}}, {{20, -10}, {0, -18}}}) {
        const Vec2 p{a.px[i], a.py[i]};
        const float t = std::fmin(std::fmax(Dot(p - p0, p1 - p0) / LengthSq(p1 - p0), 0.f), 1.f);
        deepest = std::fmax(deepest, a.radius[i] - Length(p - (p0 + (p1 - p0) * t)));
      }
    }
  }
  std::printf(
      "[ figures  ] obstacles, %s: %d steps, %zu of %zu at goal, deepest penetration %.2e m\n",
      std::string(BackendName(GetParam())).c_str(), step, scenarios::AgentsAtGoal(s),
      s.goals.size(), deepest);
  EXPECT_LE(deepest, 1e-3f);
  EXPECT_EQ(scenarios::AgentsAtGoal(s), s.goals.size());
}

// Two non-cooperative agents closing fast from both sides of a cooperative one that is
// boxed in by a wall: stopping is unsafe, so it must report an emergency, not ok.
TEST_P(OrcaQualityTest, infeasible_cases_report_their_status) {
  auto backend = CreateBackend(GetParam());
  OrcaParams params;
  params.time_step = 0.25f;
  params.time_horizon = 2.f;
  AgentColumns a;
  auto add = [&](uint32_t id, Vec2 p, Vec2 v, uint8_t flags) {
    a.id.push_back(id);
    a.px.push_back(p.x);
    a.py.push_back(p.y);
    a.vx.push_back(v.x);
    a.vy.push_back(v.y);
    a.radius.push_back(0.5f);
    a.max_speed.push_back(1.f);
    a.pref_vx.push_back(v.x);
    a.pref_vy.push_back(v.y);
    a.flags.push_back(flags);
  };
  add(1, {0, 0}, {0, 0}, 0);
  add(2, {-1.5f, 0}, {3, 0}, kAgentNonCooperative);
  add(3, {1.5f, 0}, {-3, 0}, kAgentNonCooperative);
  // A cooperative agent hemmed in by cooperative neighbours walking at it: safe stop.
  add(10, {100, 0}, {0, 0}, 0);
  add(11, {98.9f, 0}, {1, 0}, 0);
  add(12, {101.1f, 0}, {-1, 0}, 0);
  add(13, {100, 1.1f}, {0, -1}, 0);
  add(14, {100, -1.1f}, {0, 1}, 0);
  backend->SetObstacles({});
  OrcaResult r;
  backend->SolveOrca(params, a, {}, &r);
  EXPECT_EQ(r.status[0], static_cast<uint8_t>(SolveStatus::kEmergency));
  EXPECT_EQ(r.status[1], static_cast<uint8_t>(SolveStatus::kOk));  // not solved
  EXPECT_EQ(r.vx[1], 3.f);
  // The hemmed-in agent (index 3): no velocity keeps all four cooperative neighbours out,
  // and standing still satisfies the hard constraints (they take their share), so it
  // reports a safe stop at v = 0.
  EXPECT_EQ(r.status[3], static_cast<uint8_t>(SolveStatus::kSafeStop)) << "the hemmed-in agent";
  EXPECT_EQ(r.vx[3], 0.f);
  EXPECT_EQ(r.vy[3], 0.f);
  EXPECT_EQ(r.status_count[0] + r.status_count[1] + r.status_count[2], a.size());
  EXPECT_GE(r.status_count[2], 1u);
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(std::isfinite(r.vx[i]) && std::isfinite(r.vy[i]));
}

// A defined answer for a degenerate crowd: 100 agents on one point separate (along x, by
// id order, docs/ORCA.md), never NaN, and keep spreading.
TEST_P(OrcaQualityTest, a_crowd_on_one_point_separates_without_nan) {
  auto backend = CreateBackend(GetParam());
  backend->SetObstacles({});
  AgentColumns a;
  a.Resize(100);
  for (size_t i = 0; i < a.size(); ++i) {
    a.id[i] = static_cast<uint32_t>(1000 - i);
    a.px[i] = 5.f;
    a.py[i] = -3.f;
    a.radius[i] = 0.5f;
    a.max_speed[i] = 1.5f;
    a.pref_vx[i] = 1.f;
  }
  const OrcaParams params;
  OrcaResult r;
  float spread = 0.f;
  for (int step = 0; step < 100; ++step) {
    backend->SolveOrca(params, a, {}, &r);
    for (size_t i = 0; i < a.size(); ++i)
      ASSERT_TRUE(std::isfinite(r.vx[i]) && std::isfinite(r.vy[i]));
    scenarios::ApplyVelocities(a, r, params.time_step);
    const auto [lo, hi] = std::minmax_element(a.px.begin(), a.px.end());
    EXPECT_GE(*hi - *lo, spread - 1e-3f) << "step " << step;
    spread = *hi - *lo;
  }
  EXPECT_GT(spread, 10.f);
}

INSTANTIATE_TEST_SUITE_P(Backends, OrcaQualityTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
