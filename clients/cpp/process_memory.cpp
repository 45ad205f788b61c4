#include "throng/process_memory.h"

#include <algorithm>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace throng::client {

void KeepFreedMemory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // mallopt's largest: 32 MB
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // One arena per core: threads still allocate without waiting on each other, but the
  // arenas are few, so they reach their working size in a handful of calls.
  const int cores = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
  mallopt(M_ARENA_MAX, cores);
#endif
}

}  // namespace throng::client
