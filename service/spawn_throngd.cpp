#include "service/spawn_throngd.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>

extern char** environ;

namespace throng::service {
namespace {

// Reads `fd` until a newline or `timeout_ms`; what was read.
std::string ReadLine(int fd, int timeout_ms) {
  std::string line;
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          end - std::chrono::steady_clock::now())
                          .count();
    if (poll(&p, 1, static_cast<int>(std::max<int64_t>(left, 1))) <= 0) continue;
    char c;
    if (read(fd, &c, 1) != 1 || c == '\n') break;
    line.push_back(c);
  }
  return line;
}

}  // namespace

SpawnedThrongd SpawnThrongd(const std::string& path, const std::vector<std::string>& flags) {
  std::vector<std::string> args = {path,        "--listen", "127.0.0.1:0", "--metrics", "",
                                   "--backend", "cpu",      "--log-level", "warn"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int out[2];
  if (pipe(out) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawn_file_actions_addclose(&actions, out[1]);
  // The child starts with no signals blocked, whatever the (threaded) caller blocks.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  SpawnedThrongd child;
  const int rc = posix_spawn(&child.pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    throw std::runtime_error("cannot start " + path);
  }
  const std::string line = ReadLine(out[0], 20000);
  close(out[0]);  // throngd writes nothing else to stdout
  const std::string prefix = "throngd listening on 127.0.0.1:";
  if (line.rfind(prefix, 0) != 0) {
    kill(child.pid, SIGKILL);
    waitpid(child.pid, nullptr, 0);
    throw std::runtime_error("throngd did not come up; its first line: \"" + line + "\"");
  }
  child.port = std::stoi(line.substr(prefix.size()));
  return child;
}

}  // namespace throng::service
