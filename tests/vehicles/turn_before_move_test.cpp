// Reading how a vehicle's physics splits a tick between turning and moving from two poses
// (kernels/vehicles/turn_before_move.h): Throng's bicycle, exact arcs and explicit Euler
// give 1, 0.5 and 0; motion that says nothing leaves the estimate as it was.
#include "kernels/vehicles/turn_before_move.h"

#include <gtest/gtest.h>

#include <cmath>

namespace throng {
namespace {

struct Pose {
  Vec2 p;
  float yaw;
};

// One tick on a left turn of `turn` rad, `d` m, moving along yaw + share * turn.
Pose Move(const Pose& from, float turn, float d, float share) {
  const float heading = from.yaw + share * turn;
  return {{from.p.x + d * std::cos(heading), from.p.y + d * std::sin(heading)}, from.yaw + turn};
}

TEST(TurnBeforeMoveTest, ReadsTheShareOfEachIntegration) {
  const Pose from{{120.f, -80.f}, 2.f};
  for (float share : {1.f, 0.5f, 0.f, 0.25f}) {
    for (float turn : {0.05f, -0.02f, 0.002f}) {
      const Pose to = Move(from, turn, 1.5f, share);
      EXPECT_NEAR(UpdateTurnBeforeMove(0.7f, from.p, from.yaw, to.p, to.yaw, 1.5f), share, 0.02f)
          << "share " << share << ", turn " << turn;
    }
  }
}

TEST(TurnBeforeMoveTest, MotionThatSaysNothingKeepsTheEstimate) {
  const Pose from{{0.f, 0.f}, 0.3f};
  // A straight tick: no turn to read a share from.
  Pose to = Move(from, 1e-4f, 1.f, 0.5f);
  EXPECT_EQ(UpdateTurnBeforeMove(0.5f, from.p, from.yaw, to.p, to.yaw, 1.f), 0.5f);
  // Standing still, turning the wheels.
  EXPECT_EQ(UpdateTurnBeforeMove(0.5f, from.p, from.yaw, from.p, from.yaw + 0.1f, 1.f), 0.5f);
  // Moved by the caller (10 m in a tick that allows 1).
  to = Move(from, 0.05f, 10.f, 1.f);
  EXPECT_EQ(UpdateTurnBeforeMove(0.5f, from.p, from.yaw, to.p, to.yaw, 1.f), 0.5f);
  // Turned right but moved to the left (a spin, a collision): no integration does that.
  to = Move(from, 0.1f, 1.f, 1.f);
  to.yaw = from.yaw - 0.05f;
  EXPECT_EQ(UpdateTurnBeforeMove(0.5f, from.p, from.yaw, to.p, to.yaw, 1.f), 0.5f);
  // Slightly outside [0, 1] (slip) is clamped, not ignored.
  to = Move(from, 0.05f, 1.f, 1.2f);
  EXPECT_FLOAT_EQ(UpdateTurnBeforeMove(0.5f, from.p, from.yaw, to.p, to.yaw, 1.f), 1.f);
}

}  // namespace
}  // namespace throng
