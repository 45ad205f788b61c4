// The box cover (kernels/spatial/box_cover.h): a "no" must be certain for every query box
// that overlaps a covered box, at any scale the input limits allow, and the cover must
// answer "no" where nothing is, or it filters nothing.
#include "kernels/spatial/box_cover.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace throng {
namespace {

struct Box {
  Vec2 lo, hi;
};

bool Overlap(const Box& a, const Box& b) {
  return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y;
}

BoxCoverHost Cover(const std::vector<Box>& boxes, float min_cell) {
  std::vector<Vec2> lo, hi;
  for (const Box& b : boxes) {
    lo.push_back(b.lo);
    hi.push_back(b.hi);
  }
  return BuildBoxCover(lo, hi, min_cell);
}

// Every query that overlaps a box is answered "may meet"; returns how many queries that
// overlap nothing were answered "no".
int CheckNoFalseNo(const std::vector<Box>& boxes, const std::vector<Box>& queries, float min_cell) {
  const BoxCoverHost cover = Cover(boxes, min_cell);
  EXPECT_LE(int64_t{cover.nx} * cover.ny, kMaxBoxCoverCells);
  const BoxCoverView view = cover.View(cover.words.data());
  int filtered = 0;
  for (size_t q = 0; q < queries.size(); ++q) {
    bool meets = false;
    for (const Box& b : boxes) meets = meets || Overlap(b, queries[q]);
    const bool may = BoxCoverMayMeet(view, queries[q].lo, queries[q].hi);
    if (meets) {
      EXPECT_TRUE(may) << "query " << q << " at " << queries[q].lo.x << ", " << queries[q].lo.y;
    } else if (!may) {
      ++filtered;
    }
  }
  return filtered;
}

TEST(BoxCoverTest, NeverSaysNoToABoxThatOverlapsOne) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> at(-300.f, 300.f), size(0.f, 40.f), radius(0.f, 1.5f);
  std::vector<Box> boxes;
  for (int i = 0; i < 60; ++i) {
    const Vec2 lo{at(rng), at(rng)};
    // Some walls of zero width or height, as a two-vertex obstacle's box.
    const float w = i % 7 == 0 ? 0.f : size(rng), h = i % 11 == 0 ? 0.f : size(rng);
    boxes.push_back({lo, {lo.x + w, lo.y + h}});
  }
  std::vector<Box> queries;
  for (int q = 0; q < 20000; ++q) {
    const Vec2 p{at(rng) * 1.1f, at(rng) * 1.1f};
    const float r = radius(rng);
    queries.push_back({{p.x - r, p.y - r}, {p.x + r, p.y + r}});
  }
  // Queries that touch a box exactly at its edges and corners.
  for (const Box& b : boxes) {
    queries.push_back({{b.hi.x, b.hi.y}, {b.hi.x + 0.3f, b.hi.y + 0.3f}});
    queries.push_back({{b.lo.x - 0.3f, b.lo.y - 0.3f}, {b.lo.x, b.lo.y}});
  }
  const int filtered = CheckNoFalseNo(boxes, queries, 0.5f);
  EXPECT_GT(filtered, 10000);  // most of the plane is empty: the cover must say so
}

TEST(BoxCoverTest, FarApartBoxesGetCoarserCellsAndStayExact) {
  // Two boxes 4,000 km apart, as far as the coordinate limit allows: the cells grow so
  // that there are at most kMaxBoxCoverCells, and no query near either box is missed.
  const std::vector<Box> boxes = {{{-2e6f, -2e6f}, {-1.99999e6f, -1.99999e6f}},
                                  {{1.9e6f, 2e6f}, {2e6f, 2e6f}}};
  std::vector<Box> queries;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> jitter(-50.f, 50.f);
  for (const Box& b : boxes) {
    for (int q = 0; q < 2000; ++q) {
      const Vec2 p{b.lo.x + jitter(rng), b.hi.y + jitter(rng)};
      queries.push_back({{p.x - 0.5f, p.y - 0.5f}, {p.x + 0.5f, p.y + 0.5f}});
    }
  }
  queries.push_back({{0.f, 0.f}, {1.f, 1.f}});  // between them: covered by nothing
  CheckNoFalseNo(boxes, queries, 0.5f);
  const BoxCoverHost cover = Cover(boxes, 0.5f);
  EXPECT_GT(cover.cell, 1000.f);
  EXPECT_FALSE(BoxCoverMayMeet(cover.View(cover.words.data()), {0.f, 0.f}, {1.f, 1.f}));
}

TEST(BoxCoverTest, NothingCoveredSaysNoAndANanQuerySaysYes) {
  const BoxCoverHost empty = Cover({}, 0.5f);
  EXPECT_FALSE(BoxCoverMayMeet(empty.View(empty.words.data()), {0.f, 0.f}, {1.f, 1.f}));
  const BoxCoverHost one = Cover({{{0.f, 0.f}, {1.f, 1.f}}}, 0.5f);
  const BoxCoverView view = one.View(one.words.data());
  EXPECT_TRUE(BoxCoverMayMeet(view, {NAN, 5.f}, {NAN, 6.f}));
  EXPECT_FALSE(BoxCoverMayMeet(view, {5.f, 5.f}, {6.f, 6.f}));
  EXPECT_TRUE(BoxCoverMayMeet(view, {-1e30f, -1e30f}, {1e30f, 1e30f}));  // past every cell
}

}  // namespace
}  // namespace throng
