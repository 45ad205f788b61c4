#include "kernels/world/path_check.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/steering/cast_fan.cuh"
#include "kernels/vehicles/spline.cuh"
#include "kernels/world/host_grid.h"

namespace throng {
namespace {

constexpr float kSampleStep = 1.f;  // m between corridor samples along the lane
constexpr float kInf = std::numeric_limits<float>::infinity();

}  // namespace

float SpeedToStopWithin(float clear, float gap, float decel) {
  if (!std::isfinite(clear)) return kInf;
  const float room = clear - gap;
  return room > 0.f ? std::sqrt(2.f * decel * room) : 0.f;
}

void CheckPaths(const PathCheckParams& params, float max_brake_decel, const SplineSet& lanes,
                const PathScene& scene, std::vector<float>* clear, const StopRequested& stop) {
  const size_t n = scene.bodies.size();
  clear->assign(n, kInf);
  if (n == 0) return;

  // Pedestrians and the other vehicles' discs, in one grid.
  std::vector<float> x, y, r;
  std::vector<int> owner;  // -1 pedestrian, else the vehicle
  x.assign(scene.agent_x, scene.agent_x + scene.agents);
  y.assign(scene.agent_y, scene.agent_y + scene.agents);
  r.assign(scene.agent_radius, scene.agent_radius + scene.agents);
  owner.assign(scene.agents, -1);
  float walk_max = 0.f;  // fastest pedestrian, m/s
  for (size_t k = 0; k < scene.agents; ++k) {
    walk_max = std::max(walk_max, Length(Vec2{scene.agent_vx[k], scene.agent_vy[k]}));
  }
  for (size_t v = 0; v < n; ++v) {
    const VehicleBody& body = scene.bodies[v];
    for (int j = 0; j < body.DiscCount(); ++j) {
      const Vec2 c = body.Disc(j);
      x.push_back(c.x);
      y.push_back(c.y);
      r.push_back(body.DiscRadius());
      owner.push_back(static_cast<int>(v));
    }
  }
  const float r_max = r.empty() ? 0.f : *std::max_element(r.begin(), r.end());
  // 2 m cells suit walkers; a far reach (a large body, a fast pedestrian) gets cells of an
  // eighth of it, so that one query reads at most ~17 x 17 cells, not 10^6.
  float width_max = 0.f;
  for (const VehicleBody& body : scene.bodies) width_max = std::max(width_max, body.width);
  const float reach_max =
      0.5f * width_max + params.lateral_margin + r_max + walk_max * kPredictionHorizon;
  HostGrid grid;
  grid.Build(x.data(), y.data(), x.size(), std::max(2.f, reach_max / 8.f));

  const SplineSetView view = lanes.View();
  // Vehicles in chunks, with a stop check between them: a corridor can be long and the
  // obstacle edges many, so one chunk is the most a stopped tick still runs.
  constexpr size_t kChunk = 256;
  for (size_t begin = 0; begin < n; begin += kChunk) {
    ThrowIfStopRequested(stop, "vehicles");
    const size_t end = std::min(n, begin + kChunk);
#pragma omp parallel for schedule(dynamic, 16)
    for (size_t v = begin; v < end; ++v) {
      const VehicleBody& body = scene.bodies[v];
      const float speed = scene.speed[v];
      const float length =
          std::min(kMaxPathCheckLength,
                   std::max(params.min_length, speed * speed / (2.f * max_brake_decel) +
                                                   speed * params.reaction_time + params.gap));
      const float half_width = 0.5f * body.width + params.lateral_margin;
      const float s_front = scene.progress[v] + body.front();
      float best = kInf;
      // From half a body behind the bumper (catches anything touching it) to the end.
      for (float ahead = -0.5f * body.length; ahead <= length; ahead += kSampleStep) {
        if (ahead - kSampleStep - r_max > best) break;  // nothing further can be nearer
        Vec3 p3, t3;
        FrameAt(view, scene.spline[v], s_front + ahead, &p3, &t3);
        const Vec2 p{p3.x, p3.y};
        const Vec2 t = Normalize(Vec2{t3.x, t3.y});
        const Vec2 right = RightOf(t);
        // How long until the bumper is here; pedestrians are followed that far ahead.
        const float horizon =
            std::min(kPredictionHorizon, std::max(ahead, 0.f) / std::max(speed, 0.5f));
        const float reach = half_width + r_max + walk_max * horizon;
        grid.ForEachNear(p.x, p.y, reach, [&](uint32_t k) {
          if (owner[k] == static_cast<int>(v)) return;
          const Vec2 d = Vec2{x[k], y[k]} - p;
          const float along = Dot(d, t);
          if (std::fabs(along) > kSampleStep) return;
          const float lateral_now = Dot(d, right);
          const float drift =
              owner[k] < 0 ? Dot(Vec2{scene.agent_vx[k], scene.agent_vy[k]}, right) * horizon : 0.f;
          const float lateral_then = lateral_now + drift;
          const float band = half_width + r[k];
          if (std::min(lateral_now, lateral_then) >= band ||
              std::max(lateral_now, lateral_then) <= -band) {
            return;  // stays beside the corridor until the vehicle has passed
          }
          const float distance = std::max(0.f, ahead + along - r[k]);
          if (ahead + along + r[k] > 0.f) best = std::min(best, distance);
        });
        for (size_t e = 0; e + 1 < scene.edges.size(); e += 2) {
          if (PointSegmentDistanceSq(p, scene.edges[e], scene.edges[e + 1]) <
              half_width * half_width) {
            best = std::min(best, std::max(0.f, ahead));
          }
        }
      }
      (*clear)[v] = best <= length ? best : kInf;
    }
  }
}

}  // namespace throng
