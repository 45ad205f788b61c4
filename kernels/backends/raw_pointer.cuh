// A backend vector's storage as a plain pointer (host or device), for the kernels' views.
#pragma once

#include <thrust/memory.h>

namespace throng {

template <class V>
auto Raw(V& v) {
  return thrust::raw_pointer_cast(v.data());
}

}  // namespace throng
