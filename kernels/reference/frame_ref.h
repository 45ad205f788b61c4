// The caller's frames (docs/ALGORITHMS.md §6), written again for the reference: internal
// (Z up, right-handed) to the caller's and back, one mapping per frame, exact (signs and
// swaps).
#pragma once

#include "kernels/math/frame.cuh"

namespace throng::reference {

inline void ToCaller(const Frame& frame, float x, float y, float z, float* out) {
  const bool left = frame.handedness == Handedness::kLeft;
  if (frame.up == UpAxis::kZ) {
    out[0] = x;
    out[1] = left ? -y : y;
    out[2] = z;
  } else {
    out[0] = x;
    out[1] = z;
    out[2] = left ? y : -y;
  }
}

// The caller's (x, y, z) in the internal frame: the inverse of ToCaller.
inline void FromCaller(const Frame& frame, float x, float y, float z, float* out) {
  const bool left = frame.handedness == Handedness::kLeft;
  if (frame.up == UpAxis::kZ) {
    out[0] = x;
    out[1] = left ? -y : y;
    out[2] = z;
  } else {
    out[0] = x;
    out[1] = left ? z : -z;
    out[2] = y;
  }
}

}  // namespace throng::reference
