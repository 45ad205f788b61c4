#include "kernels/scenarios/blocks.h"

#include <cmath>

#include "kernels/scenarios/crowd.h"

namespace throng::scenarios {
namespace {

constexpr float kTilePitch = kBlocksTilePitch;
constexpr float kRadius = 2.f;
constexpr float kMaxSpeed = 2.f;

void AddAgent(AgentColumns& a, Vec2 p) {
  a.id.push_back(static_cast<uint32_t>(a.id.size()));
  a.px.push_back(p.x);
  a.py.push_back(p.y);
  a.vx.push_back(0.f);
  a.vy.push_back(0.f);
  a.radius.push_back(kRadius);
  a.max_speed.push_back(kMaxSpeed);
  a.pref_vx.push_back(0.f);
  a.pref_vy.push_back(0.f);
  a.flags.push_back(0);
}

Polygon Square(Vec2 o, Vec2 a, Vec2 b, Vec2 c, Vec2 d) { return {{o + a, o + b, o + c, o + d}}; }

void AddTile(CrowdScenario& s, Vec2 o) {
  // Blocks.cc: four 5 x 5 groups 10 m apart, each heading for the opposite corner.
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      const float u = 55.f + static_cast<float>(i) * 10.f;
      const float w = 55.f + static_cast<float>(j) * 10.f;
      AddAgent(s.scene.agents, o + Vec2{u, w});
      s.goals.push_back(o + Vec2{-75.f, -75.f});
      AddAgent(s.scene.agents, o + Vec2{-u, w});
      s.goals.push_back(o + Vec2{75.f, -75.f});
      AddAgent(s.scene.agents, o + Vec2{u, -w});
      s.goals.push_back(o + Vec2{-75.f, 75.f});
      AddAgent(s.scene.agents, o + Vec2{-u, -w});
      s.goals.push_back(o + Vec2{75.f, 75.f});
    }
  }
  // Counter-clockwise, as Blocks.cc lists them.
  std::vector<Polygon>& obs = s.scene.obstacles;
  obs.push_back(Square(o, {-10.f, 40.f}, {-40.f, 40.f}, {-40.f, 10.f}, {-10.f, 10.f}));
  obs.push_back(Square(o, {10.f, 40.f}, {10.f, 10.f}, {40.f, 10.f}, {40.f, 40.f}));
  obs.push_back(Square(o, {10.f, -40.f}, {40.f, -40.f}, {40.f, -10.f}, {10.f, -10.f}));
  obs.push_back(Square(o, {-10.f, -40.f}, {-10.f, -10.f}, {-40.f, -10.f}, {-40.f, -40.f}));
}

}  // namespace

OrcaParams Rvo2BlocksParams() {
  // RVO2's Blocks example: its benchmark's settings with 5 s horizons.
  OrcaParams p = Rvo2BenchmarkParams();
  p.time_horizon = 5.f;
  p.time_horizon_obst = 5.f;
  return p;
}

CrowdScenario Blocks(size_t tiles_x, size_t tiles_y) {
  CrowdScenario s;
  s.name = "blocks";
  s.scene.params = Rvo2BlocksParams();
  s.scene.agents.Reserve(kBlocksTileAgents * tiles_x * tiles_y);
  for (size_t ty = 0; ty < tiles_y; ++ty) {
    for (size_t tx = 0; tx < tiles_x; ++tx) {
      AddTile(s, Vec2{kTilePitch * static_cast<float>(tx), kTilePitch * static_cast<float>(ty)});
    }
  }
  UpdatePreferredVelocities(s);
  return s;
}

std::vector<Vec2> BlocksMirroredGoals(const CrowdScenario& blocks) {
  const AgentColumns& a = blocks.scene.agents;
  std::vector<Vec2> goals(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    // Tiles sit on multiples of kTilePitch; a tile's agents start within 95 m of its centre.
    const Vec2 centre{kTilePitch * std::round(a.px[i] / kTilePitch),
                      kTilePitch * std::round(a.py[i] / kTilePitch)};
    goals[i] = centre * 2.f - Vec2{a.px[i], a.py[i]};
  }
  return goals;
}

CrowdScenario BlocksForAgents(size_t agents) {
  const auto side =
      static_cast<size_t>(std::lround(std::sqrt(static_cast<double>(agents) / kBlocksTileAgents)));
  return Blocks(side < 1 ? 1 : side, side < 1 ? 1 : side);
}

}  // namespace throng::scenarios
