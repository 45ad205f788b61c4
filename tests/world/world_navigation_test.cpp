// BEHAVIOR_NAVIGATE through the world tick (docs/NAVIGATION.md): agents in a U-shaped trap
// whose mouth faces away from their target get out and home along the field, where the
// same agents arriving straight at it stay in the cup; polygon targets; the input checks.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/scenarios/scenario.h"
#include "kernels/world/all_home.h"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

std::vector<Vec3> Box(float x0, float y0, float x1, float y1) {
  return {{x0, y0, 0.f}, {x1, y0, 0.f}, {x1, y1, 0.f}, {x0, y1, 0.f}};
}

// A cup: back wall at x = -4, sides at y = +-4, open toward +x. The target lies behind
// the back wall, 10 m from the cup's centre.
WorldConfig Cup() {
  WorldConfig c;
  c.obstacles = {Box(-4.f, -4.f, -3.5f, 4.f), Box(-4.f, 3.5f, 4.f, 4.f),
                 Box(-4.f, -4.f, 4.f, -3.5f)};
  c.navigation_targets = {{7, {{-10.f, 0.f, 0.f}}}};
  return c;
}

// Nine agents on a 3 x 3 lattice in the cup, each to the target at (-10, 0).
Snapshot InTheCup(AgentBehavior behavior) {
  Snapshot s;
  s.tick = 1;
  s.dt = 0.1f;
  for (int k = 0; k < 9; ++k) {
    s.agents.id.push_back(static_cast<uint32_t>(k));
    s.agents.x.push_back(-1.5f + 1.5f * static_cast<float>(k % 3));
    s.agents.y.push_back(-1.5f + 1.5f * static_cast<float>(k / 3));
    s.agents.goal_x.push_back(-10.f);
    s.agents.goal_y.push_back(0.f);
    s.agents.target.push_back(7);
    s.agents.behavior.push_back(static_cast<uint8_t>(behavior));
  }
  return s;
}

// How many of the agents end within 2 m of (-10, 0) after `ticks`: nine bodies of 0.3 m
// arriving at one point stand around it, not on it.
int HomeAfter(World& world, const Snapshot& s, int ticks) {
  TickOptions integrate;
  integrate.integrate = true;
  TickResult r;
  world.Step(s, integrate, &r);
  world.Advance(static_cast<uint32_t>(ticks), s.dt, &r);
  const AgentSnapshot& a = world.state().agents;
  int home = 0;
  for (size_t i = 0; i < a.size(); ++i) home += std::hypot(a.x[i] + 10.f, a.y[i]) < 2.f;
  return home;
}

class WorldNavigationTest : public BackendParamTest {};

TEST_P(WorldNavigationTest, NavigatingAgentsLeaveAUShapedTrapWhereArrivingOnesStay) {
  World navigating(Cup(), GetParam()), arriving(Cup(), GetParam());
  // 60 s: the way round the rim is about 25 m, 18 s at 1.4 m/s, and the nine queue at the
  // cup's mouth and at the target.
  const int home = HomeAfter(navigating, InTheCup(AgentBehavior::kNavigate), 600);
  const int straight = HomeAfter(arriving, InTheCup(AgentBehavior::kArrive), 600);
  EXPECT_EQ(home, 9);
  EXPECT_EQ(straight, 0);
}

TEST_P(WorldNavigationTest, APolygonTargetIsReachedAndStoodIn) {
  WorldConfig c = Cup();
  c.navigation_targets = {{3, Box(-12.f, -2.f, -8.f, 2.f)}};
  World world(c, GetParam());
  Snapshot s = InTheCup(AgentBehavior::kNavigate);
  s.agents.target.assign(9, 3);
  s.agents.goal_x.clear();  // no goals of their own: they stop where they stand in it
  s.agents.goal_y.clear();
  TickOptions integrate;
  integrate.integrate = true;
  TickResult r;
  world.Step(s, integrate, &r);
  world.Advance(600, s.dt, &r);
  const AgentSnapshot& a = world.state().agents;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_LT(a.x[i], -7.f) << "agent " << i;  // in or at the 4 m x 4 m box, 9 of them
    EXPECT_LT(std::fabs(a.y[i]), 3.f) << "agent " << i;
    EXPECT_LT(std::hypot(a.vx[i], a.vy[i]), 0.2f) << "agent " << i << " still walking";
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, WorldNavigationTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda,
                                           BackendKind::kReference),
                         BackendParamName);

void ExpectRejected(const WorldConfig& c, const Snapshot& s, const std::string& message) {
  try {
    World world(c, BackendKind::kCpu);
    TickResult r;
    world.Step(s, {}, &r);
    FAIL() << "accepted; expected: " << message;
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TEST(WorldNavigationInputTest, BadTargetsAndMissingOnesAreNamed) {
  const Snapshot s = InTheCup(AgentBehavior::kNavigate);
  Snapshot no_column = s;
  no_column.agents.target.clear();
  ExpectRejected(Cup(), no_column, "agents.target: missing while agent 0 navigates");
  Snapshot unknown = s;
  unknown.agents.target[4] = 9;
  ExpectRejected(Cup(), unknown, "agents.target[4]: 9 is not a navigation target of this world");
  WorldConfig twice = Cup();
  twice.navigation_targets.push_back({7, {{0.f, 10.f, 0.f}}});
  ExpectRejected(twice, s, "navigation_targets[1].id: 7 is already used by navigation_targets[0]");
  WorldConfig segment = Cup();
  segment.navigation_targets[0].shape.push_back({1.f, 1.f, 0.f});
  ExpectRejected(segment, s, "navigation_targets[0].shape: 2 vertices");
  WorldConfig far = Cup();
  far.navigation_targets[0].shape[0].x = NAN;
  ExpectRejected(far, s, "navigation_targets[0].shape[0]: coordinates must be finite");
  WorldConfig fine = Cup();
  fine.navigation.cell = 0.001f;
  ExpectRejected(fine, s, "navigation.cell: must be >= 0.05");
  WorldConfig negative = Cup();
  negative.navigation.reroute_every = -1;
  ExpectRejected(negative, s, "navigation.reroute_every: must be >= 0");
  WorldConfig one_corner = Cup();
  one_corner.navigation_targets[0].region = {{-20.f, -10.f, 0.f}};
  ExpectRejected(one_corner, s, "navigation_targets[0].region: 1 points; a region is two");
  WorldConfig flat = Cup();
  flat.navigation_targets[0].region = {{-20.f, -10.f, 0.f}, {10.f, -10.f, 0.f}};
  ExpectRejected(flat, s, "navigation_targets[0].region: the box must be at least");
  WorldConfig away = Cup();
  away.navigation_targets[0].region = {{-5.f, -10.f, 0.f}, {10.f, 10.f, 0.f}};
  ExpectRejected(away, s, "navigation_targets[0].shape[0]: outside the target's region");
  WorldConfig wide_cone = Cup();
  wide_cone.navigation.goal_cone = 2.f;
  ExpectRejected(wide_cone, s, "navigation.goal_cone: must be >= 0 and <= 1.58 rad");
  WorldConfig dear = Cup();
  dear.navigation.density_cost = NAN;
  ExpectRejected(dear, s, "navigation.density_cost: must be >= 0 and <= 100");
  WorldConfig wide = Cup();  // a grid of 2,000 x 2,000 m: more cells than a grid may have
  wide.navigation_targets = {{7, {{0.f, 0.f, 0.f}}}, {2, {{2000.f, 2000.f, 0.f}}}};
  ExpectRejected(wide, s, "navigation.cell: the grid would hold");
  WorldConfig nine = Cup();  // nine fields of 16.4 million cells: more than 8 x 4,096^2
  for (uint32_t k = 1; k < 9; ++k) {
    nine.navigation_targets.push_back({k + 10, {{125.f * static_cast<float>(k), 1000.f, 0.f}}});
  }
  ExpectRejected(nine, s, "navigation_targets: 9 fields of");
}

// A target with a region has its field over that box (with the margin) only; agents in it navigate
// as on the world's grid (the cup's nine all get out and home), and the cells counted against the
// limit are the region's.
TEST(WorldNavigationRegionTest, AFieldCoversItsRegionAndLeadsOutOfTheCup) {
  WorldConfig c = Cup();
  c.navigation_targets[0].region = {{6.f, 8.f, 0.f}, {-14.f, -8.f, 0.f}};  // any two corners
  c.navigation_targets.push_back({8, {{300.f, 0.f, 0.f}}});  // far: the world grid grows
  World world(c, BackendKind::kCpu);
  const NavField* field = world.NavigationField(7);
  ASSERT_NE(field, nullptr);
  EXPECT_EQ(field->spec.origin.x, -18.f);  // the box with the 4 m margin
  EXPECT_EQ(field->spec.origin.y, -12.f);
  EXPECT_EQ(field->spec.nx, 112);  // 28 m at 0.25 m
  EXPECT_EQ(field->spec.ny, 96);
  EXPECT_GT(world.NavigationField(8)->spec.nx, 1200);  // the world's grid: the cup to x = 304
  const std::optional<NavDistanceGrid> d = world.NavigationDistances(7);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->distance.size(), 112u * 96u);
  EXPECT_EQ(HomeAfter(world, InTheCup(AgentBehavior::kNavigate), 600), 9);
}

// Issue 35's memory bound: the fields of a 1 km x 1 km world at 0.25 m for 8 targets in
// under 200 MB. A field keeps one byte a cell (docs/NAVIGATION.md, "Storage"): 16.3
// million cells each, 130 MB for the eight. The world works: eight agents navigate.
TEST(WorldNavigationMemoryTest, EightFieldsOverOneSquareKilometreHoldUnder200MB) {
  WorldConfig c;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> at(0.f, 1000.f), size(0.5f, 3.f);
  c.obstacles.push_back(Box(0.f, 0.f, 1.f, 1.f));
  c.obstacles.push_back(Box(999.f, 999.f, 1000.f, 1000.f));
  for (int k = 0; k < 1000; ++k) {
    const float x = at(rng), y = at(rng);
    c.obstacles.push_back(Box(x, y, x + size(rng), y + size(rng)));
  }
  Snapshot s;
  s.tick = 1;
  s.dt = 0.1f;
  for (uint32_t k = 0; k < 8; ++k) {
    const float x = 60.f + 120.f * static_cast<float>(k);
    c.navigation_targets.push_back({k, {{x, 990.f - x, 0.f}}});
    s.agents.id.push_back(k);
    s.agents.x.push_back(990.f - x);
    s.agents.y.push_back(x);
    s.agents.target.push_back(k);
    s.agents.behavior.push_back(static_cast<uint8_t>(AgentBehavior::kNavigate));
  }
  const auto t0 = std::chrono::steady_clock::now();
  World world(c, BackendKind::kCpu);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const NavField* field = world.NavigationField(0);
  ASSERT_NE(field, nullptr);
  const size_t cells = field->spec.cells();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf(
      "[ figures  ] 8 fields of %d x %d cells: %.1f MB held, built in %.1f s; peak resident "
      "%.0f MB\n",
      field->spec.nx, field->spec.ny, static_cast<double>(world.NavigationBytes()) / 1e6, seconds,
      static_cast<double>(usage.ru_maxrss) / 1024.0);
  EXPECT_GT(cells, size_t{4000} * 4000);
  EXPECT_EQ(world.NavigationBytes(), 8 * cells);
  EXPECT_LT(world.NavigationBytes(), size_t{200} * 1000 * 1000);
  TickResult r;
  TickOptions options;
  options.local_results = true;  // the preferred velocities
  world.Step(s, options, &r);
  for (size_t i = 0; i < 8; ++i) {  // each heads for its target, across the square
    const Vec2 to{c.navigation_targets[i].shape[0].x - s.agents.x[i],
                  c.navigation_targets[i].shape[0].y - s.agents.y[i]};
    const Vec2 way{r.agents.pref_vx[i], r.agents.pref_vy[i]};
    EXPECT_GT(Dot(way, to), 0.f) << i;
  }
}

}  // namespace
}  // namespace throng

namespace throng {
namespace {

// RVO2's Blocks, one tile (100 agents of radius 2 m, four 30 m blocks, each group of 25
// bound for the mirrored corner): navigating to its corner's square and arriving on its
// own goal inside it, against arriving straight at the goal, with Throng's rules or as
// plain ORCA (RVO2's). Ticks until everyone is within 1 m of their goal (0: not within
// `limit`).
enum class Way { kNavigate, kNavigateFieldOnly, kStraight, kPlainOrca };
// The navigating runs are the library's "blocks_navigate" (each group to its tile's 50 m
// square round its goal corner, the tile as the target's region).
int TicksToAllHome(Way way, int limit) {
  const bool navigate = way == Way::kNavigate || way == Way::kNavigateFieldOnly;
  scenarios::Scenario s = scenarios::MakeScenario(navigate ? "blocks_navigate" : "blocks", 100, 1);
  if (way == Way::kPlainOrca) s.config.orca = PlainRvo2Params(s.config.orca);
  if (way == Way::kNavigateFieldOnly) s.config.navigation.goal_cone = 0.f;
  return RunUntilAllHome(s.config, s.initial, BackendKind::kCpu, limit).ticks;
}

// Measured 2026-12-04 (cpu): navigating, all 100 home at tick 1,217; along the field
// only (goal_cone 0), at 2,692: each group converges on its target square's nearest
// corner and queues there (at tick 1,000, before ridges picked a side, 22 home against 88
// walking straight);
// arriving straight with Throng's rules, not all by 5,000 (96, issue 41); as plain ORCA,
// all at 2,917. So the field brings everyone home where Throng's straight walk leaves
// four behind, and sooner than plain ORCA (issue 35's target). docs/NAVIGATION.md.
// Since right of way counts a creep as slow (docs/ORCA.md, "Right of way"), the queue at
// the corner clears sooner: navigating 1,603 (1,259 just before), along the field only
// 2,290 (3,827), straight 1,544, plain ORCA 2,917; the cone's lead is a third, not two.
// Since the crowd field counts 2 m bodies as the floor they cover (2026-12-08, below):
// navigating 1,027, along the field only 2,427, straight 1,543, plain ORCA 2,916.
TEST(WorldNavigationBlocksTest, NavigatingEveryoneGetsHome) {
  const int navigating = TicksToAllHome(Way::kNavigate, 5000);
  const int field_only = TicksToAllHome(Way::kNavigateFieldOnly, 5000);
  const int straight = TicksToAllHome(Way::kStraight, 5000);
  const int plain = TicksToAllHome(Way::kPlainOrca, 5000);
  std::printf(
      "[ figures  ] Blocks tile: all 100 home after %d ticks navigating, %d along the field "
      "only, %d arriving straight, %d as plain ORCA (0: not within 5,000)\n",
      navigating, field_only, straight, plain);
  EXPECT_GT(navigating, 0);
  EXPECT_GT(plain, 0);
  EXPECT_LT(navigating, plain);
  // The cone toward each agent's goal is what keeps the groups from queueing at a corner.
  EXPECT_TRUE(field_only == 0 || navigating < field_only * 3 / 4) << field_only;
}

}  // namespace
}  // namespace throng

namespace throng {
namespace {

// The longest run of ticks any agent stays flagged stalled (kAgentStalled), over `ticks`.
int LongestStall(const scenarios::Scenario& s, int ticks) {
  World world(s.config, BackendKind::kCpu);
  Snapshot snapshot = s.initial;
  TickOptions options;
  options.integrate = true;
  TickResult result;
  std::vector<int> run(s.initial.agents.size(), 0);
  int longest = 0;
  for (int k = 0; k < ticks; ++k) {
    if (k > 0) {
      snapshot = world.state();
      ++snapshot.tick;
    }
    world.Step(snapshot, options, &result);
    for (size_t i = 0; i < run.size(); ++i) {
      run[i] = (result.agents.flags[i] & kAgentStalled) ? run[i] + 1 : 0;
      longest = std::max(longest, run[i]);
    }
  }
  return longest;
}

// RVO2's Blocks tile, navigating (seed 1): where groups meet between the blocks, knots of
// 2 m bodies drifted for up to 140 s against the preferred velocities of half of them.
// Their re-routed agents followed crowd fields that counted each body as one head over a
// metre, so a knot cost little and the fields' lanes ran between its centres. Counted as
// the floor the bodies cover (docs/NAVIGATION.md, "Re-routing"), the crowd field leads round
// it. Measured 2026-12-08 (cpu, first 1,500 ticks): the longest stall 18 ticks after its
// flag, 712 with the head count.
TEST(WorldNavigationBlocksTest, ReRoutingCountsLargeBodiesAsTheFloorTheyCover) {
  const scenarios::Scenario s = scenarios::MakeScenario("blocks_navigate", 100, 1);
  const int longest = LongestStall(s, 1500);
  std::printf("[ figures  ] Blocks tile navigating: longest stall %d ticks after its flag\n",
              longest);
  EXPECT_LT(longest, 250);  // issue 41's 300 ticks, the flag's 50 included
}

}  // namespace
}  // namespace throng
