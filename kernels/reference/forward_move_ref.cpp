// Each forward agent moved for one tick along the direction its fan chose, at its speed, one
// after another, written from the definition (docs/FORWARD.md, "Motion"): position + direction *
// (speed * dt), in float as the engine keeps positions, so that the states can be compared
// bit for bit; then both into the caller's frame.
#include "kernels/reference/frame_ref.h"
#include "kernels/reference/reference_backend.h"

namespace throng::reference {

void ReferenceBackend::MoveForwardAgents(const ForwardMoveParams& params,
                                         const ForwardMoveScene& scene,
                                         const ForwardMoveOutput& out) {
  for (size_t i = 0; i < scene.count; ++i) {
    const float step = scene.speed[i] * params.dt;
    const Vec3 d = scene.move[i];
    const Vec3 at = scene.position[i];
    float p[3], f[3];
    ToCaller(params.frame, at.x + d.x * step, at.y + d.y * step, at.z + d.z * step, p);
    ToCaller(params.frame, d.x, d.y, d.z, f);
    out.x[i] = p[0];
    out.y[i] = p[1];
    out.z[i] = p[2];
    out.forward_x[i] = f[0];
    out.forward_y[i] = f[1];
    out.forward_z[i] = f[2];
  }
}

}  // namespace throng::reference
