// CUDA failures become typed exceptions carrying the file and line.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace throng {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* expr, const char* file, int line)
      : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + expr + ": " +
                           cudaGetErrorName(code) + ": " + cudaGetErrorString(code)),
        code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

}  // namespace throng

#define THRONG_CUDA_CHECK(expr)                                                  \
  do {                                                                           \
    const cudaError_t throng_cuda_status_ = (expr);                              \
    if (throng_cuda_status_ != cudaSuccess) {                                    \
      throw ::throng::CudaError(throng_cuda_status_, #expr, __FILE__, __LINE__); \
    }                                                                            \
  } while (0)
