#include "kernels/world/path_check.h"

#include <cmath>
#include <limits>

namespace throng {

float SpeedToStopWithin(float clear, float gap, float decel) {
  if (!std::isfinite(clear)) return std::numeric_limits<float>::infinity();
  const float room = clear - gap;
  return room > 0.f ? std::sqrt(2.f * decel * room) : 0.f;
}

}  // namespace throng
