// Seek, flee and arrive (kernels/steering/steering.cuh) against docs/ALGORITHMS.md §3, the
// no-overshoot contract, and the double reference.
#include "kernels/steering/steering.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "kernels/math/scalar.cuh"
#include "kernels/reference/steering_ref.h"

namespace throng {
namespace {

using reference::D2;

D2 ToD(Vec2 v) { return {v.x, v.y}; }
reference::ArriveParamsD ToD(const ArriveParams& p) {
  return {p.max_speed, p.max_force, p.mass, p.slowing_radius};
}

TEST(SteeringTest, seek_points_at_target_at_max_speed) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-50.f, 50.f);
  for (int k = 0; k < 1000; ++k) {
    const Vec2 p{u(rng), u(rng)}, t{u(rng), u(rng)};
    const Vec2 v = Seek(p, t, 3.5f);
    EXPECT_NEAR(Length(v), 3.5f, 1e-5f);
    EXPECT_NEAR(Dot(Normalize(v), Normalize(t - p)), 1.f, 1e-6f);
  }
  EXPECT_EQ(Seek({1, 2}, {1, 2}, 3.f), (Vec2{0, 0}));  // at the target: no direction, no NaN
}

TEST(SteeringTest, flee_points_away_at_max_speed) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> u(-50.f, 50.f);
  for (int k = 0; k < 1000; ++k) {
    const Vec2 p{u(rng), u(rng)}, t{u(rng), u(rng)};
    const Vec2 v = Flee(p, t, 2.f);
    EXPECT_NEAR(Length(v), 2.f, 1e-5f);
    EXPECT_NEAR(Dot(Normalize(v), Normalize(p - t)), 1.f, 1e-6f);
  }
  EXPECT_EQ(Flee({1, 2}, {1, 2}, 3.f), (Vec2{0, 0}));
}

TEST(SteeringTest, arrive_desired_ramps_inside_slowing_radius) {
  const Vec2 goal{3, -4};
  EXPECT_NEAR(Length(ArriveDesired({3, 6}, goal, 2.f, 5.f)), 2.f, 1e-6f);    // 10 m: full
  EXPECT_NEAR(Length(ArriveDesired({3, -2}, goal, 2.f, 5.f)), 0.8f, 1e-6f);  // 2 m: 2/5
  EXPECT_NEAR(ArriveDesired({3, -2}, goal, 2.f, 5.f).y, -0.8f, 1e-6f);       // toward it
  EXPECT_EQ(ArriveDesired(goal, goal, 2.f, 5.f), (Vec2{0, 0}));
  EXPECT_NEAR(Length(ArriveDesired({3, -2}, goal, 2.f, 0.f)), 2.f, 1e-6f);  // no radius: seek
}

TEST(SteeringTest, stopping_speed_never_passes_the_goal) {
  // Braking at accel from StoppingSpeed, stepping with the new velocity, ends before d.
  for (float accel : {0.5f, 2.f, 10.f}) {
    for (float dt : {0.01f, 0.05f, 0.25f}) {
      for (float d : {0.001f, 0.1f, 1.f, 7.3f, 40.f}) {
        float v = StoppingSpeed(d, accel, dt);
        EXPECT_LE(v * dt, d * (1 + 1e-6f));
        double covered = 0;
        while (v > 0) {
          covered += v * dt;
          v -= accel * dt;
        }
        EXPECT_LE(covered, d * (1 + 1e-5)) << accel << " " << dt << " " << d;
      }
    }
  }
}

TEST(SteeringTest, steer_toward_respects_force_and_speed_limits) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-6.f, 6.f);
  std::uniform_real_distribution<float> pos(0.2f, 4.f);
  for (int k = 0; k < 5000; ++k) {
    const ArriveParams p{pos(rng), pos(rng), pos(rng), pos(rng)};
    const float dt = k % 2 ? 0.05f : 0.25f;
    const Vec2 v = ClampLength({u(rng), u(rng)}, p.max_speed);
    const Vec2 desired{u(rng), u(rng)};
    const Vec2 next = SteerToward(v, desired, p, dt);
    EXPECT_LE(Length(next), p.max_speed * (1 + 1e-6f));
    EXPECT_LE(Length(next - v), p.max_force / p.mass * dt * (1 + 1e-5f) + 1e-6f);
    const D2 ref = reference::SteerToward(ToD(v), ToD(desired), ToD(p), dt);
    EXPECT_NEAR(next.x, ref.x, 1e-5);
    EXPECT_NEAR(next.y, ref.y, 1e-5);
  }
}

TEST(SteeringTest, arrive_step_matches_reference) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(-20.f, 20.f);
  std::uniform_real_distribution<float> pos(0.2f, 5.f);
  int worst = 0;
  for (int k = 0; k < 20000; ++k) {
    const ArriveParams p{pos(rng), pos(rng), pos(rng), pos(rng)};
    const float dt = k % 2 ? 0.05f : 0.25f;
    const Vec2 x{u(rng), u(rng)};
    const Vec2 goal = k % 3 ? Vec2{u(rng), u(rng)} : x + Vec2{u(rng), u(rng)} * 0.05f;
    const Vec2 v = ClampLength({u(rng), u(rng)}, p.max_speed);
    const Vec2 got = ArriveStep(x, v, goal, p, dt);
    const D2 ref = reference::ArriveStep(ToD(x), ToD(v), ToD(goal), ToD(p), dt);
    const double err = std::hypot(got.x - ref.x, got.y - ref.y);
    if (err > 1e-4) ++worst;
  }
  EXPECT_EQ(worst, 0);
}

// Below this distance from the goal the checks stop: positions of about 10 m have a float
// resolution of 1e-6 m, and within a few ulps the direction to the goal (and with it the
// step) is quantisation noise. Ten times below the 1e-3 m arrival tolerance.
constexpr float kFloatFloor = 1e-4f;

// One run of arrive with the engine's integration (semi-implicit Euler).
struct ArriveRun {
  bool overshoot = false;  // projection on the approach direction changed sign
  // §3's force is proportional to desired - velocity, so speed lags the desired speed: an
  // agent that enters the slowing radius below the ramp's speed still speeds up until it
  // meets the ramp. Jitter is the speed rising again after it has begun to fall there.
  bool jitter = false;
  bool rose_inside = false;  // the speed rose at all inside the slowing radius
  bool over_speed = false;
  bool over_force = false;
  float final_distance = 0;
  float final_speed = 0;
};

template <typename Step>
ArriveRun Simulate(Vec2 start, Vec2 v0, Vec2 goal, const ArriveParams& p, float dt, float seconds,
                   Step step) {
  ArriveRun run;
  const Vec2 approach = Normalize(goal - start);
  Vec2 x = start, v = v0;
  float prev_speed_inside = INFINITY;
  bool slowing = false;
  const int steps = static_cast<int>(seconds / dt);
  for (int k = 0; k < steps; ++k) {
    const Vec2 next = step(x, v, goal, p, dt);
    if (Length(next) > p.max_speed * (1 + 1e-6f)) run.over_speed = true;
    if (Length(next - v) > p.max_force / p.mass * dt * (1 + 1e-5f) + 1e-6f) run.over_force = true;
    v = next;
    x = x + v * dt;
    // Starts behind the goal (negative); must never become positive (past the goal).
    if (Dot(x - goal, approach) > kFloatFloor) run.overshoot = true;
    const float speed = Length(v);
    const float distance = Length(goal - x);
    if (distance < p.slowing_radius && distance > kFloatFloor) {
      if (speed > prev_speed_inside + 1e-6f) {
        run.rose_inside = true;
        if (slowing) run.jitter = true;
      }
      if (speed < prev_speed_inside && prev_speed_inside != INFINITY) slowing = true;
      prev_speed_inside = speed;
    }
  }
  run.final_distance = Length(goal - x);
  run.final_speed = Length(v);
  return run;
}

Vec2 EngineStep(Vec2 x, Vec2 v, Vec2 goal, const ArriveParams& p, float dt) {
  return ArriveStep(x, v, goal, p, dt);
}
// docs/ALGORITHMS.md §3 verbatim (no stopping cap): shows what the cap is for.
Vec2 PlainStep(Vec2 x, Vec2 v, Vec2 goal, const ArriveParams& p, float dt) {
  return SteerToward(v, ArriveDesired(x, goal, p.max_speed, p.slowing_radius), p, dt);
}

TEST(ArriveTest, stops_without_overshoot_or_jitter) {
  const ArriveParams params[] = {
      {2.f, 4.f, 1.f, 3.f},    // pedestrian-like: the ramp alone would do
      {4.f, 2.f, 1.f, 1.f},    // weak force: the ramp asks to brake harder than possible
      {2.f, 10.f, 1.f, 0.2f},  // tiny radius: max_speed * dt > slowing_radius at dt 0.25
      {6.f, 9.f, 3.f, 5.f},    // heavy: a = 3 m/s^2
      {2.f, 1.f, 0.2f, 2.f},   // light: dt / mass > 1 at dt 0.25, §3's step would ring
  };
  const Vec2 goal{12.5f, -7.25f};
  int runs = 0;
  for (const ArriveParams& p : params) {
    for (float dt : {0.05f, 0.25f}) {
      const float a = p.max_force / p.mass;
      // Far enough to reach cruise speed and still brake: start outside the radius.
      const float reach = p.slowing_radius + p.max_speed * p.max_speed / a + 3 * p.max_speed * dt;
      for (int dir = 0; dir < 8; ++dir) {
        const float yaw = 0.3f + dir * kTwoPi / 8;
        for (float extra : {1.f, 2.5f}) {
          const Vec2 start = goal - Vec2{cosf(yaw), sinf(yaw)} * (reach * extra + 1);
          const Vec2 approach = Normalize(goal - start);
          // At rest, half speed and full speed toward the goal, full speed away from it.
          for (float s : {0.f, 0.5f, 1.f, -1.f}) {
            const Vec2 v0 = approach * (s * p.max_speed);
            const ArriveRun r = Simulate(start, v0, goal, p, dt, 120.f, EngineStep);
            SCOPED_TRACE(::testing::Message()
                         << "max_speed " << p.max_speed << " radius " << p.slowing_radius << " dt "
                         << dt << " dir " << dir << " v0 " << s);
            EXPECT_FALSE(r.overshoot);
            EXPECT_FALSE(r.jitter);
            // Entering at cruise speed, the speed only falls inside the slowing radius.
            EXPECT_FALSE(s == 1.f && r.rose_inside);
            EXPECT_FALSE(r.over_speed);
            EXPECT_FALSE(r.over_force);
            EXPECT_LT(r.final_distance, 1e-3f);
            EXPECT_LT(r.final_speed, 1e-3f);
            ++runs;
          }
        }
      }
    }
  }
  EXPECT_EQ(runs, 5 * 2 * 8 * 2 * 4);
}

TEST(ArriveTest, plain_ramp_fails_where_the_stopping_cap_is_needed) {
  const Vec2 goal{0, 0}, start{-30, 0};
  // Weak force: cannot brake from 4 m/s within 1 m.
  const ArriveParams weak{4.f, 2.f, 1.f, 1.f};
  EXPECT_TRUE(Simulate(start, {}, goal, weak, 0.05f, 60.f, PlainStep).overshoot);
  EXPECT_FALSE(Simulate(start, {}, goal, weak, 0.05f, 60.f, EngineStep).overshoot);
  // Big step: 2 m/s * 0.25 s > 0.2 m radius, the ramp alone jumps past the goal.
  const ArriveParams tiny{2.f, 10.f, 1.f, 0.2f};
  const ArriveRun plain = Simulate(start, {}, goal, tiny, 0.25f, 60.f, PlainStep);
  EXPECT_TRUE(plain.overshoot || plain.jitter);
  const ArriveRun ours = Simulate(start, {}, goal, tiny, 0.25f, 60.f, EngineStep);
  EXPECT_FALSE(ours.overshoot || ours.jitter);
}

TEST(ArriveTest, lateral_start_still_arrives) {
  // Initial velocity across the approach: the agent curves in, and still settles.
  const ArriveParams p{2.f, 4.f, 1.f, 3.f};
  for (float dt : {0.05f, 0.25f}) {
    const ArriveRun r = Simulate({-20, 0}, {0, 2}, {0, 0}, p, dt, 120.f, EngineStep);
    EXPECT_FALSE(r.overshoot);
    EXPECT_FALSE(r.over_speed);
    EXPECT_FALSE(r.over_force);
    EXPECT_LT(r.final_distance, 1e-3f);
    EXPECT_LT(r.final_speed, 1e-3f);
  }
}

// Where a walker ends up near its goal when the crowd's lines push every velocity it
// prefers by `push` (ORCA hands back pref + push), after `seconds`.
template <typename Step>
float DistanceUnderPush(Vec2 start, Vec2 push, const ArriveParams& p, float dt, float seconds,
                        Step step) {
  Vec2 x = start, v{};
  for (int k = 0; k < static_cast<int>(seconds / dt); ++k) {
    v = step(x, v, {0, 0}, p, dt) + push;
    x = x + v * dt;
  }
  return Length(x);
}

TEST(ArriveTest, a_walker_pushed_near_its_goal_stays_by_it) {
  // Pedestrians (the world's defaults) and RVO2's scenes. §3's unit-mass step moves the
  // preferred velocity dt / mass of the way a tick, so a steady push w settles where the
  // desired velocity is w * mass / dt against it: ten times the push at 0.1 s, and the
  // walker drifts metres from its goal (docs/PERFORMANCE.md, "Walkers that circle their
  // goals"). With motion sideways or away from the goal steered out at once it stays where
  // the desired velocity is about w against it, push * slowing_radius / max_speed from the
  // goal, or at the edge of the arrived zone (kArriveTurnInner slowing radii) where that
  // lies inside it.
  struct Case {
    ArriveParams p;
    float dt;
    float push;  // m/s; the pedestrians' at half their max_force * dt, room to resist it
  };
  for (const Case& c :
       {Case{{1.34f, 3.f, 1.f, 1.5f}, 0.1f, 0.15f}, Case{{2.f, 1e3f, 1.f, 0.5f}, 0.25f, 0.5f}}) {
    const Vec2 push{0.f, c.push};
    const float stays = std::max(push.y * c.p.slowing_radius / c.p.max_speed,
                                 kArriveTurnInner * c.p.slowing_radius);
    const float ours = DistanceUnderPush({-1.f, 0.f}, push, c.p, c.dt, 60.f, EngineStep);
    const float plain = DistanceUnderPush({-1.f, 0.f}, push, c.p, c.dt, 60.f, PlainStep);
    SCOPED_TRACE(::testing::Message()
                 << "max_speed " << c.p.max_speed << " dt " << c.dt << " stays " << stays
                 << " ours " << ours << " plain " << plain);
    EXPECT_LT(ours, 1.5f * stays);
    EXPECT_GT(plain, 2.5f * stays);
  }
}

}  // namespace
}  // namespace throng
