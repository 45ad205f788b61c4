#include "kernels/orca_types.h"

namespace throng {

void AgentColumns::Resize(size_t n) {
  id.resize(n);
  for (auto* c : {&px, &py, &vx, &vy, &radius, &max_speed, &pref_vx, &pref_vy}) c->resize(n);
  flags.resize(n);
}

void AgentColumns::Reserve(size_t n) {
  id.reserve(n);
  for (auto* c : {&px, &py, &vx, &vy, &radius, &max_speed, &pref_vx, &pref_vy}) c->reserve(n);
  flags.reserve(n);
}

}  // namespace throng
