// ArriveStepOf over FloatLanes (kernels/math/float_lanes.h), as the cpu's preparation runs
// it four walkers at a time, against the scalar ArriveStep that the cuda backend and the
// navigation's steering call: each lane equal bit for bit, wherever the branches of the
// scalar rule go (at the goal, inside the slowing radius, braking, over max speed).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/math/float_lanes.h"
#include "kernels/steering/steering.cuh"

namespace throng {
namespace {

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

struct Walker {
  Vec2 position, velocity, target;
  float max_speed;
};

// Walkers that reach every branch: far and near goals, on the goal, a lateral start past
// it, speeds above and below the max, and the extremes of the checked ranges.
std::vector<Walker> Walkers(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-30.f, 30.f), small(-0.05f, 0.05f), speed(0.1f, 4.f);
  std::vector<Walker> w;
  for (int k = 0; k < 40000; ++k) {
    Walker a;
    a.position = {u(rng), u(rng)};
    switch (k % 5) {
      case 0:
        a.target = {u(rng), u(rng)};
        break;
      case 1:
        a.target = a.position + Vec2{small(rng), small(rng)};
        break;
      case 2:
        a.target = a.position;  // on the goal: no direction
        break;
      case 3:
        a.target = a.position + Vec2{u(rng), u(rng)} * 0.05f;
        break;
      default:
        a.target = a.position + Vec2{small(rng), small(rng)} * 1e-4f;
        break;
    }
    a.max_speed = speed(rng);
    a.velocity = Vec2{u(rng), u(rng)} * (k % 3 == 0 ? 0.3f : 0.03f);  // some above max
    if (k % 7 == 0) a.velocity = {};
    w.push_back(a);
  }
  return w;
}

void ExpectLanesEqualTheScalar(const ArriveParams& p, float dt, std::mt19937& rng) {
  const std::vector<Walker> w = Walkers(rng);
  int differ = 0;
  for (size_t i = 0; i + FloatLanes::kCount <= w.size(); i += FloatLanes::kCount) {
    float column[7][FloatLanes::kCount];
    for (size_t k = 0; k < FloatLanes::kCount; ++k) {
      const Walker& a = w[i + k];
      const float row[7] = {a.position.x, a.position.y, a.velocity.x, a.velocity.y,
                            a.target.x,   a.target.y,   a.max_speed};
      for (int c = 0; c < 7; ++c) column[c][k] = row[c];
    }
    const ArriveLanes<FloatLanes> lanes{FloatLanes::Load(column[0]), FloatLanes::Load(column[1]),
                                        FloatLanes::Load(column[2]), FloatLanes::Load(column[3]),
                                        FloatLanes::Load(column[4]), FloatLanes::Load(column[5]),
                                        FloatLanes::Load(column[6])};
    FloatLanes x, y;
    ArriveStepOf(lanes, p, dt, &x, &y);
    for (size_t k = 0; k < FloatLanes::kCount; ++k) {
      const Walker& a = w[i + k];
      ArriveParams own = p;
      own.max_speed = a.max_speed;
      const Vec2 one = ArriveStep(a.position, a.velocity, a.target, own, dt);
      if (Bits(one.x) != Bits(x.v[k]) || Bits(one.y) != Bits(y.v[k])) ++differ;
    }
  }
  EXPECT_EQ(differ, 0) << "max_force " << p.max_force << " mass " << p.mass << " slowing "
                       << p.slowing_radius << " dt " << dt;
}

TEST(ArriveLanesTest, EachLaneIsTheScalarStepBitForBit) {
  std::mt19937 rng(7);
  // The world's defaults (mass 1), a heavy agent, no force limit, no slowing radius, and
  // steps from a millisecond to a second.
  const ArriveParams rules[] = {{0, 3.f, 1.f, 1.5f},
                                {0, 0.5f, 4.f, 3.f},
                                {0, 0.f, 1.f, 1.5f},
                                {0, 3.f, 1.f, 0.f},
                                {0, 100.f, 1.f, 10.f}};
  for (const ArriveParams& p : rules) {
    for (const float dt : {0.001f, 0.1f, 1.f}) ExpectLanesEqualTheScalar(p, dt, rng);
  }
}

TEST(ArriveLanesTest, TheLanesBranchesAreReached) {
  // The walkers above reach each outcome the selections choose between: standing still on
  // the goal, a step inside the slowing radius, braking, and the max-speed clamp.
  std::mt19937 rng(7);
  const std::vector<Walker> w = Walkers(rng);
  const ArriveParams p{0, 3.f, 1.f, 1.5f};
  int at_goal = 0, ramp = 0, brakes = 0, clamped = 0;
  for (const Walker& a : w) {
    ArriveParams own = p;
    own.max_speed = a.max_speed;
    const Vec2 v = ArriveStep(a.position, a.velocity, a.target, own, 0.1f);
    const float d = Length(a.target - a.position);
    at_goal += d == 0.f && v == Vec2{};
    ramp += d > 0.f && d < p.slowing_radius;
    brakes += Length(v) < Length(a.velocity) - 0.2f;
    clamped += std::abs(Length(v) - a.max_speed) < 1e-5f;
  }
  EXPECT_GT(at_goal, 1000);
  EXPECT_GT(ramp, 1000);
  EXPECT_GT(brakes, 1000);
  EXPECT_GT(clamped, 1000);
}

}  // namespace
}  // namespace throng
