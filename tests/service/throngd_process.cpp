#include "tests/service/throngd_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

#include "service/spawn_throngd.h"

namespace throng::service::testing {

ThrongdProcess::ThrongdProcess(std::vector<std::string> flags) {
  try {
    const SpawnedThrongd child = SpawnThrongd(THRONGD_PATH, flags);
    pid_ = child.pid;
    port_ = child.port;
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
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
