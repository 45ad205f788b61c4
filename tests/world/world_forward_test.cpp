// Forward-moving agents in the world tick (docs/ALGORITHMS.md §4): the 2D fan and the 3D cone
// against walls, prisms, spheres, pedestrians and vehicles; the parallel backends
// against the reference; the scenarios' runs never entering an obstacle; bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>

#include "kernels/scenarios/scenario.h"
#include "kernels/scenarios/scenario_layout.h"
#include "kernels/world/world.h"
#include "tests/backends/backend_param.h"
#include "tests/world/birds_among_people.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

// Appends one forward agent (the required columns and z).
void AddForward(ForwardSnapshot& f, uint32_t id, Vec3 p, Vec3 heading, float speed) {
  f.id.push_back(id);
  f.x.push_back(p.x);
  f.y.push_back(p.y);
  f.z.push_back(p.z);
  f.forward_x.push_back(heading.x);
  f.forward_y.push_back(heading.y);
  f.forward_z.push_back(heading.z);
  f.speed.push_back(speed);
}

Snapshot OneForward(Vec3 p, Vec3 heading, float speed) {
  Snapshot s;
  s.tick = 1;
  s.dt = 0.1f;
  AddForward(s.forward, 7, p, heading, speed);
  return s;
}

Vec3 PositionOf(const World& world, size_t i = 0) {
  const ForwardSnapshot& f = world.state().forward;
  return {f.x[i], f.y[i], f.z[i]};
}

class WorldForwardTest : public BackendParamTest {};

TEST_P(WorldForwardTest, AGroundFanTurnsAlongAWallAndNeverEntersIt) {
  WorldConfig config;
  config.obstacles = {scenarios::layout::Box({10, -30}, {12, 30})};
  World world(config, GetParam());
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  world.Step(OneForward({0, 1, 0}, {1, 0, 0}, 2.f), integrate, &r);
  uint64_t inside = 0;
  bool turned = false;
  for (int t = 0; t < 150; ++t) {
    world.Advance(1, 0.1f, &r);
    inside += r.stats.forward_in_obstacles;
    turned = turned || r.forward.probe[0] != 0;
    EXPECT_LT(PositionOf(world).x, 10.f - 0.5f) << "tick " << t;
  }
  EXPECT_TRUE(turned);
  EXPECT_EQ(inside, 0u);
  EXPECT_EQ(world.totals().forward_in_obstacles, 0u);
  // It ends up flying along the wall, not into it.
  EXPECT_GT(std::fabs(world.state().forward.forward_y[0]), 0.9f);
}

// The counter the tests above expect to stay at 0 must count: an agent whose body lies
// across a box's face is counted every tick it starts there, one clear of it is not.
// (A body wholly inside a box, touching none of its faces, is not counted: the count
// casts against the shapes' surfaces; docs/FORWARD.md.)
TEST_P(WorldForwardTest, AnAgentStartingAcrossAnObstacleFaceIsCounted) {
  WorldConfig config;
  config.obstacles = {scenarios::layout::Box({10, -5}, {12, 5})};
  World world(config, GetParam());
  TickResult r;
  // Body across the box's face: centre 0.2 m outside, radius 0.5 m, flying along it.
  Snapshot s = OneForward({9.8f, 0, 0}, {0, 1, 0}, 1.f);
  AddForward(s.forward, 9, {0, 0, 0}, {0, 1, 0}, 1.f);  // and one well clear of the box
  s.forward.radius = {0.5f, 0.5f};
  world.Step(s, TickOptions{}, &r);
  EXPECT_EQ(r.stats.forward_in_obstacles, 1u);
  s.tick = 2;
  world.Step(s, TickOptions{}, &r);
  EXPECT_EQ(r.stats.forward_in_obstacles, 1u);
  EXPECT_EQ(world.totals().forward_in_obstacles, 2u);
}

TEST_P(WorldForwardTest, ABodyWhoseFrontTouchesACornerStillKeepsOutOfIt) {
  // Measured in a flock: a bird 0.74 m from a box's side, heading into it just above its
  // corner. Its front (0.4 m ahead) already touches the box, so every probe reads 0 and
  // the probes alone give no way out; the body's own step finds one.
  WorldConfig config;
  config.forward.probe_length = 8.f;
  config.forward.radius = 0.4f;
  config.obstacles = {scenarios::layout::Box({0, 0}, {5.1f, 6.48f})};
  World world(config, GetParam());
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  world.Step(OneForward({5.84f, 0.25f, 0}, {-0.996f, -0.085f, 0}, 3.f), integrate, &r);
  EXPECT_EQ(r.forward.hit_distance[0], 0.f) << "the front already touches";
  float closest = 1e9f;
  for (int t = 0; t < 40; ++t) {
    world.Advance(1, 0.1f, &r);
    const Vec3 p = PositionOf(world);
    const float dx = std::max({0.f - p.x, 0.f, p.x - 5.1f});
    const float dy = std::max({0.f - p.y, 0.f, p.y - 6.48f});
    closest = std::min(closest, std::hypot(dx, dy));
  }
  EXPECT_GT(closest, 0.4f);
  EXPECT_EQ(world.totals().forward_in_obstacles, 0u);
}

TEST_P(WorldForwardTest, AConeGoesAroundASphereOnItsWayToTheGoal) {
  WorldConfig config;
  config.forward.mode = FanMode::kCone;
  config.forward.probes = 24;
  config.spheres = {{{15, 0, 10}, 3.f}};
  World world(config, GetParam());
  Snapshot s = OneForward({0, 0, 10}, {1, 0, 0}, 3.f);
  s.forward.goal_x = {40};
  s.forward.goal_y = {0};
  s.forward.goal_z = {10};
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  world.Step(s, integrate, &r);
  float closest = 1e9f;
  for (int t = 0; t < 200; ++t) {
    world.Advance(1, 0.1f, &r);
    closest = std::min(closest, Length(PositionOf(world) - Vec3{15, 0, 10}));
  }
  std::printf("[ figures  ] %s: closest approach to the sphere's centre %.2f m (contact at 3.5)\n",
              std::string(BackendName(GetParam())).c_str(), closest);
  EXPECT_GT(closest, 3.5f);
  EXPECT_LT(Length(PositionOf(world) - Vec3{40, 0, 10}), 15.f) << "it got past the sphere";
  EXPECT_EQ(world.totals().forward_in_obstacles, 0u);
}

// A row of 200 m pillars (from -100 m to 100 m) across the way at x = 20 .. 22 with one
// gap at y = 0 of `gap` m.
WorldConfig PillarRow(float gap) {
  WorldConfig config;
  config.forward.mode = FanMode::kCone;
  config.forward.probes = 32;
  for (float y = 0.5f * gap; y < 40.f; y += 4.f) {
    for (const float side : {1.f, -1.f}) {
      const float lo = side > 0 ? y : -y - 4.f;
      config.obstacles.push_back(scenarios::layout::Box({20, lo}, {22, lo + 4.f}));
      config.obstacle_heights.push_back({true, -100.f, 100.f});
    }
  }
  return config;
}

// Flies from (0, y0, 10) toward (45, 0, 10); returns y where it crosses the row, or NaN.
float CrossRow(World& world, float y0, int ticks) {
  Snapshot s = OneForward({0, y0, 10}, {1, 0, 0}, 3.f);
  s.forward.goal_x = {45};
  s.forward.goal_y = {0};
  s.forward.goal_z = {10};
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  world.Step(s, integrate, &r);
  float y_at_row = NAN;
  for (int t = 0; t < ticks; ++t) {
    world.Advance(1, 0.1f, &r);
    const Vec3 p = PositionOf(world);
    if (p.x > 20.f && p.x < 22.f) y_at_row = p.y;
  }
  return y_at_row;
}

TEST_P(WorldForwardTest, AConeThreadsAGapItsBodyFitsAndNoNarrowerOne) {
  // 3 m: the drone (1 m across) coming in off-centre, on a line that would clip a pillar,
  // passes the gap with its whole body inside it.
  World wide(PillarRow(3.f), GetParam());
  const float y = CrossRow(wide, 2.5f, 200);
  EXPECT_LT(std::fabs(y), 1.f) << "through the gap, clear of both pillars";
  EXPECT_GT(PositionOf(wide).x, 30.f);
  EXPECT_EQ(wide.totals().forward_in_obstacles, 0u);
  // 0.8 m: a ray fits, the body does not; it must not try.
  World narrow(PillarRow(0.8f), GetParam());
  const float y_narrow = CrossRow(narrow, 0.f, 200);
  EXPECT_FALSE(std::fabs(y_narrow) < 2.f) << "crossed at y = " << y_narrow;
  EXPECT_EQ(narrow.totals().forward_in_obstacles, 0u);
}

TEST_P(WorldForwardTest, BodiesAreAvoidedToo) {
  // Ground fans at pedestrian height: one heads for a standing pedestrian, one for the
  // side of a parked vehicle; with neither there, both fly straight on.
  WorldConfig config;
  SplineDesc lane{3, {{8, -30, 0}, {8, 30, 0}}, false, 0.f};
  config.splines = {lane};
  World world(config, GetParam());
  Snapshot s = OneForward({0, -10, 1}, {1, 0, 0}, 2.f);
  s.forward.id.push_back(8);
  s.forward.x.push_back(0);
  s.forward.y.push_back(-14);
  s.forward.z.push_back(1);
  s.forward.forward_x.push_back(1);
  s.forward.forward_y.push_back(0);
  s.forward.forward_z.push_back(0);
  s.forward.speed.push_back(2);
  s.agents.id = {1};
  s.agents.x = {5};
  s.agents.y = {-10};
  s.agents.flags = {kSnapshotNonCooperative};
  s.vehicles.id = {1};
  s.vehicles.x = {8};
  s.vehicles.y = {-17};
  s.vehicles.yaw = {1.5707963f};
  s.vehicles.speed = {0};
  s.vehicles.spline_id = {3};
  TickResult r;
  world.Step(s, {}, &r);
  EXPECT_NE(r.forward.probe[0], 0) << "straight ahead is the pedestrian";
  EXPECT_NE(r.forward.probe[1], 0) << "straight ahead is the vehicle";
  EXPECT_GT(std::fabs(r.forward.move_y[0]), 1e-3f);
  EXPECT_GT(std::fabs(r.forward.move_y[1]), 1e-3f);

  Snapshot alone = s;
  alone.tick = 2;
  alone.agents = {};
  alone.vehicles = {};
  world.Step(alone, {}, &r);
  EXPECT_EQ(r.forward.probe[0], 0);
  EXPECT_EQ(r.forward.probe[1], 0);
  EXPECT_TRUE(std::isinf(r.forward.hit_distance[0]));
}

// docs/FORWARD.md: forward agents avoid each other. Two birds head-on along one line, 20 m
// apart: straight ahead each sees the other within its 10 m probes and turns off it, and
// their bodies (0.5 m) never touch while they pass; then they fly on.
TEST_P(WorldForwardTest, TwoAgentsHeadOnTurnOffAndPassWithoutTouching) {
  World world(WorldConfig{}, GetParam());
  Snapshot s = OneForward({-10, 0, 1}, {1, 0, 0}, 3.f);
  AddForward(s.forward, 8, {10, 0, 1}, {-1, 0, 0}, 3.f);
  TickResult r;
  TickOptions integrate;
  integrate.integrate = true;
  world.Step(s, integrate, &r);
  bool turned = false;
  float closest = 1e9f;
  for (int t = 0; t < 100; ++t) {
    turned = turned || (r.forward.probe[0] != 0 && r.forward.probe[1] != 0);
    const Vec3 a = PositionOf(world, 0), b = PositionOf(world, 1);
    closest = std::min(closest, std::hypot(a.x - b.x, a.y - b.y));
    world.Advance(1, 0.1f, &r);
  }
  EXPECT_TRUE(turned) << "both should leave the straight probe while the other is ahead";
  EXPECT_GE(closest, 1.f) << "two 0.5 m bodies touched";
  std::printf("  [forward] head-on: closest centres %.2f m\n", closest);
  EXPECT_GT(PositionOf(world, 0).x, 10.f) << "the first should be past the other's start";
  EXPECT_LT(PositionOf(world, 1).x, -10.f);
}

// docs/FORWARD.md: with a goal, the way straight to it is tried first, reported as probe
// number `probes`; the fan (probes 0 .. probes - 1, around the heading) only when that way
// is blocked.
TEST_P(WorldForwardTest, TheWayToTheGoalIsTriedFirst) {
  World world(WorldConfig{}, GetParam());
  Snapshot s = OneForward({0, 0, 1}, {1, 0, 0}, 2.f);
  s.forward.goal_x = {0.f};  // straight to the left: outside nothing, inside the fan's reach
  s.forward.goal_y = {20.f};
  TickResult r;
  world.Step(s, {}, &r);
  EXPECT_EQ(r.forward.probe[0], 9u) << "the goal probe is number probes (9 by default)";
  EXPECT_TRUE(std::isinf(r.forward.hit_distance[0]));
  EXPECT_GT(r.forward.move_y[0], 0.f) << "it turns toward the goal";
  // A wall across the way to the goal: the fan around the heading answers (straight on).
  WorldConfig walled;
  walled.obstacles = {{{-5.f, 3.f, 0.f}, {5.f, 3.f, 0.f}}};
  World blocked(walled, GetParam());
  blocked.Step(s, {}, &r);
  EXPECT_LT(r.forward.probe[0], 9u) << "the way to the goal is blocked by the wall";
}

// Same probe, blocked flag and hit within 1 mm, move within 1e-4, for every agent, as
// docs/FORWARD.md claims (0 mismatches in 8,000 and 6,000 agent-ticks). A probe grazing a
// shape at exactly its length could go either way in float; none does in these scenes.
void ExpectMatchesReference(const char* name, size_t n, int ticks, BackendKind kind) {
  const scenarios::Scenario sc = scenarios::MakeScenario(name, n, 11);
  World parallel(sc.config, kind), reference(sc.config, BackendKind::kReference);
  TickOptions integrate;
  integrate.integrate = true;
  TickResult got, want;
  parallel.Step(sc.initial, integrate, &got);
  reference.Step(sc.initial, integrate, &want);
  size_t compared = 0, mismatches = 0, turned = 0;
  for (int t = 0; t < ticks; ++t) {
    for (size_t i = 0; i < n; ++i) {
      const bool both_free =
          std::isinf(got.forward.hit_distance[i]) && std::isinf(want.forward.hit_distance[i]);
      const bool hit_ok = both_free || std::fabs(got.forward.hit_distance[i] -
                                                 want.forward.hit_distance[i]) < 1e-3f;
      const float dm = Length(Vec3{got.forward.move_x[i] - want.forward.move_x[i],
                                   got.forward.move_y[i] - want.forward.move_y[i],
                                   got.forward.move_z[i] - want.forward.move_z[i]});
      mismatches += got.forward.probe[i] != want.forward.probe[i] ||
                    got.forward.all_blocked[i] != want.forward.all_blocked[i] || !hit_ok ||
                    dm > 1e-4f;
      // Away from straight ahead, and not the way to the goal (probe number `probes`).
      const int p = want.forward.probe[i];
      turned += p != 0 && p != sc.config.forward.probes;
      ++compared;
    }
    // Overlaps and blocked agents, counted by each backend's own casts.
    mismatches += got.stats.forward_in_obstacles != want.stats.forward_in_obstacles;
    mismatches += got.stats.forward_blocked != want.stats.forward_blocked;
    // Both continue from the reference's state, so a mismatch does not compound.
    Snapshot next = reference.state();
    next.tick += 1;
    parallel.Step(next, integrate, &got);
    reference.Step(next, integrate, &want);
  }
  std::printf("[ figures  ] %s %s vs reference: %zu agent-ticks, %zu turned, %zu mismatches\n",
              std::string(BackendName(kind)).c_str(), name, compared, turned, mismatches);
  EXPECT_GT(turned, compared / 50) << "the scene must exercise the fan";
  EXPECT_EQ(mismatches, 0u);
}

TEST_P(WorldForwardTest, FlockMatchesTheReference) {
  if (GetParam() == BackendKind::kReference) GTEST_SKIP() << "the reference itself";
  ExpectMatchesReference("flock", 400, 20, GetParam());
}

TEST_P(WorldForwardTest, DronesMatchTheReference) {
  if (GetParam() == BackendKind::kReference) GTEST_SKIP() << "the reference itself";
  ExpectMatchesReference("drones", 300, 20, GetParam());
}

TEST_P(WorldForwardTest, TenThousandDronesNeverEnterAnObstacleAndRepeatBitForBit) {
  if (GetParam() == BackendKind::kReference) GTEST_SKIP() << "too slow for the reference";
  const scenarios::Scenario sc = scenarios::MakeScenario("drones", 10000, 2);
  World a(sc.config, GetParam()), b(sc.config, GetParam());
  TickOptions integrate;
  integrate.integrate = true;
  TickResult ra, rb;
  a.Step(sc.initial, integrate, &ra);
  b.Step(sc.initial, integrate, &rb);
  uint64_t blocked = 0, turned = 0;
  for (int t = 0; t < 120; ++t) {
    a.Advance(1, sc.initial.dt, &ra);
    b.Advance(1, sc.initial.dt, &rb);
    blocked += ra.stats.forward_blocked;
    for (uint16_t p : ra.forward.probe) turned += p != 0 && p != sc.config.forward.probes;
  }
  std::printf(
      "[ figures  ] %s drones 10000 x 120 ticks: in obstacles %llu agent-ticks, boxed in %llu, "
      "turned %llu\n",
      std::string(BackendName(GetParam())).c_str(),
      static_cast<unsigned long long>(a.totals().forward_in_obstacles),
      static_cast<unsigned long long>(blocked), static_cast<unsigned long long>(turned));
  EXPECT_EQ(a.totals().forward_in_obstacles, 0u);
  EXPECT_GT(turned, 1000u) << "the drones met the field";
  const ForwardSnapshot &fa = a.state().forward, &fb = b.state().forward;
  ASSERT_EQ(fa.x.size(), fb.x.size());
  for (size_t i = 0; i < fa.x.size(); ++i) {
    ASSERT_EQ(std::memcmp(&fa.x[i], &fb.x[i], sizeof(float)), 0) << i;
    ASSERT_EQ(std::memcmp(&fa.z[i], &fb.z[i], sizeof(float)), 0) << i;
    ASSERT_EQ(std::memcmp(&fa.forward_y[i], &fb.forward_y[i], sizeof(float)), 0) << i;
  }
}

// `n` forward agents on a line, or all on one point.
Snapshot ManyForward(size_t n, bool packed) {
  Snapshot s;
  s.tick = 1;
  s.dt = 0.1f;
  for (size_t i = 0; i < n; ++i) {
    AddForward(s.forward, static_cast<uint32_t>(i),
               {packed ? 0.f : 3.f * static_cast<float>(i), 0.f, 5.f}, {0.f, 1.f, 0.f}, 1.f);
  }
  return s;
}

TEST_P(WorldForwardTest, ACrowdPackedOntoOnePointCostsBoundedWorkAndStopsOnRequest) {
  if (GetParam() == BackendKind::kReference) GTEST_SKIP() << "brute force by design";
  WorldConfig config;
  config.forward.mode = FanMode::kCone;
  config.forward.probes = 64;
  // 3,000 agents on one point: each keeps its 96 nearest candidates, so the tick casts
  // about 3,000 x 64 x 96 spheres, not 3,000 x 64 x 3,000.
  World world(config, GetParam());
  TickResult r;
  world.Step(ManyForward(3000, true), {}, &r);
  ASSERT_EQ(r.forward.move_x.size(), 3000u);
  for (size_t i = 0; i < 3000; ++i) {
    ASSERT_TRUE(std::isfinite(r.forward.move_x[i]) && std::isfinite(r.forward.move_z[i])) << i;
  }
  EXPECT_EQ(r.stats.forward_blocked, 3000u) << "everyone is inside everyone else";

  // The forward stage asks the stop request between chunks of agents: 20,000 agents ask
  // at least three times more than none (cpu: chunks of 8,192), and a refused tick leaves
  // the world unchanged.
  const auto asks = [&](size_t n) {
    World w(config, GetParam());
    int asked = 0;
    TickOptions counting;
    counting.stop = [&] { return ++asked < 0; };
    w.Step(ManyForward(n, false), counting, &r);
    return asked;
  };
  const int without = asks(0), with = asks(20000);
  EXPECT_GE(with - without, GetParam() == BackendKind::kCpu ? 3 : 1);
  World stopped(config, GetParam());
  int asked = 0;
  TickOptions refuse;
  refuse.stop = [&] { return ++asked > 4; };
  EXPECT_THROW(stopped.Step(ManyForward(20000, false), refuse, &r), TickCancelled);
  EXPECT_FALSE(stopped.has_state());
}

TEST_P(WorldForwardTest, BadForwardInputNamesFieldAndIndexAndChangesNothing) {
  World world(WorldConfig{}, GetParam());
  TickResult r;
  world.Step(OneForward({0, 0, 0}, {1, 0, 0}, 1.f), {}, &r);
  const Snapshot before = world.state();
  const auto rejects = [&](const std::function<void(ForwardSnapshot&)>& edit,
                           const std::string& message) {
    Snapshot s = OneForward({0, 0, 0}, {1, 0, 0}, 1.f);
    s.tick = 5;
    edit(s.forward);
    try {
      world.Step(s, {}, &r);
      ADD_FAILURE() << "accepted; expected " << message;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(message, 0), 0u) << e.what();
    }
    EXPECT_EQ(world.state().tick, before.tick);
  };
  rejects([](auto& f) { f.forward_x = {0}; }, "forward.forward_x[0]: zero-length");
  rejects([](auto& f) { f.forward_x = {0}, f.forward_z = {1}; },
          "forward.forward_x[0]: the forward direction is vertical");
  rejects([](auto& f) { f.forward_y = {NAN}; }, "forward.forward_y[0]");
  rejects([](auto& f) { f.speed = {0}; }, "forward.speed[0]: must be at least 0.001");
  rejects([](auto& f) { f.radius = {-1}; }, "forward.radius[0]");
  rejects([](auto& f) { f.probes = {0}; }, "forward.probes[0]: must be within [1, 64]");
  rejects([](auto& f) { f.probes = {65}; }, "forward.probes[0]");
  rejects([](auto& f) { f.half_angle = {0}; }, "forward.half_angle[0]: must be within (0, pi]");
  rejects([](auto& f) { f.half_angle = {4}; }, "forward.half_angle[0]");
  rejects([](auto& f) { f.goal_x = {1}; }, "forward.goal_y: missing while goal_x is given");
  rejects(
      [](auto& f) {
        f.id.push_back(7), f.x.push_back(1), f.y.push_back(1), f.z.push_back(0),
            f.forward_x.push_back(1), f.forward_y.push_back(0), f.forward_z.push_back(0),
            f.speed.push_back(1);
      },
      "forward.id[1]: 7 repeats forward.id[0]");

  const auto config_rejects = [&](const std::function<void(WorldConfig&)>& edit,
                                  const std::string& message) {
    WorldConfig c;
    c.obstacles = {scenarios::layout::Box({0, 0}, {1, 1})};
    edit(c);
    try {
      World bad(c, GetParam());
      ADD_FAILURE() << "accepted; expected " << message;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(message, 0), 0u) << e.what();
    }
  };
  config_rejects(
      [](auto& c) {
        c.obstacle_heights = {{true, 5.f, 2.f}};
      },
      "obstacles[0].top: is below its base");
  config_rejects([](auto& c) { c.spheres = {{{0, 0, 0}, 0.f}}; }, "spheres[0].radius: must be > 0");
  config_rejects([](auto& c) { c.forward.probes = 0; }, "forward.probes: must be within [1, 64]");
  config_rejects(
      [](auto& c) {
        c.obstacle_heights = {{}, {}};
      },
      "obstacle_heights: 2 ranges for 1 obstacles");
}

// Birds among the town's pedestrians and vehicles, each 1.5 m behind a pedestrian at a
// body's height: an Advance of several ticks, which keeps the forward agents, the
// pedestrians and the vehicles on the backend between its ticks, ends where as many Steps
// of the state end, bit for bit. The fans read the bodies the preparations left there
// (kThisTick) and each tick the state the last one kept (kLastTick): on a device, its own
// copies, which no cpu run reads.
TEST_P(WorldForwardTest, AnAdvanceAmongPedestriansAndVehiclesIsItsStepsBitForBit) {
  scenarios::Scenario s = testing::WithFlock(scenarios::MakeScenario("town", 200, 3), 30);
  ASSERT_GE(s.initial.agents.size(), s.initial.forward.size());
  ASSERT_GT(s.initial.vehicles.size(), 0u);
  testing::PlaceBirdsBehindPedestrians(&s);
  World advanced(s.config, GetParam()), stepped(s.config, GetParam());
  TickOptions integrate;
  integrate.integrate = true;
  TickResult a, b;
  advanced.Step(s.initial, integrate, &a);
  stepped.Step(s.initial, integrate, &b);
  constexpr int kTicks = 6;
  advanced.Advance(kTicks, s.initial.dt, &a);
  for (int k = 0; k < kTicks; ++k) {
    Snapshot next = stepped.state();
    ++next.tick;
    stepped.Step(next, integrate, &b);
  }
  const ForwardSnapshot &fa = advanced.state().forward, &fb = stepped.state().forward;
  EXPECT_EQ(fa.x, fb.x);
  EXPECT_EQ(fa.y, fb.y);
  EXPECT_EQ(fa.z, fb.z);
  EXPECT_EQ(fa.forward_x, fb.forward_x);
  EXPECT_EQ(fa.forward_y, fb.forward_y);
  EXPECT_EQ(a.forward.move_x, b.forward.move_x);
  EXPECT_EQ(a.forward.probe, b.forward.probe);
  EXPECT_EQ(a.stats.forward_blocked, b.stats.forward_blocked);
  EXPECT_EQ(advanced.state().agents.x, stepped.state().agents.x);
  EXPECT_EQ(advanced.state().vehicles.x, stepped.state().vehicles.x);
  // The fans met the bodies: some bird turned off the pedestrian ahead of it.
  size_t turned = 0;
  for (const uint16_t probe : a.forward.probe) turned += probe != 0 ? 1 : 0;
  EXPECT_GT(turned, 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, WorldForwardTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kReference,
                                           BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
