#include "kernels/reference/plane_ref.h"

#include <algorithm>
#include <cmath>

namespace throng::reference {

double SegmentDistance(D2 p, D2 a, D2 b) {
  const double ex = b.x - a.x, ey = b.y - a.y;
  const double len_sq = ex * ex + ey * ey;
  double t = len_sq > 0 ? ((p.x - a.x) * ex + (p.y - a.y) * ey) / len_sq : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(p.x - (a.x + t * ex), p.y - (a.y + t * ey));
}

bool InsideRing(D2 p, const std::vector<Vec2>& ring) {
  if (ring.size() < 3) return false;
  int winding = 0;
  for (size_t i = 0; i < ring.size(); ++i) {
    const Vec2 a = ring[i], b = ring[(i + 1) % ring.size()];
    const double side = (static_cast<double>(b.x) - a.x) * (p.y - a.y) -
                        (p.x - a.x) * (static_cast<double>(b.y) - a.y);  // > 0: p left of ab
    if (a.y <= p.y && b.y > p.y && side > 0) ++winding;
    if (a.y > p.y && b.y <= p.y && side < 0) --winding;
  }
  return winding != 0;
}

}  // namespace throng::reference
