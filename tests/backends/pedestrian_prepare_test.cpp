// Backend::PreparePedestrians: every backend turns the snapshot's pedestrian columns into
// the solve's agents as the independent reference does, in every frame, with each optional
// column present or left to the defaults, for every behaviour: the columns bit for bit, the
// preferred velocities (float here, double in the reference) to within float rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/steering/pedestrian_prepare_types.h"
#include "kernels/world/world_validate.h"
#include "tests/backends/backend_param.h"
#include "tests/backends/prepared_pedestrians.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

// A snapshot's agent columns; an empty column is one the snapshot leaves out.
struct Columns {
  std::vector<float> x, y, z, vx, vy, vz, radius, max_speed, goal_x, goal_y, goal_z, pref_vx,
      pref_vy, pref_vz;
  std::vector<uint8_t> flags, behavior;

  PedestrianPrepareScene Scene() const {
    auto p = [](const auto& column) { return column.empty() ? nullptr : column.data(); };
    return {p(x),      p(y),         p(z),       p(vx),       p(vy),     p(vz),
            p(radius), p(max_speed), p(flags),   p(behavior), p(goal_x), p(goal_y),
            p(goal_z), p(pref_vx),   p(pref_vy), p(pref_vz),  x.size()};
  }
};

// n agents with every behaviour (kByColumns too), some non-cooperative, some flagged to
// use their preferred velocity, some standing on their goal; `full` gives every optional
// column, else only positions, goals and behaviours (the rest take the defaults).
Columns MakeColumns(size_t n, bool full, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> at(-200.f, 200.f), speed(-2.f, 2.f), near(-3.f, 3.f);
  Columns c;
  for (size_t i = 0; i < n; ++i) {
    c.x.push_back(at(rng));
    c.y.push_back(at(rng));
    // Goals near some agents (inside the slowing radius), far from others, one on top.
    const float reach = i % 3 == 0 ? 0.3f : 1.f;
    c.goal_x.push_back(i % 17 == 0 ? c.x.back() : c.x.back() + near(rng) * reach * 30.f);
    c.goal_y.push_back(i % 17 == 0 ? c.y.back() : c.y.back() + near(rng) * reach * 30.f);
    c.behavior.push_back(static_cast<uint8_t>(i % kAgentBehaviorCount));
    if (!full) continue;
    c.z.push_back(at(rng) * 0.01f);
    c.vx.push_back(speed(rng));
    c.vy.push_back(speed(rng));
    c.vz.push_back(speed(rng) * 0.1f);
    c.radius.push_back(0.15f + 0.001f * static_cast<float>(i % 100));
    c.max_speed.push_back(0.8f + 0.01f * static_cast<float>(i % 90));
    c.goal_z.push_back(at(rng) * 0.01f);
    c.pref_vx.push_back(speed(rng));
    c.pref_vy.push_back(speed(rng));
    c.pref_vz.push_back(speed(rng));
    uint8_t flags = 0;
    if (i % 7 == 0) flags |= kSnapshotNonCooperative;
    if (i % 11 == 0) flags |= kSnapshotUsesPreferredVelocity;
    c.flags.push_back(flags);
  }
  return c;
}

using Prepared = testing::PreparedPedestrians;

template <class T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Float against double rounded once: a few ulps of the larger magnitude.
void ExpectClose(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const float scale = std::fmax(1.f, std::fmax(std::fabs(got[i]), std::fabs(want[i])));
    ASSERT_NEAR(got[i], want[i], 4e-6f * scale) << what << "[" << i << "]";
  }
}

class PedestrianPrepareTest : public BackendParamTest {};

TEST_P(PedestrianPrepareTest, PreparesAsTheReferenceDoesInEveryFrameWithAndWithoutColumns) {
  const size_t n = 3000;
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  for (const bool full : {true, false}) {
    const Columns columns = MakeColumns(n, full, full ? 5u : 6u);
    for (const Frame frame :
         {Frame{UpAxis::kZ, Handedness::kRight}, Frame{UpAxis::kZ, Handedness::kLeft},
          Frame{UpAxis::kY, Handedness::kRight}, Frame{UpAxis::kY, Handedness::kLeft}}) {
      for (const AgentBehavior world_default : {AgentBehavior::kByColumns, AgentBehavior::kSeek}) {
        SCOPED_TRACE(::testing::Message()
                     << (full ? "every column" : "defaults") << ", up "
                     << static_cast<int>(frame.up) << " hand " << static_cast<int>(frame.handedness)
                     << ", default behaviour " << static_cast<int>(world_default));
        PedestrianPrepareParams params;
        params.frame = frame;
        params.defaults.behavior = world_default;
        params.defaults.max_speed = 1.3f;
        params.defaults.radius = 0.25f;
        params.dt = 0.1f;
        Prepared got(n), want(n);
        backend->PreparePedestrians(params, columns.Scene(), got.View());
        reference->PreparePedestrians(params, columns.Scene(), want.View());
        EXPECT_TRUE(SameBits(got.id, want.id));
        EXPECT_TRUE(SameBits(got.px, want.px) && SameBits(got.py, want.py) &&
                    SameBits(got.z, want.z));
        EXPECT_TRUE(SameBits(got.vx, want.vx) && SameBits(got.vy, want.vy) &&
                    SameBits(got.vz, want.vz));
        EXPECT_TRUE(SameBits(got.radius, want.radius));
        EXPECT_TRUE(SameBits(got.flags, want.flags));
        EXPECT_TRUE(SameBits(got.has_goal, want.has_goal) &&
                    SameBits(got.navigates, want.navigates));
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(got.goal[i].x, want.goal[i].x) << i;
          ASSERT_EQ(got.goal[i].y, want.goal[i].y) << i;
        }
        ExpectClose(got.max_speed, want.max_speed, "max_speed");
        ExpectClose(got.pref_vx, want.pref_vx, "pref_vx");
        ExpectClose(got.pref_vy, want.pref_vy, "pref_vy");
      }
    }
  }
}

// What a few agents must get, written out: the defaults, the frame, each behaviour's kind
// of answer, a scripted agent's own velocity.
TEST_P(PedestrianPrepareTest, GivesEachBehavioursAnswer) {
  auto backend = CreateBackend(GetParam());
  Columns c;
  // 0 arrive at a goal 10 m ahead (+x), 1 seek the same, 2 flee it, 3 preferred velocity,
  // 4 navigate, 5 by columns (goals: arrive), 6 non-cooperative walking (0, 2) in the
  // caller's frame, 7 by columns but flagged to use its preferred velocity.
  const uint8_t behaviors[8] = {1, 2, 3, 4, 5, 0, 1, 0};
  for (size_t i = 0; i < 8; ++i) {
    c.x.push_back(0.f);
    c.y.push_back(0.f);
    c.z.push_back(0.f);
    c.goal_x.push_back(10.f);
    c.goal_y.push_back(0.f);
    c.goal_z.push_back(0.f);
    c.pref_vx.push_back(0.f);
    c.pref_vy.push_back(0.f);
    c.pref_vz.push_back(0.5f);
    c.vx.push_back(0.f);
    c.vy.push_back(i == 6 ? 2.f : 0.f);
    c.vz.push_back(0.f);
    c.behavior.push_back(behaviors[i]);
    c.flags.push_back(i == 6 ? kSnapshotNonCooperative
                             : (i == 7 ? kSnapshotUsesPreferredVelocity : 0));
  }
  PedestrianPrepareParams params;
  params.frame = {UpAxis::kY, Handedness::kRight};  // caller's z is internal -y
  params.defaults.max_speed = 1.5f;
  params.defaults.max_accel = 100.f;  // the steering force is never clamped
  params.dt = 0.1f;
  Prepared out(8);
  backend->PreparePedestrians(params, c.Scene(), out.View());
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(out.id[i], i);
    EXPECT_EQ(out.radius[i], params.defaults.radius);  // no radius column
  }
  // From rest, one step of Reynolds' steering (force = desired - velocity, unit mass)
  // gives desired * dt: arrive far from its goal and seek desire full speed toward it,
  // flee away from it.
  EXPECT_NEAR(out.pref_vx[0], 0.15f, 1e-6f);
  EXPECT_NEAR(out.pref_vx[1], 0.15f, 1e-6f);
  EXPECT_NEAR(out.pref_vx[2], -0.15f, 1e-6f);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(out.pref_vy[i], 0.f);
  EXPECT_EQ(out.has_goal[0], 1);
  EXPECT_EQ(out.has_goal[1], 1);
  EXPECT_EQ(out.has_goal[2], 0);  // a fleeing agent's progress is not toward its goal
  EXPECT_EQ(out.goal[0].x, 10.f);
  // Preferred velocity (0, 0, 0.5) in Y-up right-handed: internal (0, -0.5).
  EXPECT_EQ(out.pref_vx[3], 0.f);
  EXPECT_EQ(out.pref_vy[3], -0.5f);
  EXPECT_EQ(out.navigates[4], 1);  // the world steers it
  EXPECT_EQ(out.pref_vx[4], 0.f);
  EXPECT_EQ(out.pref_vy[4], 0.f);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(out.navigates[i], i == 4 ? 1 : 0) << i;
  EXPECT_NEAR(out.pref_vx[5], 0.15f, 1e-6f);  // by columns, with goals: arrive
  EXPECT_EQ(out.has_goal[5], 1);
  // Non-cooperative: its own velocity (caller's y is internal z, not in the plane: zero
  // ground speed), not solved.
  EXPECT_EQ(out.flags[6], kAgentNonCooperative);
  EXPECT_EQ(out.pref_vx[6], 0.f);
  EXPECT_EQ(out.vz[6], 2.f);
  EXPECT_EQ(out.has_goal[6], 0);
  EXPECT_EQ(out.pref_vy[7], -0.5f);  // flagged: its preferred velocity despite the goals
  EXPECT_EQ(out.has_goal[7], 0);
}

// A non-cooperative agent faster than its max speed gets its own speed as its max (the
// solve sizes neighbour searches by it).
TEST_P(PedestrianPrepareTest, RaisesAScriptedAgentsMaxSpeedToItsOwn) {
  auto backend = CreateBackend(GetParam());
  Columns c;
  c.x = {0.f, 5.f};
  c.y = {0.f, 0.f};
  c.vx = {3.f, 3.f};
  c.vy = {4.f, 4.f};
  c.max_speed = {1.f, 1.f};
  c.flags = {kSnapshotNonCooperative, 0};
  PedestrianPrepareParams params;
  params.dt = 0.1f;
  Prepared out(2);
  backend->PreparePedestrians(params, c.Scene(), out.View());
  EXPECT_EQ(out.max_speed[0], 5.f);
  EXPECT_EQ(out.pref_vx[0], 3.f);
  EXPECT_EQ(out.pref_vy[0], 4.f);
  EXPECT_EQ(out.max_speed[1], 1.f);
  EXPECT_EQ(out.pref_vx[1], 0.f);  // no goals, no preferred velocity: stands
}

// PedestrianChecks: every backend refuses exactly the rows with a fault, as the reference
// does (its own checks, written from the rules), and prepares the rows that pass as it does
// with the checks off.
TEST_P(PedestrianPrepareTest, RefusesTheRowsTheChecksRefuseAsTheReferenceDoes) {
  const size_t n = 5000;  // past the cpu's one-thread passes
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  Columns c = MakeColumns(n, /*full=*/true, 7u);
  // Every row passes: arrive at its goal, no flag that contradicts it.
  for (size_t i = 0; i < n; ++i) {
    c.behavior[i] = static_cast<uint8_t>(AgentBehavior::kArrive);
    c.flags[i] &= kSnapshotNonCooperative;
  }
  PedestrianPrepareParams params;
  params.dt = 0.1f;
  params.checks = AgentChecksForPreparation();
  auto refused = [&](Backend& b, const Columns& columns, PedestrianPrepareParams p) {
    Prepared out(n);
    return b.PreparePedestrians(p, columns.Scene(), out.View());
  };
  EXPECT_EQ(refused(*backend, c, params), 0u);
  EXPECT_EQ(refused(*reference, c, params), 0u);
  // One fault a row, late rows (the last thread's slice on the cpu).
  struct Fault {
    size_t row;
    std::function<void(Columns&, size_t)> apply;
  };
  const Fault faults[] = {
      {4001, [](Columns& k, size_t i) { k.x[i] = NAN; }},
      {4003, [](Columns& k, size_t i) { k.y[i] = 3e6f; }},
      {4005, [](Columns& k, size_t i) { k.vz[i] = -INFINITY; }},
      {4007, [](Columns& k, size_t i) { k.radius[i] = 0.f; }},
      {4009, [](Columns& k, size_t i) { k.max_speed[i] = 1e-4f; }},
      {4011, [](Columns& k, size_t i) { k.goal_z[i] = 5e6f; }},
      {4013, [](Columns& k, size_t i) { k.pref_vy[i] = 3000.f; }},
      {4015, [](Columns& k, size_t i) { k.flags[i] = 4; }},
      {4017, [](Columns& k, size_t i) { k.behavior[i] = 9; }},
      {4019,
       [](Columns& k, size_t i) {
         k.behavior[i] = static_cast<uint8_t>(AgentBehavior::kSeek);
         k.flags[i] = kSnapshotUsesPreferredVelocity;
       }},
      {4021, [](Columns& k,
                size_t i) { k.behavior[i] = static_cast<uint8_t>(AgentBehavior::kNavigate); }},
  };
  Columns bad = c;
  for (const Fault& f : faults) {
    Columns one = c;
    f.apply(one, f.row);
    SCOPED_TRACE(::testing::Message() << "row " << f.row);
    EXPECT_EQ(refused(*backend, one, params), 1u);
    EXPECT_EQ(refused(*reference, one, params), 1u);
    f.apply(bad, f.row);
  }
  const uint64_t all = sizeof faults / sizeof faults[0];
  EXPECT_EQ(refused(*backend, bad, params), all);
  EXPECT_EQ(refused(*reference, bad, params), all);
  // Without goals, arriving is a fault of every row but those told to use their
  // preferred velocity.
  Columns no_goals = c;
  no_goals.goal_x.clear();
  no_goals.goal_y.clear();
  no_goals.goal_z.clear();
  for (size_t i = 0; i < n; ++i) {
    if (i != 4999) no_goals.behavior[i] = static_cast<uint8_t>(AgentBehavior::kByColumns);
  }
  EXPECT_EQ(refused(*backend, no_goals, params), 1u);
  EXPECT_EQ(refused(*reference, no_goals, params), 1u);
  params.defaults.behavior = AgentBehavior::kFlee;  // the world's default needs goals too
  EXPECT_EQ(refused(*backend, no_goals, params), n);
  params.defaults.behavior = AgentBehavior::kByColumns;

  // The answers do not depend on the checks.
  Prepared on(n), off(n);
  backend->PreparePedestrians(params, c.Scene(), on.View());
  PedestrianPrepareParams unchecked = params;
  unchecked.checks = {};
  EXPECT_EQ(backend->PreparePedestrians(unchecked, bad.Scene(), off.View()), 0u);
  backend->PreparePedestrians(unchecked, c.Scene(), off.View());
  EXPECT_TRUE(SameBits(on.px, off.px) && SameBits(on.pref_vx, off.pref_vx) &&
              SameBits(on.pref_vy, off.pref_vy) && SameBits(on.max_speed, off.max_speed));
}

INSTANTIATE_TEST_SUITE_P(Backends, PedestrianPrepareTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
