// The neighbour audit (OrcaRunOptions::audit_every) must catch what it is there for: a grid
// that hides neighbours the solve should keep. The equivalence tests only ever see it
// report 0 on a correct grid; here the same query runs on a grid built by hand, first
// correct, then with one occupied bucket's range emptied, as a broken sort or offset scan
// would leave it, with each kind of scan (NeighborScan).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "kernels/backends/orca_result_stats.h"
#include "kernels/orca/orca_agent.cuh"
#include "kernels/spatial/grid.cuh"

namespace throng {
namespace {

struct Crowd {
  std::vector<float> px, py, vx, vy, radius, max_speed, pref_vx, pref_vy;
  std::vector<uint32_t> id, input_index;
  std::vector<uint8_t> flags;
  std::vector<QueryPoint> points;
  std::vector<uint32_t> offsets;  // BucketCount + 1 entries
  GridSpec grid{};
};

// n agents at random in a square, sorted into the grid as the pipeline sorts them
// (kernels/backends/grid_build.cuh), with one cell per query radius.
Crowd SortedCrowd(uint32_t n, float side, const OrcaParams& params) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> at(0.f, side);
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = at(rng);
    y[i] = at(rng);
  }
  const float r = 0.3f, s = 1.5f;
  const float reach = 2.f * r + 2.f * s * params.time_horizon;
  Crowd c;
  c.grid = MakeGridSpec(n, reach * 1.0002f);
  std::vector<uint32_t> bucket(n), order(n);
  const GridKeyFunctor key{x.data(), y.data(), c.grid, bucket.data(), order.data()};
  for (uint32_t i = 0; i < n; ++i) key(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return bucket[a] < bucket[b]; });
  std::vector<uint32_t> sorted_bucket(n);
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = order[k];
    sorted_bucket[k] = bucket[i];
    c.px.push_back(x[i]);
    c.py.push_back(y[i]);
    c.vx.push_back(0.f);
    c.vy.push_back(0.f);
    c.radius.push_back(r);
    c.max_speed.push_back(s);
    c.pref_vx.push_back(s);
    c.pref_vy.push_back(0.f);
    c.id.push_back(i);
    c.input_index.push_back(i);
    c.flags.push_back(0);
    c.points.push_back({x[i], y[i], r, s});
  }
  const uint32_t buckets = BucketCount(c.grid);
  c.offsets.resize(buckets + 1);
  for (uint32_t b = 0; b <= buckets; ++b) {
    c.offsets[b] = static_cast<uint32_t>(
        std::lower_bound(sorted_bucket.begin(), sorted_bucket.end(), b) - sorted_bucket.begin());
  }
  return c;
}

// Every agent audited; returns the false negatives summed over them, and the candidates
// the grid found in `found`, with the scan of that kind (marks for kShrinkPastMarks set as
// the pipeline sets them).
uint64_t AuditedMisses(const Crowd& c, const OrcaParams& params, NeighborScan scan,
                       uint64_t* found) {
  const auto n = static_cast<uint32_t>(c.px.size());
  const SortedAgentsView agents{c.px.data(),     c.py.data(),     c.vx.data(),
                                c.vy.data(),     c.radius.data(), c.max_speed.data(),
                                c.pref_vx.data(), c.pref_vy.data(), c.id.data(),
                                c.flags.data(),  c.input_index.data(), n};
  std::vector<uint32_t> lists(static_cast<size_t>(n) * params.max_neighbors);
  std::vector<uint16_t> kept(n), candidates(n), missed(n, kNotAudited);
  std::vector<float> bound(n);
  std::vector<uint8_t> marked(BucketCount(c.grid));
  const NonCooperativeBucketsFunctor mark{c.offsets.data(), c.flags.data(), marked.data()};
  for (uint32_t b = 0; b < marked.size(); ++b) mark(b);
  const NeighborQueryFunctor query{agents,
                                   c.points.data(),
                                   c.offsets.data(),
                                   c.grid,
                                   params,
                                   0.3f,
                                   1.5f,
                                   /*audit_every=*/1,
                                   lists.data(),
                                   kept.data(),
                                   candidates.data(),
                                   missed.data(),
                                   bound.data(),
                                   scan,
                                   marked.data()};
  uint64_t total = 0;
  *found = 0;
  for (uint32_t i = 0; i < n; ++i) {
    query(i);
    *found += candidates[i];
    EXPECT_NE(missed[i], kNotAudited) << "agent " << i << " was not audited";
    if (missed[i] != kNotAudited) total += missed[i];
  }
  return total;
}

TEST(NeighborAuditTest, FindsNothingOnACorrectGridAndTheNeighboursABrokenOneHides) {
  OrcaParams params;
  params.time_horizon = 2.f;  // a 6.6 m query radius: about 80 cells over 60 m x 60 m
  Crowd crowd = SortedCrowd(400, 60.f, params);
  uint64_t found = 0, found_shrunk = 0;
  EXPECT_EQ(AuditedMisses(crowd, params, NeighborScan::kWholeDisc, &found), 0u);
  EXPECT_GT(found, 400u) << "the scene must give the audit candidates to check";
  for (const NeighborScan scan : {NeighborScan::kShrink, NeighborScan::kShrinkPastMarks}) {
    EXPECT_EQ(AuditedMisses(crowd, params, scan, &found_shrunk), 0u);
    EXPECT_LT(found_shrunk, found) << "the shrunk scan must read fewer";
  }

  // Empty the range of the most crowded bucket: its agents then sit, for the scan, in the
  // next bucket's range, and queries that reach the cell but not that bucket lose them.
  const uint32_t buckets = BucketCount(crowd.grid);
  uint32_t fullest = 0;
  for (uint32_t b = 1; b < buckets; ++b) {
    if (crowd.offsets[b + 1] - crowd.offsets[b] >
        crowd.offsets[fullest + 1] - crowd.offsets[fullest]) {
      fullest = b;
    }
  }
  const uint32_t hidden = crowd.offsets[fullest + 1] - crowd.offsets[fullest];
  ASSERT_GT(hidden, 1u);
  crowd.offsets[fullest + 1] = crowd.offsets[fullest];
  for (const NeighborScan scan :
       {NeighborScan::kWholeDisc, NeighborScan::kShrink, NeighborScan::kShrinkPastMarks}) {
    const uint64_t missed = AuditedMisses(crowd, params, scan, &found);
    std::printf("[ figures  ] %u agents hidden in one bucket: the audit finds %llu missed "
                "neighbours (scan kind %d)\n",
                hidden, static_cast<unsigned long long>(missed), static_cast<int>(scan));
    EXPECT_GT(missed, 0u) << "scan kind " << static_cast<int>(scan);
  }
}

// What the query found reaches the result's counters (and from there the tick's stats and
// throng_audited_false_negatives_total): agents not audited are left out, misses add up.
TEST(NeighborAuditTest, MissesAddUpInTheResultsCounters) {
  const std::vector<uint16_t> missed{kNotAudited, 0, 3, kNotAudited, 2, 0};
  OrcaResult r;
  r.audited_agents = r.audited_false_negatives = 99;  // stale from an earlier call
  TallyAudit(missed, missed.size(), &r);
  EXPECT_EQ(r.audited_agents, 4u);
  EXPECT_EQ(r.audited_false_negatives, 5u);
}

}  // namespace
}  // namespace throng
