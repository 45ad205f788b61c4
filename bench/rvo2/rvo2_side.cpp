#include "bench/rvo2/rvo2_side.h"

#include <RVO.h>

#include <vector>

namespace throng::bench {

Rvo2Side::Rvo2Side(const scenarios::CrowdScenario& s) : sim_(new RVO::RVOSimulator()), mirror_(s) {
  const OrcaParams& p = s.scene.params;
  const AgentColumns& a = s.scene.agents;
  sim_->setTimeStep(p.time_step);
  for (size_t i = 0; i < a.size(); ++i) {
    sim_->addAgent(RVO::Vector2(a.px[i], a.py[i]), p.neighbor_dist,
                   static_cast<std::size_t>(p.max_neighbors), p.time_horizon, p.time_horizon_obst,
                   a.radius[i], a.max_speed[i], RVO::Vector2(a.vx[i], a.vy[i]));
  }
  for (const Polygon& poly : s.scene.obstacles) {
    std::vector<RVO::Vector2> vs;
    for (Vec2 v : poly.vertices) vs.emplace_back(v.x, v.y);
    sim_->addObstacle(vs);
  }
  sim_->processObstacles();  // RVO2's obstacle k-d tree, built once
  SetPreferredVelocities();
}

Rvo2Side::~Rvo2Side() = default;

void Rvo2Side::SetPreferredVelocities() {
  AgentColumns& a = mirror_.scene.agents;
  for (size_t i = 0; i < a.size(); ++i) {
    const RVO::Vector2& q = sim_->getAgentPosition(i);
    a.px[i] = q.x();
    a.py[i] = q.y();
  }
  scenarios::UpdatePreferredVelocities(mirror_);
  for (size_t i = 0; i < a.size(); ++i) {
    sim_->setAgentPrefVelocity(i, RVO::Vector2(a.pref_vx[i], a.pref_vy[i]));
  }
}

void Rvo2Side::Step() { sim_->doStep(); }

size_t Rvo2Side::AtGoals(float radius) const {
  size_t at = 0;
  for (size_t i = 0; i < sim_->getNumAgents(); ++i) {
    const RVO::Vector2& p = sim_->getAgentPosition(i);
    const Vec2 d = mirror_.goals[i] - Vec2{p.x(), p.y()};
    at += LengthSq(d) < radius * radius;
  }
  return at;
}

InputRecord Rvo2Side::Record() const {
  InputRecord r;
  r.time_step = sim_->getTimeStep();
  for (size_t i = 0; i < sim_->getNumAgents(); ++i) {
    const RVO::Vector2 &p = sim_->getAgentPosition(i), &v = sim_->getAgentVelocity(i),
                       &pv = sim_->getAgentPrefVelocity(i);
    r.agents.push_back({p.x(), p.y(), v.x(), v.y(), pv.x(), pv.y(), sim_->getAgentRadius(i),
                        sim_->getAgentMaxSpeed(i), sim_->getAgentNeighborDist(i),
                        sim_->getAgentTimeHorizon(i), sim_->getAgentTimeHorizonObst(i),
                        static_cast<uint32_t>(sim_->getAgentMaxNeighbors(i))});
  }
  for (size_t k = 0; k < sim_->getNumObstacleVertices(); ++k) {
    const RVO::Vector2& v = sim_->getObstacleVertex(k);
    r.obstacle_vertices.push_back({v.x(), v.y()});
  }
  return r;
}

}  // namespace throng::bench
