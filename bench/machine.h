// What a benchmark result needs to say about where it ran: the machine, and how much
// host and device memory the process held.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace throng::bench {

struct MachineInfo {
  std::string hostname;
  std::string cpu_model;  // first "model name" of /proc/cpuinfo
  int cores = 0;          // logical CPUs online
  int omp_threads = 0;    // OpenMP threads the cpu backend will use
  // $OMP_WAIT_POLICY or "default": on a shared machine, spinning workers (ACTIVE) wait
  // out whole time slices of descheduled threads and can make ticks several times slower
  std::string omp_wait_policy;
  std::string date;  // UTC, ISO 8601
  bool cuda_built = false;
  bool cuda_device = false;
};

MachineInfo DescribeMachine();

// Peak resident set size of this process (VmHWM), in bytes; 0 when unknown.
uint64_t PeakHostBytes();
// Resets VmHWM to the current RSS (Linux >= 4.0, /proc/self/clear_refs), so that each run
// reports its own peak rather than the largest of the process's life. False if refused.
bool ResetPeakHost();

// Device memory in use on the current CUDA device (total - free), in bytes; nullopt when
// the build has no CUDA or no device is usable. Counts every process on the device, which
// on the GPU machine is this one alone.
std::optional<uint64_t> DeviceUsedBytes();

}  // namespace throng::bench
