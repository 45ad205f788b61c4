// The flow benchmark's own body measure (bench/body_depth.h): how many pairs press deeper
// than a bound, the deepest overlap, and which pair it is (--deepest shows where it was).
#include "bench/body_depth.h"

#include <gtest/gtest.h>

namespace throng::bench {
namespace {

TEST(BodyDepthTest, CountsDeepPairsAndNamesTheDeepest) {
  // Radii 0.2: discs 0 and 1 overlap by 2 cm, 1 and 3 by 5 cm, disc 2 stands apart, and
  // 0 and 3 (0.77 m apart) do not touch.
  const std::vector<float> x{0.f, 0.38f, 5.f, 0.73f};
  const std::vector<float> y{0.f, 0.f, 5.f, 0.f};
  const std::vector<float> radius(4, 0.2f);
  const BodyDepths d = MeasureBodyDepths(x, y, radius, 0.01);
  EXPECT_EQ(d.deep_pairs, 2u);
  EXPECT_NEAR(d.deepest, 0.05, 1e-6);
  EXPECT_EQ(d.deepest_i, 1u);
  EXPECT_EQ(d.deepest_j, 3u);
  // A bound above both overlaps counts none, and the deepest stays what it is.
  const BodyDepths shallow = MeasureBodyDepths(x, y, radius, 0.06);
  EXPECT_EQ(shallow.deep_pairs, 0u);
  EXPECT_NEAR(shallow.deepest, 0.05, 1e-6);
}

TEST(BodyDepthTest, NoContactIsZero) {
  const BodyDepths d = MeasureBodyDepths({0.f, 1.f}, {0.f, 0.f}, {0.2f, 0.2f}, 0.01);
  EXPECT_EQ(d.deep_pairs, 0u);
  EXPECT_EQ(d.deepest, 0.0);
}

}  // namespace
}  // namespace throng::bench
