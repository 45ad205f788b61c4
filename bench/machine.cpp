#include "bench/machine.h"

#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#include "kernels/backends/backend.h"

#if THRONG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace throng::bench {
namespace {

// The value of `key` in a "key: value" file such as /proc/cpuinfo, or "".
std::string ProcField(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

}  // namespace

MachineInfo DescribeMachine() {
  MachineInfo m;
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) m.hostname = host;
  m.cpu_model = ProcField("/proc/cpuinfo", "model name");
  m.cores = static_cast<int>(std::thread::hardware_concurrency());
  m.omp_threads = omp_get_max_threads();
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  m.omp_wait_policy = policy ? policy : "default";
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &utc);
  m.date = date;
  m.cuda_built = CudaBuilt();
  m.cuda_device = CudaDeviceAvailable();
  return m;
}

uint64_t PeakHostBytes() {
  // "VmHWM:   13708 kB"
  std::istringstream value(ProcField("/proc/self/status", "VmHWM"));
  uint64_t kib = 0;
  value >> kib;
  return kib * 1024;
}

bool ResetPeakHost() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

std::optional<uint64_t> DeviceUsedBytes() {
#if THRONG_HAVE_CUDA
  if (!CudaDeviceAvailable()) return std::nullopt;
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return std::nullopt;
  return static_cast<uint64_t>(total_bytes - free_bytes);
#else
  return std::nullopt;
#endif
}

}  // namespace throng::bench
