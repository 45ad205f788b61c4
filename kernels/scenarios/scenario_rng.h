// Seeded draws for the scenario library that give the same numbers with every standard
// library. std::mt19937's output is fixed by the standard, but std::uniform_real_distribution
// and friends are not (libstdc++, libc++ and MSVC differ), so scenarios draw through this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace throng::scenarios {

class ScenarioRng {
 public:
  explicit ScenarioRng(uint32_t seed) : engine_(seed) {}

  // [0, 1) from the top 24 bits of one draw: exactly representable as a float.
  float Unit() { return static_cast<float>(engine_() >> 8) * 0x1p-24f; }

  // [lo, hi) (hi itself only through rounding).
  float Uniform(float lo, float hi) { return lo + (hi - lo) * Unit(); }

  // [0, n) for n > 0, without modulo bias: draws above the last whole multiple of n are
  // thrown away (fewer than half of them, so this ends quickly).
  uint32_t Below(uint32_t n) {
    const uint32_t limit = UINT32_MAX - UINT32_MAX % n;
    uint32_t x = engine_();
    while (x >= limit) x = engine_();
    return x % n;
  }

  bool Coin() { return (engine_() >> 31) != 0; }

  // The first `count` entries become a uniform random sample of the whole vector (partial
  // Fisher-Yates), in random order.
  template <typename T>
  void ShuffleFront(std::vector<T>& v, size_t count) {
    for (size_t i = 0; i < count && i + 1 < v.size(); ++i) {
      const size_t j = i + Below(static_cast<uint32_t>(v.size() - i));
      std::swap(v[i], v[j]);
    }
  }

 private:
  std::mt19937 engine_;
};

}  // namespace throng::scenarios
