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

}  // namespace
}  // namespace throng
