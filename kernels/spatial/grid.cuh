// Uniform-grid neighbour index over unbounded coordinates: cells wrap around a
// power-of-two table of W x H buckets (bucket = (cx mod W, cy mod H)), so no agent is ever
// dropped for being far away. Cells sharing a bucket are W or H cells apart: they only
// add false positives, which the exact per-pair filter removes, never hide a neighbour.
// The wrap keeps neighbouring cells in neighbouring buckets, so agents sorted by bucket
// lie in memory row by row, as they lie in space (a hash scattered them, and the
// neighbour query paid a cache miss per cell).
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

// Cell coordinates saturate here: agents beyond 2^30 cells share edge cells (more
// candidates, never fewer). Validation keeps coordinates finite and sizes bounded.
constexpr float kMaxCellCoord = 1073741824.f;

// Cells are slightly larger than the largest query radius / k, k in [1, kMaxCellsPerRadius]:
// a query scans 2k + 1 rows of cells, each trimmed to its disc's chord. Finer cells scan
// less area but more rows; CellsPerRadius picks k from the crowd's mean spacing
// (measured on the random and circle scenes: docs/PERFORMANCE.md).
constexpr int kMaxCellsPerRadius = 4;

// About one cell per mean agent spacing, from the bounding box of the snapshot.
inline int CellsPerRadius(float reach, float width, float height, uint32_t n) {
  const float spacing =
      std::sqrt(std::fmax(width * height, 1e-6f) / static_cast<float>(n > 0 ? n : 1));
  const float k = std::round(reach / spacing);
  return k < 1.f ? 1 : (k > kMaxCellsPerRadius ? kMaxCellsPerRadius : static_cast<int>(k));
}

struct GridSpec {
  float cell;       // cell size, m
  float inv_cell;   // 1 / cell
  uint32_t x_bits;  // W = 2^x_bits buckets along x
  uint32_t x_mask;  // W - 1
  uint32_t y_mask;  // H - 1
};

// Squared distance from p to the cell [c0, c0 + cell) on one axis.
THRONG_HD inline float AxisGap(float p, int32_t c, float cell) {
  const float lo = static_cast<float>(c) * cell, hi = lo + cell;
  return p < lo ? lo - p : (p > hi ? p - hi : 0.f);
}

// floor(p * inv_cell), saturated to +-kMaxCellCoord, NaN to the low edge. The floor is an
// integer conversion and a correction rather than floorf, a library call on baseline x86-64
// that was a sixth of the neighbour query: truncation is exact below 2^30, and a float's
// truncation is itself a float, so the comparison is exact too.
THRONG_HD inline int32_t CellCoord(float p, float inv_cell) {
  const float x = p * inv_cell;
  if (!(x >= -kMaxCellCoord)) return -static_cast<int32_t>(kMaxCellCoord);
  if (x >= kMaxCellCoord) return static_cast<int32_t>(kMaxCellCoord);
  const auto truncated = static_cast<int32_t>(x);
  return truncated - (x < static_cast<float>(truncated) ? 1 : 0);
}

THRONG_HD inline uint32_t BucketOf(int32_t cx, int32_t cy, const GridSpec& g) {
  return (static_cast<uint32_t>(cx) & g.x_mask) |
         ((static_cast<uint32_t>(cy) & g.y_mask) << g.x_bits);
}

// Each agent's bucket, and its input index beside it: a stable sort of the indices by
// bucket gives the (bucket, index) order, unique and the same on every backend and run,
// with half the radix passes of one 64-bit key.
struct GridKeyFunctor {
  const float* __restrict__ px;
  const float* __restrict__ py;
  GridSpec grid;
  uint32_t* __restrict__ buckets;
  uint32_t* __restrict__ order;

  THRONG_HD void operator()(uint32_t i) const {
    buckets[i] = BucketOf(CellCoord(px[i], grid.inv_cell), CellCoord(py[i], grid.inv_cell), grid);
    order[i] = i;
  }
};

// First sorted index of each bucket that has agents; the rest keep the value n written
// beforehand until SpreadBucketOffsets fills them. One writer per bucket, no atomics.
// `buckets` is sorted.
struct BucketStartFunctor {
  const uint32_t* __restrict__ buckets;
  uint32_t* __restrict__ offsets;

  THRONG_HD void operator()(uint32_t i) const {
    const uint32_t b = buckets[i];
    if (i == 0 || buckets[i - 1] != b) offsets[b] = i;
  }
};

// Calls f(begin, end) for the sorted-index ranges of row cy's cells x0..x1: one range, or
// two where the cells wrap around the table's edge.
template <class F>
THRONG_HD_FORCE_INLINE void ForRowCells(const GridSpec& g, const uint32_t* offsets, int32_t cy,
                                        int32_t x0, int32_t x1, F&& f) {
  const uint32_t width = g.x_mask + 1;
  const uint32_t row = (static_cast<uint32_t>(cy) & g.y_mask) << g.x_bits;
  // f has one call site, so the compiler inlines the caller's scan loop into this one.
  uint32_t begin[2], end[2];
  int parts = 1;
  if (static_cast<int64_t>(x1) - static_cast<int64_t>(x0) + 1 >= static_cast<int64_t>(width)) {
    begin[0] = offsets[row];
    end[0] = offsets[row + width];
  } else {
    const uint32_t xa = static_cast<uint32_t>(x0) & g.x_mask,
                   xb = static_cast<uint32_t>(x1) & g.x_mask;
    if (xa <= xb) {
      begin[0] = offsets[row + xa];
      end[0] = offsets[row + xb + 1];
    } else {
      begin[0] = offsets[row + xa];
      end[0] = offsets[row + width];
      begin[1] = offsets[row];
      end[1] = offsets[row + xb + 1];
      parts = 2;
    }
  }
  for (int part = 0; part < parts; ++part) f(begin[part], end[part]);
}

// Calls row(cy) for each cell row from y0 to y1, the agent's own (`own`) first and then
// outward (its row, the one below, above, two below, ..): the nearest agents come first,
// so a neighbour list fills early with the agents it keeps and later rows add few entries.
template <class Row>
THRONG_HD_FORCE_INLINE void ForEachRowOutward(int32_t y0, int32_t y1, int32_t own, Row&& row) {
  const int32_t rows = y1 - y0 + 1;
  for (int32_t step = 0, below = 0, above = 0; below + above < rows; ++step) {
    int32_t cy;
    if (step % 2 == 0 ? own - below >= y0 : own + 1 + above > y1) {
      cy = own - below++;
    } else {
      cy = own + 1 + above++;
    }
    row(cy);  // one call site: the caller's row body is inlined here
  }
}

// Culling slack: AxisGap's cell bounds and CellCoord's floor round apart by a few float
// steps of the coordinates, so the slack grows with them (8 steps' worth).
THRONG_HD inline float CullSlack(const GridSpec& g, Vec2 p, float reach) {
  return 0.01f * g.cell + 5e-7f * (fabsf(p.x) + fabsf(p.y) + reach);
}

// How far row cy lies from p along y: 0 for a saturated edge row, which holds everything
// beyond it and is never trimmed.
THRONG_HD inline float RowGap(const GridSpec& g, Vec2 p, int32_t cy) {
  const bool edge_row =
      cy <= -static_cast<int32_t>(kMaxCellCoord) || cy >= static_cast<int32_t>(kMaxCellCoord);
  return edge_row ? 0.f : AxisGap(p.y, cy, g.cell);
}

// Calls f(begin, end) for the sorted-index range of each bucket row the disc of radius
// `reach` around p can touch, rows from the agent's own outward: bucket rows are
// contiguous in memory, so each row of cells is one loop, trimmed to the disc's chord.
// offsets has BucketCount + 1 entries: offsets[b] = first sorted index whose bucket is >= b.
template <class F>
THRONG_HD_FORCE_INLINE void ForEachRowRange(const GridSpec& g, const uint32_t* offsets, Vec2 p,
                                            float reach, F&& f) {
  const float cull = reach + CullSlack(g, p, reach);
  ForEachRowOutward(CellCoord(p.y - reach, g.inv_cell), CellCoord(p.y + reach, g.inv_cell),
                    CellCoord(p.y, g.inv_cell), [&](int32_t cy) THRONG_INLINE_LAMBDA {
                      const float gy = RowGap(g, p, cy);
                      if (gy > cull) return;
                      const float half = sqrtf(cull * cull - gy * gy);
                      ForRowCells(g, offsets, cy, CellCoord(p.x - half, g.inv_cell),
                                  CellCoord(p.x + half, g.inv_cell), f);
                    });
}

// As ForEachRowRange, for a query that wants fewer points as it goes: a neighbour list
// that, once full, takes nobody farther than its last entry, except the agents it keeps
// at any distance (non-cooperative ones), whose buckets `marked` flags (null: there are
// none). Before each row, limit() gives the radius beyond which an unmarked bucket's
// points are no longer wanted: the row is read whole within it, and beyond it, up to
// `reach`, only the marked buckets. A limit of `reach` or more reads the row as
// ForEachRowRange would.
template <class Limit, class F>
THRONG_HD_FORCE_INLINE void ForEachRowRangeShrinking(const GridSpec& g, const uint32_t* offsets,
                                                     const uint8_t* marked, Vec2 p, float reach,
                                                     Limit&& limit, F&& f) {
  const float slack = CullSlack(g, p, reach);
  const float cull_all = reach + slack;
  const int64_t width = static_cast<int64_t>(g.x_mask) + 1;
  ForEachRowOutward(
      CellCoord(p.y - reach, g.inv_cell), CellCoord(p.y + reach, g.inv_cell),
      CellCoord(p.y, g.inv_cell), [&](int32_t cy) THRONG_INLINE_LAMBDA {
        const float gy = RowGap(g, p, cy);
        if (gy > cull_all) return;
        const float half_all = sqrtf(cull_all * cull_all - gy * gy);
        const int32_t x0 = CellCoord(p.x - half_all, g.inv_cell);
        const int32_t x1 = CellCoord(p.x + half_all, g.inv_cell);
        const float wanted = limit();
        if (!(wanted < reach) || static_cast<int64_t>(x1) - x0 + 1 >= width) {
          ForRowCells(g, offsets, cy, x0, x1, f);
          return;
        }
        // The part within the limit, whole (empty when the row lies beyond it).
        const float cull = MinF(wanted * 1.0001f + slack, cull_all);
        int32_t w0 = 1, w1 = 0;
        if (gy <= cull) {
          const float half = sqrtf(cull * cull - gy * gy);
          w0 = CellCoord(p.x - half, g.inv_cell);
          w1 = CellCoord(p.x + half, g.inv_cell);
          ForRowCells(g, offsets, cy, w0, w1, f);
        }
        // The rest of the row's chord, marked buckets only (the table is wider than the
        // chord: no bucket comes up twice).
        if (marked == nullptr) return;
        const uint32_t row = (static_cast<uint32_t>(cy) & g.y_mask) << g.x_bits;
        for (int32_t cx = x0; cx <= x1; ++cx) {
          if (cx >= w0 && cx <= w1) continue;
          const uint32_t b = row + (static_cast<uint32_t>(cx) & g.x_mask);
          if (marked[b]) f(offsets[b], offsets[b + 1]);
        }
      });
}

// Calls f(begin, end) for ranges that hold every point within `half` of p on each axis (the
// box [p - half, p + half]), row by row from the lowest: for a query that needs a long thin
// shape rather than a disc. Cells are whole, so some points beyond the box come too.
template <class F>
THRONG_HD_FORCE_INLINE void ForEachBoxRowRange(const GridSpec& g, const uint32_t* offsets, Vec2 p,
                                               Vec2 half, F&& f) {
  // The slack of ForEachRowRange's cull, on each side.
  const float slack = CullSlack(g, p, half.x + half.y);
  const float hx = half.x + slack, hy = half.y + slack;
  const int32_t x0 = CellCoord(p.x - hx, g.inv_cell), x1 = CellCoord(p.x + hx, g.inv_cell);
  const int32_t y0 = CellCoord(p.y - hy, g.inv_cell), y1 = CellCoord(p.y + hy, g.inv_cell);
  for (int32_t cy = y0; cy <= y1; ++cy) ForRowCells(g, offsets, cy, x0, x1, f);
}

namespace detail {
// Bits of a power-of-two table of at least 2n buckets (at least 2^10).
inline uint32_t TableBitsFor(uint32_t n) {
  uint32_t bits = 10;
  while ((1u << bits) < 2u * n && bits < 30) ++bits;
  return bits;
}
// W >= H >= 32 (wider than any scan, so a scan never meets one bucket twice).
inline GridSpec GridSpecOfBits(float cell, uint32_t bits) {
  const uint32_t x_bits = (bits + 1) / 2;
  return {cell, 1.f / cell, x_bits, (1u << x_bits) - 1, (1u << (bits - x_bits)) - 1};
}
}  // namespace detail

// Grid of buckets for n agents and a cell size: a power of two, at least 2n buckets,
// W >= H >= 32.
inline GridSpec MakeGridSpec(uint32_t n, float cell) {
  return detail::GridSpecOfBits(cell, detail::TableBitsFor(n));
}

// As MakeGridSpec(n, cell), with more buckets, up to 8n, when the points' bounding box
// (width x height) holds more cells than 2n: in a sparse world (a town's streets spread
// over kilometres) the table then wraps less, and fewer far cells share a bucket with a
// crowded one, whose every query reads their agents only to drop them (docs/PERFORMANCE.md,
// "A larger table for sparse worlds").
inline GridSpec MakeGridSpec(uint32_t n, float cell, float width, float height) {
  uint32_t bits = detail::TableBitsFor(n);
  const double cells = (std::floor(static_cast<double>(width) / cell) + 2.0) *
                       (std::floor(static_cast<double>(height) / cell) + 2.0);
  const double most = 8.0 * static_cast<double>(n);
  if (cells >= 0.0) {  // false for NaN: the plain table
    const double wanted = cells < most ? cells : most;
    while (bits < 30 && static_cast<double>(uint64_t{1} << (bits + 1)) <= wanted) ++bits;
  }
  return detail::GridSpecOfBits(cell, bits);
}

inline uint32_t BucketCount(const GridSpec& g) { return (g.x_mask + 1) * (g.y_mask + 1); }

}  // namespace throng
