// The vehicles' path check by brute force: every pedestrian and every vehicle disc is
// offered to every sample of every corridor. The walk and its tests
// (kernels/vehicles/path_check.cuh) are the engine's definition, shared; what this checks
// is the parallel backends' search (the points, the grid, the chunks), which must offer
// every point near a sample.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/reference/reference_backend.h"

namespace throng::reference {

void ReferenceBackend::CheckPaths(const PathCheckParams& params, float max_brake_decel,
                                  const PathCheckScene& s, const StopRequested& stop,
                                  std::vector<float>* clear) {
  std::vector<float> x, y, r, vx, vy;
  std::vector<int32_t> owner;
  float walk_max = 0.f;
  for (size_t k = 0; k < s.agents; ++k) {
    x.push_back(s.agent_x[k]);
    y.push_back(s.agent_y[k]);
    r.push_back(s.agent_radius[k]);
    vx.push_back(s.agent_vx[k]);
    vy.push_back(s.agent_vy[k]);
    owner.push_back(-1);
    walk_max = std::max(walk_max, Length(Vec2{s.agent_vx[k], s.agent_vy[k]}));
  }
  for (size_t v = 0; v < s.vehicles; ++v) {
    const VehicleBody& body = s.bodies[v];
    for (int j = 0; j < body.DiscCount(); ++j) {
      x.push_back(body.Disc(j).x);
      y.push_back(body.Disc(j).y);
      r.push_back(body.DiscRadius());
      vx.push_back(0.f);
      vy.push_back(0.f);
      owner.push_back(static_cast<int32_t>(v));
    }
  }
  const float r_max = r.empty() ? 0.f : *std::max_element(r.begin(), r.end());
  const PathPointsView points{x.data(),  y.data(),     r.data(), vx.data(),
                              vy.data(), owner.data(), r_max,    walk_max};
  const PathVehiclesView vehicles{s.bodies, s.spline, s.progress, s.speed};
  const auto every_point = [&](Vec2, float, auto&& f) { f(0u, static_cast<uint32_t>(x.size())); };
  clear->assign(s.vehicles, INFINITY);
  for (size_t v = 0; v < s.vehicles; ++v) {
    if (v % 64 == 0) ThrowIfStopRequested(stop, "vehicles");
    (*clear)[v] = PathClearAhead(params, max_brake_decel, path_lanes_.View(), points, vehicles,
                                 path_edges_.data(), static_cast<int32_t>(path_edges_.size() / 2),
                                 static_cast<uint32_t>(v), every_point);
  }
}

}  // namespace throng::reference
