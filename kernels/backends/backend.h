// The engine's backends: which this build has and machine can run, and making one. The
// interface they implement is kernels/backend_api/backend.h.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/backend_api/backend.h"

namespace throng {

// "auto", "cuda", "cpu", "reference".
std::string_view BackendName(BackendKind kind);
// Throws std::invalid_argument for an unknown name.
BackendKind ParseBackendKind(std::string_view name);

// The build has the CUDA backend compiled in.
bool CudaBuilt();
// CUDA is built and at least one device can be used now.
bool CudaDeviceAvailable();

// Raised when a backend is asked for that this build or machine cannot provide.
class BackendUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// kAuto picks cuda when a device is present, else cpu. Asking for cuda without a device
// or a CUDA build throws BackendUnavailable with the reason.
std::unique_ptr<Backend> CreateBackend(BackendKind kind);

}  // namespace throng
