// The parallel backends against the reference on random splines and random queries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "kernels/backends/backend.h"
#include "tests/backends/backend_param.h"
#include "tests/vehicles/random_splines.h"

namespace throng {
namespace {

struct Scene {
  std::vector<SplineDesc> splines;
  SplineQueries queries;
};

// Random splines: a random walk of control points with turns up to 90 degrees and
// segments 2 to 20 m, some closed, some ramps; queries anywhere along them (also beyond
// the ends), with points near the curve and hints near the true progress.
Scene RandomScene(uint32_t seed, size_t splines, size_t queries) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  Scene scene;
  scene.splines = testing::RandomSplines(rng, static_cast<int>(splines), 100, false);
  const SplineSet set = BuildSplineSet(scene.splines);
  SplineQueries& q = scene.queries;
  q.Resize(queries);
  q.window = 6.f;
  for (size_t i = 0; i < queries; ++i) {
    const uint32_t k = static_cast<uint32_t>(rng() % splines);
    const float len = set.headers[k].length;
    q.spline[i] = k;
    q.s[i] = (unit(rng) * 1.2f - 0.1f) * len;
    const float truth = std::clamp(unit(rng) * len, 0.f, len);
    const SplinePoint at = SampleSpline(set.View(), k, truth);
    // A point up to 1.5 m to the side of the curve.
    const Vec3 side = Normalize(Cross(at.tangent, Vec3{0, 0, 1}));
    const Vec3 p = at.position + side * (3.f * unit(rng) - 1.5f);
    q.px[i] = p.x;
    q.py[i] = p.y;
    q.pz[i] = p.z;
    q.s_hint[i] = truth + 4.f * unit(rng) - 2.f;
  }
  return scene;
}

class SplineEquivalenceTest : public testing::BackendParamTest {};

// Tolerances: positions within 5 mm, unit tangents within 1e-3, curvature within
// 1e-3 1/m, projections within 5 mm or no farther from the point than the reference's
// (by 1 mm). Each mismatch is counted and printed; none is allowed.
TEST_P(SplineEquivalenceTest, batched_queries_match_the_reference_on_1e5_random_queries) {
  const Scene scene = RandomScene(20261130, 24, 100000);
  auto parallel = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  parallel->SetSplines(scene.splines);
  reference->SetSplines(scene.splines);
  SplineQueryResults got, want;
  parallel->QuerySplines(scene.queries, &got);
  reference->QuerySplines(scene.queries, &want);

  float max_pos = 0, max_tan = 0, max_k = 0, max_proj = 0;
  size_t mismatches = 0, ambiguous = 0;
  const SplineSet set = BuildSplineSet(scene.splines);
  const size_t n = scene.queries.size();
  for (size_t i = 0; i < n; ++i) {
    const float pos = std::hypot(got.x[i] - want.x[i], got.y[i] - want.y[i], got.z[i] - want.z[i]);
    const float tan =
        std::hypot(got.tx[i] - want.tx[i], got.ty[i] - want.ty[i], got.tz[i] - want.tz[i]);
    const float k = std::fabs(got.curvature[i] - want.curvature[i]);
    const float proj = std::fabs(got.progress[i] - want.progress[i]);
    // Two near-equidistant stretches in one window make the arg-min ambiguous: a
    // different s is only wrong when its point is farther from p than the reference's.
    const uint32_t k_spline = scene.queries.spline[i];
    const Vec3 p{scene.queries.px[i], scene.queries.py[i], scene.queries.pz[i]};
    const float got_dist = Length(LocationAt(set.View(), k_spline, got.progress[i]) - p);
    const float want_dist = Length(LocationAt(set.View(), k_spline, want.progress[i]) - p);
    if (proj > 5e-3f) ambiguous += got_dist <= want_dist + 1e-3f;
    const bool proj_wrong = proj > 5e-3f && got_dist > want_dist + 1e-3f;
    max_pos = std::max(max_pos, pos);
    max_tan = std::max(max_tan, tan);
    max_k = std::max(max_k, k);
    max_proj = std::max(max_proj, proj);
    if (pos > 5e-3f || tan > 1e-3f || k > 1e-3f || proj_wrong || !std::isfinite(got.progress[i])) {
      ++mismatches;
    }
  }
  std::printf(
      "[ figures  ] %s vs reference, %zu queries: max |dpos| %.2e m, max |dtan| %.2e, "
      "max |dk| %.2e 1/m, max |dproj| %.2e m (%zu equally near), mismatches %zu (%.4f%%)\n",
      std::string(BackendName(GetParam())).c_str(), n, max_pos, max_tan, max_k, max_proj, ambiguous,
      mismatches, 100.0 * static_cast<double>(mismatches) / static_cast<double>(n));
  EXPECT_EQ(mismatches, 0u);
}

TEST_P(SplineEquivalenceTest, repeated_runs_are_bit_identical) {
  const Scene scene = RandomScene(7, 8, 20000);
  auto backend = CreateBackend(GetParam());
  backend->SetSplines(scene.splines);
  SplineQueryResults a, b;
  backend->QuerySplines(scene.queries, &a);
  backend->QuerySplines(scene.queries, &b);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.tz, b.tz);
  EXPECT_EQ(a.curvature, b.curvature);
  EXPECT_EQ(a.progress, b.progress);
}

INSTANTIATE_TEST_SUITE_P(Backends, SplineEquivalenceTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         testing::BackendParamName);

}  // namespace
}  // namespace throng
