// Each forward agent moved for one tick along the direction its fan chose, at its speed, one
// after another, written from the definition (docs/FORWARD.md, "Motion"): position + direction *
// (speed * dt), in float as the engine keeps positions, so that the states can be compared
// bit for bit; then both into the caller's frame.
#include <stdexcept>
#include <string>

#include "kernels/reference/frame_ref.h"
#include "kernels/reference/reference_backend.h"

namespace throng::reference {

void ReferenceBackend::MoveForwardAgents(const ForwardMoveParams& params,
                                         const ForwardMoveScene& scene,
                                         const ForwardMoveOutput& out) {
  // kThisTick: where the last preparation put each agent, at the speed it read, along the
  // direction the last fan chose.
  const bool this_tick = params.columns == ColumnSource::kThisTick;
  if (this_tick && scene.count != fan_agents_.size()) {
    throw std::logic_error("MoveForwardAgents: " + std::to_string(scene.count) +
                           " agents promised from a preparation of " +
                           std::to_string(fan_agents_.size()));
  }
  for (size_t i = 0; i < scene.count; ++i) {
    const float step = (this_tick ? fan_speed_[i] : scene.speed[i]) * params.dt;
    const Vec3 d = this_tick ? fan_results_.move[i] : scene.move[i];
    const Vec3 at = this_tick ? fan_agents_.position[i] : scene.position[i];
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
