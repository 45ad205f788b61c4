// The neighbour query's building blocks (kernels/spatial/grid.cuh, kernels/orca/orca_agent.cuh):
// the cell coordinate without floorf, the one-word neighbour order, the rows visited, and a kept
// list in which a distant non-cooperative agent outranks a close crowd.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/orca/orca_agent.cuh"
#include "kernels/spatial/grid.cuh"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

// The definition CellCoord must keep: floor, then saturation, NaN to the low edge.
int32_t CellCoordByFloor(float p, float inv_cell) {
  float c = std::floor(p * inv_cell);
  if (!(c >= -kMaxCellCoord)) c = -kMaxCellCoord;
  if (c > kMaxCellCoord) c = kMaxCellCoord;
  return static_cast<int32_t>(c);
}

float FloatFromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

TEST(CellCoordTest, equals_the_saturated_floor_for_every_kind_of_float) {
  std::mt19937 rng(7);
  const float inv_cells[] = {1.f, 0.2f, 1.f / 3.f, 1000.f, 1e-6f};
  std::vector<float> values = {0.f,
                               -0.f,
                               0.5f,
                               -0.5f,
                               1.f,
                               -1.f,
                               -1.0000001f,
                               2.9999998f,
                               kMaxCellCoord,
                               -kMaxCellCoord,
                               std::nextafter(kMaxCellCoord, 0.f),
                               std::nextafter(-kMaxCellCoord, 0.f),
                               std::nextafter(kMaxCellCoord, INFINITY),
                               std::nextafter(-kMaxCellCoord, -INFINITY),
                               INFINITY,
                               -INFINITY,
                               std::numeric_limits<float>::quiet_NaN(),
                               std::numeric_limits<float>::denorm_min(),
                               -std::numeric_limits<float>::denorm_min()};
  // Every bit pattern is as likely: tiny, huge, negative, NaN and infinite values all come up.
  for (int k = 0; k < 200000; ++k) values.push_back(FloatFromBits(static_cast<uint32_t>(rng())));
  // And coordinates as agents have them.
  std::uniform_real_distribution<float> coord(-5000.f, 5000.f);
  for (int k = 0; k < 200000; ++k) values.push_back(coord(rng));
  for (const float inv_cell : inv_cells) {
    for (const float p : values) {
      ASSERT_EQ(CellCoord(p, inv_cell), CellCoordByFloor(p, inv_cell))
          << "p = " << p << ", inv_cell = " << inv_cell;
    }
  }
}

TEST(NeighborKeyTest, orders_by_tier_then_distance_then_id) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(0.f, 400.f);
  struct Entry {
    bool cooperative;
    float dist_sq;
    uint32_t id;
  };
  std::vector<Entry> entries;
  for (int k = 0; k < 2000; ++k) {
    // Few distinct distances and ids, so that ties in the first fields are common.
    entries.push_back({rng() % 2 == 0, std::round(dist(rng)) * (rng() % 3 == 0 ? 0.f : 1.f),
                       static_cast<uint32_t>(rng() % 50) * 0x01010101u});
  }
  entries.push_back({true, 0.f, 0xffffffffu});
  entries.push_back({false, std::numeric_limits<float>::max(), 0u});
  for (size_t a = 0; a < entries.size(); a += 7) {
    for (size_t b = 0; b < entries.size(); ++b) {
      const Entry& x = entries[a];
      const Entry& y = entries[b];
      // Non-cooperative (tier 0) first.
      const bool before = std::make_tuple(x.cooperative, x.dist_sq, x.id) <
                          std::make_tuple(y.cooperative, y.dist_sq, y.id);
      ASSERT_EQ(
          NeighborKey(x.cooperative, x.dist_sq, x.id) < NeighborKey(y.cooperative, y.dist_sq, y.id),
          before)
          << a << " " << b;
    }
  }
}

// The table's size: at least 2n buckets; up to 8n when the points' box holds more cells,
// never more than the box's cells (rounded down to a power of two) and never for a box
// that is not a number; always W >= H >= 32.
TEST(MakeGridSpecTest, grows_the_table_for_a_sparse_box_up_to_eight_buckets_an_agent) {
  auto buckets = [](const GridSpec& g) { return uint64_t{BucketCount(g)}; };
  const uint32_t n = 100000;
  EXPECT_EQ(buckets(MakeGridSpec(n, 1.f)), 262144u);  // 2n rounded up
  // A dense box (a few cells an agent): the plain table.
  EXPECT_EQ(buckets(MakeGridSpec(n, 1.f, 300.f, 300.f)), 262144u);
  // 1,452 x 736 cells (a town's streets, 5 m cells): 1.07M cells, 8n = 800k: 2^19.
  EXPECT_EQ(buckets(MakeGridSpec(n, 5.f, 7250.f, 3670.f)), 524288u);
  // Far more cells than 8n: 2^19 still (2^20 > 8n).
  EXPECT_EQ(buckets(MakeGridSpec(n, 1.f, 1e6f, 1e6f)), 524288u);
  EXPECT_EQ(buckets(MakeGridSpec(n, 1.f, NAN, 10.f)), 262144u);
  EXPECT_EQ(buckets(MakeGridSpec(n, 1.f, INFINITY, 10.f)), 524288u);
  EXPECT_EQ(buckets(MakeGridSpec(10, 1.f, 1e6f, 1e6f)), 1024u);  // 2^10 is the least
  for (const GridSpec& g : {MakeGridSpec(n, 5.f, 7250.f, 3670.f), MakeGridSpec(3, 1.f, 1e4f, 1.f)}) {
    EXPECT_GE(g.x_mask, g.y_mask);
    EXPECT_GE(g.y_mask + 1, 32u);
    EXPECT_EQ(g.x_mask + 1, 1u << g.x_bits);
  }
}

// The rows ForEachRowRange visits for a query disc: each row of the disc once, its own first.
TEST(ForEachRowRangeTest, visits_every_row_of_the_disc_once_from_the_agent_outward) {
  const float cell = 2.f;
  const GridSpec grid = MakeGridSpec(1000, cell);
  // One agent per bucket (offsets[b] = b), so a range's first index names its bucket row.
  const uint32_t width = grid.x_mask + 1, height = grid.y_mask + 1;
  std::vector<uint32_t> offsets(BucketCount(grid) + 1);
  for (uint32_t b = 0; b <= BucketCount(grid); ++b) offsets[b] = b;
  for (const Vec2 p : {Vec2{0.5f, 0.5f}, Vec2{-7.3f, 11.9f}, Vec2{40.f, -40.f}}) {
    for (const float reach : {0.5f, 3.f, 7.9f}) {
      // A chord that wraps round the table's edge comes as two ranges of one row.
      std::vector<uint32_t> rows;
      ForEachRowRange(grid, offsets.data(), p, reach, [&](uint32_t begin, uint32_t end) {
        ASSERT_GT(end, begin);
        const uint32_t row = begin / width;
        ASSERT_EQ((end - 1) / width, row);
        if (rows.empty() || rows.back() != row) rows.push_back(row);
      });
      const int32_t y0 = CellCoord(p.y - reach, grid.inv_cell);
      const int32_t y1 = CellCoord(p.y + reach, grid.inv_cell);
      ASSERT_EQ(rows.size(), static_cast<size_t>(y1 - y0 + 1)) << p.x << "," << p.y << " " << reach;
      EXPECT_EQ(std::set<uint32_t>(rows.begin(), rows.end()).size(), rows.size());
      const auto own = static_cast<uint32_t>(CellCoord(p.y, grid.inv_cell));
      EXPECT_EQ(rows.front(), own & grid.y_mask);
      // Rows apart from the agent's, on the wrapped table.
      auto distance = [&](uint32_t row) {
        const uint32_t d = (row - own) & grid.y_mask;
        return std::min(d, height - d);
      };
      for (size_t k = 1; k < rows.size(); ++k) EXPECT_LE(distance(rows[k - 1]), distance(rows[k]));
    }
  }
}

// Points sorted into a grid by (bucket, index), as the pipeline sorts agents: order[slot] is
// the point in that slot, bucket[i] point i's bucket, offsets each bucket's first slot.
struct SortedPoints {
  std::vector<uint32_t> order, bucket, offsets;
};

SortedPoints SortIntoBuckets(const std::vector<Vec2>& points, const GridSpec& grid) {
  SortedPoints s;
  s.order.resize(points.size());
  s.bucket.resize(points.size());
  for (uint32_t i = 0; i < points.size(); ++i) {
    s.order[i] = i;
    s.bucket[i] = BucketOf(CellCoord(points[i].x, grid.inv_cell),
                           CellCoord(points[i].y, grid.inv_cell), grid);
  }
  std::stable_sort(s.order.begin(), s.order.end(),
                   [&](uint32_t a, uint32_t b) { return s.bucket[a] < s.bucket[b]; });
  s.offsets.assign(BucketCount(grid) + 1, static_cast<uint32_t>(points.size()));
  for (uint32_t slot = points.size(); slot-- > 0;) s.offsets[s.bucket[s.order[slot]]] = slot;
  for (uint32_t b = BucketCount(grid); b-- > 0;)
    s.offsets[b] = std::min(s.offsets[b], s.offsets[b + 1]);
  return s;
}

// ForEachBoxRowRange, for the path check's thin corridors: every point in the box comes,
// whatever the box's shape or place (the table wraps, coordinates are large), and none
// twice.
TEST(ForEachBoxRowRangeTest, brings_every_point_in_the_box) {
  std::mt19937 rng(5);
  for (const float origin : {0.f, -30000.f, 250000.f}) {
    std::uniform_real_distribution<float> coord(origin - 120.f, origin + 120.f);
    std::vector<Vec2> points(3000);
    for (Vec2& q : points) q = {coord(rng), coord(rng)};
    const GridSpec grid = MakeGridSpec(static_cast<uint32_t>(points.size()), 2.f);
    const SortedPoints sorted = SortIntoBuckets(points, grid);
    const std::vector<uint32_t>& order = sorted.order;
    const std::vector<uint32_t>& offsets = sorted.offsets;
    for (int query = 0; query < 300; ++query) {
      const Vec2 p{coord(rng), coord(rng)};
      std::uniform_real_distribution<float> side(0.f, 12.f);
      const Vec2 half{side(rng), query % 3 == 0 ? 0.f : side(rng)};
      std::vector<int> seen(points.size(), 0);
      ForEachBoxRowRange(grid, offsets.data(), p, half, [&](uint32_t begin, uint32_t end) {
        for (uint32_t k = begin; k < end; ++k) ++seen[order[k]];
      });
      for (uint32_t i = 0; i < points.size(); ++i) {
        ASSERT_LE(seen[i], 1) << "point " << i << " came twice";
        const Vec2 d = points[i] - p;
        if (std::fabs(d.x) <= half.x && std::fabs(d.y) <= half.y) {
          ASSERT_EQ(seen[i], 1) << "point " << i << " at " << d.x << "," << d.y << " of box "
                                << half.x << "," << half.y << " around " << p.x << "," << p.y;
        }
      }
    }
  }
}

// ForEachRowRangeShrinking, the neighbour scan once a list is full: every point within the
// limit comes, and every point of a marked bucket within reach, whatever the place (the
// table wraps, coordinates are large) or the limit; none comes twice.
TEST(ForEachRowRangeShrinkingTest, brings_what_is_within_the_limit_and_marked_buckets_within_reach) {
  std::mt19937 rng(11);
  for (const float origin : {0.f, -30000.f, 250000.f}) {
    std::uniform_real_distribution<float> coord(origin - 60.f, origin + 60.f);
    std::vector<Vec2> points(3000);
    for (Vec2& q : points) q = {coord(rng), coord(rng)};
    const float reach = 6.f;
    const GridSpec grid = MakeGridSpec(static_cast<uint32_t>(points.size()), reach / 3.f);
    const SortedPoints sorted = SortIntoBuckets(points, grid);
    const std::vector<uint32_t>& order = sorted.order;
    const std::vector<uint32_t>& bucket = sorted.bucket;
    const std::vector<uint32_t>& offsets = sorted.offsets;
    std::vector<uint8_t> marked(BucketCount(grid));
    for (uint8_t& m : marked) m = rng() % 8 == 0;
    for (int query = 0; query < 300; ++query) {
      const Vec2 p{coord(rng), coord(rng)};
      const float limit = std::uniform_real_distribution<float>(0.f, 1.2f * reach)(rng);
      std::vector<int> seen(points.size(), 0);
      ForEachRowRangeShrinking(
          grid, offsets.data(), marked.data(), p, reach, [&] { return limit; },
          [&](uint32_t begin, uint32_t end) {
            for (uint32_t k = begin; k < end; ++k) ++seen[order[k]];
          });
      for (uint32_t i = 0; i < points.size(); ++i) {
        ASSERT_LE(seen[i], 1) << "point " << i << " came twice";
        const float d = Length(points[i] - p);
        if (d <= std::min(limit, reach) || (marked[bucket[i]] && d <= reach)) {
          ASSERT_EQ(seen[i], 1) << "point " << i << " at " << d << " m (limit " << limit
                                << ", marked " << int(marked[bucket[i]]) << ")";
        }
      }
    }
  }
}

class NeighborListTest : public testing::BackendParamTest {};

// Twenty-four cooperative agents just behind A fill its list of ten from the first rows the
// scan visits; a vehicle (non-cooperative) 12 m to A's side, on course to meet A in 1.5 s, lies in
// a row visited later, beyond the list's last distance. It must still take the first slot (vehicles
// never drop out of the cut), so A's velocity avoids it, as in the reference.
TEST_P(NeighborListTest, a_distant_non_cooperative_agent_outranks_a_full_list_of_close_ones) {
  auto make_scene = [](bool with_vehicle) {
    OrcaScene scene;
    scene.params.max_neighbors = 10;
    scene.params.neighbor_dist = 15.f;
    scene.params.time_horizon = 5.f;
    AgentColumns& a = scene.agents;
    auto add = [&](uint32_t id, float x, float y, float vx, float vy, uint8_t flags) {
      a.id.push_back(id);
      a.px.push_back(x);
      a.py.push_back(y);
      a.vx.push_back(vx);
      a.vy.push_back(vy);
      a.pref_vx.push_back(vx);
      a.pref_vy.push_back(vy);
      a.radius.push_back(0.3f);
      a.max_speed.push_back(flags ? 8.f : 1.5f);
      a.flags.push_back(flags);
    };
    add(0, 0.f, 0.f, 1.f, 0.f, 0);  // A, walking along +x
    // More than the query's merge buffer (16), so the list's last distance is known before
    // the scan reaches the vehicle's row.
    for (uint32_t k = 0; k < 24; ++k) {
      add(1 + k, -1.5f - 0.7f * static_cast<float>(k % 8), -0.7f + 0.7f * static_cast<float>(k / 8),
          1.f, 0.f, 0);
    }
    if (with_vehicle) add(100, 1.5f, -12.f, 0.f, 8.f, kAgentNonCooperative);  // meets A at (1.5, 0)
    return scene;
  };
  const auto backend = CreateBackend(GetParam());
  const auto reference = CreateBackend(BackendKind::kReference);
  OrcaResult with, without, expected;
  const OrcaScene scene = make_scene(true);
  backend->SolveOrca(scene.params, scene.agents, {}, &with);
  reference->SolveOrca(scene.params, scene.agents, {}, &expected);
  const OrcaScene crowd_only = make_scene(false);
  backend->SolveOrca(crowd_only.params, crowd_only.agents, {}, &without);
  ASSERT_EQ(with.neighbors[0], 10);
  EXPECT_NEAR(with.vx[0], expected.vx[0], 1e-4f);
  EXPECT_NEAR(with.vy[0], expected.vy[0], 1e-4f);
  EXPECT_EQ(with.status[0], expected.status[0]);
  // The vehicle changed A's answer: it was in the list.
  EXPECT_GT(std::hypot(with.vx[0] - without.vx[0], with.vy[0] - without.vy[0]), 1e-3f);
}

INSTANTIATE_TEST_SUITE_P(Backends, NeighborListTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
