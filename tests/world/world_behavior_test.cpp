// Behaviours chosen per agent (arrive, seek, flee, preferred velocity, and the world's
// default) and follower profiles chosen per vehicle, through the world tick.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

// Lone agents far apart (no avoidance between them), each with a goal at +10 m in x from
// its start and a preferred velocity of 0.5 m/s along +y.
Snapshot LoneAgents(std::vector<uint8_t> behavior) {
  Snapshot s;
  s.tick = 1;
  s.dt = 0.1f;
  for (size_t i = 0; i < behavior.size(); ++i) {
    const float y = 100.f * static_cast<float>(i);
    s.agents.id.push_back(static_cast<uint32_t>(i));
    s.agents.x.push_back(0.f);
    s.agents.y.push_back(y);
    s.agents.goal_x.push_back(10.f);
    s.agents.goal_y.push_back(y);
    s.agents.pref_vx.push_back(0.f);
    s.agents.pref_vy.push_back(0.5f);
  }
  s.agents.behavior = std::move(behavior);
  return s;
}

void RunTicks(World& world, const Snapshot& s, int ticks) {
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  world.Step(s, integrate, &r);
  world.Advance(ticks - 1, s.dt, &r);
}

constexpr uint8_t B(AgentBehavior b) { return static_cast<uint8_t>(b); }

class WorldBehaviorTest : public BackendParamTest {};

TEST_P(WorldBehaviorTest, EachBehaviourMovesItsAgentItsOwnWay) {
  World world(WorldConfig{}, GetParam());
  RunTicks(world,
           LoneAgents({B(AgentBehavior::kArrive), B(AgentBehavior::kSeek), B(AgentBehavior::kFlee),
                       B(AgentBehavior::kPreferredVelocity), B(AgentBehavior::kByColumns)}),
           60);  // 6 s: at 1.4 m/s the 10 m goal is not yet reached
  const AgentSnapshot& a = world.state().agents;
  // Arrive slows inside its 1.5 m radius; seek keeps full speed. After 6 s neither has
  // arrived, so both are on the +x line, seek at least as far.
  EXPECT_GT(a.x[0], 6.f);
  EXPECT_GE(a.x[1], a.x[0]);
  EXPECT_NEAR(a.y[1], 100.f, 1e-3f);
  // Flee runs from the goal point: -x, at full speed after the ramp up.
  EXPECT_LT(a.x[2], -6.f);
  EXPECT_NEAR(a.y[2], 200.f, 1e-3f);
  // Preferred velocity ignores the goal columns: +y at 0.5 m/s.
  EXPECT_NEAR(a.x[3], 0.f, 1e-3f);
  EXPECT_NEAR(a.y[3], 300.f + 0.5f * 6.f, 0.05f);
  // By columns with goals present: arrive, exactly as agent 0.
  EXPECT_EQ(a.x[4], a.x[0]);
  EXPECT_EQ(a.y[4] - 400.f, a.y[0]);
}

TEST_P(WorldBehaviorTest, SeekPassesTheGoalWhereArriveStopsOnIt) {
  World world(WorldConfig{}, GetParam());
  Snapshot s = LoneAgents({B(AgentBehavior::kArrive), B(AgentBehavior::kSeek)});
  s.agents.goal_x = {3.f, 3.f};
  RunTicks(world, s, 40);  // 4 s: at 1.4 m/s, 3 m takes about 2.2 s
  const AgentSnapshot& a = world.state().agents;
  EXPECT_NEAR(a.x[0], 3.f, 0.02f) << "arrive stops on the goal";
  EXPECT_LT(std::hypot(a.vx[0], a.vy[0]), 0.05f);
  // Seek has no slowing radius: it reaches the goal at speed, overshoots and turns back.
  float farthest = 0.f;
  World again(WorldConfig{}, GetParam());
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  again.Step(s, integrate, &r);
  for (int t = 0; t < 60; ++t) {
    again.Advance(1, s.dt, &r);
    farthest = std::max(farthest, again.state().agents.x[1]);
  }
  EXPECT_GT(farthest, 3.2f) << "seek overshoots";
}

TEST_P(WorldBehaviorTest, TheWorldsDefaultBehaviourAppliesWhereTheColumnSaysNothing) {
  WorldConfig flee_world;
  flee_world.agent_defaults.behavior = AgentBehavior::kFlee;
  World world(flee_world, GetParam());
  Snapshot s = LoneAgents({B(AgentBehavior::kByColumns), B(AgentBehavior::kSeek)});
  RunTicks(world, s, 30);
  EXPECT_LT(world.state().agents.x[0], -2.f) << "the default: flee";
  EXPECT_GT(world.state().agents.x[1], 2.f) << "its own: seek";

  // With no column at all, and an agent flagged "uses preferred velocity": the flag is
  // the agent's own choice and beats the world's default.
  World flagged(flee_world, GetParam());
  Snapshot f = LoneAgents({0, 0});
  f.agents.behavior.clear();
  f.agents.flags = {0, kSnapshotUsesPreferredVelocity};
  RunTicks(flagged, f, 30);
  EXPECT_LT(flagged.state().agents.x[0], -2.f);
  EXPECT_NEAR(flagged.state().agents.x[1], 0.f, 1e-3f);
  EXPECT_GT(flagged.state().agents.y[1], 101.f);
}

TEST_P(WorldBehaviorTest, BadBehavioursAreRejectedAndChangeNothing) {
  World world(WorldConfig{}, GetParam());
  RunTicks(world, LoneAgents({B(AgentBehavior::kArrive)}), 3);
  const Snapshot before = world.state();
  const auto rejects = [&](Snapshot s, const std::string& message) {
    s.tick = 100;
    TickResult r;
    try {
      world.Step(s, {}, &r);
      ADD_FAILURE() << "accepted; expected: " << message;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(message, 0), 0u) << e.what();
    }
    EXPECT_EQ(world.state().tick, before.tick);
    EXPECT_EQ(world.state().agents.x, before.agents.x);
  };
  rejects(LoneAgents({1, 7}), "agents.behavior[1]: 7 is not a behaviour");
  Snapshot no_goals = LoneAgents({4, 2});
  no_goals.agents.goal_x.clear();
  no_goals.agents.goal_y.clear();
  rejects(no_goals, "agents.behavior[1]: seek needs the goal columns");
  Snapshot contradiction = LoneAgents({3});
  contradiction.agents.flags = {kSnapshotUsesPreferredVelocity};
  rejects(contradiction, "agents.flags[0]: \"uses preferred velocity\" contradicts behavior flee");
  Snapshot short_column = LoneAgents({1, 1});
  short_column.agents.behavior = {1};
  rejects(short_column, "agents.behavior");

  WorldConfig seek_world;
  seek_world.agent_defaults.behavior = AgentBehavior::kSeek;
  World seeking(seek_world, GetParam());
  Snapshot plain = LoneAgents({0});
  plain.agents.behavior.clear();
  plain.agents.goal_x.clear();
  plain.agents.goal_y.clear();
  TickResult r;
  try {
    seeking.Step(plain, {}, &r);
    ADD_FAILURE() << "a seek world without goals was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "agents.goal_x: missing while agent 0 moves by seek (the world's default "
                 "behaviour), which needs it");
  }
}

// One straight lane along +X, 400 m, and one profile that steers by heading alone (no CTE
// term, heading weight 1).
WorldConfig LaneWithProfiles() {
  WorldConfig config;
  SplineDesc lane;
  lane.id = 7;
  for (int k = 0; k <= 20; ++k) lane.points.push_back({20.f * k, 0.f, 0.f});
  config.splines = {lane};
  FollowerParams no_cte = config.follower;
  no_cte.crosstrack_gain = 0.f;
  no_cte.heading_weight = 1.f;
  config.vehicle_profiles = {no_cte};
  return config;
}

TEST_P(WorldBehaviorTest, AVehicleProfileChangesOnlyTheVehiclesThatNameIt) {
  World world(LaneWithProfiles(), GetParam());
  Snapshot s;
  s.tick = 1;
  s.dt = 0.05f;
  // Two vehicles 1.5 m left of the lane, heading along it; the second follows profile 1
  // (no CTE term, all heading): it runs parallel to the line instead of rejoining it.
  s.vehicles.id = {1, 2};
  s.vehicles.y = {1.5f, 1.5f};
  s.vehicles.yaw = {0.f, 0.f};
  s.vehicles.speed = {8.f, 8.f};
  s.vehicles.spline_id = {7, 7};
  s.vehicles.length = {4.5f, 4.5f};
  s.vehicles.profile = {0, 1};
  // 50 m apart along the lane, so that neither brakes for the other.
  s.vehicles.x = {10.f, 60.f};
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  world.Step(s, integrate, &r);
  world.Advance(100, s.dt, &r);  // 5 s
  EXPECT_LT(std::fabs(r.vehicles.cte[0]), 0.2f) << "the world's follower rejoins the lane";
  EXPECT_NEAR(r.vehicles.cte[1], -1.5f, 0.1f) << "the profile keeps running parallel";

  // A profile index beyond the list is rejected, naming it.
  Snapshot bad = world.state();
  bad.tick += 1;
  bad.vehicles.profile = {0, 2};
  try {
    world.Step(bad, {}, &r);
    ADD_FAILURE() << "profile 2 of 1 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(
        e.what(),
        "vehicles.profile[1]: 2 but the world has 1 profile (0 = its follower parameters)");
  }
}

TEST(WorldProfilesTest, ABadProfileNamesItsIndexAndField) {
  WorldConfig config = LaneWithProfiles();
  config.vehicle_profiles.push_back(config.follower);
  config.vehicle_profiles[1].heading_weight = 2.f;
  try {
    World world(config, BackendKind::kCpu);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("vehicle_profiles[1].heading_weight:", 0), 0u)
        << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, WorldBehaviorTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference,
                                           BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
