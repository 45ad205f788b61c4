// The crowd's cost for re-routing (docs/NAVIGATION.md, "Re-routing"): a pedestrian counts
// as one head over a metre; a body larger than a person counts as the people it would hold,
// over its own disc, so a packed crowd of large bodies costs the floor it covers.
#include "kernels/navigation/crowd_cost.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "kernels/navigation/distance_field.h"
#include "kernels/navigation/nav_costs.h"

namespace throng {
namespace {

Polygon Box(float x0, float y0, float x1, float y1) {
  return {{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}};
}

size_t CellAt(const NavGridSpec& g, Vec2 p) {
  return g.Index(static_cast<int32_t>(std::floor((p.x - g.origin.x) / g.cell)),
                 static_cast<int32_t>(std::floor((p.y - g.origin.y) / g.cell)));
}

// Open ground round one target, no obstacles: every cell's static cost is the same.
NavCosts OpenGround() {
  NavFieldParams params;
  params.margin = 6.f;
  return BuildNavCosts({}, {NavTarget{1, {{0.f, 0.f}}}}, params);
}

// Each cell's added cost per unit density_cost, for one person at `at`.
std::vector<float> Added(const NavCosts& base, Vec2 at, float body_radius) {
  const NavCosts crowd = AddCrowdCost(base, {at}, 2.f, body_radius);
  std::vector<float> added(base.cost.size());
  for (size_t k = 0; k < added.size(); ++k) added[k] = 0.5f * (crowd.cost[k] - base.cost[k]);
  return added;
}

TEST(CrowdCostTest, APedestrianCountsAsOneHeadOverAMetre) {
  const NavCosts base = OpenGround();
  const NavGridSpec& g = base.spec;
  const Vec2 at = g.Centre(g.nx / 2, g.ny / 2);
  const std::vector<float> small = Added(base, at, 0.2f);
  EXPECT_EQ(small, Added(base, at, kCrowdPersonRadius));  // up to a person's size: one head
  EXPECT_EQ(small, Added(base, at, 0.f));
  const float per_cell = 1.f / 3.14159265f;  // one person per pi m^2
  size_t touched = 0;
  for (int32_t iy = 0; iy < g.ny; ++iy) {
    for (int32_t ix = 0; ix < g.nx; ++ix) {
      const size_t k = g.Index(ix, iy);
      const float d = Length(g.Centre(ix, iy) - at);
      if (d <= kCrowdRadius - 1e-3f) {
        EXPECT_NEAR(small[k], per_cell, 1e-5f) << d;
        ++touched;
      } else if (d > kCrowdRadius + 1e-3f) {
        EXPECT_EQ(small[k], 0.f) << d;
      }
    }
  }
  EXPECT_GT(touched, 10u);
}

TEST(CrowdCostTest, ALargeBodyCountsAsThePeopleItWouldHoldOverItsDisc) {
  const NavCosts base = OpenGround();
  const NavGridSpec& g = base.spec;
  const Vec2 at = g.Centre(g.nx / 2, g.ny / 2);
  const std::vector<float> large = Added(base, at, 2.f);                          // RVO2's agents
  const float persons = (2.f / kCrowdPersonRadius) * (2.f / kCrowdPersonRadius);  // 44.4
  const float per_cell = persons / (3.14159265f * 4.f);
  for (int32_t iy = 0; iy < g.ny; ++iy) {
    for (int32_t ix = 0; ix < g.nx; ++ix) {
      const size_t k = g.Index(ix, iy);
      const float d = Length(g.Centre(ix, iy) - at);
      if (d <= 2.f - 1e-3f) {
        EXPECT_NEAR(large[k], per_cell, 1e-4f) << d;
      } else if (d > 2.f + 1e-3f) {
        EXPECT_EQ(large[k], 0.f) << d;
      }
    }
  }
  // Beyond kCrowdSpreadMost the disc stops growing; the body still counts in full.
  const std::vector<float> huge = Added(base, at, 6.f);
  const float huge_cell = (6.f / kCrowdPersonRadius) * (6.f / kCrowdPersonRadius) /
                          (3.14159265f * kCrowdSpreadMost * kCrowdSpreadMost);
  EXPECT_NEAR(huge[CellAt(g, at)], std::fmin(huge_cell, kMaxCrowdDensity), 1e-3f);
  EXPECT_EQ(huge[CellAt(g, at + Vec2{kCrowdSpreadMost + 0.5f, 0.f})], 0.f);
}

// A gap 8 m wide between two long walls, packed with 2 m bodies (RVO2's) on a 3.5 m
// lattice, the target beyond it. Counted as heads over a metre, the bodies leave free lanes
// between their centres and the field leads straight through the gap (about 16 m); counted as
// the floor they cover, it leads round the walls (about 45 m), as a person would walk round
// a packed crowd where a free way exists.
TEST(CrowdCostTest, APackedCrowdOfLargeBodiesIsWalkedRound) {
  NavFieldParams params;
  params.margin = 6.f;
  const NavTarget target{1, {{10.f, 0.f}}};
  const NavCosts base =
      BuildNavCosts({Box(-1.f, -20.f, 1.f, -4.f), Box(-1.f, 4.f, 1.f, 20.f)}, {target}, params);
  std::vector<Vec2> crowd;
  for (int i = -1; i <= 1; ++i) {
    for (int j = -1; j <= 1; ++j) crowd.push_back({3.5f * i, 3.5f * j});
  }
  const Vec2 start{-6.f, 0.f};
  const size_t k = CellAt(base.spec, start);
  ASSERT_FALSE(base.blocked[k]);
  const float heads =
      MarchNavDistances(AddCrowdCost(base, crowd, 1.f, kCrowdPersonRadius), target)[k];
  const float bodies = MarchNavDistances(AddCrowdCost(base, crowd, 1.f, 2.f), target)[k];
  const float empty = MarchNavDistances(base, target)[k];
  std::printf(
      "[ figures  ] gap packed with 2 m bodies: %.1f m counted as heads, %.1f m as "
      "bodies, %.1f m empty\n",
      heads, bodies, empty);
  EXPECT_LT(heads, empty + 2.f);  // the lanes between the centres
  EXPECT_GT(bodies, 35.f);        // round the walls
  EXPECT_LT(bodies, 55.f);
}

}  // namespace
}  // namespace throng
