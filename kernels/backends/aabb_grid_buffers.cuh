// A box grid (kernels/spatial/aabb_grid.h) in a backend's memory: built on the host, copied
// with the backend's `copy(host, backend_vector)`, read through its view on either backend.
#pragma once

#include <thrust/memory.h>

#include <cstdint>
#include <utility>

#include "kernels/spatial/aabb_grid.cuh"
#include "kernels/spatial/aabb_grid.h"

namespace throng {

template <class V>
auto* RawOrNull(V& v) {
  return v.empty() ? nullptr : thrust::raw_pointer_cast(v.data());
}

template <template <class...> class Vector>
struct AabbGridBuffers {
  AabbGridHost host;  // kept: an asynchronous upload may still be reading it
  Vector<int32_t> bucket_start, entries, big;
  AabbGridView view;

  template <class Copy>
  void Set(AabbGridHost built, Copy copy) {
    host = std::move(built);
    const AabbGridHost& g = host;
    copy(g.bucket_start, bucket_start);
    copy(g.entries, entries);
    copy(g.big, big);
    view.bucket_start = RawOrNull(bucket_start);
    view.entries = RawOrNull(entries);
    view.big = RawOrNull(big);
    view.big_count = static_cast<int32_t>(g.big.size());
    view.item_count = g.item_count;
    view.inv_cell = 1.f / g.cell;
    view.bucket_mask = g.bucket_mask;
  }
};

}  // namespace throng
