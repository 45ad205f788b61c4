// The repair passes of the ORCA pipeline (kernels/orca/orca_agent.cuh) on hand-built
// sorted scenes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/orca/obstacles.h"
#include "kernels/orca/orca.cuh"
#include "kernels/orca/orca_agent.cuh"
#include "kernels/orca/orca_lp.cuh"
#include "kernels/orca/orca_repair.cuh"
#include "tests/orca/orca_kernel_fixtures.h"

namespace throng::orca_kernel_test {
namespace {

// ---------------------------------------------------------------------------------------
// Repair passes (MarkRepairsFunctor, OrcaRepairFunctor, ApplyRepairsFunctor, then
// OrcaWriteResultsFunctor) on hand-built sorted agents and pass-1 results, sequenced as
// kernels/backends/orca_pipeline.cuh does.

struct PassTwoHarness {
  int max_neighbors;
  // Sorted agents.
  std::vector<float> px, py, vx, vy, radius, max_speed, pref_vx, pref_vy;
  std::vector<uint32_t> id, input_index;
  std::vector<uint8_t> flags;
  // Neighbour lists (sorted indices, stride max_neighbors) and counts.
  std::vector<uint32_t> lists;
  std::vector<uint16_t> kept, candidates, audit;
  // Pass-1 results, sorted order.
  std::vector<float> p1_vx, p1_vy;
  std::vector<uint8_t> p1_status, p1_flags;
  std::vector<uint16_t> p1_constraints;
  // Final results, input order.
  std::vector<float> o_vx, o_vy;
  std::vector<uint8_t> o_status, o_flags;
  std::vector<uint16_t> o_candidates, o_neighbors, o_constraints, o_audit;
  // The repair passes' work lists (members, not locals of Run: GCC 12 warns of a freed
  // pointer with an offset, wrongly, when Run's inlined kernels and their destructors meet).
  std::vector<uint32_t> turned, marks, work, next_turned;

  explicit PassTwoHarness(int k) : max_neighbors(k) {}

  // Adds sorted agent i = (current count); returns i.
  uint32_t Add(const AgentState& a, uint32_t input, std::vector<uint32_t> neighbour_list,
               Vec2 p1_velocity, SolveStatus p1, uint8_t p1_solve_flags = 0,
               uint8_t agent_flags = 0) {
    const uint32_t i = static_cast<uint32_t>(px.size());
    px.push_back(a.p.x);
    py.push_back(a.p.y);
    vx.push_back(a.v.x);
    vy.push_back(a.v.y);
    radius.push_back(a.radius);
    max_speed.push_back(a.max_speed);
    pref_vx.push_back(a.v_pref.x);
    pref_vy.push_back(a.v_pref.y);
    id.push_back(a.id);
    input_index.push_back(input);
    flags.push_back(agent_flags);
    neighbour_list.resize(static_cast<size_t>(max_neighbors), 0xdeadbeefu);
    lists.insert(lists.end(), neighbour_list.begin(), neighbour_list.end());
    const uint16_t n = static_cast<uint16_t>(std::count_if(
        neighbour_list.begin(), neighbour_list.end(), [](uint32_t j) { return j != 0xdeadbeefu; }));
    kept.push_back(n);
    candidates.push_back(static_cast<uint16_t>(n + 1));
    audit.push_back(kNotAudited);
    p1_vx.push_back(p1_velocity.x);
    p1_vy.push_back(p1_velocity.y);
    p1_status.push_back(static_cast<uint8_t>(p1));
    p1_flags.push_back(p1_solve_flags);
    p1_constraints.push_back(static_cast<uint16_t>(n + 5));
    return i;
  }

  NeighborState SeenFromSnapshot(uint32_t j) const {
    return Neighbor({px[j], py[j]}, {vx[j], vy[j]}, radius[j], id[j],
                    (flags[j] & kAgentNonCooperative) != 0);
  }

  void Run(const OrcaParams& params) {
    const size_t n = px.size();
    o_vx.assign(n, -99.f);
    o_vy.assign(n, -99.f);
    o_status.assign(n, 0xff);
    o_flags.assign(n, 0xff);
    o_candidates.assign(n, 0xffff);
    o_neighbors.assign(n, 0xffff);
    o_constraints.assign(n, 0xffff);
    o_audit.assign(n, 0);
    OrcaParams p = params;
    p.max_neighbors = max_neighbors;
    const SortedAgentsView agents{px.data(),      py.data(),          vx.data(),
                                  vy.data(),      radius.data(),      max_speed.data(),
                                  pref_vx.data(), pref_vy.data(),     id.data(),
                                  flags.data(),   input_index.data(), static_cast<uint32_t>(n)};
    // The solve's state as pass 1 left it; the repair passes as the pipeline sequences
    // them (kernels/backends/orca_pipeline.cuh, RepairPasses).
    std::vector<float> s_vx = p1_vx, s_vy = p1_vy;
    std::vector<uint8_t> s_status = p1_status, s_flags = p1_flags;
    std::vector<uint16_t> constraints = p1_constraints;
    const PassStateView state{s_vx.data(), s_vy.data(), s_status.data(), s_flags.data(),
                              constraints.data()};
    // One bucket holds everyone (a 1x1 table), so the marking scan reads every agent and
    // the hand-built lists decide; no list is full, so none is skipped by its bound.
    std::vector<QueryPoint> points;
    for (size_t i = 0; i < n; ++i) points.push_back({px[i], py[i], radius[i], max_speed[i]});
    const std::vector<uint32_t> offsets{0, static_cast<uint32_t>(n)};
    const GridSpec one_bucket{1e4f, 1e-4f, 0, 0, 0};
    const std::vector<float> bound(n, INFINITY);
    turned.clear();
    marks.assign(n, 0);
    work.assign(n, 0);
    next_turned.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i) {
      if (IsNotOk{}(p1_status[i])) turned.push_back(i);
    }
    passes_run = 0;
    for (int pass = 0; pass < (p.revalidate ? p.revalidate_passes : 0); ++pass) {
      if (turned.empty()) break;
      uint32_t work_count = 0, turned_count = 0;
      const MarkRepairsFunctor mark{agents,        points.data(),  offsets.data(),
                                    one_bucket,    1e3f,           lists.data(),
                                    kept.data(),   bound.data(),   p.max_neighbors,
                                    state.status,  turned.data(),  marks.data(),
                                    work.data(),   &work_count};
      for (uint32_t t = 0; t < turned.size(); ++t) mark(t);
      if (work_count == 0) break;
      std::vector<float> r_vx(work_count), r_vy(work_count);
      std::vector<uint8_t> r_status(work_count), r_flags(work_count), r_turned(work_count);
      const RepairOutputView repaired{r_vx.data(), r_vy.data(), r_status.data(), r_flags.data(),
                                      r_turned.data()};
      const OrcaRepairFunctor repair{agents, lists.data(), kept.data(), state, kNoObstacles,
                                     p,      work.data(),  repaired};
      for (uint32_t w = 0; w < work_count; ++w) repair(w);
      const ApplyRepairsFunctor apply{work.data(),  repaired,           state, marks.data(),
                                      next_turned.data(), &turned_count};
      for (uint32_t w = 0; w < work_count; ++w) apply(w);
      turned.assign(next_turned.begin(), next_turned.begin() + turned_count);
      EXPECT_TRUE(std::all_of(marks.begin(), marks.end(), [](uint32_t m) { return m == 0; }))
          << "a pass leaves no mark for the next";
      ++passes_run;
    }
    const OrcaOutputView out{o_vx.data(),         o_vy.data(),        o_status.data(),
                             o_candidates.data(), o_neighbors.data(), o_constraints.data(),
                             o_flags.data(),      o_audit.data(),     nullptr};
    const OrcaWriteResultsFunctor write{
        agents, lists.data(), p.max_neighbors, kept.data(), candidates.data(), audit.data(),
        state,  out};
    for (uint32_t i = 0; i < n; ++i) write(i);
  }
  int passes_run = 0;
};

// A (sorted 0, input 2) walks +x at 1 m/s; B (sorted 1, input 0), 3 m ahead, crosses out
// of its way at 1 m/s (closest approach 2.1 m), so A's pass 1 is plainly v_pref. But B
// stopped in pass 1 (safe_stop): standing still it is in A's path. C (sorted 2, input 1)
// only sees A, which is ok. D (sorted 3, input 3), next to B, took an emergency velocity;
// B and D each see a neighbour that is not ok, but are not ok themselves. (A head-on B would not
// do: half of the deviation against B at -v equals all of it against B standing still, so pass 2
// would change nothing.)
// A neighbour that stopped in the pass before, as a repair pass sees it: standing, still
// wanting its preferred velocity (which the passing side and headway speed read), avoided
// with full responsibility, and known to be cooperative (demoted: no reason for the jam
// step to push, nor a standing obstacle to walk round).
NeighborState StoppedAsSeen(const AgentState& b) {
  NeighborState seen{b.p, {0.f, 0.f}, b.v_pref, b.radius, b.id, true};
  seen.demoted = true;
  return seen;
}

struct PassTwoScene {
  OrcaParams params = OrcaParams{};
  AgentState a = Agent({0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, 2.f, 10);
  AgentState b = Agent({3.f, 0.f}, {0.f, 1.f}, {0.f, 1.f}, 0.5f, 2.f, 11);
  AgentState c = Agent({0.f, -6.f}, {1.f, 0.f}, {1.f, 0.f}, 0.5f, 2.f, 12);
  AgentState d = Agent({3.f, 1.2f}, {0.f, -1.f}, {0.f, -1.f}, 0.5f, 2.f, 13);
  Vec2 a_pass1, c_pass1{0.7f, 0.1f};  // C's pass-1 velocity is not what a re-solve would give
  Vec2 d_pass1{0.2f, -0.1f};
  PassTwoHarness h{2};

  PassTwoScene() {
    const NeighborState b_seen = Neighbor(b.p, b.v, b.radius, b.id);
    const SolveOutput a1 = SolveAgent(a, &b_seen, 1, kNoObstacles, params);
    a_pass1 = a1.velocity;
    h.Add(a, 2, {1}, a_pass1, a1.status, a1.flags);
    h.Add(b, 0, {0, 3}, {0.f, 0.f}, SolveStatus::kSafeStop);
    h.Add(c, 1, {0}, c_pass1, SolveStatus::kOk);
    h.Add(d, 3, {1}, d_pass1, SolveStatus::kEmergency);
  }
};

TEST(OrcaPassTwoTest, AgentNextToStoppedNeighbourReSolvesAgainstItStandingStill) {
  PassTwoScene s;
  ASSERT_EQ(s.h.p1_status[0], static_cast<uint8_t>(SolveStatus::kOk));
  ASSERT_EQ(s.h.p1_flags[0], 0);
  ASSERT_EQ(s.a_pass1.x, s.a.v_pref.x);
  ASSERT_EQ(s.a_pass1.y, s.a.v_pref.y);
  s.h.Run(s.params);

  // A, written at input index 2.
  EXPECT_EQ(s.h.o_status[2], static_cast<uint8_t>(SolveStatus::kOk));
  EXPECT_EQ(s.h.o_flags[2], kSolveRevalidated | kSolveAdopted);
  const Vec2 va{s.h.o_vx[2], s.h.o_vy[2]};
  ASSERT_TRUE(IsFinite(va));
  EXPECT_GT(Length(va - s.a_pass1), 0.05f);  // changed
  // Full responsibility against B standing still: no contact within tau on its own.
  const float r =
      orca::detail::CombinedRadius(s.a.radius, s.b.radius, s.params.contact_margin_ratio);
  EXPECT_GE(MinDistance(s.a.p, va, s.b.p, {0.f, 0.f}, s.params.time_horizon), r - 1e-4f);
  // The pass-1 velocity relied on B taking half: it does not clear B standing still.
  EXPECT_LT(MinDistance(s.a.p, s.a_pass1, s.b.p, {0.f, 0.f}, s.params.time_horizon), r - 0.05f);
  // Exactly the feasible-only solve with B non-cooperative at its pass-1 velocity.
  const NeighborState b_stopped = StoppedAsSeen(s.b);
  const SolveOutput expected = SolveAgent(s.a, &b_stopped, 1, kNoObstacles, s.params, true);
  ASSERT_TRUE(expected.feasible);
  EXPECT_EQ(va.x, expected.velocity.x);
  EXPECT_EQ(va.y, expected.velocity.y);
  EXPECT_EQ(s.h.o_constraints[2], s.h.p1_constraints[0]);
  EXPECT_EQ(s.h.o_neighbors[2], 1);
  EXPECT_EQ(s.h.o_candidates[2], s.h.candidates[0]);
  EXPECT_EQ(s.h.o_audit[2], kNotAudited);
}

// Agents not ok in pass 1 keep their pass-1 result, even next to other agents not ok.
TEST(OrcaPassTwoTest, AgentsNotOkInPassOneKeepTheirResult) {
  PassTwoScene s;
  s.h.Run(s.params);
  // B, input 0.
  EXPECT_EQ(s.h.o_status[0], static_cast<uint8_t>(SolveStatus::kSafeStop));
  EXPECT_EQ(s.h.o_flags[0], 0);
  EXPECT_EQ(s.h.o_vx[0], 0.f);
  EXPECT_EQ(s.h.o_vy[0], 0.f);
  EXPECT_EQ(s.h.o_neighbors[0], 2);
  // D, input 3.
  EXPECT_EQ(s.h.o_status[3], static_cast<uint8_t>(SolveStatus::kEmergency));
  EXPECT_EQ(s.h.o_flags[3], 0);
  EXPECT_EQ(s.h.o_vx[3], s.d_pass1.x);
  EXPECT_EQ(s.h.o_vy[3], s.d_pass1.y);
}

TEST(OrcaPassTwoTest, AgentWhoseNeighboursWereAllOkIsUntouched) {
  PassTwoScene s;
  s.h.Run(s.params);
  // C, written at input index 1.
  EXPECT_EQ(s.h.o_status[1], static_cast<uint8_t>(SolveStatus::kOk));
  EXPECT_EQ(s.h.o_flags[1], 0);
  EXPECT_EQ(s.h.o_vx[1], s.c_pass1.x);
  EXPECT_EQ(s.h.o_vy[1], s.c_pass1.y);
  EXPECT_EQ(s.h.o_constraints[1], s.h.p1_constraints[2]);
  EXPECT_EQ(s.h.o_neighbors[1], 1);
}

TEST(OrcaPassTwoTest, RevalidateOffCopiesPassOne) {
  PassTwoScene s;
  OrcaParams params = s.params;
  params.revalidate = false;
  s.h.Run(params);
  EXPECT_EQ(s.h.o_flags[2], 0);
  EXPECT_EQ(s.h.o_vx[2], s.a_pass1.x);
  EXPECT_EQ(s.h.o_vy[2], s.a_pass1.y);
  EXPECT_EQ(s.h.o_status[2], static_cast<uint8_t>(SolveStatus::kOk));
}

// A overlaps B by 0.1 m (+ margin). Taking half, leaving within one 0.25 s step needs
// ~0.2 m/s, which A's 0.3 m/s allows (pass 1 ok); with B in emergency and standing still,
// A alone needs ~0.4 m/s at every horizon: no LP2 succeeds.
struct InfeasibleReSolve {
  OrcaParams params = OrcaParams{};
  AgentState a = Agent({0.f, 0.f}, {0.f, 0.f}, {-1.f, 0.f}, 0.5f, 0.3f, 1);
  AgentState b = Agent({0.9f, 0.f}, {0.f, 0.f}, {1.f, 0.f}, 0.5f, 0.3f, 2);
  SolveOutput a1;
  PassTwoHarness h{1};
  void Run() {
    const NeighborState b_seen = Neighbor(b.p, b.v, b.radius, b.id);
    a1 = SolveAgent(a, &b_seen, 1, kNoObstacles, params);
    ASSERT_EQ(a1.status, SolveStatus::kOk);
    h.Add(a, 1, {1}, a1.velocity, a1.status, a1.flags);
    h.Add(b, 0, {0}, {0.f, 0.f}, SolveStatus::kEmergency);
    h.Run(params);
    EXPECT_EQ(h.o_status[0], static_cast<uint8_t>(SolveStatus::kEmergency));
    EXPECT_EQ(h.o_flags[0], 0);
  }
};

// Without revalidate_fallback (the single second pass before it): the pass-1 velocity,
// which relied on B taking half, stays.
TEST(OrcaPassTwoTest, InfeasibleReSolveKeepsPassOneVelocityWithoutFallback) {
  InfeasibleReSolve s;
  s.params.revalidate_fallback = false;
  s.Run();
  EXPECT_EQ(s.h.o_status[1], static_cast<uint8_t>(SolveStatus::kOk));
  EXPECT_EQ(s.h.o_flags[1], s.a1.flags | kSolveRevalidated);
  EXPECT_EQ(s.h.o_vx[1], s.a1.velocity.x);
  EXPECT_EQ(s.h.o_vy[1], s.a1.velocity.y);
}

// With revalidate_fallback (default): A falls back as pass 1 would against B standing
// still with full responsibility. Overlapping B, stopping is unsafe: emergency, exactly
// the full solve's velocity, and reported as such (its neighbours no longer count on it).
TEST(OrcaPassTwoTest, InfeasibleReSolveFallsBackToEmergency) {
  InfeasibleReSolve s;
  s.Run();
  const NeighborState b_stopped = StoppedAsSeen(s.b);
  const SolveOutput expected = SolveAgent(s.a, &b_stopped, 1, kNoObstacles, s.params);
  ASSERT_EQ(expected.status, SolveStatus::kEmergency);
  EXPECT_EQ(s.h.o_status[1], static_cast<uint8_t>(SolveStatus::kEmergency));
  // The jam step (on by default) may have taken a share of LP3's velocity: its flag too.
  EXPECT_EQ(s.h.o_flags[1], kSolveRevalidated | expected.flags);
  EXPECT_EQ(s.h.o_vx[1], expected.velocity.x);
  EXPECT_EQ(s.h.o_vy[1], expected.velocity.y);
}

// A chain (radius 1.5, the random scene's agents): C (sorted 2) stopped in pass 1, 0.15 m
// in front of B (sorted 0); D (sorted 3) closes on B from behind at 2 m/s, 0.15 m away. B
// was ok in pass 1 (C taking half); against C standing still it cannot leave D room at any
// horizon, so B safe-stops in the first repair pass (v = 0 meets its hard lines: C, not
// overlapping). A (sorted 1) walks at B and sees only B: its pass-1 velocity relied on B
// taking half. Only a second repair pass lets A learn that B stopped.
struct ChainScene {
  OrcaParams params = OrcaParams{};
  AgentState b = Agent({0.f, 0.f}, {0.f, 0.f}, {1.f, 0.f}, 1.5f, 2.f, 20);
  AgentState a = Agent({0.f, 3.2f}, {0.f, -1.f}, {0.f, -1.f}, 1.5f, 2.f, 21);
  AgentState c = Agent({3.15f, 0.f}, {0.f, 0.f}, {-1.f, 0.f}, 1.5f, 2.f, 22);
  AgentState d = Agent({-3.15f, 0.f}, {2.f, 0.f}, {2.f, 0.f}, 1.5f, 2.f, 23);
  SolveOutput a1;
  PassTwoHarness h{2};
  void Run() {
    const NeighborState b_seen = Neighbor(b.p, b.v, b.radius, b.id);
    a1 = SolveAgent(a, &b_seen, 1, kNoObstacles, params);
    ASSERT_EQ(a1.status, SolveStatus::kOk);
    h.Add(b, 0, {2, 3}, {0.5f, 0.f}, SolveStatus::kOk);
    h.Add(a, 1, {0}, a1.velocity, a1.status, a1.flags);
    h.Add(c, 2, {0}, {0.f, 0.f}, SolveStatus::kSafeStop);
    h.Add(d, 3, {0}, {2.f, 0.f}, SolveStatus::kOk);
    h.Run(params);
  }
};

TEST(OrcaPassTwoTest, FailedReSolveStopsAndItsNeighbourReSolvesInTheNextPass) {
  ChainScene s;
  s.Run();
  EXPECT_EQ(s.h.passes_run, 2);  // after pass 1 C had turned, after the first repair B
  EXPECT_EQ(s.h.o_status[0], static_cast<uint8_t>(SolveStatus::kSafeStop));
  EXPECT_EQ(s.h.o_flags[0], kSolveRevalidated);
  EXPECT_EQ(s.h.o_vx[0], 0.f);
  EXPECT_EQ(s.h.o_vy[0], 0.f);
  // A re-solved in the second repair pass, against B standing still, full responsibility.
  const NeighborState b_stopped = StoppedAsSeen(s.b);
  const SolveOutput expected = SolveAgent(s.a, &b_stopped, 1, kNoObstacles, s.params, true);
  ASSERT_TRUE(expected.feasible);
  EXPECT_EQ(s.h.o_status[1], static_cast<uint8_t>(SolveStatus::kOk));
  EXPECT_EQ(s.h.o_flags[1] & (kSolveRevalidated | kSolveAdopted),
            kSolveRevalidated | kSolveAdopted);
  EXPECT_EQ(s.h.o_vx[1], expected.velocity.x);
  EXPECT_EQ(s.h.o_vy[1], expected.velocity.y);
  const float r = s.a.radius + s.b.radius;
  EXPECT_GE(MinDistance(s.a.p, {s.h.o_vx[1], s.h.o_vy[1]}, s.b.p, {0.f, 0.f}, s.params.time_step),
            r);
}

// With a single repair pass, A never hears that B stopped and keeps its pass-1 velocity,
// which walks into B standing still within the step.
TEST(OrcaPassTwoTest, OneRepairPassLeavesTheSecondLinkOfTheChain) {
  ChainScene s;
  s.params.revalidate_passes = 1;
  s.Run();
  EXPECT_EQ(s.h.passes_run, 1);
  EXPECT_EQ(s.h.o_status[0], static_cast<uint8_t>(SolveStatus::kSafeStop));
  EXPECT_EQ(s.h.o_flags[1], s.a1.flags);
  EXPECT_EQ(s.h.o_vx[1], s.a1.velocity.x);
  EXPECT_EQ(s.h.o_vy[1], s.a1.velocity.y);
  const float r = s.a.radius + s.b.radius;
  EXPECT_LT(MinDistance(s.a.p, s.a1.velocity, s.b.p, {0.f, 0.f}, s.params.time_horizon), r);
}

}  // namespace
}  // namespace throng::orca_kernel_test
