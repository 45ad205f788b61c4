// Finite but absurd input to the world tick (issue 14): refused before anything changes,
// or, where legal, answered in bounded work; a stop request ends a tick and leaves the
// world as it was.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "kernels/input/input_limits.h"
#include "kernels/steering/pedestrian_prepare_types.h"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

// 20 walkers with goals and 3 vehicles on a 200 m lane along +X (id 3).
WorldConfig LaneWorld() {
  WorldConfig config;
  SplineDesc lane;
  lane.id = 3;
  for (int k = 0; k <= 10; ++k) lane.points.push_back({20.f * k, 0.f, 0.f});
  config.splines = {lane};
  config.obstacles = {{{60, 5, 0}, {64, 5, 0}, {64, 9, 0}, {60, 9, 0}}};
  return config;
}

Snapshot Street(uint64_t tick) {
  Snapshot s;
  s.tick = tick;
  s.dt = 0.1f;
  for (uint32_t i = 0; i < 20; ++i) {
    s.agents.id.push_back(100 + i);
    s.agents.x.push_back(10.f + 8.f * static_cast<float>(i));
    s.agents.y.push_back(i % 2 ? 4.f : -4.f);
    s.agents.goal_x.push_back(10.f + 8.f * static_cast<float>(i));
    s.agents.goal_y.push_back(i % 2 ? -4.f : 4.f);
  }
  for (uint32_t v = 0; v < 3; ++v) {
    s.vehicles.id.push_back(v + 1);
    s.vehicles.x.push_back(5.f + 40.f * static_cast<float>(v));
    s.vehicles.y.push_back(0.f);
    s.vehicles.yaw.push_back(0.f);
    s.vehicles.speed.push_back(8.f);
    s.vehicles.spline_id.push_back(3);
  }
  return s;
}

class WorldLimitsTest : public BackendParamTest {
 protected:
  // `bad` is refused naming `field`, and the world is exactly as before.
  void ExpectRefused(World& world, const Snapshot& bad, const std::string& field) {
    const Snapshot before = world.state();
    const uint64_t ticks = world.totals().ticks;
    TickResult r;
    try {
      world.Step(bad, {}, &r);
      ADD_FAILURE() << "accepted " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(field, 0), 0u) << e.what();
    }
    EXPECT_EQ(world.state().tick, before.tick);
    EXPECT_EQ(world.state().agents.x, before.agents.x);
    EXPECT_EQ(world.totals().ticks, ticks);
  }
};

TEST_P(WorldLimitsTest, MagnitudesBeyondTheLimitsAreRefusedNamingColumnAndIndex) {
  World world(LaneWorld(), GetParam());
  TickResult r;
  world.Step(Street(1), {}, &r);
  auto bad = [] { return Street(2); };
  Snapshot s = bad();
  s.agents.y[1] = 3.4e38f;  // D1
  ExpectRefused(world, s, "agents.y[1]: 3.4e+38 m is beyond the limit");
  s = bad();
  s.agents.x[1] = 1e20f;  // D2
  ExpectRefused(world, s, "agents.x[1]");
  s = bad();
  s.agents.vx.assign(20, 0.f);
  s.agents.vy.assign(20, 0.f);
  s.agents.vy[1] = 1e20f;  // D5
  ExpectRefused(world, s, "agents.vy[1]");
  s = bad();
  s.agents.radius.assign(20, 0.3f);
  s.agents.radius[3] = 1e5f;  // D3
  ExpectRefused(world, s, "agents.radius[3]");
  s = bad();
  s.agents.goal_x[4] = -3e6f;
  ExpectRefused(world, s, "agents.goal_x[4]");
  s = bad();
  s.vehicles.length = {4.5f, 1e5f, 4.5f};  // D3
  ExpectRefused(world, s, "vehicles.length[1]");
  s = bad();
  s.vehicles.speed[2] = 5000.f;
  ExpectRefused(world, s, "vehicles.speed[2]");
  s = bad();
  s.vehicles.progress_hint = {0.f, 0.f, 2e5f};
  ExpectRefused(world, s, "vehicles.progress_hint[2]");
  s = bad();
  s.tick = ~uint64_t{0};  // D8
  ExpectRefused(world, s, "tick");
}

TEST_P(WorldLimitsTest, TheLargestLegalValuesStillTickInBoundedWork) {
  World world(LaneWorld(), GetParam());
  Snapshot s = Street(1);
  s.agents.radius.assign(20, kMaxRadius);
  s.agents.vx.assign(20, 0.f);
  s.agents.vy.assign(20, 0.f);
  s.agents.vx[0] = kMaxSpeed;
  s.agents.max_speed.assign(20, kMaxSpeed);
  s.vehicles.speed = {100.f, 100.f, kMaxSpeed};
  s.vehicles.length = {kMaxVehicleSize, 4.5f, 4.5f};
  s.vehicles.width = {1e-3f, 1.8f, kMaxVehicleSize};  // a needle: at most 32 discs
  TickResult r;
  TickOptions options;
  options.integrate = true;
  world.Step(s, options, &r);
  for (size_t i = 0; i < r.agents.vx.size(); ++i) {
    EXPECT_TRUE(std::isfinite(r.agents.vx[i]) && std::isfinite(r.agents.vy[i]));
  }
  for (float f : r.vehicles.steering) EXPECT_TRUE(std::isfinite(f));
  // The work, counted rather than timed: each of the 20 pedestrians meets at most the 19
  // others and the vehicles' discs (the needle at most VehicleBody::kMaxDiscs = 32, the
  // car 3, the wide one 1: 36); it keeps at most max_neighbors of them, and the one box
  // adds at most its 4 edges as lines: at most 1,100 candidates, 200 kept, 14 lines. A
  // needle cut into length / width = 4.5e6 discs would show here long before it showed
  // as time. Measured 2026-12-03 (every backend): 143 candidates, 121 kept, 11 lines; the
  // candidates' guard sits at about 2x that.
  std::printf("  [limits] candidates %llu, kept %llu, most constraints %u\n",
              static_cast<unsigned long long>(r.stats.candidates),
              static_cast<unsigned long long>(r.stats.neighbors), r.stats.constraints_max);
  const uint64_t max_neighbors = LaneWorld().orca.max_neighbors;
  EXPECT_LE(r.stats.candidates, 300u);  // structural bound 20 * (19 + 36) = 1,100
  EXPECT_LE(r.stats.neighbors, 20u * max_neighbors);
  EXPECT_LE(r.stats.constraints_max, max_neighbors + 4u);
}

TEST_P(WorldLimitsTest, ALongLaneIsProjectedInBoundedStepsWithoutAHint) {
  // D4: a 90 km lane; a vehicle without a progress hint is projected onto all of it.
  WorldConfig config;
  SplineDesc lane;
  lane.id = 1;
  lane.points = {{0, 0, 0}, {45000, 0, 0}, {90000, 0, 0}};
  config.splines = {lane};
  World world(config, GetParam());
  Snapshot s;
  s.tick = 1;
  s.vehicles.id = {1};
  s.vehicles.x = {61234.f};
  s.vehicles.y = {1.f};
  s.vehicles.yaw = {0.f};
  s.vehicles.speed = {10.f};
  s.vehicles.spline_id = {1};
  TickResult r;
  world.Step(s, {}, &r);
  ASSERT_EQ(r.vehicles.progress.size(), 1u);
  EXPECT_NEAR(r.vehicles.progress[0], 61234.f, 2.f);
}

TEST_P(WorldLimitsTest, AStopRequestEndsTheTickAndChangesNothing) {
  World world(LaneWorld(), GetParam());
  World fresh(LaneWorld(), GetParam());
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  world.Step(Street(1), integrate, &r);
  fresh.Step(Street(1), integrate, &r);
  // Every place the tick asks, in turn: each refusal leaves the world as it was.
  for (int allowed = 0;; ++allowed) {
    int asked = 0;
    TickOptions options = integrate;
    options.stop = [&] { return asked++ >= allowed; };
    Snapshot next = world.state();
    next.tick = 2;
    try {
      world.Step(next, options, &r);
      EXPECT_GT(allowed, 3) << "a tick asks between its stages";
      break;  // this many checks were all the tick had
    } catch (const TickCancelled&) {
      EXPECT_EQ(world.state().tick, 1u);
      EXPECT_EQ(world.totals().ticks, 1u);
    }
    ASSERT_LT(allowed, 100);
  }
  TickResult a, b;
  world.Advance(3, 0.1f, &a);
  Snapshot next = fresh.state();
  next.tick = 2;
  fresh.Step(next, integrate, &b);
  fresh.Advance(2, 0.1f, &b);
  EXPECT_EQ(a.agents.vx, b.agents.vx);
  EXPECT_EQ(world.state().agents.x, fresh.state().agents.x);

  // Advance stops too; the ticks before the stop stand.
  int asked = 0;
  EXPECT_THROW(world.Advance(5, 0.1f, &a, [&] { return ++asked > 30; }), TickCancelled);
  EXPECT_GT(world.state().tick, 5u);
  EXPECT_LT(world.state().tick, 10u);
}

TEST_P(WorldLimitsTest, TicksStopShortOfTheLastTickThereIs) {
  World world(LaneWorld(), GetParam());
  TickResult r;
  world.Step(Street(kMaxTick - 2), {}, &r);
  EXPECT_THROW(world.Advance(3, 0.1f, &r), std::invalid_argument);
  EXPECT_EQ(world.state().tick, kMaxTick - 2);
  world.Advance(2, 0.1f, &r);
  EXPECT_EQ(world.state().tick, kMaxTick);
}

// Advance checks its own pedestrians only every so many ticks (those between stay on the
// backend, docs/WORLD.md): so many that nobody moves farther than kMaxCoordinate in them.
// A walker at the largest speed leaving the world is still refused, within that bound.
TEST_P(WorldLimitsTest, AWalkerLeavingTheWorldInAnAdvanceIsRefusedWithinTheBound) {
  World world(WorldConfig{}, GetParam());
  Snapshot s;
  s.tick = 1;
  s.dt = 10.f;
  s.agents.id = {7};
  s.agents.x = {0.99f * kMaxCoordinate};
  s.agents.y = {0.f};
  s.agents.vx = {kMaxSpeed};
  s.agents.max_speed = {kMaxSpeed};
  s.agents.behavior = {static_cast<uint8_t>(AgentBehavior::kPreferredVelocity)};
  s.agents.pref_vx = {kMaxSpeed};
  s.agents.pref_vy = {0.f};
  TickOptions options;
  options.integrate = true;
  TickResult r;
  world.Step(s, options, &r);
  const int bound = static_cast<int>(kMaxCoordinate / (kMaxSpeed * s.dt));  // 200 ticks
  try {
    world.Advance(10 * bound, s.dt, &r);
    FAIL() << "a walker beyond kMaxCoordinate went on";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("agents.x[0]: "), std::string::npos) << e.what();
  }
  EXPECT_GT(world.state().agents.x[0], kMaxCoordinate);
  EXPECT_LE(world.state().agents.x[0], 2 * kMaxCoordinate);
  EXPECT_LE(world.state().tick, s.tick + static_cast<uint64_t>(bound) + 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, WorldLimitsTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference,
                                           BackendKind::kCuda),
                         BackendParamName);

// Configurations: absurd coordinates are invalid, totals beyond a world's share are
// LimitExceeded (RESOURCE_EXHAUSTED over gRPC), and nothing large is built before.
TEST(WorldConfigLimitsTest, LanesAndObstaclesAreBoundedBeforeAnythingIsBuilt) {
  auto expect_invalid = [](const WorldConfig& c, const std::string& field) {
    try {
      World world(c, BackendKind::kCpu);
      ADD_FAILURE() << "accepted " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(field, 0), 0u) << e.what();
    }
  };
  auto expect_too_large = [](const WorldConfig& c, const std::string& field) {
    try {
      World world(c, BackendKind::kCpu);
      ADD_FAILURE() << "accepted " << field;
    } catch (const LimitExceeded& e) {
      EXPECT_EQ(std::string(e.what()).rfind(field, 0), 0u) << e.what();
    }
  };
  WorldConfig c;
  c.splines = {{1, {{0, 0, 0}, {1e30f, 0, 0}}}};  // D4
  expect_invalid(c, "splines[0].points[1]");
  // A zig-zag inside the coordinate box, 120 km long.
  SplineDesc zigzag{1, {}};
  for (int k = 0; k <= 12; ++k) zigzag.points.push_back({k % 2 ? 10000.f : 0.f, 100.f * k, 0});
  c.splines = {zigzag};
  expect_invalid(c, "splines[0]");
  // 30 lanes of 90 km are 2,700 km: more than a world's 2,000 km.
  c.splines.clear();
  for (uint32_t i = 0; i < 30; ++i) {
    const float y = 10.f * static_cast<float>(i);
    c.splines.push_back({i + 1, {{0, y, 0}, {90000, y, 0}}});
  }
  expect_too_large(c, "splines");
  c = WorldConfig{};
  c.obstacles.assign(30000, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}});  // 120,000 vertices
  expect_too_large(c, "obstacles");
  c = WorldConfig{};
  c.obstacles = {{{0, 0, 0}, {1, 0, 0}, {1, 3e6f, 0}}};
  expect_invalid(c, "obstacles[0].vertices[2]");
  c = WorldConfig{};
  c.agent_defaults.radius = 500.f;
  expect_invalid(c, "agent_defaults.radius");
  c = WorldConfig{};
  c.orca.time_horizon = 1e4f;
  expect_invalid(c, "params.time_horizon");
  c = WorldConfig{};
  c.follower.look_ahead_base = 1e30f;
  expect_invalid(c, "follower.look_ahead_base");
  c = WorldConfig{};
  c.world_speed_limit = 1e9f;
  expect_invalid(c, "world.speed_limit");
}

}  // namespace
}  // namespace throng
