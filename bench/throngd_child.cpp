#include "bench/throngd_child.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace throng::bench {
namespace {

// Reads `fd` until a newline or `timeout_ms`; what was read.
std::string ReadLine(int fd, int timeout_ms) {
  std::string line;
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char c;
    if (read(fd, &c, 1) != 1 || c == '\n') break;
    line.push_back(c);
  }
  return line;
}

}  // namespace

ThrongdChild::ThrongdChild(const std::string& path, const std::vector<std::string>& flags) {
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
  const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    pid_ = -1;
    throw std::runtime_error("cannot start " + path);
  }
  const std::string line = ReadLine(out[0], 20000);
  close(out[0]);  // throngd writes nothing else to stdout
  const std::string prefix = "throngd listening on 127.0.0.1:";
  if (line.rfind(prefix, 0) != 0) {
    kill(pid_, SIGKILL);  // the destructor does not run for a throwing constructor
    waitpid(pid_, nullptr, 0);
    throw std::runtime_error("throngd did not come up; its first line: \"" + line + "\"");
  }
  port_ = std::stoi(line.substr(prefix.size()));
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
