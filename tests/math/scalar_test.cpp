#include "kernels/math/scalar.cuh"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/math/vec.cuh"

namespace throng {
namespace {

TEST(ScalarTest, shortest_signed_angle_takes_the_short_way) {
  EXPECT_NEAR(ShortestSignedAngle(0.f, 0.5f), 0.5f, 1e-6f);
  EXPECT_NEAR(ShortestSignedAngle(0.5f, 0.f), -0.5f, 1e-6f);
  // Across the +-pi seam: from 170 deg to -170 deg is +20 deg, not -340.
  const float d170 = 170.f * kPi / 180.f;
  EXPECT_NEAR(ShortestSignedAngle(d170, -d170), 20.f * kPi / 180.f, 1e-5f);
  EXPECT_NEAR(ShortestSignedAngle(-d170, d170), -20.f * kPi / 180.f, 1e-5f);
  // Whole turns do not count.
  EXPECT_NEAR(ShortestSignedAngle(0.f, 0.25f + 4 * kTwoPi), 0.25f, 1e-4f);
  for (float a = -20.f; a < 20.f; a += 0.37f) {
    const float d = ShortestSignedAngle(1.f, a);
    EXPECT_GE(d, -kPi);
    EXPECT_LT(d, kPi);
  }
}

TEST(ScalarTest, clamp_lerp_and_wrap) {
  EXPECT_EQ(Clamp(5.f, 0.f, 1.f), 1.f);
  EXPECT_EQ(Clamp(-5.f, 0.f, 1.f), 0.f);
  EXPECT_EQ(Clamp(0.25f, 0.f, 1.f), 0.25f);
  EXPECT_FLOAT_EQ(Lerp(1.f, 0.5f, 0.5f), 0.75f);
  EXPECT_FLOAT_EQ(WrapDistance(-1.f, 10.f), 9.f);
  EXPECT_FLOAT_EQ(WrapDistance(25.f, 10.f), 5.f);
  EXPECT_FLOAT_EQ(WrapDistance(10.f, 10.f), 0.f);
}

// MaxF and MinF stand in for fmaxf and fminf in the kernels: they must give the very bits
// libm gives (the sign of an equal zero, the number beside a NaN), or every determinism
// hash would move. Through volatile, so that libm computes the expected values at run time.
TEST(ScalarTest, max_f_and_min_f_give_the_bits_fmaxf_and_fminf_give) {
  const float values[] = {0.f,     -0.f,     1.f,  -1.f,     1e-45f,    -1e-45f,
                          3.4e38f, -3.4e38f, 2.5f, INFINITY, -INFINITY, NAN};
  auto bits = [](float v) {
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  };
  for (const float a : values) {
    for (const float b : values) {
      volatile float va = a, vb = b;
      const float want_max = std::fmax(va, vb), want_min = std::fmin(va, vb);
      const float got_max = MaxF(a, b), got_min = MinF(a, b);
      if (std::isnan(want_max)) {
        EXPECT_TRUE(std::isnan(got_max)) << a << ", " << b;
      } else {
        EXPECT_EQ(bits(got_max), bits(want_max)) << "MaxF(" << a << ", " << b << ")";
      }
      if (std::isnan(want_min)) {
        EXPECT_TRUE(std::isnan(got_min)) << a << ", " << b;
      } else {
        EXPECT_EQ(bits(got_min), bits(want_min)) << "MinF(" << a << ", " << b << ")";
      }
    }
  }
}

TEST(VecTest, products_and_degenerate_normalize) {
  EXPECT_FLOAT_EQ(Det({1, 0}, {0, 1}), 1.f);
  EXPECT_FLOAT_EQ(Dot(Vec2{1, 2}, Vec2{3, 4}), 11.f);
  const Vec3 z = Cross({1, 0, 0}, {0, 1, 0});
  EXPECT_EQ(z, (Vec3{0, 0, 1}));
  EXPECT_EQ(Normalize(Vec2{0, 0}), (Vec2{0, 0}));
  EXPECT_NEAR(Length(Normalize(Vec3{3, 4, 12})), 1.f, 1e-6f);
  EXPECT_NEAR(Length(ClampLength(Vec2{30, 40}, 5.f)), 5.f, 1e-5f);
  EXPECT_EQ(ClampLength(Vec2{0.3f, 0.4f}, 5.f), (Vec2{0.3f, 0.4f}));
}

}  // namespace
}  // namespace throng
