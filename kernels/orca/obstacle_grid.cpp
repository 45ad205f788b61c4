#include "kernels/orca/obstacle_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace throng {
namespace {

// The float just below (above) a double, so a float box contains the double one.
float FloatDown(double x) {
  const auto f = static_cast<float>(x);
  return static_cast<double>(f) > x ? std::nextafter(f, -INFINITY) : f;
}
float FloatUp(double x) {
  const auto f = static_cast<float>(x);
  return static_cast<double>(f) < x ? std::nextafter(f, INFINITY) : f;
}

}  // namespace

orca::EdgeGridView EdgeGrid::View() const {
  if (cell_start.empty()) return {};
  return {cell_start.data(), edge_index.data(), origin, 1.f / cell, nx, ny, extent};
}

EdgeGrid BuildEdgeGrid(const ObstacleVertices& v) {
  EdgeGrid g;
  const size_t edges = v.size();
  if (edges == 0) return g;

  Vec2 lo = v.point[0], hi = v.point[0];
  std::vector<float> lengths(edges);
  float longest = 0.f, largest = 0.f;
  for (size_t k = 0; k < edges; ++k) {
    const Vec2 a = v.point[k];
    lo = {std::min(lo.x, a.x), std::min(lo.y, a.y)};
    hi = {std::max(hi.x, a.x), std::max(hi.y, a.y)};
    lengths[k] = Length(v.point[static_cast<size_t>(v.next[k])] - a);
    longest = std::max(longest, lengths[k]);
    largest = std::max({largest, std::fabs(a.x), std::fabs(a.y)});
  }
  std::nth_element(lengths.begin(), lengths.begin() + static_cast<ptrdiff_t>(edges / 2),
                   lengths.end());
  const double w = static_cast<double>(hi.x) - lo.x, h = static_cast<double>(hi.y) - lo.y;
  const double max_cells =
      std::min<double>(static_cast<double>(kEdgeGridCellsPerEdge) * static_cast<double>(edges),
                       static_cast<double>(kEdgeGridMaxAxisCells) * kEdgeGridMaxAxisCells);
  // Edges have positive float length (BuildObstacleVertices checks), so the side is > 0.
  const double side = std::max({static_cast<double>(lengths[edges / 2]), w / kEdgeGridMaxAxisCells,
                                h / kEdgeGridMaxAxisCells, std::sqrt(w * h / max_cells)});
  g.cell = static_cast<float>(side);
  g.origin = lo;
  g.extent = largest + longest;
  const float inv = 1.f / g.cell;
  // Enough cells that EdgeGridCell of every vertex is in range without clamping.
  g.nx = static_cast<int>(std::floor((hi.x - lo.x) * inv)) + 1;
  g.ny = static_cast<int>(std::floor((hi.y - lo.y) * inv)) + 1;

  // Each edge as pieces no longer than a cell; each piece's box, widened by a slack far
  // above double rounding and rounded outward to float, goes into every cell that
  // EdgeGridCell maps it onto. The boxes cover the real segment, so any point of the edge
  // lies in a box whose cells meet the cells of every query square containing the point.
  const double slack = 1e-9 * (static_cast<double>(g.extent) + side);
  std::vector<uint64_t> keys;  // cell << 32 | edge: sorting gives cells, then edges ascending
  keys.reserve(edges * 4);
  for (size_t k = 0; k < edges; ++k) {
    const Vec2 a = v.point[k], b = v.point[static_cast<size_t>(v.next[k])];
    const double ax = a.x, ay = a.y, dx = static_cast<double>(b.x) - ax,
                 dy = static_cast<double>(b.y) - ay;
    const auto pieces =
        std::max<int64_t>(1, static_cast<int64_t>(std::ceil(std::hypot(dx, dy) / side)));
    for (int64_t j = 0; j < pieces; ++j) {
      const double t0 = static_cast<double>(j) / pieces, t1 = static_cast<double>(j + 1) / pieces;
      const double x0 = ax + t0 * dx, x1 = ax + t1 * dx, y0 = ay + t0 * dy, y1 = ay + t1 * dy;
      const int cx0 = orca::EdgeGridCell(FloatDown(std::min(x0, x1) - slack), lo.x, inv, g.nx);
      const int cx1 = orca::EdgeGridCell(FloatUp(std::max(x0, x1) + slack), lo.x, inv, g.nx);
      const int cy0 = orca::EdgeGridCell(FloatDown(std::min(y0, y1) - slack), lo.y, inv, g.ny);
      const int cy1 = orca::EdgeGridCell(FloatUp(std::max(y0, y1) + slack), lo.y, inv, g.ny);
      for (int cy = cy0; cy <= cy1; ++cy) {
        for (int cx = cx0; cx <= cx1; ++cx) {
          const auto cell =
              static_cast<uint64_t>(cy) * static_cast<uint64_t>(g.nx) + static_cast<uint64_t>(cx);
          keys.push_back(cell << 32 | static_cast<uint64_t>(k));
        }
      }
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  if (keys.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw std::invalid_argument("obstacles: edge grid over 2^31 - 1 entries");
  }

  const size_t cells = static_cast<size_t>(g.nx) * static_cast<size_t>(g.ny);
  g.cell_start.assign(cells + 1, 0);
  g.edge_index.resize(keys.size());
  for (size_t e = 0; e < keys.size(); ++e) {
    ++g.cell_start[(keys[e] >> 32) + 1];
    g.edge_index[e] = static_cast<int32_t>(keys[e] & 0xffffffffu);
  }
  for (size_t c = 0; c < cells; ++c) g.cell_start[c + 1] += g.cell_start[c];
  return g;
}

}  // namespace throng
