// An optional column's value on either backend: a functor's input column is null where the
// snapshot left it out, and then every row takes the fallback (a world default, 0).
#pragma once

#include <cstddef>

#include "kernels/math/hd.cuh"

namespace throng {

template <class T>
THRONG_HD inline T ColumnOr(const T* column, size_t i, T fallback) {
  return column != nullptr ? column[i] : fallback;
}

}  // namespace throng
