#include "kernels/orca/orca_types.h"

namespace throng {

void AgentColumns::Resize(size_t n) {
  id.resize(n);
  for (auto* c : {&px, &py, &vx, &vy, &radius, &max_speed, &pref_vx, &pref_vy}) c->resize(n);
  flags.resize(n);
}

AgentColumnsOut AgentColumns::Out(size_t first) {
  return {id.data() + first,        px.data() + first,      py.data() + first,
          vx.data() + first,        vy.data() + first,      radius.data() + first,
          max_speed.data() + first, pref_vx.data() + first, pref_vy.data() + first,
          flags.data() + first};
}

void AgentColumns::Reserve(size_t n) {
  id.reserve(n);
  for (auto* c : {&px, &py, &vx, &vy, &radius, &max_speed, &pref_vx, &pref_vy}) c->reserve(n);
  flags.reserve(n);
}

void OrcaResult::Resize(size_t n) {
  vx.resize(n);
  vy.resize(n);
  status.resize(n);
  candidates.resize(n);
  neighbors.resize(n);
  constraints.resize(n);
  solve_flags.resize(n);
  kept_ids.clear();  // filled only when asked for (OrcaRunOptions::record_kept)
}

void OrcaResult::CountStatuses() {
  for (uint64_t& c : status_count) c = 0;
  for (uint8_t s : status) {
    if (s < kSolveStatusCount) ++status_count[s];
  }
  shortened_horizon = revalidated = revalidation_adopted = jam_steps = 0;
  for (uint8_t f : solve_flags) {
    shortened_horizon += (f & kSolveShortenedHorizon) != 0;
    revalidated += (f & kSolveRevalidated) != 0;
    revalidation_adopted += (f & kSolveAdopted) != 0;
    jam_steps += (f & kSolveJamStep) != 0;
  }
}

}  // namespace throng
