// The first index a check fails at, found by all cores: validation reads every value of
// every column each tick, and one core's memory bandwidth made it the largest host stage
// of a GPU tick (docs/PERFORMANCE.md, "The first GPU run"). Host code only (OpenMP).
#pragma once

#include <cstddef>

namespace throng {

// Below this many values one core is faster than waking the others.
inline constexpr size_t kParallelCheckFrom = 32768;

// The smallest i in [0, n) with bad(i), or n when there is none. A min-reduction: the
// same answer at any thread count, so a serial walk from it names the same offender as a
// walk from 0 would:
//   for (size_t i = FirstIndexWhere(n, bad); i < n; ++i) { the checks that name it }
template <class Bad>
size_t FirstIndexWhere(size_t n, const Bad& bad) {
  size_t first = n;
#pragma omp parallel for schedule(static) reduction(min : first) if (n >= kParallelCheckFrom)
  for (size_t i = 0; i < n; ++i) {
    const size_t at = bad(i) ? i : n;  // a select, not a branch: the loop vectorises
    first = at < first ? at : first;
  }
  return first;
}

}  // namespace throng
