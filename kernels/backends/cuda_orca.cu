// The cuda backend's ORCA step (kernels/backends/orca_pipeline.cuh): the agents sorted
// into the neighbour grid and one per-agent solve, against the installed obstacles.
#include <thrust/system/cuda/execution_policy.h>

#include <chrono>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/backends/orca_pipeline.cuh"
#include "kernels/backends/orca_result_stats.h"
#include "kernels/orca/orca_validate.h"

namespace throng {

struct CudaBackend::OrcaPart {
  OrcaPipeline<thrust::device_vector> pipeline;
  DeviceVector<float> px, py, vx, vy, radius, max_speed, pref_vx, pref_vy;
  DeviceVector<uint32_t> id;
  DeviceVector<uint8_t> flags;
  DeviceVector<float> vx_out, vy_out;
  DeviceVector<uint8_t> status_out, flags_out;
  DeviceVector<uint16_t> candidates_out, neighbors_out, constraints_out, missed_out;
  DeviceVector<uint32_t> kept_out;
  std::vector<uint16_t> missed_host;
};

void CudaBackend::DropPart::operator()(OrcaPart* p) const { delete p; }

void CudaBackend::SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                            const OrcaRunOptions& options, OrcaResult* out) {
  using Clock = std::chrono::steady_clock;
  auto ms_since = [](Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  };
  OrcaStageTimes times;
  auto t0 = Clock::now();
  ValidateOrcaParams(params);
  ValidateAgents(agents);
  times.validate_ms = ms_since(t0);

  t0 = Clock::now();
  if (!orca_) orca_.reset(new OrcaPart);
  OrcaPart& d = *orca_;
  const size_t n = agents.size();
  Upload(agents.px, d.px);
  Upload(agents.py, d.py);
  Upload(agents.vx, d.vx);
  Upload(agents.vy, d.vy);
  Upload(agents.radius, d.radius);
  Upload(agents.max_speed, d.max_speed);
  Upload(agents.pref_vx, d.pref_vx);
  Upload(agents.pref_vy, d.pref_vy);
  Upload(agents.id, d.id);
  Upload(agents.flags, d.flags);
  for (auto* v : {&d.vx_out, &d.vy_out}) v->resize(n);
  d.status_out.resize(n);
  d.flags_out.resize(n);
  for (auto* v : {&d.candidates_out, &d.neighbors_out, &d.constraints_out, &d.missed_out}) {
    v->resize(n);
  }
  if (options.record_kept) d.kept_out.resize(n * static_cast<size_t>(params.max_neighbors));
  Synchronize();
  times.upload_ms = ms_since(t0);

  const AgentInputView in{Raw(d.px),      Raw(d.py),      Raw(d.vx),
                          Raw(d.vy),      Raw(d.radius),  Raw(d.max_speed),
                          Raw(d.pref_vx), Raw(d.pref_vy), Raw(d.id),
                          Raw(d.flags),   static_cast<uint32_t>(n)};
  const OrcaOutputView view{Raw(d.vx_out),         Raw(d.vy_out),         Raw(d.status_out),
                            Raw(d.candidates_out), Raw(d.neighbors_out),  Raw(d.constraints_out),
                            Raw(d.flags_out),      Raw(d.missed_out),
                            options.record_kept ? Raw(d.kept_out) : nullptr};
  cudaStream_t stream = stream_;
  // One launch per stage (chunk: all n).
  d.pipeline.Run(
      Policy(), [stream] { THRONG_CUDA_CHECK(cudaStreamSynchronize(stream)); }, in, params,
      Obstacles(), options, /*chunk=*/static_cast<uint32_t>(n), view, &times);
  THRONG_CUDA_CHECK(cudaGetLastError());

  t0 = Clock::now();
  out->Resize(n);
  Download(d.vx_out, out->vx);
  Download(d.vy_out, out->vy);
  Download(d.status_out, out->status);
  Download(d.candidates_out, out->candidates);
  Download(d.neighbors_out, out->neighbors);
  Download(d.constraints_out, out->constraints);
  Download(d.flags_out, out->solve_flags);
  Download(d.missed_out, d.missed_host);
  if (options.record_kept) Download(d.kept_out, out->kept_ids);
  Synchronize();
  times.download_ms = ms_since(t0);
  out->CountStatuses();
  TallyAudit(d.missed_host, n, out);
  out->times = times;
}

}  // namespace throng
