// Backend::SteerNavigating: every backend steers the navigating pedestrians that its
// preparation left as the independent reference does (docs/NAVIGATION.md, "In a world"):
// along a point target's field or a polygon target's, along the crowd field once
// re-routed (and the static field where the crowd field is not built), arriving near a
// point target and inside a polygon, turned toward their own goals by the cone, in two
// frames; the float steering against the reference's double to within float rounding, and
// the rows that do not navigate left as the preparation made them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/navigation/crowd_cost.h"
#include "kernels/navigation/distance_field.h"
#include "kernels/navigation/nav_costs.h"
#include "tests/backends/backend_param.h"
#include "tests/backends/prepared_pedestrians.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

std::vector<Vec2> Box(float x0, float y0, float x1, float y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

// A cup open toward +x (walls at x = -4 and y = +-4, internal frame), a point target
// behind it (id 7, at (-10, 0)) and a box target (id 3) beside the point; each target's
// field, and the point target's crowd field round a crowd of people across the cup's mouth.
struct Navigation {
  std::vector<NavTarget> targets{{7, {{-10.f, 0.f}}}, {3, Box(-12.f, 4.f, -8.f, 8.f)}};
  std::vector<NavField> fields, crowd_fields;
  std::vector<NavSteerTarget> steer_targets;
  std::vector<NavTargetKey> keys;
  std::vector<Vec2> rings;
  std::vector<NavFieldView> views;
  NavGridSpec spec;

  Navigation() {
    const std::vector<Polygon> cup = {
        {Box(-4.f, -4.f, -3.5f, 4.f)}, {Box(-4.f, 3.5f, 4.f, 4.f)}, {Box(-4.f, -4.f, 4.f, -3.5f)}};
    const NavFieldParams params;
    const NavCosts costs = BuildNavCosts(cup, targets, params);
    spec = costs.spec;
    std::vector<Vec2> knot;
    for (int k = 0; k < 400; ++k) knot.push_back({4.5f + 0.1f * (k % 20), -4.f + 0.4f * (k / 20)});
    const NavCosts crowded = AddCrowdCost(costs, knot, 4.f, 0.2f);
    for (const NavTarget& t : targets) {
      fields.push_back(BuildNavField(costs, t));
      crowd_fields.push_back(BuildNavField(crowded, t));
      Vec2 sum{0.f, 0.f};
      for (Vec2 p : t.shape) sum = sum + p;
      steer_targets.push_back({sum * (1.f / static_cast<float>(t.shape.size())),
                               static_cast<uint32_t>(rings.size()),
                               static_cast<uint32_t>(t.shape.size())});
      rings.insert(rings.end(), t.shape.begin(), t.shape.end());
    }
    keys = {{3, 1}, {7, 0}};  // by id
    // The fields, then the crowd fields: the point target's built, the box's not.
    views = {{fields[0].spec, fields[0].heading.data()},
             {fields[1].spec, fields[1].heading.data()},
             {crowd_fields[0].spec, crowd_fields[0].heading.data()},
             {crowd_fields[1].spec, nullptr}};
  }
  NavSteerWorld World() const {
    return {steer_targets.data(), keys.data(),       2, rings.data(), rings.size(), views.data(),
            views.data() + 2,     NavHeadingTable(), 1};
  }
};

// n pedestrians over the grid and a little beyond it, three in four navigating (to either
// target), the rest arriving at their goals (or walking their preferred velocity where the
// snapshot has no goals); a third of them re-routed.
struct Crowd {
  std::vector<float> x, y, z, vx, vy, max_speed, goal_x, goal_y, goal_z, pref_vx, pref_vy;
  std::vector<uint8_t> behavior;
  std::vector<uint32_t> target;
  std::vector<AgentMemory> memory;

  Crowd(size_t n, const NavGridSpec& g, bool goals, uint32_t seed) {
    std::mt19937 rng(seed);
    const float w = g.cell * static_cast<float>(g.nx), h = g.cell * static_cast<float>(g.ny);
    std::uniform_real_distribution<float> ax(g.origin.x - 1.f, g.origin.x + w + 1.f),
        ay(g.origin.y - 1.f, g.origin.y + h + 1.f), speed(-1.5f, 1.5f), near(-3.f, 3.f);
    for (size_t i = 0; i < n; ++i) {
      // Some inside the box target and near the point target, the rest anywhere.
      const float px = i % 11 == 0 ? -10.f + 0.2f * near(rng) : (i % 13 == 0 ? -10.f : ax(rng));
      const float py =
          i % 11 == 0 ? 0.2f * near(rng) : (i % 13 == 0 ? 6.f + near(rng) * 0.5f : ay(rng));
      // The same ground position in either frame: internal y is the caller's y where z is
      // up, and its z (with the sign its handedness gives) where y is up.
      x.push_back(px);
      y.push_back(py);
      z.push_back(py);
      vx.push_back(speed(rng));
      vy.push_back(speed(rng));
      max_speed.push_back(0.8f + 0.01f * static_cast<float>(i % 100));
      if (goals) {
        goal_x.push_back(px + 5.f * near(rng));
        goal_y.push_back(py + 5.f * near(rng));
        goal_z.push_back(goal_y.back());
      } else {
        pref_vx.push_back(speed(rng));
        pref_vy.push_back(speed(rng));
      }
      const bool navigates = i % 4 != 3;
      behavior.push_back(static_cast<uint8_t>(
          navigates ? AgentBehavior::kNavigate
                    : (goals ? AgentBehavior::kArrive : AgentBehavior::kPreferredVelocity)));
      target.push_back(i % 11 == 0 || i % 2 == 0 ? 7u : 3u);
      AgentMemory m;
      m.route = i % 3 == 0 ? 1u : 0u;
      memory.push_back(m);
    }
  }
  PedestrianPrepareScene Scene() const {
    auto p = [](const auto& column) { return column.empty() ? nullptr : column.data(); };
    return {x.data(),  y.data(),         z.data(),   vx.data(),       vy.data(), nullptr,
            nullptr,   max_speed.data(), nullptr,    behavior.data(), p(goal_x), p(goal_y),
            p(goal_z), p(pref_vx),       p(pref_vy), nullptr,         x.size()};
  }
};

using Prepared = testing::PreparedPedestrians;

// The steering's scene: the crowd's targets, goals and memory (none without re-routing),
// and what the preparation left in `p`.
NavSteerScene Steer(const Prepared& p, const Crowd& c, bool rerouting) {
  auto opt = [](const auto& column) { return column.empty() ? nullptr : column.data(); };
  return {c.target.data(),
          opt(c.goal_x),
          opt(c.goal_y),
          opt(c.goal_z),
          rerouting ? c.memory.data() : nullptr,
          p.px.data(),
          p.py.data(),
          p.vx.data(),
          p.vy.data(),
          p.max_speed.data(),
          p.navigates.data(),
          p.px.size()};
}

// The steering's parameters for the preparation's defaults: its acceleration, slowing
// radius and tick, and a goal cone of 30 degrees.
NavSteerParams SteerParams(const PedestrianPrepareParams& prepare, Frame frame) {
  const NavGoalCone cone(0.52f);
  NavSteerParams steer;
  steer.frame = frame;
  steer.max_accel = prepare.defaults.max_accel;
  steer.slowing_radius = prepare.defaults.slowing_radius;
  steer.dt = prepare.dt;
  steer.cone_on = cone.on;
  steer.cone_cos = cone.cos;
  steer.cone_sin = cone.sin;
  return steer;
}

// The preparation, then the steering, on one backend: the preferred velocities.
Prepared Steered(Backend& backend, const Navigation& nav, const Crowd& crowd, Frame frame,
                 bool rerouting) {
  const size_t n = crowd.x.size();
  PedestrianPrepareParams prepare;
  prepare.frame = frame;
  prepare.dt = 0.1f;
  Prepared out(n);
  backend.PreparePedestrians(prepare, crowd.Scene(), out.View());
  const NavSteerParams steer = SteerParams(prepare, frame);
  backend.SteerNavigating(steer, nav.World(), Steer(out, crowd, rerouting),
                          {out.pref_vx.data(), out.pref_vy.data()});
  return out;
}

class NavSteerTest : public BackendParamTest {};

TEST_P(NavSteerTest, SteersAsTheReferenceDoesAlongEachFieldInTwoFrames) {
  const Navigation nav;
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  for (const bool goals : {true, false}) {
    const Crowd crowd(4000, nav.spec, goals, goals ? 11u : 12u);
    for (const Frame frame :
         {Frame{UpAxis::kZ, Handedness::kRight}, Frame{UpAxis::kY, Handedness::kLeft}}) {
      for (const bool rerouting : {true, false}) {
        SCOPED_TRACE(::testing::Message()
                     << (goals ? "goals" : "no goals") << ", up " << static_cast<int>(frame.up)
                     << ", rerouting " << rerouting);
        const Prepared got = Steered(*backend, nav, crowd, frame, rerouting);
        const Prepared want = Steered(*reference, nav, crowd, frame, rerouting);
        // The same rows prepared as navigating, from the same columns (exact: signs and swaps).
        ASSERT_EQ(got.navigates, want.navigates);
        ASSERT_EQ(0, std::memcmp(got.px.data(), want.px.data(), got.px.size() * sizeof(float)));
        size_t navigating = 0, moving = 0;
        for (size_t i = 0; i < got.px.size(); ++i) {
          if (!got.navigates[i]) continue;
          ++navigating;
          moving += std::hypot(got.pref_vx[i], got.pref_vy[i]) > 0.1f;
          ASSERT_NEAR(got.pref_vx[i], want.pref_vx[i], 2e-5f) << "row " << i;
          ASSERT_NEAR(got.pref_vy[i], want.pref_vy[i], 2e-5f) << "row " << i;
        }
        EXPECT_EQ(navigating, 3000u);
        EXPECT_GT(moving, navigating / 2);  // not an all-zero answer
      }
    }
  }
}

// The rows that do not navigate keep what the preparation gave them, bit for bit; and the
// steering reads the crowd field only for re-routed rows, where it is built.
TEST_P(NavSteerTest, LeavesOtherRowsAndFollowsTheCrowdFieldOnlyWhenReRouted) {
  const Navigation nav;
  auto backend = CreateBackend(GetParam());
  const Crowd crowd(4000, nav.spec, /*goals=*/true, 21u);
  const Frame frame{UpAxis::kZ, Handedness::kRight};
  Prepared before(crowd.x.size());
  PedestrianPrepareParams prepare;
  prepare.dt = 0.1f;
  backend->PreparePedestrians(prepare, crowd.Scene(), before.View());
  const Prepared rerouted = Steered(*backend, nav, crowd, frame, /*rerouting=*/true);
  const Prepared plain = Steered(*backend, nav, crowd, frame, /*rerouting=*/false);
  size_t differ = 0;
  for (size_t i = 0; i < crowd.x.size(); ++i) {
    if (!rerouted.navigates[i]) {
      ASSERT_EQ(rerouted.pref_vx[i], before.pref_vx[i]) << i;
      ASSERT_EQ(rerouted.pref_vy[i], before.pref_vy[i]) << i;
      continue;
    }
    const bool same =
        rerouted.pref_vx[i] == plain.pref_vx[i] && rerouted.pref_vy[i] == plain.pref_vy[i];
    // Not re-routed, or bound for the box, whose crowd field is not built: the static field.
    if (crowd.memory[i].route == 0 || crowd.target[i] == 3u) {
      ASSERT_TRUE(same) << i;
    } else {
      differ += !same;
    }
  }
  EXPECT_GT(differ, 50u);  // the crowd at the cup's mouth turns some of them
}

// A navigating row that names a target the world does not have is counted and not
// steered (the world then rejects the tick); the others are steered as ever.
TEST_P(NavSteerTest, CountsTheRowsWhoseTargetTheWorldDoesNotHave) {
  const Navigation nav;
  auto backend = CreateBackend(GetParam());
  Crowd crowd(4000, nav.spec, /*goals=*/true, 41u);
  const Frame frame{UpAxis::kZ, Handedness::kRight};
  const Prepared fine = Steered(*backend, nav, crowd, frame, /*rerouting=*/true);
  size_t unknown = 0;
  for (size_t i = 0; i < crowd.x.size(); i += 97) {
    crowd.target[i] = 42;
    unknown += fine.navigates[i];
  }
  ASSERT_GT(unknown, 10u);
  PedestrianPrepareParams prepare;
  prepare.dt = 0.1f;
  Prepared out(crowd.x.size());
  backend->PreparePedestrians(prepare, crowd.Scene(), out.View());
  const std::vector<float> prepared_vx = out.pref_vx;
  const NavSteerParams steer = SteerParams(prepare, frame);
  EXPECT_EQ(backend->SteerNavigating(steer, nav.World(), Steer(out, crowd, true),
                                     {out.pref_vx.data(), out.pref_vy.data()}),
            unknown);
  for (size_t i = 0; i < crowd.x.size(); ++i) {
    if (crowd.target[i] == 42u) {
      ASSERT_EQ(out.pref_vx[i], prepared_vx[i]) << i;  // not steered
    } else {
      ASSERT_EQ(out.pref_vx[i], fine.pref_vx[i]) << i;
      ASSERT_EQ(out.pref_vy[i], fine.pref_vy[i]) << i;
    }
  }
}

// NavigationRoutes: the targets whose crowd fields the re-routed navigating pedestrians
// follow, how many they are, and the prepared positions when asked, as the reference
// counts them; none without memory, only the point target when only its walkers are
// re-routed.
TEST_P(NavSteerTest, NamesTheTargetsOfTheReRoutedAndGivesThePositions) {
  const Navigation nav;
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  Crowd crowd(4000, nav.spec, /*goals=*/true, 31u);
  PedestrianPrepareParams prepare;
  prepare.dt = 0.1f;
  Prepared got(crowd.x.size()), want(crowd.x.size());
  backend->PreparePedestrians(prepare, crowd.Scene(), got.View());
  reference->PreparePedestrians(prepare, crowd.Scene(), want.View());
  const NavSteerParams params;
  uint64_t rerouted_want = 0;
  for (size_t i = 0; i < crowd.x.size(); ++i) {
    rerouted_want += want.navigates[i] && crowd.memory[i].route > 0;
  }
  std::vector<uint8_t> routed(2, 9), routed_want(2, 9);
  std::vector<float> x(crowd.x.size()), y(crowd.x.size());
  EXPECT_EQ(backend->NavigationRoutes(params, nav.World(), Steer(got, crowd, true),
                                      {routed.data(), x.data(), y.data()}),
            rerouted_want);
  EXPECT_EQ(reference->NavigationRoutes(params, nav.World(), Steer(want, crowd, true),
                                        {routed_want.data()}),
            rerouted_want);
  EXPECT_EQ(routed, (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(routed_want, routed);
  EXPECT_EQ(x, got.px);
  EXPECT_EQ(y, got.py);
  // Without memory nobody is re-routed; with only the point target's walkers re-routed,
  // only its field is wanted.
  EXPECT_EQ(
      backend->NavigationRoutes(params, nav.World(), Steer(got, crowd, false), {routed.data()}),
      0u);
  EXPECT_EQ(routed, (std::vector<uint8_t>{0, 0}));
  for (size_t i = 0; i < crowd.x.size(); ++i) {
    if (crowd.target[i] == 3u) crowd.memory[i].route = 0;
  }
  EXPECT_GT(
      backend->NavigationRoutes(params, nav.World(), Steer(got, crowd, true), {routed.data()}), 0u);
  EXPECT_EQ(routed, (std::vector<uint8_t>{1, 0}));
}

INSTANTIATE_TEST_SUITE_P(Backends, NavSteerTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda,
                                           BackendKind::kReference),
                         BackendParamName);

}  // namespace
}  // namespace throng
