#include "kernels/orca/obstacles.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace throng {
namespace {

std::string VertexName(size_t polygon, size_t vertex) {
  return "obstacles[" + std::to_string(polygon) + "].vertices[" + std::to_string(vertex) + "]";
}

// Checks everything the solve divides by, before any vertex is built, so a bad world is
// rejected whole.
void Validate(const std::vector<Polygon>& polygons) {
  for (size_t o = 0; o < polygons.size(); ++o) {
    const std::vector<Vec2>& vs = polygons[o].vertices;
    if (vs.size() < 2) {
      throw std::invalid_argument("obstacles[" + std::to_string(o) +
                                  "]: needs at least 2 vertices, has " + std::to_string(vs.size()));
    }
    for (size_t i = 0; i < vs.size(); ++i) {
      if (!std::isfinite(vs[i].x) || !std::isfinite(vs[i].y)) {
        throw std::invalid_argument(VertexName(o, i) + ": non-finite coordinate");
      }
    }
    for (size_t i = 0; i < vs.size(); ++i) {
      // Float, as the solve computes it: also catches edges whose squared length underflows.
      const float len_sq = LengthSq(vs[(i + 1) % vs.size()] - vs[i]);
      if (!(len_sq > 0.f)) {
        throw std::invalid_argument(VertexName(o, i) + ": zero-length edge to the next vertex");
      }
      if (!std::isfinite(len_sq)) {
        throw std::invalid_argument(VertexName(o, i) + ": edge to the next vertex too long");
      }
    }
  }
}

// RVO2's leftOf(a, b, c) = det(a - c, b - a): > 0 when c is left of the line a -> b.
float LeftOf(Vec2 a, Vec2 b, Vec2 c) { return Det(a - c, b - a); }

}  // namespace

ObstacleVertices BuildObstacleVertices(const std::vector<Polygon>& polygons) {
  Validate(polygons);

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
