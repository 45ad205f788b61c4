// The RVO2 library's side of throng-bench-rvo2: a simulator built from a Throng scene
// (same agents, parameters and obstacles), stepped with the same preferred-velocity rule.
// The only translation unit that includes RVO2's headers.
#pragma once

#include <memory>

#include "bench/rvo2/input_hash.h"
#include "kernels/scenarios/crowd.h"

namespace RVO {
class RVOSimulator;
}

namespace throng::bench {

class Rvo2Side {
 public:
  explicit Rvo2Side(const scenarios::CrowdScenario& s);
  ~Rvo2Side();

  // Preferred velocities from RVO2's current positions by scenarios::UpdatePreferredVelocities
  // (the Throng side's rule, run on a mirror of the positions). Not part of a timed step.
  void SetPreferredVelocities();
  // RVOSimulator::doStep: k-d tree, neighbours, new velocities (omp parallel), update.
  void Step();
  // What RVO2 holds, read back through its getters.
  InputRecord Record() const;
  // How many agents stand within `radius` of their goals (the scene's goals).
  size_t AtGoals(float radius) const;

 private:
  std::unique_ptr<RVO::RVOSimulator> sim_;
  scenarios::CrowdScenario mirror_;
};

}  // namespace throng::bench
