// The cpu backend's Thrust execution policy: Thrust's OpenMP system, except that a
// reduction opens one parallel region instead of two, and a light pass
// (kernels/backends/light_policy.cuh) over fewer than 4,096 elements opens none. Host
// code only (OpenMP).
//
// Why: under OMP_WAIT_POLICY=PASSIVE every region pays the wake-up of the sleeping
// threads, tens of microseconds on the machines measured (docs/PERFORMANCE.md, "What
// OMP_WAIT_POLICY=PASSIVE costs the small stages"); Thrust's OpenMP reduce adds up
// intervals in one region and the intervals' sums in a second, a tick makes about a
// dozen reductions, and a small world's gathers and keys are microseconds of work.
// Thrust dispatches an algorithm called with a policy to the overload found for the
// policy's most derived type (its "custom backend" mechanism), so the pipelines, written
// once for both backends, stay as they are.
#pragma once

#include <omp.h>
#include <thrust/system/omp/execution_policy.h>

#include <cstdint>
#include <vector>

namespace throng::cpu_system {

struct Par : thrust::system::omp::execution_policy<Par> {
  // for_each_n over fewer elements runs on the calling thread (Light, below).
  int32_t serial_below = 0;
};

// At most this many pieces: the partial sums are combined in piece order on one thread.
inline constexpr int64_t kMaxReducePieces = 64;
// No piece smaller than this, so that a short range is one piece on one thread.
inline constexpr int64_t kMinReducePiece = 1024;

// sum = op(sum, x), in place where op offers it (Accumulate): a large sum assigned whole
// each element is copied through wide loads of fields just stored one by one, which
// stall (the pedestrians' report's sums took as long to add as to make).
template <class Op, class T>
auto AccumulateInto(const Op& op, T& sum, const T& x, int) -> decltype(op.Accumulate(sum, x)) {
  op.Accumulate(sum, x);
}
template <class Op, class T>
void AccumulateInto(const Op& op, T& sum, const T& x, long) {
  sum = op(sum, x);
}

// op over f(first[0]), ..., f(first[n - 1]), then folded into init: the same value
// Thrust's reduce gives for an associative op. The range is cut into pieces by n alone,
// not by the thread count, so a sum of floats has the same bits at any thread count, and
// on the calling thread alone (`parallel` false: a light pass over a short range).
template <class It, class F, class T, class Op>
T ReduceInOneRegion(It first, int64_t n, F f, T init, Op op, bool parallel = true) {
  if (n <= 0) return init;
  int64_t piece = (n + kMaxReducePieces - 1) / kMaxReducePieces;
  if (piece < kMinReducePiece) piece = kMinReducePiece;
  const int64_t pieces = (n + piece - 1) / piece;
  std::vector<T> sums(static_cast<size_t>(pieces), init);
#pragma omp parallel for schedule(static) if (parallel && pieces > 1)
  for (int64_t k = 0; k < pieces; ++k) {
    const int64_t begin = k * piece, end = begin + piece < n ? begin + piece : n;
    T sum(f(first[begin]));
    for (int64_t i = begin + 1; i < end; ++i) AccumulateInto(op, sum, T(f(first[i])), 0);
    sums[static_cast<size_t>(k)] = sum;
  }
  T total = init;
  for (const T& sum : sums) total = op(total, sum);
  return total;
}

struct Identity {
  template <class X>
  X operator()(const X& x) const {
    return x;
  }
};

// Found by Thrust's dispatch for Par (argument-dependent lookup in this namespace), and
// preferred to the OpenMP system's own as the more specialised overload. A light
// reduction over fewer than exec.serial_below elements opens no region.
template <class It, class F, class T, class Op>
T transform_reduce(Par& exec, It first, It last, F f, T init, Op op) {
  const auto n = static_cast<int64_t>(last - first);
  return ReduceInOneRegion(first, n, f, init, op, n >= exec.serial_below);
}

template <class It, class T, class Op>
T reduce(Par& exec, It first, It last, T init, Op op) {
  const auto n = static_cast<int64_t>(last - first);
  return ReduceInOneRegion(first, n, Identity{}, init, op, n >= exec.serial_below);
}

// Below this many elements a light pass (kernels/backends/light_policy.cuh) runs on one
// thread: a gather or a key costs a few nanoseconds an element, a wake-up tens of
// microseconds, and a pass that is not light does not ask.
inline constexpr int32_t kLightSerialBelow = 4096;

// Thrust's OpenMP loop, with the region skipped below exec.serial_below. One loop for
// both: with a second, serial loop the functor had two call sites, and GCC stopped
// inlining the large ones (the pedestrians' preparation took 0.4 ms longer at 100,000).
template <class It, class Size, class F>
It for_each_n(Par& exec, It first, Size n, F f) {
  const int64_t count = static_cast<int64_t>(n);
  if (count <= 0) return first;
  const bool parallel = count >= exec.serial_below;
#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t i = 0; i < count; ++i) f(*(first + i));
  return first + count;
}

inline Par Light(const Par&) {
  Par light;
  light.serial_below = kLightSerialBelow;
  return light;
}

inline constexpr Par par{};

}  // namespace throng::cpu_system
