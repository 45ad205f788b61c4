// The cuda backend: the same per-agent kernels as the cpu backend, compiled by nvcc and
// launched through Thrust's CUDA system on a stream of the backend's own.
#include "kernels/backends/cuda_backend.h"

#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>

#include <stdexcept>
#include <string>

#include "kernels/backends/cuda_check.cuh"
#include "kernels/backends/spline_query_kernel.cuh"

namespace throng {
namespace {

template <class T>
using DeviceVector = thrust::device_vector<T>;

template <class T>
const T* Raw(const DeviceVector<T>& v) {
  return thrust::raw_pointer_cast(v.data());
}
template <class T>
T* Raw(DeviceVector<T>& v) {
  return thrust::raw_pointer_cast(v.data());
}

template <class T>
void Upload(const std::vector<T>& host, DeviceVector<T>& device, cudaStream_t stream) {
  device.resize(host.size());
  if (!host.empty()) {
    THRONG_CUDA_CHECK(cudaMemcpyAsync(Raw(device), host.data(), host.size() * sizeof(T),
                                      cudaMemcpyHostToDevice, stream));
  }
}

template <class T>
void Download(const DeviceVector<T>& device, std::vector<T>& host, cudaStream_t stream) {
  host.resize(device.size());
  if (!host.empty()) {
    THRONG_CUDA_CHECK(cudaMemcpyAsync(host.data(), Raw(device), host.size() * sizeof(T),
                                      cudaMemcpyDeviceToHost, stream));
  }
}

class CudaBackend final : public Backend {
 public:
  CudaBackend() { THRONG_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~CudaBackend() override { cudaStreamDestroy(stream_); }

  BackendKind kind() const override { return BackendKind::kCuda; }

  void SetSplines(const std::vector<SplineDesc>& splines) override {
    SplineSet set = BuildSplineSet(splines);
    Upload(set.headers, d_headers_, stream_);
    Upload(set.coeff, d_coeff_, stream_);
    Upload(set.knots, d_knots_, stream_);
    Upload(set.table, d_table_, stream_);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
    spline_count_ = set.size();
  }

  void QuerySplines(const SplineQueries& q, SplineQueryResults* out) override {
    ValidateSplineQueries(q, spline_count_);
    const size_t n = q.size();
    Upload(q.spline, d_spline_, stream_);
    Upload(q.s, d_s_, stream_);
    Upload(q.px, d_px_, stream_);
    Upload(q.py, d_py_, stream_);
    Upload(q.pz, d_pz_, stream_);
    Upload(q.s_hint, d_hint_, stream_);
    for (auto* v : {&d_x_, &d_y_, &d_z_, &d_tx_, &d_ty_, &d_tz_, &d_k_, &d_progress_}) v->resize(n);
    const SplineQueryFunctor f{
        {Raw(d_headers_), Raw(d_coeff_), Raw(d_knots_), Raw(d_table_),
         static_cast<uint32_t>(spline_count_)},
        {Raw(d_spline_), Raw(d_s_), Raw(d_px_), Raw(d_py_), Raw(d_pz_), Raw(d_hint_), q.window},
        {Raw(d_x_), Raw(d_y_), Raw(d_z_), Raw(d_tx_), Raw(d_ty_), Raw(d_tz_), Raw(d_k_),
         Raw(d_progress_)}};
    thrust::for_each_n(thrust::cuda::par_nosync.on(stream_), thrust::counting_iterator<size_t>(0),
                       n, f);
    THRONG_CUDA_CHECK(cudaGetLastError());
    out->Resize(n);
    Download(d_x_, out->x, stream_);
    Download(d_y_, out->y, stream_);
    Download(d_z_, out->z, stream_);
    Download(d_tx_, out->tx, stream_);
    Download(d_ty_, out->ty, stream_);
    Download(d_tz_, out->tz, stream_);
    Download(d_k_, out->curvature, stream_);
    Download(d_progress_, out->progress, stream_);
    THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  cudaStream_t stream_ = nullptr;
  size_t spline_count_ = 0;
  DeviceVector<SplineHeader> d_headers_;
  DeviceVector<Vec3> d_coeff_;
  DeviceVector<SplineKnot> d_knots_;
  DeviceVector<SplineSample> d_table_;
  DeviceVector<uint32_t> d_spline_;
  DeviceVector<float> d_s_, d_px_, d_py_, d_pz_, d_hint_;
  DeviceVector<float> d_x_, d_y_, d_z_, d_tx_, d_ty_, d_tz_, d_k_, d_progress_;
};

}  // namespace

bool CudaDevicePresent() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

std::unique_ptr<Backend> MakeCudaBackend() { return std::make_unique<CudaBackend>(); }

}  // namespace throng
