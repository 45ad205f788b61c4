// Agents bucketed into square cells of one size, for the flow benchmark's own measures
// (bench/body_depth.h, bench/stall_queue.h): everything within one cell's width of an agent
// lies in the 3 x 3 cells around its own, so each query is linear in the crowd's density.
#pragma once

#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace throng::bench {

class CellIndex {
 public:
  CellIndex(const std::vector<float>& x, const std::vector<float>& y, double cell)
      : cx_(x.size()), cy_(x.size()) {
    cells_.reserve(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      cx_[i] = static_cast<int64_t>(std::floor(x[i] / cell));
      cy_[i] = static_cast<int64_t>(std::floor(y[i] / cell));
      cells_[Key(cx_[i], cy_[i])].push_back(static_cast<uint32_t>(i));
    }
  }

  // Calls f(j) for every agent j (i included) in the 3 x 3 cells around agent i's.
  template <class F>
  void ForEachNear(size_t i, F&& f) const {
    for (int64_t dy = -1; dy <= 1; ++dy) {
      for (int64_t dx = -1; dx <= 1; ++dx) {
        const auto it = cells_.find(Key(cx_[i] + dx, cy_[i] + dy));
        if (it == cells_.end()) continue;
        for (uint32_t j : it->second) f(j);
      }
    }
  }

 private:
  static int64_t Key(int64_t cx, int64_t cy) { return (cx << 32) ^ (cy & 0xffffffff); }
  std::unordered_map<int64_t, std::vector<uint32_t>> cells_;
  std::vector<int64_t> cx_, cy_;
};

}  // namespace throng::bench
