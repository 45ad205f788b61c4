// The world tick on hand-made scenes: behaviours, frames, per-id state, detection, vehicle
// braking, and a rejected snapshot leaving the world exactly as it was.
#include "kernels/world/world.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

// Agents with goals, radius 0.3, max speed 1.4 (the world defaults).
Snapshot Walkers(std::vector<Vec2> from, std::vector<Vec2> to) {
  Snapshot s;
  s.tick = 1;
  s.dt = 0.1f;
  for (size_t i = 0; i < from.size(); ++i) {
    s.agents.id.push_back(static_cast<uint32_t>(100 + i));
    s.agents.x.push_back(from[i].x);
    s.agents.y.push_back(from[i].y);
    s.agents.goal_x.push_back(to[i].x);
    s.agents.goal_y.push_back(to[i].y);
  }
  return s;
}

// Runs integrated ticks from `s`, returning the last result.
TickResult RunTicks(World& world, Snapshot s, int ticks) {
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  integrate.local_results = true;  // some tests read the preferred velocities
  world.Step(s, integrate, &r);
  if (ticks > 1) world.Advance(ticks - 1, s.dt, &r, integrate);
  return r;
}

class WorldTest : public BackendParamTest {};

TEST_P(WorldTest, HeadOnWalkersPassAndArriveWithoutOverlap) {
  World world(WorldConfig{}, GetParam());
  Snapshot s = Walkers({{-5, 0}, {5, 0}}, {{5, 0}, {-5, 0}});
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  world.Step(s, integrate, &r);
  uint64_t overlaps = 0;
  for (int t = 0; t < 200; ++t) {
    world.Advance(1, 0.1f, &r);
    overlaps += r.stats.agent_overlaps;
    EXPECT_EQ(r.stats.status_count[0], 2u) << "tick " << t;
  }
  EXPECT_EQ(overlaps, 0u);
  const AgentSnapshot& a = world.state().agents;
  EXPECT_NEAR(a.x[0], 5.f, 0.1f);
  EXPECT_NEAR(a.x[1], -5.f, 0.1f);
  EXPECT_EQ(world.totals().ticks, 201u);
  EXPECT_EQ(r.stats.oscillating, 0u) << "a symmetric head-on pass must not swing";
}

TEST_P(WorldTest, FramesGiveTheSamePhysicalAnswer) {
  // The same scene in ROS (Z up, right-handed) and Unity (Y up, left-handed) coordinates:
  // Unity (x, y, z) = ROS (x, z, y).
  WorldConfig ros_config, unity_config;
  unity_config.frame = {UpAxis::kY, Handedness::kLeft};
  ros_config.obstacles = {{{1, -1, 0}, {2, -1, 0}, {2, 1, 0}, {1, 1, 0}}};
  unity_config.obstacles = {{{1, 0, -1}, {2, 0, -1}, {2, 0, 1}, {1, 0, 1}}};
  World ros(ros_config, GetParam()), unity(unity_config, GetParam());
  Snapshot a = Walkers({{-2, 0.2f}, {4, 0}}, {{5, 0.5f}, {-3, 0}});
  Snapshot b = a;
  b.agents.z = a.agents.y;
  b.agents.y.assign(a.agents.size(), 0.f);
  b.agents.goal_z = a.agents.goal_y;
  b.agents.goal_y.assign(a.agents.size(), 0.f);
  TickResult ra, rb;
  for (int t = 0; t < 30; ++t) {
    a.tick = b.tick = static_cast<uint64_t>(t + 1);
    ros.Step(a, {}, &ra);
    unity.Step(b, {}, &rb);
    for (size_t i = 0; i < a.agents.size(); ++i) {
      ASSERT_FLOAT_EQ(ra.agents.vx[i], rb.agents.vx[i]);
      ASSERT_FLOAT_EQ(ra.agents.vy[i], rb.agents.vz[i]);
      ASSERT_EQ(rb.agents.vy[i], 0.f);
      a.agents.x[i] += ra.agents.vx[i] * a.dt;
      a.agents.y[i] += ra.agents.vy[i] * a.dt;
      b.agents.x[i] += rb.agents.vx[i] * b.dt;
      b.agents.z[i] += rb.agents.vz[i] * b.dt;
    }
  }
  EXPECT_EQ(ra.stats.agents_in_obstacles, 0u);
}

TEST_P(WorldTest, RejectedSnapshotsLeaveTheWorldExactlyAsItWas) {
  World world(WorldConfig{}, GetParam());
  Snapshot good = Walkers({{0, 0}, {3, 0}}, {{3, 0}, {0, 0}});
  good.tick = 5;
  TickResult r;
  world.Step(good, {}, &r);
  const Snapshot before = world.state();

  auto expect_rejected = [&](Snapshot bad, const std::string& field) {
    TickResult untouched;
    try {
      world.Step(bad, {}, &untouched);
      ADD_FAILURE() << "accepted a snapshot with a bad " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
    EXPECT_EQ(world.state().tick, before.tick);
    EXPECT_EQ(world.state().agents.x, before.agents.x);
    EXPECT_EQ(world.totals().ticks, 1u);
  };
  Snapshot s = good;
  s.tick = 5;
  expect_rejected(s, "tick");
  s = good;
  s.tick = 6;
  s.agents.id[1] = s.agents.id[0];
  expect_rejected(s, "agents.id[1]");
  s = good;
  s.tick = 6;
  s.agents.x[1] = std::nanf("");
  expect_rejected(s, "agents.x[1]");
  s = good;
  s.tick = 6;
  s.agents.radius = {0.3f, -1.f};
  expect_rejected(s, "agents.radius[1]");
  s = good;
  s.tick = 6;
  s.agents.max_speed = {1.f};
  expect_rejected(s, "agents.max_speed");
  s = good;
  s.tick = 6;
  s.agents.goal_y.clear();
  expect_rejected(s, "agents.goal_y");
  s = good;
  s.tick = 6;
  s.dt = 0.f;
  expect_rejected(s, "dt");
  s = good;
  s.tick = 6;
  s.vehicles.id = {1};
  s.vehicles.x = {0};
  s.vehicles.y = {0};
  s.vehicles.yaw = {0};
  s.vehicles.speed = {1};
  s.vehicles.spline_id = {7};
  expect_rejected(s, "vehicles.spline_id[0]");
  s.vehicles.spline_id.clear();
  expect_rejected(s, "vehicles.spline_id");

  // And the next good tick gives what a world that never saw the bad ones gives.
  World fresh(WorldConfig{}, GetParam());
  fresh.Step(good, {}, &r);
  good.tick = 6;
  TickResult a, b;
  world.Step(good, {}, &a);
  fresh.Step(good, {}, &b);
  EXPECT_EQ(a.agents.vx, b.agents.vx);
  EXPECT_EQ(a.agents.vy, b.agents.vy);
}

TEST_P(WorldTest, StateFollowsIdsAcrossReorderAddAndRemove) {
  // A walker pushing against a wall toward a goal behind it stalls; its stall counter
  // must follow its id when the snapshot reorders, and a removed id forgets it.
  WorldConfig config;
  config.detection.stall_ticks = 10;
  config.obstacles = {{{1, -3, 0}, {1.2f, -3, 0}, {1.2f, 3, 0}, {1, 3, 0}}};
  World world(config, GetParam());
  Snapshot s = Walkers({{0.6f, 0}, {-5, 5}}, {{3, 0}, {-5, 5}});
  TickResult r;
  for (int t = 1; t <= 12; ++t) {
    s.tick = static_cast<uint64_t>(t);
    world.Step(s, {}, &r);
  }
  EXPECT_TRUE(r.agents.flags[0] & kAgentStalled);
  EXPECT_FALSE(r.agents.flags[1] & kAgentStalled) << "an agent at its goal is not stalled";
  EXPECT_EQ(r.stats.stalled, 1u);

  // Reordered, plus a newcomer: the stalled agent is still stalled, the newcomer is not.
  Snapshot t = Walkers({{-5, 5}, {0, -8}, {0.6f, 0}}, {{-5, 5}, {3, -8}, {3, 0}});
  t.agents.id = {101, 7, 100};
  t.tick = 13;
  world.Step(t, {}, &r);
  EXPECT_TRUE(r.agents.flags[2] & kAgentStalled);
  EXPECT_FALSE(r.agents.flags[1] & kAgentStalled);

  // Removed for a tick, then back: it starts fresh.
  Snapshot u = t;
  u.agents = Walkers({{-5, 5}}, {{-5, 5}}).agents;
  u.agents.id = {101};
  u.tick = 14;
  world.Step(u, {}, &r);
  t.tick = 15;
  world.Step(t, {}, &r);
  EXPECT_FALSE(r.agents.flags[2] & kAgentStalled);
}

TEST_P(WorldTest, StallEpisodesAndTheLongestStallAreCounted) {
  // The walker against the wall: its stall begins when the counter reaches stall_ticks
  // (one episode, on that tick only) and its length then grows by a tick each tick.
  WorldConfig config;
  config.detection.stall_ticks = 10;
  config.obstacles = {{{1, -3, 0}, {1.2f, -3, 0}, {1.2f, 3, 0}, {1, 3, 0}}};
  World world(config, GetParam());
  Snapshot s = Walkers({{0.6f, 0}, {-5, 5}}, {{3, 0}, {-5, 5}});
  TickResult r;
  uint64_t episodes = 0;
  int first_stalled_tick = 0;
  for (int t = 1; t <= 15; ++t) {
    s.tick = static_cast<uint64_t>(t);
    world.Step(s, {}, &r);
    episodes += r.stats.stall_episodes;
    if (r.stats.stalled == 0) {
      EXPECT_EQ(r.stats.longest_stall_ticks, 0u) << "tick " << t;
      continue;
    }
    if (first_stalled_tick == 0) {
      first_stalled_tick = t;
      EXPECT_EQ(r.stats.stall_episodes, 1u);
    } else {
      EXPECT_EQ(r.stats.stall_episodes, 0u) << "tick " << t << ": the same stall goes on";
    }
    EXPECT_EQ(r.stats.longest_stall_ticks, 10u + static_cast<uint64_t>(t - first_stalled_tick));
  }
  ASSERT_GT(first_stalled_tick, 0) << "the walker never stalled";
  EXPECT_EQ(episodes, 1u);
  EXPECT_EQ(world.totals().stall_episodes, 1u);
  EXPECT_EQ(world.totals().longest_stall_ticks,
            10u + static_cast<uint64_t>(15 - first_stalled_tick));

  // Removed and back, it stalls again: a second episode.
  Snapshot alone = Walkers({{-5, 5}}, {{-5, 5}});
  alone.tick = 16;
  world.Step(alone, {}, &r);
  for (int t = 17; t <= 40; ++t) {
    s.tick = static_cast<uint64_t>(t);
    world.Step(s, {}, &r);
  }
  EXPECT_EQ(world.totals().stall_episodes, 2u);
}

TEST_P(WorldTest, OscillationFlagsASwingingAgentButNotACalmCrossing) {
  // Hand-made swinging: a scripted (non-cooperative) blocker jumps from one side of a
  // walker's path to the other every few ticks, so the walker's dodge changes sides.
  WorldConfig config;
  World swinging(config, GetParam());
  Snapshot s = Walkers({{0, 0}, {0.9f, 0.5f}}, {{20, 0}, {0.9f, 0.5f}});
  s.agents.goal_x.clear();
  s.agents.goal_y.clear();
  s.agents.pref_vx = {1.4f, 0.f};
  s.agents.pref_vy = {0.f, 0.f};
  s.agents.flags = {0, kSnapshotNonCooperative};
  TickResult r;
  uint64_t flagged = 0;
  for (int t = 1; t <= 30; ++t) {
    s.tick = static_cast<uint64_t>(t);
    s.agents.y[1] = (t / 2) % 2 == 0 ? 0.5f : -0.5f;
    swinging.Step(s, {}, &r);
    flagged += (r.agents.flags[0] & kAgentOscillating) ? 1 : 0;
    EXPECT_EQ(r.agents.flags[1], 0) << "scripted agents are not judged";
  }
  EXPECT_GT(flagged, 0u);

  // Calm crossing: two walkers crossing at right angles.
  World calm(config, GetParam());
  Snapshot c = Walkers({{-6, 0}, {0, -6}}, {{6, 0}, {0, 6}});
  RunTicks(calm, c, 150);
  EXPECT_EQ(calm.totals().oscillating, 0u);
  EXPECT_EQ(calm.totals().agent_overlaps, 0u);
  EXPECT_NEAR(calm.state().agents.x[0], 6.f, 0.2f);
}

// One straight lane along +X, 200 m.
WorldConfig Lane() {
  WorldConfig config;
  SplineDesc lane;
  lane.id = 3;
  for (int k = 0; k <= 10; ++k) lane.points.push_back({20.f * k, 0.f, 0.f});
  config.splines = {lane};
  return config;
}

TEST_P(WorldTest, VehicleStopsForAPedestrianOnItsLaneAndResumes) {
  World world(Lane(), GetParam());
  Snapshot s;
  s.tick = 1;
  s.dt = 0.1f;
  s.vehicles.id = {9};
  s.vehicles.x = {10};
  s.vehicles.y = {0};
  s.vehicles.yaw = {0};
  s.vehicles.speed = {10};
  s.vehicles.spline_id = {3};
  // A scripted pedestrian standing on the lane 40 m ahead.
  s.agents.id = {1};
  s.agents.x = {50};
  s.agents.y = {0};
  s.agents.flags = {kSnapshotNonCooperative};
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  world.Step(s, integrate, &r);
  EXPECT_TRUE(std::isinf(r.vehicles.clear_distance[0])) << "40 m is beyond what 10 m/s needs";
  float min_gap = 1e9f;
  const float body = AgentDefaults{}.radius;  // the pedestrian sends no radius
  for (int t = 0; t < 150; ++t) {
    world.Advance(1, 0.1f, &r);
    const VehicleSnapshot& v = world.state().vehicles;
    min_gap = std::min(min_gap, 50.f - body - (v.x[0] + 0.78f * 4.5f));
    EXPECT_LT(std::fabs(r.vehicles.cte[0]), 0.2f);
  }
  EXPECT_EQ(world.totals().vehicle_overlaps, 0u);
  // The cap aims 3 m short of the first corridor sample that meets the pedestrian
  // (docs/WORLD.md); the speed loop lags the cap, and the bumper stops 2.40 m from the
  // pedestrian's body (0.2 m, the default radius; 2.37 m from a 0.3 m one) on every
  // backend. The guard sits close to that: the run is deterministic, and a path check
  // that kept a smaller gap shows here (a 2.5 m gap stops 2.24 m short, a 2 m gap 1.83 m,
  // both with the 0.3 m body).
  EXPECT_GT(min_gap, 2.3f) << "stopped short of the pedestrian";
  EXPECT_LT(world.state().vehicles.speed[0], 0.1f) << "and waits";
  EXPECT_GT(r.stats.vehicles_braking, 0u);

  // The pedestrian leaves: the vehicle drives on.
  Snapshot next = world.state();
  next.agents.x = {50};
  next.agents.y = {8};
  next.tick += 1;
  world.Step(next, integrate, &r);
  world.Advance(50, 0.1f, &r);
  EXPECT_GT(world.state().vehicles.speed[0], 3.f);
  EXPECT_TRUE(std::isinf(r.vehicles.clear_distance[0]));
}

TEST_P(WorldTest, VehiclesLeavingTheSnapshotLeaveNoResultsBehind) {
  World world(Lane(), GetParam());
  Snapshot s = Walkers({{0, 5}}, {{5, 5}});
  s.vehicles.id = {1};
  s.vehicles.x = {10};
  s.vehicles.y = {0};
  s.vehicles.yaw = {0};
  s.vehicles.speed = {5};
  s.vehicles.spline_id = {3};
  TickResult r;
  world.Step(s, {}, &r);
  ASSERT_EQ(r.vehicles.steering.size(), 1u);
  s.tick = 2;
  s.vehicles = VehicleSnapshot{};
  world.Step(s, {}, &r);
  EXPECT_TRUE(r.vehicles.steering.empty());
  EXPECT_TRUE(r.vehicles.throttle.empty());
  EXPECT_TRUE(r.vehicles.progress.empty());
  EXPECT_TRUE(r.vehicles.clear_distance.empty());
}

TEST_P(WorldTest, PedestriansGiveWayToAMovingVehicle) {
  // A walker whose path crosses a lane where a car drives at 8 m/s: ORCA treats the car
  // as non-cooperative discs, so the walker takes full responsibility and never touches it.
  World world(Lane(), GetParam());
  Snapshot s = Walkers({{40, -6}}, {{40, 6}});
  s.vehicles.id = {1};
  s.vehicles.x = {20};
  s.vehicles.y = {0};
  s.vehicles.yaw = {0};
  s.vehicles.speed = {8};
  s.vehicles.spline_id = {3};
  RunTicks(world, s, 120);
  EXPECT_EQ(world.totals().vehicle_overlaps, 0u);
  EXPECT_NEAR(world.state().agents.y[0], 6.f, 0.3f);
}

TEST_P(WorldTest, ACrowdAroundAnAgentNeverHidesAPlayerRunningAtIt) {
  // Ten standing pedestrians fill agent 0's ten neighbour slots, all closer than a player
  // (non-cooperative) running straight at it. The player must still be avoided.
  Snapshot s = Walkers({{0, 0}}, {{0, 0}});
  for (int k = 0; k < 10; ++k) {
    const float angle = 0.5f + 0.23f * static_cast<float>(k);  // an arc on the far side
    s.agents.id.push_back(static_cast<uint32_t>(k + 1));
    s.agents.x.push_back(1.6f * std::cos(angle) * -1.f);
    s.agents.y.push_back(1.6f * std::sin(angle) * (k % 2 ? 1.f : -1.f));
    s.agents.goal_x.push_back(s.agents.x.back());
    s.agents.goal_y.push_back(s.agents.y.back());
  }
  s.agents.id.push_back(99);
  s.agents.x.push_back(4.f);
  s.agents.y.push_back(0.f);
  s.agents.goal_x.push_back(-10.f);
  s.agents.goal_y.push_back(0.f);
  s.agents.vx.assign(s.agents.id.size(), 0.f);
  s.agents.vy.assign(s.agents.id.size(), 0.f);
  s.agents.vx.back() = -3.f;
  s.agents.flags.assign(s.agents.id.size(), 0);
  s.agents.flags.back() = kSnapshotNonCooperative;
  World world(WorldConfig{}, GetParam());
  TickResult r;
  float closest = 1e9f;
  for (int t = 1; t <= 25; ++t) {
    s.tick = static_cast<uint64_t>(t);
    world.Step(s, {}, &r);
    for (size_t i = 0; i + 1 < s.agents.size(); ++i) {
      s.agents.x[i] += r.agents.vx[i] * s.dt;
      s.agents.y[i] += r.agents.vy[i] * s.dt;
      s.agents.vx[i] = r.agents.vx[i];
      s.agents.vy[i] = r.agents.vy[i];
    }
    s.agents.x.back() += s.agents.vx.back() * s.dt;  // the player keeps running
    closest = std::min(
        closest, std::hypot(s.agents.x[0] - s.agents.x.back(), s.agents.y[0] - s.agents.y.back()));
  }
  // Both send no radius: two default bodies apart.
  EXPECT_GE(closest, 2.f * AgentDefaults{}.radius - 1e-3f) << "the player ran into agent 0";
}

// docs/WORLD.md, "Tick stats" and "Stopped", recomputed from the tick's own result
// columns: a crowd crossing in four streams, plus one agent boxed in by walls whose
// preferred velocity points out of the box (it is given no speed: stopped).
TEST_P(WorldTest, StoppedFlagAndTickStatsFollowTheirDefinitions) {
  WorldConfig config;
  // Four walls 0.35 m around (30, 30) for a 0.3 m agent: no way out.
  const float lo = 29.65f, hi = 30.35f;
  config.obstacles = {{{lo, lo, 0.f}, {hi, lo, 0.f}},
                      {{hi, lo, 0.f}, {hi, hi, 0.f}},
                      {{hi, hi, 0.f}, {lo, hi, 0.f}},
                      {{lo, hi, 0.f}, {lo, lo, 0.f}}};
  World world(config, GetParam());
  std::vector<Vec2> from, to;
  for (int k = 0; k < 12; ++k) {
    const float o = 1.2f * static_cast<float>(k) - 6.6f;
    from.push_back({-8.f, o});
    to.push_back({8.f, o});
    from.push_back({o, -8.f});
    to.push_back({o, 8.f});
  }
  Snapshot s = Walkers(from, to);
  s.agents.flags.assign(s.agents.size(), 0);
  s.agents.pref_vx.assign(s.agents.size(), 0.f);
  s.agents.pref_vy.assign(s.agents.size(), 0.f);
  s.agents.id.push_back(999);
  s.agents.x.push_back(30.f);
  s.agents.y.push_back(30.f);
  s.agents.goal_x.push_back(30.f);
  s.agents.goal_y.push_back(30.f);
  s.agents.flags.push_back(kSnapshotUsesPreferredVelocity);
  s.agents.pref_vx.push_back(1.f);
  s.agents.pref_vy.push_back(0.f);
  TickResult r = RunTicks(world, s, 1);
  uint64_t stopped_seen = 0;
  for (int t = 0; t < 40; ++t) {
    const AgentResults& a = r.agents;
    const size_t n = a.vx.size();
    uint64_t stopped = 0;
    double deviation_sum = 0, deviation_max = 0, constraints_sum = 0;
    uint32_t constraints_max = 0;
    for (size_t i = 0; i < n; ++i) {
      const double dv = std::hypot(a.vx[i] - a.pref_vx[i], a.vy[i] - a.pref_vy[i]);
      deviation_sum += dv;
      deviation_max = std::max(deviation_max, dv);
      constraints_sum += a.constraints[i];
      constraints_max = std::max<uint32_t>(constraints_max, a.constraints[i]);
      const bool wants = std::hypot(a.pref_vx[i], a.pref_vy[i]) > 0.05;
      const bool given_none = std::hypot(a.vx[i], a.vy[i]) < 0.05;
      const bool flagged = (a.flags[i] & kAgentStopped) != 0;
      EXPECT_EQ(flagged, wants && given_none) << "agent " << i << ", tick " << r.tick;
      stopped += flagged;
    }
    const TickStats& st = r.stats;
    EXPECT_EQ(st.stopped, stopped);
    EXPECT_NEAR(st.time_stopped_s, static_cast<double>(stopped) * static_cast<double>(0.1f), 1e-9);
    EXPECT_NEAR(st.deviation_mean, deviation_sum / static_cast<double>(n), 1e-5);
    EXPECT_NEAR(st.deviation_max, deviation_max, 1e-5);
    EXPECT_NEAR(st.constraints_mean, constraints_sum / static_cast<double>(n), 1e-9);
    EXPECT_EQ(st.constraints_max, constraints_max);
    stopped_seen += stopped;
    TickOptions options;
    options.local_results = true;  // the preferred velocities and constraint counts
    world.Advance(1, 0.1f, &r, options);
  }
  EXPECT_GE(stopped_seen, 40u) << "the boxed agent is stopped every tick";
  EXPECT_GT(r.stats.constraints_max, 2u) << "the crowd and the box give constraints";
  EXPECT_GT(r.stats.deviation_max, 0.9) << "the boxed agent deviates by its whole 1 m/s";
}

TEST_P(WorldTest, AdvanceNeedsAState) {
  World world(WorldConfig{}, GetParam());
  TickResult r;
  EXPECT_THROW(world.Advance(3, 0.1f, &r), WorldStateError);
}

TEST(WorldConfigTest, BadConfigurationsNameTheField) {
  auto expect_bad = [](WorldConfig c, const std::string& field) {
    try {
      World world(c, BackendKind::kCpu);
      ADD_FAILURE() << "accepted a bad " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  WorldConfig c;
  c.detection.oscillation_window = 40;
  expect_bad(c, "detection.oscillation_window");
  c = WorldConfig{};
  c.obstacles = {{{0, 0, 0}}};
  expect_bad(c, "obstacles[0]");
  c = WorldConfig{};
  c.agent_defaults.radius = 0;
  expect_bad(c, "agent_defaults.radius");
  c = Lane();
  c.splines[0].points[2].y = INFINITY;
  expect_bad(c, "splines[0].points[2]");
  c = WorldConfig{};
  c.follower.max_yaw_delta = 0;
  expect_bad(c, "max_yaw_delta");
}

INSTANTIATE_TEST_SUITE_P(Backends, WorldTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference,
                                           BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
