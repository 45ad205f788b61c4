// Starting a throngd child process on a free loopback port, for the end-to-end tests and
// the gRPC load benchmark: one place that knows how throngd announces its port.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace throng::service {

struct SpawnedThrongd {
  pid_t pid = -1;
  int port = 0;
};

// Runs `path` with --listen 127.0.0.1:0 --metrics "" --backend cpu --log-level warn and
// then `flags`, with no signals blocked whatever the caller's threads block, and reads the
// bound port from its first stdout line ("throngd listening on 127.0.0.1:PORT"). Throws
// std::runtime_error (after killing the child) when it does not come up within 20 s.
SpawnedThrongd SpawnThrongd(const std::string& path, const std::vector<std::string>& flags);

}  // namespace throng::service
