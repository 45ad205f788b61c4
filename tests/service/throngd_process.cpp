#include "tests/service/throngd_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

extern char** environ;

namespace throng::service::testing {
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
    if (read(fd, &c, 1) != 1) break;
    if (c == '\n') break;
    line.push_back(c);
  }
  return line;
}

}  // namespace

ThrongdProcess::ThrongdProcess(std::vector<std::string> flags) {
  std::vector<std::string> args = {THRONGD_PATH, "--listen", "127.0.0.1:0", "--metrics", "",
                                   "--backend",  "cpu",      "--log-level", "warn"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int out[2];
  if (pipe(out) != 0) {
    ADD_FAILURE() << "pipe failed";
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawn_file_actions_addclose(&actions, out[1]);
  // The child starts with no signals blocked, whatever this (threaded) test process has.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  const int rc = posix_spawn(&pid_, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(out[1]);
  if (rc != 0) {
    ADD_FAILURE() << "cannot start " << THRONGD_PATH;
    close(out[0]);
    pid_ = -1;
    return;
  }
  const std::string line = ReadLine(out[0], 20000);
  close(out[0]);  // throngd writes nothing else to stdout
  const std::string prefix = "throngd listening on 127.0.0.1:";
  if (line.rfind(prefix, 0) != 0) {
    ADD_FAILURE() << "throngd did not come up; its first line: \"" << line << "\"";
    return;
  }
  port_ = std::stoi(line.substr(prefix.size()));
}

ThrongdProcess::~ThrongdProcess() {
  if (pid_ > 0 && !exited_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

std::shared_ptr<grpc::Channel> ThrongdProcess::Channel() const {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  return grpc::CreateCustomChannel(address(), grpc::InsecureChannelCredentials(), args);
}

std::unique_ptr<::throng::v1::Simulation::Stub> ThrongdProcess::Stub() const {
  return ::throng::v1::Simulation::NewStub(Channel());
}

void ThrongdProcess::Signal(int signal) const {
  if (pid_ > 0 && !exited_) kill(pid_, signal);
}

int ThrongdProcess::Wait(double timeout_s) {
  if (pid_ <= 0) return -1;
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (true) {
    int status = 0;
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exited_ = true;
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    if (std::chrono::steady_clock::now() > end) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace throng::service::testing
