// Stopping a tick early: its caller's deadline passed, its client went away, or the
// server is shutting down. A tick asks between its stages and between chunks of agents
// inside the long ones, so it ends within one chunk's work; it then throws TickCancelled
// before it commits anything, and the world stays as it was.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

namespace throng {

// True: stop now. Called on the thread that runs the tick (never inside a parallel
// region), so it may use whatever its owner's thread may (gRPC's ServerContext).
using StopRequested = std::function<bool()>;

class TickCancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void ThrowIfStopRequested(const StopRequested& stop, const char* where) {
  if (stop && stop()) throw TickCancelled(std::string("tick stopped during ") + where);
}

}  // namespace throng
