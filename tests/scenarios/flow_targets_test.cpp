// Issue 41's targets as throng-bench-flow --targets judges them (bench/flow_targets.h): each
// bound at its edge and just past it, and the comparisons with plain ORCA.
#include "bench/flow_targets.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace throng::bench {
namespace {

// A scene that meets every target against `Plain()`.
SceneFlow Good() {
  SceneFlow f;
  f.home = 1000;
  f.walkers = 1000;
  f.median_s = 50.0;
  f.longest_pause_s = 4.0;
  f.longest_frozen_stall = 100;
  f.deep_overlaps = 0;
  f.deepest_m = 0.009;
  f.in_obstacles = 0;
  return f;
}

SceneFlow Plain() {
  SceneFlow f = Good();
  f.median_s = 55.0;
  f.deep_overlaps = 5000;
  f.deepest_m = 0.12;
  f.in_obstacles = 7;
  return f;
}

const TargetVerdict& Verdict(const std::vector<TargetVerdict>& all, const std::string& target) {
  for (const TargetVerdict& v : all) {
    if (v.target == target) return v;
  }
  ADD_FAILURE() << "no verdict for " << target;
  static const TargetVerdict none;
  return none;
}

bool Met(const SceneFlow& throng, const SceneFlow& plain, const std::string& target) {
  return Verdict(JudgeFlowTargets(throng, plain), target).met;
}

TEST(FlowTargetsTest, AGoodSceneMeetsEveryTargetAndADoorIsJudgedOnlyAtADoor) {
  const std::vector<TargetVerdict> all = JudgeFlowTargets(Good(), Plain());
  ASSERT_EQ(all.size(), 7u);
  for (const TargetVerdict& v : all) {
    EXPECT_TRUE(v.judged) << v.target;
    EXPECT_TRUE(v.met) << v.target << ": " << v.figures;
  }
  SceneFlow door = Good();
  door.door = true;
  door.door_flow_min = 1.2;
  door.door_flow_max = 2.0;
  const std::vector<TargetVerdict> at_door = JudgeFlowTargets(door, Plain());
  ASSERT_EQ(at_door.size(), 8u);
  EXPECT_EQ(at_door.back().target, "door_flow");
  EXPECT_TRUE(at_door.back().met) << at_door.back().figures;
}

TEST(FlowTargetsTest, HomeAndMedianAgainstPlainOrca) {
  SceneFlow t = Good();
  t.home = Plain().home - 1;
  EXPECT_FALSE(Met(t, Plain(), "home"));
  t.home = Plain().home;
  EXPECT_TRUE(Met(t, Plain(), "home"));

  t.median_s = 55.0;  // as plain ORCA's: no later
  EXPECT_TRUE(Met(t, Plain(), "median"));
  t.median_s = 55.1;
  EXPECT_FALSE(Met(t, Plain(), "median"));
  t.median_s = -1;  // fewer than half home, where plain ORCA had a median
  EXPECT_FALSE(Met(t, Plain(), "median"));
  SceneFlow p = Plain();
  p.median_s = -1;  // neither has half home: nothing to judge
  const TargetVerdict none = Verdict(JudgeFlowTargets(t, p), "median");
  EXPECT_FALSE(none.judged);
  t.median_s = 80.0;  // Throng has half home and plain ORCA has not
  EXPECT_TRUE(Met(t, p, "median"));
}

TEST(FlowTargetsTest, PauseAndStallAtTheirBounds) {
  SceneFlow t = Good();
  t.longest_pause_s = kMaxPauseS;
  EXPECT_TRUE(Met(t, Plain(), "pause"));
  t.longest_pause_s = kMaxPauseS + 0.1;
  EXPECT_FALSE(Met(t, Plain(), "pause"));
  t.longest_frozen_stall = kMaxStallTicks;
  EXPECT_TRUE(Met(t, Plain(), "stall"));
  t.longest_frozen_stall = kMaxStallTicks + 1;
  EXPECT_FALSE(Met(t, Plain(), "stall"));
}

TEST(FlowTargetsTest, BodiesAgainstAHundredthOfPlainOrcaAndFiveCentimetres) {
  SceneFlow t = Good();
  SceneFlow p = Plain();
  p.deep_overlaps = 0;  // none in plain ORCA: none allowed
  t.deep_overlaps = 1;
  EXPECT_FALSE(Met(t, p, "deep"));
  p.deep_overlaps = 200;
  t.deep_overlaps = 2;
  EXPECT_TRUE(Met(t, p, "deep"));
  p.deep_overlaps = 199;
  EXPECT_FALSE(Met(t, p, "deep"));

  t.deepest_m = kMaxDeepestM;  // strictly under
  EXPECT_FALSE(Met(t, Plain(), "deepest"));
  t.deepest_m = 0.0499;
  EXPECT_TRUE(Met(t, Plain(), "deepest"));

  t.in_obstacles = Plain().in_obstacles;
  EXPECT_TRUE(Met(t, Plain(), "in_obstacles"));
  t.in_obstacles = Plain().in_obstacles + 1;
  EXPECT_FALSE(Met(t, Plain(), "in_obstacles"));
}

TEST(FlowTargetsTest, DoorFlowWithinTheRealismBand) {
  SceneFlow t = Good();
  t.door = true;
  t.door_flow_min = 1.19;
  t.door_flow_max = 1.5;
  EXPECT_FALSE(Met(t, Plain(), "door_flow"));
  t.door_flow_min = 1.3;
  t.door_flow_max = 2.01;
  EXPECT_FALSE(Met(t, Plain(), "door_flow"));
  t.door_flow_min = 0;  // fewer than 90% passed in some seed
  t.door_flow_max = 1.5;
  EXPECT_FALSE(Met(t, Plain(), "door_flow"));
}

}  // namespace
}  // namespace throng::bench
