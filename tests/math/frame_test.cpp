#include "kernels/math/frame.cuh"

#include <gtest/gtest.h>

#include <cmath>

namespace throng {
namespace {

const Frame kFrames[] = {{UpAxis::kZ, Handedness::kRight},
                         {UpAxis::kZ, Handedness::kLeft},
                         {UpAxis::kY, Handedness::kRight},
                         {UpAxis::kY, Handedness::kLeft}};

TEST(FrameTest, round_trips_points_and_yaw) {
  for (const Frame& f : kFrames) {
    const Vec3 e{1.5f, -2.f, 3.25f};
    EXPECT_EQ(f.ToExternal(f.ToInternal(e)), e);
    EXPECT_FLOAT_EQ(f.YawToExternal(f.YawToInternal(0.7f)), 0.7f);
  }
}

TEST(FrameTest, up_axis_becomes_internal_z) {
  EXPECT_EQ((Frame{UpAxis::kZ, Handedness::kLeft}.ToInternal({0, 0, 5})), (Vec3{0, 0, 5}));
  EXPECT_EQ((Frame{UpAxis::kY, Handedness::kLeft}.ToInternal({0, 5, 0})), (Vec3{0, 0, 5}));
  EXPECT_EQ((Frame{UpAxis::kY, Handedness::kRight}.ToInternal({0, 5, 0})), (Vec3{0, 0, 5}));
}

// The internal frame is right-handed: x cross y = z for the images of every frame's
// axes when the frame is right-handed, and mirrored (x cross y = -z image) when left.
TEST(FrameTest, conversion_preserves_handedness_of_physical_space) {
  for (const Frame& f : kFrames) {
    const Vec3 x = f.ToInternal({1, 0, 0}), y = f.ToInternal({0, 1, 0}),
               z = f.ToInternal({0, 0, 1});
    const float orientation = Dot(Cross(x, y), z);
    EXPECT_FLOAT_EQ(orientation, f.handedness == Handedness::kRight ? 1.f : -1.f);
  }
}

// "Right" is physical: a vehicle heading along external yaw 0 in each engine's frame has
// its engine's right-hand axis on its right after conversion.
TEST(FrameTest, right_of_heading_matches_each_engines_right) {
  // Unreal (Z up, left-handed): X forward, Y right.
  {
    const Frame f{UpAxis::kZ, Handedness::kLeft};
    const Vec2 heading = HeadingOf(f.YawToInternal(0.f));
    const Vec3 right = f.ToInternal({0, 1, 0});
    EXPECT_NEAR(Dot(RightOf(heading), Ground(right)), 1.f, 1e-6f);
  }
  // Unity (Y up, left-handed): heading +X, with Z forward the right of +X is -Z.
  {
    const Frame f{UpAxis::kY, Handedness::kLeft};
    const Vec2 heading = HeadingOf(f.YawToInternal(0.f));
    EXPECT_NEAR(Dot(RightOf(heading), Ground(f.ToInternal({0, 0, -1}))), 1.f, 1e-6f);
  }
  // ROS (Z up, right-handed): heading +X, right is -Y.
  {
    const Frame f{UpAxis::kZ, Handedness::kRight};
    const Vec2 heading = HeadingOf(f.YawToInternal(0.f));
    EXPECT_NEAR(Dot(RightOf(heading), Ground(f.ToInternal({0, -1, 0}))), 1.f, 1e-6f);
  }
  // OpenGL (Y up, right-handed, Z toward the viewer): heading +X, right is +Z.
  {
    const Frame f{UpAxis::kY, Handedness::kRight};
    const Vec2 heading = HeadingOf(f.YawToInternal(0.f));
    EXPECT_NEAR(Dot(RightOf(heading), Ground(f.ToInternal({0, 0, 1}))), 1.f, 1e-6f);
  }
}

TEST(FrameTest, external_yaw_turns_toward_the_second_ground_axis) {
  const float quarter = kPi / 2;
  for (const Frame& f : kFrames) {
    const Vec3 second_axis = f.up == UpAxis::kZ ? Vec3{0, 1, 0} : Vec3{0, 0, 1};
    const Vec2 heading = HeadingOf(f.YawToInternal(quarter));
    const Vec2 expected = Ground(f.ToInternal(second_axis));
    EXPECT_NEAR(heading.x, expected.x, 1e-6f);
    EXPECT_NEAR(heading.y, expected.y, 1e-6f);
  }
}

}  // namespace
}  // namespace throng
