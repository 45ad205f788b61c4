// Columns laid out one after another in one block, and copied in and out of it on every
// core: how the cuda backend sends a tick's columns in one copy each way through pinned
// memory (cuda_staging.cuh). Host code, no CUDA: the cpu build compiles and tests it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace throng {

// Each column starts on this boundary in a block: every element type's alignment, and the
// start of a GPU memory transaction.
inline constexpr size_t kStagedColumnAlign = 256;

struct HostColumnIn {
  const void* data;
  size_t bytes;
};
struct HostColumnOut {
  void* data;
  size_t bytes;
};

// Where `count` columns of these sizes start in a block, in order; returns the block's size.
size_t LayOutColumns(const size_t* bytes, size_t count, size_t* offsets);

// Copies each column to block + offsets[k] (pack) or from there (unpack), in pieces of at
// most 256 KiB spread over the cores: one core's copy is slower than the copy over PCIe.
void PackColumns(const HostColumnIn* columns, size_t count, const size_t* offsets,
                 uint8_t* block);
void UnpackColumns(const uint8_t* block, const size_t* offsets, const HostColumnOut* columns,
                   size_t count);

}  // namespace throng
