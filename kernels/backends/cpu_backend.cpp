// The cpu backend: the per-agent kernels run on all cores through Thrust's OpenMP system.
// Compiled by the host compiler only; shares kernel source with cuda_backend.cu.
#include "kernels/backends/cpu_backend.h"

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/omp/execution_policy.h>

#include "kernels/backends/spline_query_kernel.cuh"

namespace throng {

void CpuBackend::SetSplines(const std::vector<SplineDesc>& splines) {
  splines_ = BuildSplineSet(splines);
}

void CpuBackend::QuerySplines(const SplineQueries& q, SplineQueryResults* out) {
  ValidateSplineQueries(q, splines_.size());
  const size_t n = q.size();
  out->Resize(n);
  const SplineQueryFunctor f{
      splines_.View(),
      {q.spline.data(), q.s.data(), q.px.data(), q.py.data(), q.pz.data(), q.s_hint.data(), q.window},
      {out->x.data(), out->y.data(), out->z.data(), out->tx.data(), out->ty.data(), out->tz.data(),
       out->curvature.data(), out->progress.data()}};
  thrust::for_each_n(thrust::omp::par, thrust::counting_iterator<size_t>(0), n, f);
}

}  // namespace throng
