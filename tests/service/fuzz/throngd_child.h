// The throngd under test: a child process on a free loopback port, and the stubs that
// talk to it. A crash shows as the child having exited (checked without blocking).
#pragma once

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <sys/types.h>

#include <memory>
#include <string>

#include "throng/v1/simulation.grpc.pb.h"

namespace throng::fuzz {

// Not thread-safe.
class ThrongdChild {
 public:
  explicit ThrongdChild(std::string path) : path_(std::move(path)) {}
  ~ThrongdChild() { Stop(); }
  ThrongdChild(const ThrongdChild&) = delete;
  ThrongdChild& operator=(const ThrongdChild&) = delete;

  // Spawns throngd (throws std::runtime_error when it does not come up).
  void Start();
  // SIGKILL and reap, when running.
  void Stop();
  // False once the child has exited; `Exit()` then says how.
  bool Alive();
  const std::string& Exit() const { return exit_; }
  pid_t pid() const { return pid_; }

  ::throng::v1::Simulation::Stub& stub() { return *stub_; }
  grpc::GenericStub& generic() { return *generic_; }

 private:
  std::string path_;
  pid_t pid_ = -1;
  std::string exit_;
  std::unique_ptr<::throng::v1::Simulation::Stub> stub_;
  std::unique_ptr<grpc::GenericStub> generic_;
};

}  // namespace throng::fuzz
