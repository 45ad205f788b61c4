// The cuda backend: the same per-agent kernels as the cpu backend, compiled by nvcc and
// launched through Thrust's CUDA system on a stream of the backend's own. This file holds
// the world data that several pipelines read; each pipeline is a file of its own
// (kernels/backends/cuda_backend_impl.cuh).
#include <memory>

#include "kernels/backends/cuda_backend_impl.cuh"
#include "kernels/orca/obstacle_grid.h"
#include "kernels/orca/obstacles.h"

namespace throng {

CudaBackend::CudaBackend() {
  THRONG_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  if (CudaTemporariesCached()) {
    temporaries_cache_ = std::make_unique<cub::CachingDeviceAllocator>(
        kTemporariesBinGrowth, kTemporariesMinBin, kTemporariesMaxBin, kTemporariesMaxCached);
  }
  temporaries_ = {temporaries_cache_.get(), stream_};
}

CudaBackend::~CudaBackend() {
  // The cached blocks go first: a block's release waits on an event of this stream.
  temporaries_cache_.reset();
  cudaStreamDestroy(stream_);
}

void CudaBackend::SetSplines(const std::vector<SplineDesc>& splines) {
  SplineSet set = BuildSplineSet(splines);
  Upload(set.headers, d_headers_);
  Upload(set.coeff, d_coeff_);
  Upload(set.knots, d_knots_);
  Upload(set.table, d_table_);
  Synchronize();
  spline_count_ = set.size();
  spline_ids_ = set.ids;
}

void CudaBackend::SetObstacles(const std::vector<Polygon>& polygons) {
  const ObstacleVertices v = BuildObstacleVertices(polygons);
  Upload(v.point, d_obst_point_);
  Upload(v.unit_dir, d_obst_dir_);
  Upload(v.convex, d_obst_convex_);
  Upload(v.next, d_obst_next_);
  Upload(v.prev, d_obst_prev_);
  Upload(EdgeSegments(v), d_segments_);
  // The edge grid is built on the host once per world and travels with the vertices.
  const EdgeGrid grid = BuildEdgeGrid(v);
  Upload(grid.cell_start, d_grid_start_);
  Upload(grid.edge_index, d_grid_index_);
  Synchronize();
  SetContactObstacles(polygons);
  obstacle_count_ = static_cast<int>(v.size());
  grid_ = grid.View();  // host pointers replaced by the device copies' below
  grid_.cell_start = grid.cell_start.empty() ? nullptr : Raw(d_grid_start_);
  grid_.edge_index = grid.cell_start.empty() ? nullptr : Raw(d_grid_index_);
}

SplineSetView CudaBackend::Lanes() const {
  return {Raw(d_headers_), Raw(d_coeff_), Raw(d_knots_), Raw(d_table_),
          static_cast<uint32_t>(spline_count_)};
}

orca::ObstacleView CudaBackend::Obstacles() const {
  return {Raw(d_obst_point_),
          Raw(d_obst_dir_),
          Raw(d_obst_convex_),
          Raw(d_obst_next_),
          Raw(d_obst_prev_),
          obstacle_count_,
          grid_};
}

bool CudaDevicePresent() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

std::unique_ptr<Backend> MakeCudaBackend() { return std::make_unique<CudaBackend>(); }

}  // namespace throng
