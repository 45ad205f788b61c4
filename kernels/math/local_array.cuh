// Storage for a per-agent scratch array whose elements are written before they are read.
// `Vec2 lines[128]` value-initialises every element (Vec2's members default to 0), which
// zeroed 2 KB per solve and 1.8 KB per neighbour gather: a fifth of the solve's time.
// Objects of implicit-lifetime types (aggregates such as Line and NeighborState) come into
// being in this byte storage as they are assigned.
#pragma once

#include "kernels/math/hd.cuh"

namespace throng {

template <class T, int N>
struct LocalArray {
  alignas(T) unsigned char bytes[sizeof(T) * N];
  THRONG_HD T* data() { return reinterpret_cast<T*>(bytes); }
};

}  // namespace throng
