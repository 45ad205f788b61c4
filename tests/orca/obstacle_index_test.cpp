// The obstacle edge grid (kernels/obstacle_grid.*) and the indexed edge selection
// (kernels/orca/obstacle_select.cuh) against the scan of every edge: the same edges in the same
// order, bit for bit, and a cpu-backend solve that does not change with the index.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/backends/cpu_backend.h"
#include "kernels/orca/obstacle_grid.h"
#include "kernels/orca/obstacles.h"
#include "kernels/orca/orca.cuh"
#include "kernels/scenarios/blocks.h"

namespace throng {
namespace {

using orca::detail::EdgeCandidate;

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// Star-shaped polygons (vertices sorted by angle, so counter-clockwise and simple, often
// with reflex corners) of assorted sizes, two-vertex walls much longer than the cells,
// and an exact copy of one polygon (ties in distance with different indices).
std::vector<Polygon> RandomWorld(std::mt19937& rng, int polygons, float world) {
  std::uniform_real_distribution<float> pos(-world, world), unit(0.f, 1.f);
  std::vector<Polygon> out;
  for (int p = 0; p < polygons; ++p) {
    const Vec2 c{pos(rng), pos(rng)};
    const float size = 0.3f + 8.f * unit(rng) * unit(rng);
    const int n = 3 + static_cast<int>(unit(rng) * 9.f);
    std::vector<float> angles(static_cast<size_t>(n));
    for (float& a : angles) a = 6.2831853f * unit(rng);
    std::sort(angles.begin(), angles.end());
    angles.erase(std::unique(angles.begin(), angles.end()), angles.end());
    Polygon poly;
    for (float a : angles) {
      const float r = size * (0.3f + unit(rng));
      poly.vertices.push_back(c + Vec2{r * std::cos(a), r * std::sin(a)});
    }
    if (poly.vertices.size() >= 3) out.push_back(poly);
  }
  for (int w = 0; w < 6; ++w) {
    out.push_back(Polygon{{{pos(rng), pos(rng)}, {pos(rng), pos(rng)}}});
  }
  out.push_back(out.front());
  return out;
}

// Indexed and scanned selection for one query, compared entry by entry.
void ExpectSameSelection(const ObstacleVertices& v, const EdgeGrid& grid, Vec2 p, float range_sq) {
  EdgeCandidate indexed[kMaxObstacleLinesLimit], scanned[kMaxObstacleLinesLimit];
  const int n_indexed = orca::detail::SelectObstacleEdges(p, range_sq, ViewOf(v, grid), indexed);
  const int n_scanned = orca::detail::SelectObstacleEdgesScan(p, range_sq, ViewOf(v), scanned);
  ASSERT_EQ(n_indexed, n_scanned) << "p (" << p.x << ", " << p.y << ") range_sq " << range_sq;
  for (int i = 0; i < n_scanned; ++i) {
    ASSERT_EQ(indexed[i].index, scanned[i].index) << "entry " << i;
    ASSERT_EQ(Bits(indexed[i].dist_sq), Bits(scanned[i].dist_sq)) << "entry " << i;
  }
}

TEST(ObstacleIndexTest, SelectionEqualsScanOnRandomWorlds) {
  std::mt19937 rng(19);
  for (int world = 0; world < 12; ++world) {
    const float size = world % 3 == 0 ? 20.f : (world % 3 == 1 ? 200.f : 3000.f);
    const ObstacleVertices v = BuildObstacleVertices(RandomWorld(rng, 20 + 40 * world, size));
    const EdgeGrid grid = BuildEdgeGrid(v);
    ASSERT_FALSE(grid.cell_start.empty());
    std::uniform_real_distribution<float> pos(-1.5f * size, 1.5f * size), unit(0.f, 1.f);
    for (int q = 0; q < 3000; ++q) {
      const Vec2 p{pos(rng), pos(rng)};  // a quarter of them outside the grid's bounds
      // From far below a cell to beyond the whole world.
      const float range = size * 0.002f * std::pow(2.f, 12.f * unit(rng));
      ExpectSameSelection(v, grid, p, range * range);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(ObstacleIndexTest, SelectionEqualsScanForDegenerateQueries) {
  std::mt19937 rng(7);
  const ObstacleVertices v = BuildObstacleVertices(RandomWorld(rng, 200, 100.f));
  const EdgeGrid grid = BuildEdgeGrid(v);
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Vec2 p : {Vec2{0.f, 0.f}, Vec2{1e6f, -1e6f}, Vec2{-3e30f, 2e30f}, Vec2{99.f, 101.f},
                       Vec2{inf, 0.f}, Vec2{nan, 1.f}}) {
    for (const float range_sq : {0.f, 1e-30f, 1.f, 400.f, 1e8f, 1e14f, 3e38f, inf, nan}) {
      ExpectSameSelection(v, grid, p, range_sq);
      if (HasFatalFailure()) return;
    }
  }
  // Points on the polygons' own vertices and edge midpoints (cell boundaries, zero
  // distances).
  for (size_t k = 0; k < v.size(); ++k) {
    const Vec2 a = v.point[k], b = v.point[static_cast<size_t>(v.next[k])];
    ExpectSameSelection(v, grid, a, 25.f);
    ExpectSameSelection(v, grid, 0.5f * (a + b), 25.f);
    if (HasFatalFailure()) return;
  }
}

// More than kMaxObstacleLinesLimit edges in range, many at equal distances, so the cap
// and the (dist_sq, index) tie rule decide, with edges met in several cells.
TEST(ObstacleIndexTest, SelectionEqualsScanWhenCappedWithTies) {
  std::vector<Polygon> polygons;
  for (int i = 0; i < 40; ++i) {
    for (int j = 0; j < 40; ++j) {
      const Vec2 c{static_cast<float>(i) - 20.f, static_cast<float>(j) - 20.f};
      polygons.push_back(
          Polygon{{c, c + Vec2{0.5f, 0.f}, c + Vec2{0.5f, 0.5f}, c + Vec2{0.f, 0.5f}}});
    }
  }
  polygons.push_back(Polygon{{{-30.f, -30.f}, {30.f, 30.f}}});  // across every cell row
  const ObstacleVertices v = BuildObstacleVertices(polygons);
  const EdgeGrid grid = BuildEdgeGrid(v);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> pos(-25.f, 25.f);
  for (int q = 0; q < 2000; ++q) {
    const Vec2 p = q % 2 ? Vec2{pos(rng), pos(rng)}
                         : Vec2{std::round(pos(rng)) - 0.25f, std::round(pos(rng)) - 0.25f};
    ExpectSameSelection(v, grid, p, q % 3 == 0 ? 9.f : 100.f);
    if (HasFatalFailure()) return;
  }
}

// Arrival order does not matter and repeats are no-ops: any shuffle of a candidate list
// with duplicates gives the sorted first kMaxObstacleLinesLimit.
TEST(ObstacleIndexTest, InsertEdgeCandidateIsOrderFreeAndIgnoresRepeats) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> dist(0, 20);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<EdgeCandidate> all;
    for (int k = 0; k < 150; ++k) all.push_back({static_cast<float>(dist(rng)), k});
    std::vector<EdgeCandidate> expected = all;
    std::sort(expected.begin(), expected.end(), [](const EdgeCandidate& a, const EdgeCandidate& b) {
      return a.dist_sq < b.dist_sq || (a.dist_sq == b.dist_sq && a.index < b.index);
    });
    expected.resize(kMaxObstacleLinesLimit);
    std::vector<EdgeCandidate> arrivals = all;
    arrivals.insert(arrivals.end(), all.begin(), all.end());
    std::shuffle(arrivals.begin(), arrivals.end(), rng);
    EdgeCandidate out[kMaxObstacleLinesLimit];
    int count = 0;
    for (const EdgeCandidate& c : arrivals) {
      orca::detail::InsertEdgeCandidate(c.dist_sq, c.index, out, &count);
    }
    ASSERT_EQ(count, kMaxObstacleLinesLimit);
    for (int i = 0; i < count; ++i) {
      ASSERT_EQ(out[i].index, expected[static_cast<size_t>(i)].index) << "trial " << trial;
    }
  }
}

TEST(ObstacleIndexTest, GridCellsAreSortedUniqueAndHoldEveryEdgeAtItsEnds) {
  std::mt19937 rng(5);
  const ObstacleVertices v = BuildObstacleVertices(RandomWorld(rng, 300, 500.f));
  const EdgeGrid g = BuildEdgeGrid(v);
  ASSERT_EQ(g.cell_start.size(), static_cast<size_t>(g.nx) * g.ny + 1);
  EXPECT_LE(g.nx, kEdgeGridMaxAxisCells + 1);
  EXPECT_LE(g.ny, kEdgeGridMaxAxisCells + 1);
  // The cap on cells: kEdgeGridCellsPerEdge per edge, plus the partial last row and column.
  EXPECT_LE(static_cast<size_t>(g.nx) * g.ny,
            kEdgeGridCellsPerEdge * v.size() + static_cast<size_t>(g.nx + g.ny) + 1);
  EXPECT_EQ(g.cell_start.back(), static_cast<int32_t>(g.edge_index.size()));
  for (size_t c = 0; c + 1 < g.cell_start.size(); ++c) {
    for (int32_t e = g.cell_start[c] + 1; e < g.cell_start[c + 1]; ++e) {
      ASSERT_LT(g.edge_index[static_cast<size_t>(e - 1)], g.edge_index[static_cast<size_t>(e)]);
    }
  }
  const orca::EdgeGridView view = g.View();
  auto in_cell = [&](Vec2 q, int32_t edge) {
    const int cx = orca::EdgeGridCell(q.x, view.origin.x, view.inv_cell, view.nx);
    const int cy = orca::EdgeGridCell(q.y, view.origin.y, view.inv_cell, view.ny);
    const size_t c = static_cast<size_t>(cy) * g.nx + cx;
    return std::binary_search(g.edge_index.begin() + g.cell_start[c],
                              g.edge_index.begin() + g.cell_start[c + 1], edge);
  };
  for (size_t k = 0; k < v.size(); ++k) {
    EXPECT_TRUE(in_cell(v.point[k], static_cast<int32_t>(k))) << "edge " << k;
    EXPECT_TRUE(in_cell(v.point[static_cast<size_t>(v.next[k])], static_cast<int32_t>(k)))
        << "edge " << k;
  }
}

TEST(ObstacleIndexTest, NoObstaclesGiveNoGrid) {
  const EdgeGrid g = BuildEdgeGrid(BuildObstacleVertices({}));
  EXPECT_TRUE(g.cell_start.empty());
  EXPECT_EQ(g.View().cell_start, nullptr);
}

// A whole cpu-backend solve on RVO2's Blocks scene (4 x 4 tiles, 1,600 agents among 64
// blocks), stepped 30 times with the grid and with the scan: every output bit for bit.
TEST(ObstacleIndexTest, CpuSolveOnBlocksIsBitIdenticalToTheScan) {
  scenarios::CrowdScenario with_grid = scenarios::Blocks(4, 4);
  scenarios::CrowdScenario with_scan = with_grid;
  CpuBackend indexed, scanned;
  scanned.UseEdgeGrid(false);
  indexed.SetObstacles(with_grid.scene.obstacles);
  scanned.SetObstacles(with_scan.scene.obstacles);
  OrcaResult a, b;
  size_t constrained = 0;
  for (int t = 0; t < 30; ++t) {
    scenarios::UpdatePreferredVelocities(with_grid);
    scenarios::UpdatePreferredVelocities(with_scan);
    indexed.SolveOrca(with_grid.scene.params, with_grid.scene.agents, {}, &a);
    scanned.SolveOrca(with_scan.scene.params, with_scan.scene.agents, {}, &b);
    for (size_t i = 0; i < a.vx.size(); ++i) {
      ASSERT_EQ(Bits(a.vx[i]), Bits(b.vx[i])) << "tick " << t << " agent " << i;
      ASSERT_EQ(Bits(a.vy[i]), Bits(b.vy[i])) << "tick " << t << " agent " << i;
      ASSERT_EQ(a.status[i], b.status[i]);
      ASSERT_EQ(a.constraints[i], b.constraints[i]);
      constrained += a.constraints[i] > a.neighbors[i];  // has an obstacle line
    }
    scenarios::ApplyVelocities(with_grid.scene.agents, a, with_grid.scene.params.time_step);
    scenarios::ApplyVelocities(with_scan.scene.agents, b, with_scan.scene.params.time_step);
  }
  EXPECT_GT(constrained, 500u);  // the obstacles did take part (704 agent-ticks)
}

}  // namespace
}  // namespace throng
