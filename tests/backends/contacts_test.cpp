// Backend::CountContacts: hand-built contacts on every backend, and the parallel
// backends' grid search against the reference's brute force on dense random scenes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/backends/cpu_backend.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

struct Agents {
  std::vector<float> x, y, r;
  ContactScene Scene(const std::vector<VehicleBody>& bodies = {}) const {
    return {x.data(), y.data(), r.data(), x.size(), bodies.data(), bodies.size()};
  }
  void Add(float px, float py, float radius) {
    x.push_back(px);
    y.push_back(py);
    r.push_back(radius);
  }
};

Polygon Square(Vec2 lo, float side) {
  return {{lo, {lo.x + side, lo.y}, {lo.x + side, lo.y + side}, {lo.x, lo.y + side}}};
}

class ContactsTest : public BackendParamTest {
 protected:
  void SetUp() override {
    BackendParamTest::SetUp();
    if (IsSkipped()) return;
    backend_ = CreateBackend(GetParam());
  }
  CollisionCounts Count(const Agents& a, const std::vector<VehicleBody>& bodies = {}) {
    return backend_->CountContacts(a.Scene(bodies), {});
  }
  std::unique_ptr<Backend> backend_;
};

TEST_P(ContactsTest, PairsOverlapByMoreThanTheTolerance) {
  Agents a;
  a.Add(0.f, 0.f, 0.5f);
  a.Add(0.9f, 0.f, 0.5f);  // 0.1 m into the first: a contact
  a.Add(10.f, 0.f, 0.5f);
  a.Add(10.9995f, 0.f, 0.5f);  // 0.5 mm in: inside the tolerance, no contact
  a.Add(50.f, 50.f, 0.25f);
  a.Add(50.f, 50.f, 0.25f);  // the same spot
  const CollisionCounts c = Count(a);
  EXPECT_EQ(c.agent_pairs, 2u);
  EXPECT_EQ(c.agents_in_obstacles, 0u);
  EXPECT_EQ(c.agent_vehicle, 0u);
}

TEST_P(ContactsTest, AgentsInsideOrTouchingObstaclesCountOnceEach) {
  backend_->SetObstacles({Square({0.f, 0.f}, 10.f), Square({4.f, 4.f}, 2.f),  // nested
                          Polygon{{{20.f, 0.f}, {30.f, 0.f}}}});              // a wall
  Agents a;
  a.Add(5.f, 5.f, 0.3f);     // deep inside both squares, far from every edge: once
  a.Add(-0.2f, 5.f, 0.3f);   // 0.2 m from the square's left edge
  a.Add(-0.31f, 8.f, 0.3f);  // clear of it
  a.Add(25.f, 0.25f, 0.3f);  // on the wall's side
  a.Add(27.f, 0.35f, 0.3f);  // clear of the wall
  a.Add(31.f, 0.f, 0.3f);    // beyond the wall's end
  const CollisionCounts c = Count(a);
  EXPECT_EQ(c.agents_in_obstacles, 2u + 1u);
  EXPECT_EQ(c.agent_pairs, 0u);
}

TEST_P(ContactsTest, AgentsTouchingVehicleBodies) {
  const VehicleBody car{{0.f, 0.f}, {1.f, 0.f}, 4.5f, 1.8f};
  // A 300 m train: its reach spans more bucket rows than the grid has.
  const VehicleBody train{{100.f, -150.f}, {0.f, 1.f}, 300.f, 3.f};
  Agents a;
  a.Add(1.f, 0.f, 0.25f);   // inside the car
  a.Add(1.f, 1.1f, 0.25f);  // 0.2 m from its side
  a.Add(1.f, 1.2f, 0.25f);  // 0.3 m: clear
  for (int k = 0; k < 50; ++k) a.Add(101.f, -200.f + 5.f * static_cast<float>(k), 0.25f);
  a.Add(102.f, 0.f, 0.25f);  // 0.5 m from the train's side: clear
  const CollisionCounts c = Count(a, {car, train});
  EXPECT_EQ(c.agent_vehicle, 2u + 50u);
}

TEST_P(ContactsTest, NoAgentsNoContacts) {
  EXPECT_EQ(Count({}, {VehicleBody{{0.f, 0.f}, {1.f, 0.f}, 4.f, 2.f}}), CollisionCounts{});
}

TEST_P(ContactsTest, AStopRequestEndsTheCount) {
  Agents a;
  a.Add(0.f, 0.f, 0.2f);
  EXPECT_THROW(backend_->CountContacts(a.Scene(), [] { return true; }), TickCancelled);
}

INSTANTIATE_TEST_SUITE_P(Backends, ContactsTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda,
                                           BackendKind::kReference),
                         BackendParamName);

// A packed crowd with radii from 0.1 to 0.6 m (many overlaps), convex and concave
// polygons and walls among them, cars and one long body, and outliers far away (the
// grid's buckets wrap).
struct RandomScene {
  Agents agents;
  std::vector<Polygon> polygons;
  std::vector<VehicleBody> bodies;
};

// `side`: the crowd's square, m. Without outliers a 20 m square is dense enough for
// several grid cells per query radius.
RandomScene MakeRandomScene(uint32_t seed, float side = 60.f, bool outliers = true) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  RandomScene s;
  for (int i = 0; i < 3000; ++i) {
    s.agents.Add(side * u(rng), side * u(rng), 0.1f + 0.5f * u(rng));
  }
  if (outliers) {
    for (int i = 0; i < 20; ++i) s.agents.Add(1e5f * u(rng), -1e5f * u(rng), 0.3f);
  }
  for (int k = 0; k < 30; ++k) {
    const Vec2 c{side * u(rng), side * u(rng)};
    const float size = 0.5f + 4.f * u(rng);
    switch (k % 3) {
      case 0:
        s.polygons.push_back(Square(c, size));
        break;
      case 1:  // an L, concave
        s.polygons.push_back({{c,
                               {c.x + size, c.y},
                               {c.x + size, c.y + 0.3f * size},
                               {c.x + 0.3f * size, c.y + 0.3f * size},
                               {c.x + 0.3f * size, c.y + size},
                               {c.x, c.y + size}}});
        break;
      default:
        s.polygons.push_back({{c, {c.x + size * u(rng), c.y + size * u(rng)}}});
    }
  }
  s.polygons.push_back(Square({-500.f, -500.f}, 1000.f));  // around everything: all inside
  for (int k = 0; k < 12; ++k) {
    const float a = 6.2831853f * u(rng);
    s.bodies.push_back({{side * u(rng), side * u(rng)}, {std::cos(a), std::sin(a)}, 4.5f, 1.8f});
  }
  s.bodies.push_back({{0.f, 0.5f * side}, {1.f, 0.f}, 120.f, 2.5f});
  return s;
}

class ContactsEquivalenceTest : public BackendParamTest {};

// One backend for every scene, larger ones before smaller: its buffers only grow, so a
// later scene runs over what an earlier one left.
TEST_P(ContactsEquivalenceTest, GridSearchFindsWhatBruteForceFinds) {
  const auto reference = CreateBackend(BackendKind::kReference);
  const auto backend = CreateBackend(GetParam());
  struct Case {
    uint32_t seed;
    float side;
    bool outliers;
    size_t agents;  // the first this many of the scene's
  };
  for (const Case& k : {Case{1, 60.f, true, 3020}, Case{2, 60.f, true, 3020},
                        Case{3, 20.f, false, 3000}, Case{4, 60.f, true, 1500}}) {
    RandomScene s = MakeRandomScene(k.seed, k.side, k.outliers);
    for (auto* column : {&s.agents.x, &s.agents.y, &s.agents.r}) column->resize(k.agents);
    // Without the big square, then with it (every agent inside something).
    for (bool enclosed : {false, true}) {
      std::vector<Polygon> polygons = s.polygons;
      if (!enclosed) polygons.pop_back();
      const ContactScene scene = s.agents.Scene(s.bodies);
      reference->SetObstacles(polygons);
      backend->SetObstacles(polygons);
      const CollisionCounts want = reference->CountContacts(scene, {});
      const CollisionCounts got = backend->CountContacts(scene, {});
      SCOPED_TRACE(::testing::Message() << "seed " << k.seed << (enclosed ? ", enclosed" : ""));
      EXPECT_GT(want.agent_pairs, 500u);
      EXPECT_GT(want.agent_vehicle, 5u);
      EXPECT_GE(want.agents_in_obstacles, enclosed ? k.agents - 20 : 20u);
      EXPECT_EQ(got.agent_pairs, want.agent_pairs);
      EXPECT_EQ(got.agent_vehicle, want.agent_vehicle);
      EXPECT_EQ(got.agents_in_obstacles, want.agents_in_obstacles);
    }
  }
}

// The world counts contacts after the move, on the grid its ORCA solve sorted the same
// agents into (and a few vehicle discs after them): every agent moved since, by up to half
// a metre. The counts are the brute force's; moved too far, or with more agents than the
// solve had, the count sorts its own and is still exact.
TEST_P(ContactsEquivalenceTest, CountsOnTheSolvesGridAfterAMoveMatchBruteForce) {
  const auto reference = CreateBackend(BackendKind::kReference);
  const auto backend = CreateBackend(GetParam());
  auto* cpu = dynamic_cast<CpuBackend*>(backend.get());
  for (const uint32_t seed : {5u, 6u}) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    RandomScene s = MakeRandomScene(seed, seed == 5 ? 20.f : 60.f, seed == 6);
    s.polygons.pop_back();  // not the square around everything
    reference->SetObstacles(s.polygons);
    backend->SetObstacles(s.polygons);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    AgentColumns solve;
    const size_t n = s.agents.x.size();
    for (size_t k = 0; k < n + 3; ++k) {
      const bool disc = k >= n;
      solve.id.push_back(static_cast<uint32_t>(k));
      solve.px.push_back(disc ? 5.f * static_cast<float>(k - n) : s.agents.x[k]);
      solve.py.push_back(disc ? -3.f : s.agents.y[k]);
      solve.vx.push_back(0.f);
      solve.vy.push_back(0.f);
      solve.radius.push_back(disc ? 1.2f : s.agents.r[k]);
      solve.max_speed.push_back(1.5f);
      solve.pref_vx.push_back(u(rng));
      solve.pref_vy.push_back(u(rng));
      solve.flags.push_back(disc ? kAgentNonCooperative : 0);
    }
    OrcaResult solved;
    backend->SolveOrca(OrcaParams{}, solve, {}, &solved);
    const uint64_t shared_before = cpu ? cpu->contact_counts_on_solve_grid() : 0;
    auto check = [&](const Agents& a, size_t shared_counts) {
      const ContactScene scene = a.Scene(s.bodies);
      const CollisionCounts want = reference->CountContacts(scene, {});
      const CollisionCounts got = backend->CountContacts(scene, {});
      EXPECT_GT(want.agent_pairs, 100u);
      EXPECT_EQ(got.agent_pairs, want.agent_pairs);
      EXPECT_EQ(got.agent_vehicle, want.agent_vehicle);
      EXPECT_EQ(got.agents_in_obstacles, want.agents_in_obstacles);
      if (cpu) {
        EXPECT_EQ(cpu->contact_counts_on_solve_grid(), shared_before + shared_counts);
      }
    };
    Agents moved = s.agents;
    for (size_t k = 0; k < n; ++k) {
      moved.x[k] += 0.35f * u(rng);
      moved.y[k] += 0.35f * u(rng);
    }
    check(moved, 1);
    Agents far = moved;
    for (float& x : far.x) x += 500.f;
    check(far, 1);
    Agents more = moved;
    for (int k = 0; k < 4; ++k) more.Add(u(rng), u(rng), 0.3f);
    check(more, 1);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ContactsEquivalenceTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
