// Re-routing (docs/NAVIGATION.md, "Re-routing"): a navigating agent stalled for
// stall_ticks takes its target's crowd field. In "two_exits" the crowd beside the nearer
// exit clogs it; re-routed, some leave by the far one, and the room empties sooner. The
// re-routes are flagged and counted, and a restored world continues bit for bit because
// the crowd the fields were built from travels with what it keeps.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdio>
#include <memory>

#include "bench/evacuation.h"
#include "kernels/scenarios/scenario.h"
#include "kernels/scenarios/scenario_layout.h"
#include "kernels/world/world.h"
#include "tests/world/ran_world.h"
#include "tests/world/tick_hash.h"

namespace throng {
namespace {

using testing::RanWorld;

// Bodies 0.6 m wide: the scene library's people (0.4 m) never clog the nearer exit, and
// these tests need the clog that re-routing answers.
scenarios::Scenario TwoExits(int reroute_every) {
  scenarios::Scenario s = scenarios::MakeScenario("two_exits", 200, 1);
  scenarios::layout::SetPedestrianRadius(&s.config, 0.3f);
  s.config.navigation.reroute_every = reroute_every;
  return s;
}

TEST(RerouteTest, AClogAtTheNearerExitSendsSomeToTheFarOneAndTheRoomEmptiesSooner) {
  const scenarios::Scenario with = TwoExits(50), without = TwoExits(0);
  const bench::EvacuationFigures a = bench::RunEvacuation(with, BackendKind::kCpu, 10000);
  const bench::EvacuationFigures b = bench::RunEvacuation(without, BackendKind::kCpu, 10000);
  std::printf(
      "two_exits, 200 people: re-routing %zu out (%zu by the far exit), mean %.1f s, "
      "last %.1f s; without %zu out (%zu by the far exit), mean %.1f s, last %.1f s\n",
      a.out, a.out_right, a.mean_out_s, a.last_out_s, b.out, b.out_right, b.mean_out_s,
      b.last_out_s);
  ASSERT_EQ(a.out, 200u);
  ASSERT_EQ(b.out, 200u);
  // Without re-routing everyone queues for the nearer exit.
  EXPECT_EQ(b.out_right, 0u);
  EXPECT_GE(a.out_right, 20u);
  EXPECT_LT(a.out_right, 100u);  // the nearer exit stays the main one
  EXPECT_LT(a.mean_out_s, 0.8 * b.mean_out_s);
  EXPECT_LT(a.last_out_s, b.last_out_s);
}

TEST(RerouteTest, ReroutesAreFlaggedPerAgentAndCountedInTheStatsAndTotals) {
  const scenarios::Scenario s = TwoExits(50);
  const std::unique_ptr<World> world = RanWorld(s, 1);
  uint64_t counted = 0, flagged = 0;  // over the ticks' stats, and the results' flags
  for (int t = 1; t < 400; ++t) {
    TickResult r;
    world->Advance(1, s.initial.dt, &r);
    counted += r.stats.reroutes;
    for (uint8_t f : r.agents.flags) flagged += (f & kAgentRerouted) != 0;
  }
  std::printf("two_exits, 400 ticks: %llu re-routes\n", static_cast<unsigned long long>(counted));
  EXPECT_GT(counted, 0u);
  EXPECT_EQ(counted, flagged);
  EXPECT_EQ(world->totals().reroutes, counted);
  EXPECT_TRUE(world->Kept().crowd.present);

  // Off: nobody is re-routed, and no crowd is kept.
  const std::unique_ptr<World> off = RanWorld(TwoExits(0), 400);
  EXPECT_EQ(off->totals().reroutes, 0u);
  EXPECT_FALSE(off->Kept().crowd.present);
}

// Fields are built one target per thread (the world's two exits at creation, the crowd
// fields when re-routes begin): a run repeats bit for bit at one thread and at two.
TEST(RerouteTest, ARunWithCrowdFieldsRepeatsBitForBitAtAnyThreadCount) {
  const scenarios::Scenario s = TwoExits(50);
  auto run = [&](int threads) {
    const int was = omp_get_max_threads();
    omp_set_num_threads(threads);
    const std::unique_ptr<World> world = RanWorld(s, 1);
    Fnv1a hash;
    for (int t = 1; t < 300; ++t) {
      TickResult r;
      world->Advance(1, s.initial.dt, &r);
      MixTick(*world, r, &hash);
    }
    omp_set_num_threads(was);
    EXPECT_GT(world->totals().reroutes, 0u);
    return hash.h;
  };
  EXPECT_EQ(run(1), run(2));
}

// A world restored after re-routes began continues bit for bit; restored without its
// crowd, it rebuilds the crowd fields from other positions and drifts apart.
TEST(RerouteTest, ARestoredWorldKeepsItsCrowdAndContinuesBitForBit) {
  const scenarios::Scenario s = TwoExits(50);
  const std::unique_ptr<World> ran = RanWorld(s, 220);  // re-routes begin after 50 stalled ticks
  World& original = *ran;
  ASSERT_GT(original.totals().reroutes, 0u);
  WorldKept kept = original.Kept();
  ASSERT_TRUE(kept.crowd.present);
  World restored(s.config, BackendKind::kCpu);
  restored.Restore(kept);
  kept.crowd = NavCrowd{};
  World forgetful(s.config, BackendKind::kCpu);
  forgetful.Restore(kept);

  bool forgetful_differs = false;
  for (int t = 0; t < 100; ++t) {
    TickResult a, b, c;
    original.Advance(1, s.initial.dt, &a);
    restored.Advance(1, s.initial.dt, &b);
    forgetful.Advance(1, s.initial.dt, &c);
    Fnv1a ha, hb, hc;
    MixTick(original, a, &ha);
    MixTick(restored, b, &hb);
    MixTick(forgetful, c, &hc);
    ASSERT_EQ(ha.h, hb.h) << "tick " << a.tick << " differs after the restore";
    forgetful_differs = forgetful_differs || ha.h != hc.h;
  }
  EXPECT_TRUE(forgetful_differs);
}

TEST(RerouteTest, ABadCrowdIsRefusedByNameAndChangesNothing) {
  const scenarios::Scenario s = TwoExits(50);
  World world(s.config, BackendKind::kCpu);
  WorldKept kept = world.Kept();
  kept.crowd.present = true;
  kept.crowd.positions = {{0.f, 0.f}, {3e6f, 0.f}};
  try {
    world.Restore(kept);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("crowd.positions[1]"), std::string::npos) << e.what();
  }
  kept.crowd.present = false;
  kept.crowd.positions = {{0.f, 0.f}};
  EXPECT_THROW(world.Restore(kept), std::invalid_argument);
  EXPECT_FALSE(world.Kept().crowd.present);
}

}  // namespace
}  // namespace throng
