// Backend::CheckPaths: hand-built corridors on every backend, and the parallel backends'
// grid search against the reference's brute force on busy random streets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/backends/cpu_backend.h"
#include "kernels/vehicles/spline.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

// Pedestrians and vehicles as columns, and the scene over them.
struct Street {
  std::vector<float> x, y, r, vx, vy;
  std::vector<VehicleBody> bodies;
  std::vector<uint32_t> spline;
  std::vector<float> progress, speed;
  void Walker(float px, float py, float pvx = 0.f, float pvy = 0.f, float radius = 0.25f) {
    x.push_back(px);
    y.push_back(py);
    r.push_back(radius);
    vx.push_back(pvx);
    vy.push_back(pvy);
  }
  // A car on lane `lane` with its rear axle at arc length s of a straight lane along +x
  // from the origin at height `lane_y`.
  void Car(uint32_t lane, float lane_y, float s, float v) {
    bodies.push_back({{s, lane_y}, {1.f, 0.f}, 4.5f, 1.8f});
    spline.push_back(lane);
    progress.push_back(s);
    speed.push_back(v);
  }
  PathCheckScene Scene() const {
    return {x.data(),      y.data(),      r.data(),        vx.data(),    vy.data(),    x.size(),
            bodies.data(), spline.data(), progress.data(), speed.data(), bodies.size()};
  }
};

SplineDesc StraightLane(uint32_t id, float y, float length) {
  return {id, {{0.f, y, 0.f}, {0.5f * length, y, 0.f}, {length, y, 0.f}}, false, 0.f};
}

class PathCheckTest : public BackendParamTest {
 protected:
  void SetUp() override {
    BackendParamTest::SetUp();
    if (IsSkipped()) return;
    backend_ = CreateBackend(GetParam());
    backend_->SetSplines({StraightLane(7, 0.f, 400.f)});
  }
  std::vector<float> Check(const Street& street) {
    std::vector<float> clear;
    backend_->CheckPaths(PathCheckParams{}, 6.f, street.Scene(), {}, &clear);
    return clear;
  }
  std::unique_ptr<Backend> backend_;
};

TEST_P(PathCheckTest, APedestrianAheadOnTheLaneIsTheClearDistance) {
  Street s;
  s.Car(0, 0.f, 10.f, 10.f);  // front bumper at 10 + 3.51 m
  s.Walker(30.f, 0.f);
  const std::vector<float> clear = Check(s);
  ASSERT_EQ(clear.size(), 1u);
  EXPECT_NEAR(clear[0], 30.f - 13.51f - 0.25f, 1e-3f);
}

TEST_P(PathCheckTest, SomeoneBesideTheRoadIsClearUnlessWalkingOntoIt) {
  Street s;
  s.Car(0, 0.f, 10.f, 10.f);
  s.Walker(30.f, 5.f);  // standing 5 m to the side
  EXPECT_TRUE(std::isinf(Check(s)[0]));
  s.vy[0] = -3.f;  // 1.6 s before the car is there it has walked onto the lane
  EXPECT_NEAR(Check(s)[0], 30.f - 13.51f - 0.25f, 1e-3f);
}

// Samples lie at 11.26 + k m (half a body behind the bumper at 13.51, then every metre). A
// car beside the lane whose nearest disc (radius 1.1715 m, the largest point) reaches
// into the corridor half-way between two samples is 0.5 m along from both: the search
// must reach beyond the band's width, or it misses that disc and finds only the next
// (it once did: 17.58 m instead of 16.08 m).
TEST_P(PathCheckTest, ADiscAtTheEdgeBetweenTwoSamplesCounts) {
  Street s;
  s.Car(0, 0.f, 10.f, 10.f);
  // Its discs at 30.76, 32.26 and 33.76 m, 2.55 m beside the lane: within the band
  // 0.9 + 0.5 + 1.1715 m. Its own check reads the same lane and is not looked at.
  s.Car(0, 2.55f, 31.f, 0.f);
  EXPECT_NEAR(Check(s)[0], 30.76f - 13.51f - 1.1715f, 1e-3f);
  s.bodies[1].axle.y = 2.6f;  // beside the band: nothing in the way
  EXPECT_TRUE(std::isinf(Check(s)[0]));
}

TEST_P(PathCheckTest, TheCarAheadAndAWallAcrossTheLaneCount) {
  Street s;
  s.Car(0, 0.f, 10.f, 10.f);
  // 21.3 m checked ahead of each bumper at 10 m/s: the second car's rear is within it.
  s.Car(0, 0.f, 30.f, 10.f);
  const std::vector<float> clear = Check(s);
  ASSERT_EQ(clear.size(), 2u);
  // The nearest of its three discs (radius 1.1715 m) is centred 0.24 m ahead of its axle.
  EXPECT_NEAR(clear[0], 29.76f - 13.51f - 1.1715f, 1e-3f);
  EXPECT_TRUE(std::isinf(clear[1]));
  // A wall across the lane: the corridor (0.9 + 0.5 m half width) reaches it 1.4 m short.
  backend_->SetObstacles({Polygon{{{50.f, -3.f}, {50.f, 3.f}}}});
  EXPECT_NEAR(Check(s)[1], 50.f - 33.51f - 1.4f, 1.01f);  // sampled every metre
}

// Each sample tests the pedestrians within a step of it along the lane's tangent there
// (kernels/vehicles/path_check.cuh). On a tight bend the outside lies further between two
// samples than on a straight lane (by the distance from the lane times the turn between
// them), and a rule that tested fewer (the nearest sample only, tried on 2026-12-06, not
// kept: docs/PERFORMANCE.md) would miss someone standing in the corridor, or walking into
// it, between two samples. A standing car on a circle of 8 m (its checked length the 6 m
// minimum), one pedestrian at a time every 5 cm along it, on the outside of the bend:
// standing inside the band, or 3.5 m out and walking in.
TEST_P(PathCheckTest, SomeoneOnTheOutsideOfATightBendIsSeenBetweenSamples) {
  constexpr float kRadius = 8.f;
  SplineDesc circle{3, {}, true, 0.f};
  for (int k = 0; k < 48; ++k) {
    const float a = 6.2831853f * static_cast<float>(k) / 48.f;
    circle.points.push_back({kRadius * std::cos(a), kRadius * std::sin(a), 0.f});
  }
  backend_->SetSplines({circle});
  const SplineSet set = BuildSplineSet({circle});
  Vec3 axle, tangent;
  FrameAt(set.View(), 0, 0.f, &axle, &tangent);
  const float bumper = 0.78f * 4.5f;  // the front bumper's arc length ahead of the axle
  int seen = 0, tried = 0;
  for (float arc = bumper + 0.3f; arc <= bumper + 5.5f; arc += 0.05f) {
    for (const float out : {1.6f, 3.5f}) {
      Vec3 at, t;
      FrameAt(set.View(), 0, arc, &at, &t);
      const Vec2 outward = Normalize(Vec2{at.x, at.y});  // the circle is centred at 0
      Street s;
      s.bodies.push_back({{axle.x, axle.y}, Normalize(Vec2{tangent.x, tangent.y}), 4.5f, 1.8f});
      s.spline.push_back(0);
      s.progress.push_back(0.f);
      s.speed.push_back(0.f);
      const float walk = out > 2.f ? -1.5f : 0.f;  // inward, 4.5 m in the 3 s followed
      s.Walker(at.x + outward.x * out, at.y + outward.y * out, outward.x * walk, outward.y * walk);
      const float clear = Check(s)[0];
      ++tried;
      if (!std::isinf(clear)) ++seen;
      EXPECT_FALSE(std::isinf(clear))
          << "not seen at " << arc - bumper << " m ahead, " << out << " m out";
      // At most about a step's worth from where it stands along the lane.
      if (!std::isinf(clear)) {
        EXPECT_NEAR(clear, arc - bumper - 0.25f, 1.f);
      }
    }
  }
  EXPECT_EQ(seen, tried);
}

TEST_P(PathCheckTest, NoVehiclesNoAnswers) {
  Street s;
  s.Walker(0.f, 0.f);
  EXPECT_TRUE(Check(s).empty());
}

TEST_P(PathCheckTest, AStopRequestEndsTheCheck) {
  Street s;
  s.Car(0, 0.f, 10.f, 10.f);
  std::vector<float> clear;
  EXPECT_THROW(backend_->CheckPaths(
                   PathCheckParams{}, 6.f, s.Scene(), [] { return true; }, &clear),
               TickCancelled);
}

INSTANTIATE_TEST_SUITE_P(Backends, PathCheckTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda,
                                           BackendKind::kReference),
                         BackendParamName);

// Two curved lanes (closed loops) through a crowd with walkers crossing at all speeds,
// cars at random places and speeds on both, trucks among them, and a few walls.
class PathCheckEquivalenceTest : public BackendParamTest {
 protected:
  static constexpr float kTolerance = 5e-5f;  // m; measured 2.6e-5 (seeds 1-3)
};

TEST_P(PathCheckEquivalenceTest, GridSearchFindsWhatBruteForceFinds) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    std::vector<SplineDesc> lanes;
    for (uint32_t lane = 0; lane < 2; ++lane) {
      SplineDesc d{lane, {}, true, 0.f};
      const float radius = 60.f + 4.f * static_cast<float>(lane);
      for (int k = 0; k < 24; ++k) {
        const float a = 6.2831853f * static_cast<float>(k) / 24.f;
        const float wobble = 1.f + 0.1f * std::sin(3.f * a);
        d.points.push_back({radius * wobble * std::cos(a), radius * wobble * std::sin(a), 0.f});
      }
      lanes.push_back(d);
    }
    Street s;
    for (int k = 0; k < 150; ++k) {
      const float a = 6.2831853f * u(rng), d = 45.f + 35.f * u(rng);
      const float speed = 2.5f * u(rng), h = 6.2831853f * u(rng);
      s.Walker(d * std::cos(a), d * std::sin(a), speed * std::cos(h), speed * std::sin(h),
               0.15f + 0.2f * u(rng));
    }
    const SplineSet set = BuildSplineSet(lanes);
    for (int v = 0; v < 16; ++v) {
      const uint32_t lane = static_cast<uint32_t>(v % 2);
      const float at = set.headers[lane].length * u(rng);
      Vec3 p, t;
      FrameAt(set.View(), lane, at, &p, &t);
      const bool truck = v % 5 == 0;
      s.bodies.push_back(
          {{p.x, p.y}, Normalize(Vec2{t.x, t.y}), truck ? 16.f : 4.5f, truck ? 2.5f : 1.8f});
      s.spline.push_back(lane);
      s.progress.push_back(at);
      s.speed.push_back(15.f * u(rng));
    }
    std::vector<Polygon> walls;
    for (int k = 0; k < 6; ++k) {
      const float a = 6.2831853f * u(rng);
      walls.push_back(
          {{{55.f * std::cos(a), 55.f * std::sin(a)}, {70.f * std::cos(a), 70.f * std::sin(a)}}});
    }
    const auto reference = CreateBackend(BackendKind::kReference);
    const auto backend = CreateBackend(GetParam());
    for (Backend* b : {reference.get(), backend.get()}) {
      b->SetSplines(lanes);
      b->SetObstacles(walls);
    }
    std::vector<float> want, got;
    reference->CheckPaths(PathCheckParams{}, 6.f, s.Scene(), {}, &want);
    backend->CheckPaths(PathCheckParams{}, 6.f, s.Scene(), {}, &got);
    ASSERT_EQ(got.size(), want.size());
    size_t blocked = 0;
    float worst = 0.f;
    for (size_t v = 0; v < want.size(); ++v) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << ", vehicle " << v);
      // The same things are in the way (nothing is nothing on both), at the same distance
      // up to the lanes' own arithmetic: float cubics with an arc-length table against the
      // reference's double pyramid.
      ASSERT_EQ(std::isinf(got[v]), std::isinf(want[v])) << got[v] << " against " << want[v];
      if (std::isinf(want[v])) continue;
      ++blocked;
      worst = std::max(worst, std::fabs(got[v] - want[v]));
    }
    std::printf("seed %u: %zu of %zu vehicles blocked, worst difference %.2e m\n", seed, blocked,
                want.size(), worst);
    EXPECT_LT(worst, kTolerance);
    EXPECT_GT(blocked, 3u);           // the crowd is in the way of several
    EXPECT_LT(blocked, want.size());  // and not of every one
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, PathCheckEquivalenceTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         BackendParamName);

// The world's ORCA columns for a street: its pedestrians, then each vehicle's discs, shifted
// by `shift` (a solve of other points than the path check's, for the test that shows the
// check reads the solve's grid).
AgentColumns SolveColumnsOf(const Street& s, Vec2 shift = {0.f, 0.f}) {
  AgentColumns a;
  auto add = [&](Vec2 p, Vec2 v, float r, uint8_t flags) {
    a.id.push_back(static_cast<uint32_t>(a.id.size()));
    a.px.push_back(p.x + shift.x);
    a.py.push_back(p.y + shift.y);
    a.vx.push_back(v.x);
    a.vy.push_back(v.y);
    a.radius.push_back(r);
    a.max_speed.push_back(std::max(Length(v), 0.01f));
    a.pref_vx.push_back(v.x);
    a.pref_vy.push_back(v.y);
    a.flags.push_back(flags);
  };
  for (size_t k = 0; k < s.x.size(); ++k) add({s.x[k], s.y[k]}, {s.vx[k], s.vy[k]}, s.r[k], 0);
  for (size_t v = 0; v < s.bodies.size(); ++v) {
    const VehicleBody& body = s.bodies[v];
    for (int j = 0; j < body.DiscCount(); ++j) {
      add(body.Disc(j), body.heading * s.speed[v], body.DiscRadius(), kAgentNonCooperative);
    }
  }
  return a;
}

// The world runs the path check after the ORCA solve of the same points and lets the
// backend read that solve's grid: the same answers as a check that sorts its own, and
// a solve of other points would change them (so the grid is read, not sorted again).
TEST_P(PathCheckEquivalenceTest, TheOrcaSolvesGridGivesTheSameClearDistances) {
  Street s;
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (int k = 0; k < 400; ++k) {
    s.Walker(300.f * u(rng), -12.f + 24.f * u(rng), -1.5f + 3.f * u(rng), -1.5f + 3.f * u(rng),
             0.2f + 0.1f * u(rng));
  }
  for (int v = 0; v < 12; ++v) s.Car(v % 2, v % 2 == 0 ? 0.f : 4.f, 20.f * v, 3.f + u(rng) * 10.f);
  const auto backend = CreateBackend(GetParam());
  backend->SetSplines({StraightLane(0, 0.f, 400.f), StraightLane(1, 4.f, 400.f)});
  std::vector<float> own, shared, other;
  backend->CheckPaths(PathCheckParams{}, 6.f, s.Scene(), {}, &own);
  PathCheckScene scene = s.Scene();
  scene.points_were_last_solve = true;
  OrcaResult solved;
  backend->SolveOrca(OrcaParams{}, SolveColumnsOf(s), {}, &solved);
  backend->CheckPaths(PathCheckParams{}, 6.f, scene, {}, &shared);
  backend->SolveOrca(OrcaParams{}, SolveColumnsOf(s, {0.f, 2.5f}), {}, &solved);
  backend->CheckPaths(PathCheckParams{}, 6.f, scene, {}, &other);
  ASSERT_EQ(shared.size(), own.size());
  size_t blocked = 0;
  for (size_t v = 0; v < own.size(); ++v) {
    EXPECT_EQ(std::memcmp(&shared[v], &own[v], sizeof(float)), 0)
        << "vehicle " << v << ": " << shared[v] << " against " << own[v];
    blocked += std::isinf(own[v]) ? 0 : 1;
  }
  EXPECT_GT(blocked, 3u);
  EXPECT_NE(other, own);
  // A solve of another count is not the scene's: the check sorts its own points.
  AgentColumns fewer = SolveColumnsOf(s);
  for (auto* c : {&fewer.px, &fewer.py, &fewer.vx, &fewer.vy, &fewer.radius, &fewer.max_speed,
                  &fewer.pref_vx, &fewer.pref_vy}) {
    c->erase(c->begin());
  }
  fewer.id.pop_back();
  fewer.flags.erase(fewer.flags.begin());
  backend->SolveOrca(OrcaParams{}, fewer, {}, &solved);
  backend->CheckPaths(PathCheckParams{}, 6.f, scene, {}, &other);
  EXPECT_EQ(other, own);
}

// Many small buildings beside and across straight lanes at random angles: the lanes' walks
// meet the buildings through the edge grid, not a scan of every edge.
struct TownOfBoxes {
  std::vector<SplineDesc> lanes;
  std::vector<Polygon> buildings;
  Street street;
};

TownOfBoxes MakeTownOfBoxes(uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  TownOfBoxes town;
  // 2 m boxes every 12 m over 240 m square: 441 buildings, 1,764 edges.
  for (int i = -10; i <= 10; ++i) {
    for (int j = -10; j <= 10; ++j) {
      const float cx = 12.f * static_cast<float>(i), cy = 12.f * static_cast<float>(j);
      town.buildings.push_back({{{cx - 1.f, cy - 1.f},
                                 {cx + 1.f, cy - 1.f},
                                 {cx + 1.f, cy + 1.f},
                                 {cx - 1.f, cy + 1.f}}});
    }
  }
  for (uint32_t lane = 0; lane < 40; ++lane) {
    const float a = 6.2831853f * u(rng);
    const Vec2 start{-100.f + 200.f * u(rng), -100.f + 200.f * u(rng)};
    const Vec2 dir{std::cos(a), std::sin(a)};
    SplineDesc d{lane, {}, false, 0.f};
    for (int k = 0; k < 3; ++k) {
      const Vec2 p = start + (60.f * static_cast<float>(k)) * dir;
      d.points.push_back({p.x, p.y, 0.f});
    }
    town.lanes.push_back(d);
    town.street.bodies.push_back({start, dir, 4.5f, 1.8f});
    town.street.spline.push_back(lane);
    town.street.progress.push_back(0.f);
    town.street.speed.push_back(15.f * u(rng));
  }
  return town;
}

TEST_P(PathCheckEquivalenceTest, BuildingsFoundThroughTheEdgeGridMatchTheReference) {
  for (uint32_t seed : {1u, 2u}) {
    const TownOfBoxes town = MakeTownOfBoxes(seed);
    const auto reference = CreateBackend(BackendKind::kReference);
    const auto backend = CreateBackend(GetParam());
    for (Backend* b : {reference.get(), backend.get()}) {
      b->SetSplines(town.lanes);
      b->SetObstacles(town.buildings);
    }
    std::vector<float> want, got;
    reference->CheckPaths(PathCheckParams{}, 6.f, town.street.Scene(), {}, &want);
    backend->CheckPaths(PathCheckParams{}, 6.f, town.street.Scene(), {}, &got);
    ASSERT_EQ(got.size(), want.size());
    size_t blocked = 0;
    for (size_t v = 0; v < want.size(); ++v) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << ", vehicle " << v);
      ASSERT_EQ(std::isinf(got[v]), std::isinf(want[v])) << got[v] << " against " << want[v];
      if (std::isinf(want[v])) continue;
      ++blocked;
      EXPECT_NEAR(got[v], want[v], kTolerance);
    }
    EXPECT_GT(blocked, 5u);                // buildings stand in several lanes
    EXPECT_LT(blocked, want.size() - 5u);  // and leave others clear
  }
}

// The grid changes which edges are read, never the answer: bit for bit the scan's.
TEST(PathCheckEdgeGridTest, SameClearDistancesAsScanningEveryEdge) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    const TownOfBoxes town = MakeTownOfBoxes(seed);
    CpuBackend grid, scan;
    scan.UseEdgeGrid(false);
    std::vector<float> with_grid, with_scan;
    for (CpuBackend* b : {&grid, &scan}) {
      b->SetSplines(town.lanes);
      b->SetObstacles(town.buildings);
    }
    grid.CheckPaths(PathCheckParams{}, 6.f, town.street.Scene(), {}, &with_grid);
    scan.CheckPaths(PathCheckParams{}, 6.f, town.street.Scene(), {}, &with_scan);
    ASSERT_EQ(with_grid.size(), with_scan.size());
    size_t blocked = 0;
    for (size_t v = 0; v < with_scan.size(); ++v) {
      EXPECT_EQ(std::memcmp(&with_grid[v], &with_scan[v], sizeof(float)), 0)
          << "seed " << seed << ", vehicle " << v << ": " << with_grid[v] << " against "
          << with_scan[v];
      blocked += std::isinf(with_scan[v]) ? 0 : 1;
    }
    EXPECT_GT(blocked, 5u) << "seed " << seed;
  }
}

}  // namespace
}  // namespace throng
