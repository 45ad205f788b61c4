// A throngd child process for the load benchmark: started on 127.0.0.1 port 0 with
// --backend cpu (as tests/service does), the bound port read from its first stdout line.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace throng::bench {

class ThrongdChild {
 public:
  // `path` is the throngd binary; `flags` follow --listen 127.0.0.1:0 --metrics ""
  // --backend cpu --log-level warn. Throws std::runtime_error when it does not come up.
  ThrongdChild(const std::string& path, const std::vector<std::string>& flags);
  ~ThrongdChild();  // SIGTERM, then SIGKILL after 10 s
  ThrongdChild(const ThrongdChild&) = delete;
  ThrongdChild& operator=(const ThrongdChild&) = delete;

  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace throng::bench
