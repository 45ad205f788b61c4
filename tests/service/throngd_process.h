// A real throngd child process for end-to-end tests: started on 127.0.0.1 port 0, the
// bound port read back from its first stdout line.
#pragma once

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "throng/v1/simulation.grpc.pb.h"

namespace throng::service::testing {

class ThrongdProcess {
 public:
  // Extra flags after --listen 127.0.0.1:0 --metrics "" --backend cpu --log-level warn.
  // Fails the test (ADD_FAILURE) and leaves port() 0 when throngd does not come up.
  explicit ThrongdProcess(std::vector<std::string> flags = {});
  ~ThrongdProcess();  // SIGKILL when still running
  ThrongdProcess(const ThrongdProcess&) = delete;
  ThrongdProcess& operator=(const ThrongdProcess&) = delete;

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  // Plain-text channel and stub to this server.
  std::shared_ptr<grpc::Channel> Channel() const;
  std::unique_ptr<::throng::v1::Simulation::Stub> Stub() const;

  void Signal(int signal) const;
  // Waits up to `timeout_s` for the process to exit; its exit code, or -1 when it was
  // killed by a signal or did not exit in time.
  int Wait(double timeout_s);

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  bool exited_ = false;
};

// A suite that shares one throngd, started before its first test and stopped after its
// last; each test gets a fresh stub.
class SharedServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new ThrongdProcess(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(server_->port(), 0);
    stub_ = server_->Stub();
  }

  static inline ThrongdProcess* server_ = nullptr;
  std::unique_ptr<::throng::v1::Simulation::Stub> stub_;
};

}  // namespace throng::service::testing
