// Four floats computed together on the cpu (one SSE register on x86-64; GCC's and Clang's
// vector extension elsewhere), for per-agent code written once for F = float and F =
// FloatLanes (ArriveStepOf, kernels/steering/steering.cuh). Each operation is the IEEE
// operation of each lane, so a lane's result equals the scalar code's bit for bit when the
// code makes the same operations in the same order; a branch on a value becomes a Select
// of two computed results. Host only: the cuda backend runs the scalar code per thread.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>

namespace throng {

struct LaneMask {
  typedef int Raw __attribute__((vector_size(16)));
  Raw bits;  // all ones where true
};

struct FloatLanes {
  static constexpr size_t kCount = 4;
  typedef float Raw __attribute__((vector_size(16)));
  Raw v;

  FloatLanes() = default;
  FloatLanes(Raw raw) : v(raw) {}              // NOLINT: lanes arithmetic
  FloatLanes(float s) : v(Raw{s, s, s, s}) {}  // NOLINT: a float in every lane

  static FloatLanes Load(const float* p) {
    FloatLanes a;
    std::memcpy(&a.v, p, sizeof a.v);
    return a;
  }
  void Store(float* p) const { std::memcpy(p, &v, sizeof v); }
};

inline FloatLanes operator+(FloatLanes a, FloatLanes b) { return a.v + b.v; }
inline FloatLanes operator-(FloatLanes a, FloatLanes b) { return a.v - b.v; }
inline FloatLanes operator*(FloatLanes a, FloatLanes b) { return a.v * b.v; }
inline FloatLanes operator/(FloatLanes a, FloatLanes b) { return a.v / b.v; }
inline LaneMask operator<(FloatLanes a, FloatLanes b) { return {a.v < b.v}; }
inline LaneMask operator>(FloatLanes a, FloatLanes b) { return {a.v > b.v}; }
inline LaneMask operator!=(FloatLanes a, FloatLanes b) { return {a.v != b.v}; }

inline FloatLanes Select(LaneMask c, FloatLanes a, FloatLanes b) { return c.bits ? a.v : b.v; }

inline FloatLanes Sqrt(FloatLanes a) {
  FloatLanes r;
  for (size_t k = 0; k < FloatLanes::kCount; ++k) r.v[k] = sqrtf(a.v[k]);  // one sqrtps
  return r;
}

// MinF's rule (kernels/math/scalar.cuh) in each lane: the first argument when the two
// compare equal, the other one when the first is NaN.
inline FloatLanes MinF(FloatLanes a, FloatLanes b) {
  const FloatLanes smaller = Select(b < a, b, a);
  return Select(a != a, b, smaller);
}

}  // namespace throng
