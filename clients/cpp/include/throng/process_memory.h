// Memory settings for a process that sends or receives 100k-agent messages (throngd, a
// game server, the load benchmark). Call once at the start of main, before any thread.
#pragma once

namespace throng::client {

// Keeps freed memory in the process and caps glibc's allocator arenas at the core count.
//
// A 100k-agent request or response has columns of megabytes. By default glibc maps such
// blocks fresh and unmaps them on free, and gives every new thread (gRPC's pollers and
// handlers) an arena of its own that has to grow to a whole message before it is reused:
// each tick then writes megabytes into fresh pages, and page faults on a small VM cost
// more than the parsing itself (docs/PERFORMANCE.md, "Service over gRPC"). A no-op
// outside glibc.
void KeepFreedMemory();

}  // namespace throng::client
