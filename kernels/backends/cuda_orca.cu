// The cuda backend's ORCA step (kernels/backends/orca_pipeline.cuh): the agents sorted
// into the neighbour grid and one per-agent solve, against the installed obstacles.
#include <thrust/system/cuda/execution_policy.h>

#include <chrono>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/backends/cuda_staging.cuh"
#include "kernels/backends/orca_pipeline.cuh"
#include "kernels/backends/orca_result_stats.h"
#include "kernels/orca/orca_validate.h"

namespace throng {

struct CudaBackend::OrcaPart {
  OrcaPipeline<thrust::device_vector> pipeline;
  // The input columns in one block, the output columns in another (cuda_staging.cuh), in
  // the order of the views below.
  DeviceVector<uint8_t> inputs, outputs;
  size_t in_at[10] = {}, out_at[8] = {};
  DeviceVector<uint32_t> kept_out;
  std::vector<uint16_t> missed_host;
  CudaStaging staging;
};

void CudaBackend::DropPart::operator()(OrcaPart* p) const { delete p; }

GridPointsView CudaBackend::LastOrcaGrid() const {
  return orca_ ? orca_->pipeline.LastGrid() : GridPointsView{};
}

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
  const HostColumnIn in_columns[] = {
      {agents.px.data(), n * sizeof(float)},        {agents.py.data(), n * sizeof(float)},
      {agents.vx.data(), n * sizeof(float)},        {agents.vy.data(), n * sizeof(float)},
      {agents.radius.data(), n * sizeof(float)},    {agents.max_speed.data(), n * sizeof(float)},
      {agents.pref_vx.data(), n * sizeof(float)},   {agents.pref_vy.data(), n * sizeof(float)},
      {agents.id.data(), n * sizeof(uint32_t)},     {agents.flags.data(), n * sizeof(uint8_t)}};
  transferred_.to_backend += d.staging.Upload(in_columns, 10, d.inputs, d.in_at, stream_);
  // The outputs' block, laid out as the downloads below read it.
  const size_t out_bytes[8] = {n * sizeof(float),    n * sizeof(float),    n * sizeof(uint8_t),
                               n * sizeof(uint16_t), n * sizeof(uint16_t), n * sizeof(uint16_t),
                               n * sizeof(uint8_t),  n * sizeof(uint16_t)};
  d.outputs.resize(LayOutColumns(out_bytes, 8, d.out_at));
  if (options.record_kept) d.kept_out.resize(n * static_cast<size_t>(params.max_neighbors));
  Synchronize();
  times.upload_ms = ms_since(t0);

  uint8_t* in_block = Raw(d.inputs);
  uint8_t* out_block = Raw(d.outputs);
  auto in_at = [&](int k) { return in_block + d.in_at[k]; };
  auto out_at = [&](int k) { return out_block + d.out_at[k]; };
  const AgentInputView in{reinterpret_cast<const float*>(in_at(0)),
                          reinterpret_cast<const float*>(in_at(1)),
                          reinterpret_cast<const float*>(in_at(2)),
                          reinterpret_cast<const float*>(in_at(3)),
                          reinterpret_cast<const float*>(in_at(4)),
                          reinterpret_cast<const float*>(in_at(5)),
                          reinterpret_cast<const float*>(in_at(6)),
                          reinterpret_cast<const float*>(in_at(7)),
                          reinterpret_cast<const uint32_t*>(in_at(8)),
                          reinterpret_cast<const uint8_t*>(in_at(9)),
                          static_cast<uint32_t>(n)};
  const OrcaOutputView view{reinterpret_cast<float*>(out_at(0)),
                            reinterpret_cast<float*>(out_at(1)),
                            reinterpret_cast<uint8_t*>(out_at(2)),
                            reinterpret_cast<uint16_t*>(out_at(3)),
                            reinterpret_cast<uint16_t*>(out_at(4)),
                            reinterpret_cast<uint16_t*>(out_at(5)),
                            reinterpret_cast<uint8_t*>(out_at(6)),
                            reinterpret_cast<uint16_t*>(out_at(7)),
                            options.record_kept ? Raw(d.kept_out) : nullptr};
  cudaStream_t stream = stream_;
  // One launch per stage (chunk: all n).
  d.pipeline.Run(
      Policy(), [stream] { THRONG_CUDA_CHECK(cudaStreamSynchronize(stream)); }, in, params,
      Obstacles(), options, /*chunk=*/static_cast<uint32_t>(n), view, &times);
  THRONG_CUDA_CHECK(cudaGetLastError());

  t0 = Clock::now();
  out->Resize(n);
  d.missed_host.resize(n);
  const HostColumnOut out_columns[] = {
      {out->vx.data(), n * sizeof(float)},          {out->vy.data(), n * sizeof(float)},
      {out->status.data(), n * sizeof(uint8_t)},     {out->candidates.data(), n * sizeof(uint16_t)},
      {out->neighbors.data(), n * sizeof(uint16_t)}, {out->constraints.data(), n * sizeof(uint16_t)},
      {out->solve_flags.data(), n * sizeof(uint8_t)}, {d.missed_host.data(), n * sizeof(uint16_t)}};
  transferred_.to_host += d.staging.Download(d.outputs, d.out_at, out_columns, 8, stream_);
  if (options.record_kept) Download(d.kept_out, out->kept_ids);
  Synchronize();
  times.download_ms = ms_since(t0);
  out->CountStatuses();
  TallyAudit(d.missed_host, n, out);
  out->times = times;
}

}  // namespace throng
