#include "bench/throngd_child.h"

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

#include "service/spawn_throngd.h"

namespace throng::bench {

ThrongdChild::ThrongdChild(const std::string& path, const std::vector<std::string>& flags) {
  const service::SpawnedThrongd child = service::SpawnThrongd(path, flags);
  pid_ = child.pid;
  port_ = child.port;
}

ThrongdChild::~ThrongdChild() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (waitpid(pid_, nullptr, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > end) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace throng::bench
