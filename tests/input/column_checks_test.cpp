// The column checks search big columns on every core (kernels/input/first_index.h); the
// offender they name must be the first, as a serial walk names it, at any thread count.
#include "kernels/input/column_checks.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/input/first_index.h"
#include "kernels/input/input_limits.h"

namespace throng {
namespace {

constexpr size_t kBig = 200000;  // well above kParallelCheckFrom
static_assert(kBig > 4 * kParallelCheckFrom);

// What `check` throws, at 1, 2 and 4 threads: the three must agree.
template <class Check>
std::string MessageAtEveryThreadCount(const Check& check) {
  std::vector<std::string> messages;
  const int threads_before = omp_get_max_threads();
  for (int threads : {1, 2, 4}) {
    omp_set_num_threads(threads);
    try {
      check();
      messages.push_back("(no error)");
    } catch (const std::invalid_argument& e) {
      messages.push_back(e.what());
    }
  }
  omp_set_num_threads(threads_before);
  EXPECT_EQ(messages[0], messages[1]);
  EXPECT_EQ(messages[0], messages[2]);
  return messages[0];
}

TEST(FirstIndexWhereTest, FindsTheSmallestFailingIndexOrN) {
  std::vector<int> bad(kBig, 0);
  const auto at = [&](size_t i) { return bad[i] != 0; };
  EXPECT_EQ(FirstIndexWhere(kBig, at), kBig);
  bad[150000] = bad[70001] = bad[199999] = 1;
  for (int threads : {1, 2, 4}) {
    omp_set_num_threads(threads);
    EXPECT_EQ(FirstIndexWhere(kBig, at), 70001u) << threads << " threads";
    EXPECT_EQ(FirstIndexWhere(size_t{100}, at), 100u);  // the serial path
  }
  EXPECT_EQ(FirstIndexWhere(size_t{0}, at), 0u);
}

TEST(ColumnChecksTest, ABigColumnNamesItsFirstOffender) {
  std::vector<float> px(kBig, 1.f), vx(kBig, 0.5f);
  px[90000] = std::numeric_limits<float>::quiet_NaN();
  px[60000] = 3e38f;
  vx[10] = std::numeric_limits<float>::infinity();  // a later column: px is checked first
  EXPECT_EQ(MessageAtEveryThreadCount([&] {
              RequireBoundedColumns("agents", {{"px", &px}, {"vx", &vx}}, kBig, kMaxCoordinate,
                                    "m");
            }),
            "agents.px[60000]: 3e+38 m is beyond the limit of 2e+06 m");
  px[60000] = 1.f;
  EXPECT_EQ(MessageAtEveryThreadCount([&] { RequireFiniteColumns("agents", {{"px", &px}}, kBig); }),
            "agents.px[90000]: not finite");
}

TEST(ColumnChecksTest, SizeAndSignRulesNameTheirFirstOffender) {
  std::vector<float> radius(kBig, 0.3f);
  radius[80000] = 0.f;
  radius[50000] = 1e-5f;
  const ColumnInfo size_rule{"radius", ColumnNeed::kRequired, Size(kMaxRadius, "m")};
  EXPECT_EQ(MessageAtEveryThreadCount([&] { CheckColumn("agents", size_rule, radius, kBig); }),
            "agents.radius[50000]: must be at least 0.001 m");
  std::vector<float> slowing(kBig, 1.f);
  slowing[123456] = -1.f;
  slowing[kBig - 1] = -2.f;
  const ColumnInfo sign_rule{"slowing_radius", ColumnNeed::kOptional,
                             NonNegative(kMaxDistance, "m")};
  EXPECT_EQ(MessageAtEveryThreadCount([&] { CheckColumn("agents", sign_rule, slowing, kBig); }),
            "agents.slowing_radius[123456]: must be >= 0");
}

TEST(ColumnChecksTest, RepeatedIdsAreFoundInOrderedAndShuffledColumns) {
  std::vector<uint32_t> ids(kBig);
  std::iota(ids.begin(), ids.end(), 0u);
  EXPECT_EQ(MessageAtEveryThreadCount([&] { RequireUniqueIds("agents", ids); }), "(no error)");
  ids[150000] = 7;  // the ordered fast path fails here; the sort names the repeat
  EXPECT_EQ(MessageAtEveryThreadCount([&] { RequireUniqueIds("agents", ids); }),
            "agents.id[150000]: 7 repeats agents.id[7]");
  std::reverse(ids.begin(), ids.end());  // not ordered at all: every id still unique but 7
  EXPECT_EQ(MessageAtEveryThreadCount([&] { RequireUniqueIds("agents", ids); }),
            "agents.id[199992]: 7 repeats agents.id[49999]");
}

// One pass for every column: the edges of each range are inside, a NaN, an infinity and
// the next float past an edge are outside, wherever they stand in the slices the threads
// take (kBig + 7 values: the slices are uneven).
TEST(ColumnChecksTest, AllInRangeFindsAnOffenderInAnyColumnAndAnySlice) {
  const size_t n = kBig + 7;
  std::vector<float> a(n, 0.f), b(n, 1.f);
  a[0] = -2.f;
  a[n - 1] = 2.f;
  b[n / 2] = kMinSize;
  const ValueRange ranges[] = {{a.data(), -2.f, 2.f}, {b.data(), kMinSize, 5.f}};
  for (int threads : {1, 2, 3, 4}) {
    omp_set_num_threads(threads);
    EXPECT_TRUE(AllInRange(ranges, 2, n)) << threads << " threads";
    for (const size_t at : {size_t{0}, n / 3, n / 2 + 1, n - 1}) {
      for (const float bad : {std::nextafter(kMinSize, 0.f), std::nextafter(5.f, 6.f),
                              std::numeric_limits<float>::quiet_NaN(), -INFINITY}) {
        const float kept = b[at];
        b[at] = bad;
        EXPECT_FALSE(AllInRange(ranges, 2, n)) << threads << " threads, b[" << at << "] " << bad;
        b[at] = kept;
      }
    }
  }
  omp_set_num_threads(4);
  EXPECT_TRUE(AllInRange(ranges, 0, n));
  EXPECT_TRUE(AllInRange(ranges, 2, 0));
}

// The ranges and a row check in one region: a row that fails its check anywhere in any
// thread's slice makes it false, as a value out of range does; with every row passing,
// the ranges alone decide.
TEST(ColumnChecksTest, AllInRangeAndFindsAFailingRowInAnySlice) {
  const size_t n = kBig + 7;
  std::vector<float> a(n, 0.f);
  const ValueRange ranges[] = {{a.data(), -1.f, 1.f}};
  for (int threads : {1, 2, 3, 4}) {
    omp_set_num_threads(threads);
    EXPECT_TRUE(AllInRangeAnd(ranges, 1, n, [](size_t) { return true; })) << threads;
    for (const size_t at : {size_t{0}, n / 3, n / 2 + 1, n - 1}) {
      EXPECT_FALSE(AllInRangeAnd(ranges, 1, n, [at](size_t i) { return i != at; }))
          << threads << " threads, row " << at;
      a[at] = 2.f;
      EXPECT_FALSE(AllInRangeAnd(ranges, 1, n, [](size_t) { return true; })) << threads;
      a[at] = 0.f;
    }
  }
  omp_set_num_threads(4);
  EXPECT_TRUE(AllInRangeAnd(ranges, 1, 0, [](size_t) { return false; }));  // no rows
}

// A table checked in one pass names the same first error as the column-by-column walk:
// a bad value in an early column comes before a wrong length in a later one, and the
// passes that find nothing throw nothing.
TEST(ColumnChecksTest, CheckColumnsNamesWhatTheWalkColumnByColumnNames) {
  std::vector<float> x(kBig, 1.f), radius(kBig, 0.3f), speed;  // speed: optional, absent
  const ColumnInfo x_rule{"x", ColumnNeed::kRequired, Bounded(kMaxCoordinate, "m")};
  const ColumnInfo radius_rule{"radius", ColumnNeed::kRequired, Size(kMaxRadius, "m")};
  const ColumnInfo speed_rule{"max_speed", ColumnNeed::kOptional, Size(kMaxSpeed, "m/s")};
  auto visit = [&](auto check) {
    check(x_rule, x);
    check(radius_rule, radius);
    check(speed_rule, speed);
  };
  auto walk = [&] {
    visit([&](const ColumnInfo& c, const auto& values) { CheckColumn("agents", c, values, kBig); });
  };
  auto both = [&] {
    std::string walked = "(no error)", fused = "(no error)";
    try {
      walk();
    } catch (const std::invalid_argument& e) {
      walked = e.what();
    }
    fused = MessageAtEveryThreadCount([&] { CheckColumns("agents", kBig, visit); });
    EXPECT_EQ(fused, walked);
    return fused;
  };
  EXPECT_EQ(both(), "(no error)");
  radius[120000] = 0.f;
  EXPECT_EQ(both(), "agents.radius[120000]: must be > 0");
  x[150000] = NAN;
  EXPECT_EQ(both(), "agents.x[150000]: not finite");
  speed.assign(kBig - 1, 1.f);  // a later column of the wrong length: still x's value first
  EXPECT_EQ(both(), "agents.x[150000]: not finite");
  x[150000] = 1.f;
  radius[120000] = 0.3f;
  EXPECT_EQ(both(), "agents.max_speed: has 199999 values, expected 200000");
}

}  // namespace
}  // namespace throng
