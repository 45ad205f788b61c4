// Whether the caller demands the GPU: THRONG_REQUIRE_CUDA set to a value other than "0"
// (bench/gpu_check.sh sets it). A test or benchmark lane that would skip cuda for want of
// a device then fails instead, so a GPU check cannot pass without touching the GPU.
#pragma once

namespace throng {

bool CudaRequired();

}  // namespace throng
