// A preparation's one pass over the rows, written once for the backends that launch it
// whole (the cuda backend's pedestrians and vehicles, both parallel backends' forward
// agents): its functor prepares row i and answers 1 where the preparation's checks refuse
// it, else 0 (docs/WORLD.md, "Where the checks run").
#pragma once

#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <cstddef>
#include <cstdint>

namespace throng {

// Runs `prepare` over rows [0, n). With the checks on, answers the sum of the refusals (on
// a device, a wait for its stream: the world needs the count before it goes on); off, one
// launch that nobody waits for, answering 0.
template <class Policy, class Prepare>
uint64_t PrepareRows(const Policy& policy, size_t n, const Prepare& prepare, bool checks_on) {
  const thrust::counting_iterator<size_t> first(0);
  if (!checks_on) {
    thrust::for_each_n(policy, first, n, prepare);
    return 0;
  }
  return thrust::transform_reduce(policy, first, first + n, prepare, uint64_t{0},
                                  thrust::plus<uint64_t>());
}

}  // namespace throng
