// KeepFreedMemory: megabyte message buffers come from the heap, not fresh mappings, and
// many threads share a few arenas (so each arena warms up in a few calls).
#include "throng/process_memory.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

char* volatile g_escape;  // keeps the compiler from eliding a malloc/free pair

int ArenaCount() {
  char* text = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  malloc_info(0, out);
  std::fclose(out);
  const std::string xml(text, size);
  std::free(text);
  int arenas = 0;
  for (size_t at = xml.find("<heap nr="); at != std::string::npos;
       at = xml.find("<heap nr=", at + 1)) {
    ++arenas;
  }
  return arenas;
}

TEST(ProcessMemory, MessageSizedBlocksComeFromTheHeapAndThreadsShareFewArenas) {
  throng::client::KeepFreedMemory();

  // A 100k-agent column set is a few megabytes: not a fresh mapping (glibc's default,
  // before its threshold adapts, maps anything over 128 KB).
  const size_t mapped_before = mallinfo2().hblks;
  char* block = static_cast<char*>(std::malloc(4 << 20));
  ASSERT_NE(block, nullptr);
  std::memset(block, 1, 4 << 20);
  g_escape = block;
  EXPECT_EQ(mallinfo2().hblks, mapped_before);
  std::free(block);

  // Four threads per core allocating at once, as gRPC's pollers and handlers do: by
  // default each would get an arena of its own (up to 8 per core).
  const int cores = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
  const int threads = 4 * cores;
  std::barrier all_allocated(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      char* mine = static_cast<char*>(std::malloc(64 << 10));
      std::memset(mine, 2, 64 << 10);
      g_escape = mine;
      all_allocated.arrive_and_wait();  // every thread holds its block at once
      std::free(mine);
    });
  }
  for (auto& t : pool) t.join();
  EXPECT_LE(ArenaCount(), cores);
}

}  // namespace
