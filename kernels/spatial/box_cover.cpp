#include "kernels/spatial/box_cover.h"

#include <algorithm>
#include <cmath>

namespace throng {

BoxCoverHost BuildBoxCover(const std::vector<Vec2>& lo, const std::vector<Vec2>& hi,
                           float min_cell) {
  BoxCoverHost c;
  if (lo.empty()) return c;
  Vec2 a = lo[0], b = hi[0];
  for (size_t i = 0; i < lo.size(); ++i) {
    a = {std::min(a.x, lo[i].x), std::min(a.y, lo[i].y)};
    b = {std::max(b.x, hi[i].x), std::max(b.y, hi[i].y)};
  }
  const double w = static_cast<double>(b.x) - a.x, h = static_cast<double>(b.y) - a.y;
  // Cells of min_cell unless that needs too many; then as many as allowed (the +2 a side
  // covers the rounding of the extent into cells).
  double cell = min_cell;
  auto cells_for = [&](double side) {
    return (std::floor(w / side) + 2.0) * (std::floor(h / side) + 2.0);
  };
  if (cells_for(cell) > static_cast<double>(kMaxBoxCoverCells)) {
    cell = std::sqrt(w * h / static_cast<double>(kMaxBoxCoverCells));
    cell = std::max({cell, w / 4096.0, h / 4096.0, static_cast<double>(min_cell)});
    while (cells_for(cell) > static_cast<double>(kMaxBoxCoverCells)) cell *= 1.25;
  }
  c.cell = static_cast<float>(cell);
  c.origin = a;
  const float inv_cell = 1.f / c.cell;
  // Cell k along an axis holds the places in [k, k + 1) (BoxCoverPlace, as the queries
  // map them); every box lies at places from 0 to the extent's far corner's.
  auto cell_of = [&](float x, float origin) {
    return static_cast<int64_t>(std::floor(BoxCoverPlace(x, origin, inv_cell)));
  };
  c.nx = static_cast<int32_t>(cell_of(b.x, a.x) + 1);
  c.ny = static_cast<int32_t>(cell_of(b.y, a.y) + 1);
  const int64_t total = int64_t{c.nx} * c.ny;
  c.words.assign(static_cast<size_t>((total + 31) / 32), 0u);
  // A box's cells by rows: a difference per row (+1 at its first cell, -1 after its last)
  // and one running sum per row, so a large box costs its rows, not its cells.
  const int64_t stride = int64_t{c.nx} + 1;  // a row's differences, one past its last cell
  std::vector<int32_t> change(static_cast<size_t>(stride * c.ny), 0);
  for (size_t i = 0; i < lo.size(); ++i) {
    const int64_t x0 = cell_of(lo[i].x, a.x), x1 = cell_of(hi[i].x, a.x);
    const int64_t y0 = cell_of(lo[i].y, a.y), y1 = cell_of(hi[i].y, a.y);
    for (int64_t y = y0; y <= y1; ++y) {
      ++change[static_cast<size_t>(y * stride + x0)];
      --change[static_cast<size_t>(y * stride + x1 + 1)];
    }
  }
  for (int64_t y = 0; y < c.ny; ++y) {
    int32_t covering = 0;
    for (int64_t x = 0; x < c.nx; ++x) {
      covering += change[static_cast<size_t>(y * stride + x)];
      const int64_t bit = y * c.nx + x;
      if (covering > 0) c.words[static_cast<size_t>(bit >> 5)] |= 1u << (bit & 31);
    }
  }
  return c;
}

}  // namespace throng
