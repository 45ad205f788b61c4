#pragma once

#include <memory>

#include "kernels/backends/backend.h"

namespace throng {

// Defined in cuda_backend.cu; only linked when the build has CUDA.
std::unique_ptr<Backend> MakeCudaBackend();
bool CudaDevicePresent();

}  // namespace throng
