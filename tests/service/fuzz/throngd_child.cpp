#include "tests/service/fuzz/throngd_child.h"

#include <signal.h>
#include <sys/wait.h>

#include <cstring>

#include "service/spawn_throngd.h"

namespace throng::fuzz {

void ThrongdChild::Start() {
  Stop();
  const auto spawned = service::SpawnThrongd(path_, {});
  pid_ = spawned.pid;
  exit_.clear();
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  // Only loopback: SpawnThrongd listens on 127.0.0.1.
  auto channel = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(spawned.port),
                                           grpc::InsecureChannelCredentials(), args);
  stub_ = ::throng::v1::Simulation::NewStub(channel);
  generic_ = std::make_unique<grpc::GenericStub>(channel);
}

void ThrongdChild::Stop() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
}

bool ThrongdChild::Alive() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return true;
  pid_ = -1;
  if (WIFSIGNALED(status)) {
    exit_ = "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
            strsignal(WTERMSIG(status)) + ")";
  } else {
    exit_ = "exited with status " + std::to_string(WEXITSTATUS(status));
  }
  return false;
}

}  // namespace throng::fuzz
