// Each pedestrian moved by its chosen velocity for one tick, one after another, written from
// the definition (semi-implicit Euler: the position moves by the velocity just chosen), in
// float as the engine keeps positions, so that the states can be compared bit for bit.
#include "kernels/reference/frame_ref.h"
#include "kernels/reference/reference_backend.h"

namespace throng::reference {

void ReferenceBackend::MovePedestrians(const PedestrianMoveParams& params,
                                       const PedestrianMoveScene& scene,
                                       const PedestrianMoveOutput& out) {
  for (size_t i = 0; i < scene.count; ++i) {
    out.px[i] = out.px[i] + scene.vx[i] * params.dt;
    out.py[i] = out.py[i] + scene.vy[i] * params.dt;
    out.pz[i] = out.pz[i] + scene.vz[i] * params.dt;
    float p[3];
    ToCaller(params.frame, out.px[i], out.py[i], out.pz[i], p);
    out.x[i] = p[0];
    out.y[i] = p[1];
    out.z[i] = p[2];
    out.next_vx[i] = scene.result_vx[i];
    out.next_vy[i] = scene.result_vy[i];
    out.next_vz[i] = scene.result_vz[i];
  }
}

}  // namespace throng::reference
