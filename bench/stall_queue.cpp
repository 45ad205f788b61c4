#include "bench/stall_queue.h"

#include <algorithm>
#include <cmath>

#include "bench/cell_index.h"

namespace throng::bench {

namespace {

bool Moves(const QueueView& c, size_t i) {
  return std::hypot(c.vx[i], c.vy[i]) >= kFrontMovingShare * c.max_speed[i];
}

// The nearest agent ahead of each standing agent with a way to go (-1: none), through a
// uniform grid of cells as wide as the largest reach.
std::vector<int64_t> OnesAhead(const QueueView& c) {
  const size_t n = c.x.size();
  std::vector<int64_t> ahead(n, -1);
  float r_max = 0.f;
  for (float r : c.radius) r_max = std::max(r_max, r);
  const CellIndex cells(c.x, c.y, std::max(2.0 * kQueueReach * r_max, 1e-3));
  for (size_t i = 0; i < n; ++i) {
    if (Moves(c, i)) continue;
    const double gx = c.pref_vx[i], gy = c.pref_vy[i];
    const double g = std::hypot(gx, gy);
    if (!(g > 0)) continue;
    double nearest = INFINITY;
    cells.ForEachNear(i, [&](uint32_t j) {
      if (j == i) return;
      const double ex = static_cast<double>(c.x[j]) - c.x[i];
      const double ey = static_cast<double>(c.y[j]) - c.y[i];
      const double d = std::hypot(ex, ey);
      if (d > kQueueReach * (static_cast<double>(c.radius[i]) + c.radius[j])) return;
      if (!(ex * gx + ey * gy > kQueueConeCos * d * g)) return;
      if (d < nearest) {
        nearest = d;
        ahead[i] = j;
      }
    });
  }
  return ahead;
}

}  // namespace

std::vector<uint8_t> QueueingBehindMovingFront(const QueueView& c) {
  const size_t n = c.x.size();
  const std::vector<int64_t> ahead = OnesAhead(c);
  // 0 unknown, 1 on the chain being followed, 2 behind a moving front, 3 not.
  std::vector<uint8_t> state(n, 0);
  std::vector<size_t> chain;
  for (size_t start = 0; start < n; ++start) {
    if (state[start] != 0) continue;
    chain.clear();
    size_t i = start;
    uint8_t verdict = 3;
    while (true) {
      if (Moves(c, i)) {
        // A mover ends the chain: those behind it queue, it does not (it is no stall).
        verdict = 2;
        state[i] = 3;
        break;
      }
      if (state[i] == 1) break;  // a knot: the chain closes on itself
      if (state[i] != 0) {
        verdict = state[i];
        break;
      }
      state[i] = 1;
      chain.push_back(i);
      if (ahead[i] < 0) break;  // nobody ahead, or no way to go
      i = static_cast<size_t>(ahead[i]);
    }
    for (size_t k : chain) state[k] = verdict;
  }
  std::vector<uint8_t> queueing(n);
  for (size_t i = 0; i < n; ++i) queueing[i] = state[i] == 2 ? 1 : 0;
  return queueing;
}

void FrozenStalls::Tick(const std::vector<uint8_t>& stalled, const std::vector<uint8_t>& queueing) {
  const size_t n = stalled.size();
  frozen_.resize(n, 0);
  flagged_.resize(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (!stalled[i]) {
      frozen_[i] = 0;
      flagged_[i] = 0;
      continue;
    }
    if (queueing[i]) {
      frozen_[i] = 0;
    } else if (!flagged_[i]) {
      frozen_[i] = static_cast<uint64_t>(stall_ticks_);  // the unflagged start of the stall
    } else {
      ++frozen_[i];
    }
    flagged_[i] = 1;
    if (frozen_[i] > longest_) {
      longest_ = frozen_[i];
      longest_agent_ = i;
    }
  }
}

}  // namespace throng::bench
