#include "kernels/vehicles/spline_queries.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/input/column_checks.h"

namespace throng {

void SplineQueries::Resize(size_t n) {
  for (auto* c : {&s, &px, &py, &pz, &s_hint}) c->resize(n);
  spline.resize(n);
}

void SplineQueryResults::Resize(size_t n) {
  for (auto* c : {&x, &y, &z, &tx, &ty, &tz, &curvature, &progress}) c->resize(n);
}

void ValidateSplineQueries(const SplineQueries& q, size_t spline_count) {
  const size_t n = q.size();
  RequireFiniteColumns(
      "queries", {{"s", &q.s}, {"px", &q.px}, {"py", &q.py}, {"pz", &q.pz}, {"s_hint", &q.s_hint}},
      n);
  for (size_t i = 0; i < n; ++i) {
    if (q.spline[i] >= spline_count) {
      throw std::invalid_argument(
          "queries.spline[" + std::to_string(i) + "]: " + std::to_string(q.spline[i]) +
          " is not an installed spline (" + std::to_string(spline_count) + " installed)");
    }
  }
  if (!(q.window > 0.f) || !std::isfinite(q.window)) {
    throw std::invalid_argument("queries.window: must be finite and > 0");
  }
}

}  // namespace throng
