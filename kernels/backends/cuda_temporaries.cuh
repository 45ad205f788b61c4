// Thrust's scratch storage for the cuda backend, from a cache (issue 42). Every sort, scan,
// reduce and count asks for temporary storage; by default each request is a cudaMalloc
// and its release a cudaFree, which waits for the whole device: some 20-35 of each per
// tick. CUB's CachingDeviceAllocator keeps released blocks, per stream, in size classes
// (powers of two), and hands them to the next request of their class once the work that
// used them is done, so after the first ticks a tick allocates nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <cub/util_allocator.cuh>

#include "kernels/backends/cuda_check.cuh"

namespace throng {

// Size classes from 256 B (2^8) to 4 GiB (2^32); larger requests are allocated and freed
// as they come. At most 8 GiB kept cached: a 1M-agent tick's largest scratch (the radix
// sorts) is tens of MB.
inline constexpr unsigned kTemporariesBinGrowth = 2;
inline constexpr unsigned kTemporariesMinBin = 8;
inline constexpr unsigned kTemporariesMaxBin = 32;
inline constexpr size_t kTemporariesMaxCached = size_t{8} << 30;

// What Thrust calls through `thrust::cuda::par_nosync(temporaries).on(stream)`: an
// allocator of bytes on the backend's stream, over a cache the backend owns. Without a
// cache (THRONG_CUDA_CACHE=0, to compare or to rule the cache out) it allocates and frees
// each request as Thrust's default does.
struct CudaTemporaries {
  using value_type = char;

  cub::CachingDeviceAllocator* cache = nullptr;
  cudaStream_t stream = nullptr;

  char* allocate(std::ptrdiff_t bytes) {
    void* p = nullptr;
    if (cache != nullptr) {
      THRONG_CUDA_CHECK(cache->DeviceAllocate(&p, static_cast<size_t>(bytes), stream));
    } else {
      THRONG_CUDA_CHECK(cudaMalloc(&p, static_cast<size_t>(bytes)));
    }
    return static_cast<char*>(p);
  }
  void deallocate(char* p, size_t /*bytes*/) {
    if (cache != nullptr) {
      THRONG_CUDA_CHECK(cache->DeviceFree(p));
    } else {
      THRONG_CUDA_CHECK(cudaFree(p));
    }
  }
};

// Whether THRONG_CUDA_CACHE leaves the cache on (unset, or anything but "0").
inline bool CudaTemporariesCached() {
  const char* v = std::getenv("THRONG_CUDA_CACHE");
  return v == nullptr || std::strcmp(v, "0") != 0;
}

}  // namespace throng
