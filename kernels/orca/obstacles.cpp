#include "kernels/orca/obstacles.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "kernels/orca/orca_validate.h"

namespace throng {
namespace {

// RVO2's leftOf(a, b, c) = det(a - c, b - a): > 0 when c is left of the line a -> b.
float LeftOf(Vec2 a, Vec2 b, Vec2 c) { return Det(a - c, b - a); }

}  // namespace

ObstacleVertices BuildObstacleVertices(const std::vector<Polygon>& polygons) {
  ValidateObstacles(polygons);

  size_t total = 0;
  for (const Polygon& polygon : polygons) total += polygon.vertices.size();
  if (total > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw std::invalid_argument("obstacles: more than 2^31 - 1 vertices in all");
  }

  ObstacleVertices out;
  out.point.reserve(total);
  out.unit_dir.reserve(total);
  out.convex.reserve(total);
  out.next.reserve(total);
  out.prev.reserve(total);

  for (const Polygon& polygon : polygons) {
    const std::vector<Vec2>& vs = polygon.vertices;
    const size_t n = vs.size();
    const auto first = static_cast<int32_t>(out.point.size());
    for (size_t i = 0; i < n; ++i) {
      const size_t i_next = i + 1 == n ? 0 : i + 1;
      const size_t i_prev = i == 0 ? n - 1 : i - 1;
      out.point.push_back(vs[i]);
      out.unit_dir.push_back(Normalize(vs[i_next] - vs[i]));
      // A two-vertex wall blocks from both sides, so both its ends act as convex corners.
      out.convex.push_back(n == 2 ? 1 : (LeftOf(vs[i_prev], vs[i], vs[i_next]) >= 0.f ? 1 : 0));
      out.next.push_back(first + static_cast<int32_t>(i_next));
      out.prev.push_back(first + static_cast<int32_t>(i_prev));
    }
  }
  return out;
}

}  // namespace throng
