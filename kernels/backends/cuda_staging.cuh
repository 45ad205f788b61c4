// A tick's columns to and from the device in one copy each way, through pinned memory
// (docs/PERFORMANCE.md, "GPU"): the columns live in one device block, laid out by
// LayOutColumns, and the host packs and unpacks them on every core (column_staging.h).
// A copy from pageable memory goes through the driver's own small staging at one core's
// speed; one from pinned memory runs at the bus's. THRONG_CUDA_STAGING=0 copies each
// column from and to its own (pageable) host vector instead, into the same block layout:
// the comparison the GPU check runs.
#pragma once

#include <cuda_runtime.h>
#include <thrust/device_vector.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "kernels/backends/column_staging.h"
#include "kernels/backends/cuda_check.cuh"
#include "kernels/backends/raw_pointer.cuh"
#include "kernels/orca/orca_types.h"

namespace throng {

class CudaStaging {
 public:
  CudaStaging() {
    const char* env = std::getenv("THRONG_CUDA_STAGING");
    pinned_ = !(env != nullptr && std::strcmp(env, "0") == 0);
  }
  ~CudaStaging() {
    if (host_ != nullptr) cudaFreeHost(host_);
  }
  CudaStaging(const CudaStaging&) = delete;
  CudaStaging& operator=(const CudaStaging&) = delete;

  // Lays the columns out in `block` (resized to fit; `offsets` gets where each starts) and
  // copies them there. Waits for the stream first (the pinned buffer is reused) and
  // returns once the copy is queued: the caller synchronises before the host columns go.
  // Returns the bytes copied.
  size_t Upload(const HostColumnIn* columns, size_t count, thrust::device_vector<uint8_t>& block,
              size_t* offsets, cudaStream_t stream) {
    if (count > kMaxColumns) throw std::logic_error("CudaStaging: too many columns");
    size_t bytes[kMaxColumns];
    for (size_t k = 0; k < count; ++k) bytes[k] = columns[k].bytes;
    const size_t total = LayOutColumns(bytes, count, offsets);
    block.resize(total);
    if (total == 0) return 0;
    uint8_t* device = Raw(block);
    if (!pinned_) {
      size_t copied = 0;
      for (size_t k = 0; k < count; ++k) {
        if (columns[k].bytes == 0) continue;
        THRONG_CUDA_CHECK(cudaMemcpyAsync(device + offsets[k], columns[k].data, columns[k].bytes,
                                          cudaMemcpyHostToDevice, stream));
        copied += columns[k].bytes;
      }
      return copied;
    }
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream));
    uint8_t* host = Pinned(total);
    PackColumns(columns, count, offsets, host);
    THRONG_CUDA_CHECK(cudaMemcpyAsync(device, host, total, cudaMemcpyHostToDevice, stream));
    return total;
  }

  // Copies the block's columns, laid out at `offsets` (the first `count`), into the host
  // columns, and waits for them. Returns the bytes copied.
  size_t Download(const thrust::device_vector<uint8_t>& block, const size_t* offsets,
                const HostColumnOut* columns, size_t count, cudaStream_t stream) {
    size_t total = 0;  // up to the end of the last column asked for
    for (size_t k = 0; k < count; ++k) {
      if (columns[k].bytes > 0) total = std::max(total, offsets[k] + columns[k].bytes);
    }
    if (total == 0) return 0;
    const uint8_t* device = Raw(block);
    if (!pinned_) {
      size_t copied = 0;
      for (size_t k = 0; k < count; ++k) {
        if (columns[k].bytes == 0) continue;
        THRONG_CUDA_CHECK(cudaMemcpyAsync(columns[k].data, device + offsets[k], columns[k].bytes,
                                          cudaMemcpyDeviceToHost, stream));
        copied += columns[k].bytes;
      }
      THRONG_CUDA_CHECK(cudaStreamSynchronize(stream));
      return copied;
    }
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the pinned buffer is reused
    uint8_t* host = Pinned(total);
    THRONG_CUDA_CHECK(cudaMemcpyAsync(host, device, total, cudaMemcpyDeviceToHost, stream));
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream));
    UnpackColumns(host, offsets, columns, count);
    return total;
  }

  static constexpr size_t kMaxColumns = 16;

 private:
  // The pinned buffer, grown (never shrunk) to at least `bytes`.
  uint8_t* Pinned(size_t bytes) {
    if (bytes > host_bytes_) {
      if (host_ != nullptr) THRONG_CUDA_CHECK(cudaFreeHost(host_));
      host_ = nullptr;
      host_bytes_ = 0;
      void* p = nullptr;
      THRONG_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocDefault));
      host_ = static_cast<uint8_t*>(p);
      host_bytes_ = bytes;
    }
    return host_;
  }

  bool pinned_ = true;
  uint8_t* host_ = nullptr;
  size_t host_bytes_ = 0;
};

// The solve's agent columns (AgentColumnsOut) as ten staged columns of n rows, in the
// struct's order: their sizes, where they lie in a device block laid out from those sizes,
// and the host columns to download them into.
constexpr size_t kAgentColumnsOutCount = 10;
inline void AgentColumnsOutBytes(size_t n, size_t* bytes) {
  bytes[0] = n * sizeof(uint32_t);
  for (size_t k = 1; k < 9; ++k) bytes[k] = n * sizeof(float);
  bytes[9] = n * sizeof(uint8_t);
}
inline AgentColumnsOut AgentColumnsOutAt(uint8_t* block, const size_t* offsets) {
  auto f = [&](int k) { return reinterpret_cast<float*>(block + offsets[k]); };
  return {reinterpret_cast<uint32_t*>(block + offsets[0]),
          f(1),
          f(2),
          f(3),
          f(4),
          f(5),
          f(6),
          f(7),
          f(8),
          block + offsets[9]};
}
inline void AgentColumnsOutDownload(const AgentColumnsOut& c, size_t n, HostColumnOut* out) {
  size_t bytes[kAgentColumnsOutCount];
  AgentColumnsOutBytes(n, bytes);
  void* data[kAgentColumnsOutCount] = {c.id,     c.px,        c.py,      c.vx,      c.vy,
                                       c.radius, c.max_speed, c.pref_vx, c.pref_vy, c.flags};
  for (size_t k = 0; k < kAgentColumnsOutCount; ++k) out[k] = {data[k], bytes[k]};
}

}  // namespace throng
