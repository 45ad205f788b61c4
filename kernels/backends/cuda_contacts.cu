// The cuda backend's contact count (kernels/backends/contact_pipeline.cuh): pedestrian
// pairs, vehicle bodies and the obstacles' rings, reduced on the backend's stream.
#include <thrust/system/cuda/execution_policy.h>

#include "kernels/backends/contact_pipeline.cuh"
#include "kernels/backends/cuda_backend_impl.cuh"

namespace throng {

struct CudaBackend::ContactPart {
  ContactPipeline<thrust::device_vector> pipeline;
  DeviceVector<float> x, y, radius;
  DeviceVector<VehicleBody> bodies;
};

void CudaBackend::DropPart::operator()(ContactPart* p) const { delete p; }

void CudaBackend::SetContactObstacles(const std::vector<Polygon>& polygons) {
  if (!contacts_) contacts_.reset(new ContactPart);
  contacts_->pipeline.SetObstacles(polygons, Uploader());
  Synchronize();
}

CollisionCounts CudaBackend::CountContacts(const ContactScene& scene, const StopRequested& stop) {
  ValidateContactScene(scene);
  if (!contacts_) contacts_.reset(new ContactPart);
  ContactPart& d = *contacts_;
  // The pedestrians where this tick's solve and move left them, else the host's.
  const float *x = nullptr, *y = nullptr, *radius = nullptr;
  if (scene.columns != ColumnSource::kThisTick ||
      !PedestriansThisTick(scene.count, scene.moved, &x, &y, &radius)) {
    Upload(scene.x, scene.count, d.x);
    Upload(scene.y, scene.count, d.y);
    Upload(scene.radius, scene.count, d.radius);
    x = Raw(d.x);
    y = Raw(d.y);
    radius = Raw(d.radius);
  }
  // The bodies where this tick's preparation (and move) left them, else the host's.
  const VehicleBody* bodies = nullptr;
  if (scene.bodies_columns == ColumnSource::kThisTick) {
    const DeviceVehicleColumns kept = VehiclesThisTick(scene.body_count);
    bodies = scene.moved ? kept.moved_bodies : kept.bodies;
  }
  if (bodies == nullptr) {
    Upload(scene.bodies, scene.body_count, d.bodies);
    bodies = Raw(d.bodies);
  }
  const auto n = static_cast<uint32_t>(scene.count);
  const auto body_count = static_cast<uint32_t>(scene.body_count);
  // The last ORCA solve's grid when it holds these agents, moved since; else its own sort.
  CollisionCounts counts;
  if (!d.pipeline.CountOnSolveGrid(Policy(), LastOrcaGrid(), x, y, radius, n, bodies, body_count,
                                   kGpuContactChunk, stop, &counts)) {
    counts =
        d.pipeline.Count(Policy(), x, y, radius, n, bodies, body_count, kGpuContactChunk, stop);
  }
  Synchronize();
  return counts;
}

}  // namespace throng
