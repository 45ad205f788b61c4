// Light(policy): the policy for a pass whose work per element is a few loads, stores or
// flops (a gather, a key, a count). The cpu backend runs such a pass on one thread below a
// few thousand elements, where waking the other threads costs more than the whole pass
// (kernels/backends/cpu_policy.h); every other policy runs it as it is. A pass whose
// elements each take microseconds (a solve, a walk along a lane) stays on `policy`.
#pragma once

namespace throng {

template <class Policy>
const Policy& Light(const Policy& policy) {
  return policy;
}

}  // namespace throng
