#include "kernels/backends/backend.h"

#include <cstdlib>
#include <cstring>

#include "kernels/backends/cpu_backend.h"
#include "kernels/backends/cuda_required.h"
#include "kernels/reference/reference_backend.h"
#if THRONG_HAVE_CUDA
#include "kernels/backends/cuda_backend.h"
#endif

namespace throng {

std::string_view BackendName(BackendKind kind) {
  switch (kind) {
    case BackendKind::kAuto:
      return "auto";
    case BackendKind::kCuda:
      return "cuda";
    case BackendKind::kCpu:
      return "cpu";
    case BackendKind::kReference:
      return "reference";
  }
  return "unknown";
}

BackendKind ParseBackendKind(std::string_view name) {
  for (BackendKind k :
       {BackendKind::kAuto, BackendKind::kCuda, BackendKind::kCpu, BackendKind::kReference}) {
    if (BackendName(k) == name) return k;
  }
  throw std::invalid_argument("unknown backend '" + std::string(name) +
                              "' (expected auto, cuda, cpu or reference)");
}

bool CudaBuilt() { return THRONG_HAVE_CUDA != 0; }

bool CudaDeviceAvailable() {
#if THRONG_HAVE_CUDA
  return CudaDevicePresent();
#else
  return false;
#endif
}

bool CudaRequired() {
  const char* v = std::getenv("THRONG_REQUIRE_CUDA");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

std::unique_ptr<Backend> CreateBackend(BackendKind kind) {
  switch (kind) {
    case BackendKind::kAuto:
      return CreateBackend(CudaDeviceAvailable() ? BackendKind::kCuda : BackendKind::kCpu);
    case BackendKind::kCpu:
      return std::make_unique<CpuBackend>();
    case BackendKind::kReference:
      return std::make_unique<reference::ReferenceBackend>();
    case BackendKind::kCuda:
#if THRONG_HAVE_CUDA
      if (!CudaDevicePresent()) {
        throw BackendUnavailable(
            "backend 'cuda': this build has CUDA but no CUDA device is usable");
      }
      return MakeCudaBackend();
#else
      throw BackendUnavailable(
          "backend 'cuda': this build has no CUDA support (built with THRONG_CUDA=OFF or without "
          "nvcc)");
#endif
  }
  throw std::invalid_argument("unknown backend kind");
}

}  // namespace throng
