// ValidateSnapshot checks a crowd's rows in one pass when they all pass, and one check at a
// time otherwise (kernels/world/world_validate.cpp, AgentsPassAtOnce). The one pass must
// never let through what the checks one by one refuse: a crowd large enough for every
// core, each fault placed in the last thread's slice, is refused with the message the
// check one by one gives, and a crowd the checks accept (ids unique but out of order) is
// accepted.
#include "kernels/world/world_validate.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "kernels/input/first_index.h"

namespace throng {
namespace {

constexpr size_t kCrowd = kParallelCheckFrom + 1000;
constexpr size_t kLate = kCrowd - 3;  // in the last thread's slice

WorldConfig Config() {
  WorldConfig config;
  config.navigation_targets = {NavigationTarget(5, {{50.f, 0.f, 0.f}})};
  return config;
}

// Every agent arrives at a goal, with every optional column the checks across columns read.
Snapshot Crowd() {
  Snapshot s;
  s.tick = 1;
  s.dt = 0.1f;
  AgentSnapshot& a = s.agents;
  for (size_t i = 0; i < kCrowd; ++i) {
    a.id.push_back(static_cast<uint32_t>(10 + 2 * i));
    a.x.push_back(static_cast<float>(i % 1000));
    a.y.push_back(static_cast<float>(i / 1000));
    a.goal_x.push_back(0.f);
    a.goal_y.push_back(0.f);
    a.flags.push_back(0);
    a.behavior.push_back(static_cast<uint8_t>(AgentBehavior::kArrive));
    a.target.push_back(5);
  }
  return s;
}

// The message ValidateSnapshot refuses `s` with at 1 and 2 threads (the same), or "" when
// it accepts it.
std::string Refusal(const WorldConfig& config, const Snapshot& s) {
  std::string first;
  for (int threads : {1, 2}) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    std::string message;
    try {
      ValidateSnapshot(config, s, false, 0);
    } catch (const std::invalid_argument& e) {
      message = e.what();
    }
    omp_set_num_threads(before);
    if (threads == 1) {
      first = message;
    } else {
      EXPECT_EQ(message, first) << "at 2 threads";
    }
  }
  return first;
}

TEST(WorldValidateTest, ACrowdThatPassesIsAcceptedInOrderOrNot) {
  const WorldConfig config = Config();
  Snapshot s = Crowd();
  EXPECT_EQ(Refusal(config, s), "");
  std::swap(s.agents.id[3], s.agents.id[kLate]);  // unique, not increasing: checked by a sort
  EXPECT_EQ(Refusal(config, s), "");
}

TEST(WorldValidateTest, EveryFaultInALateRowIsRefusedAsTheChecksOneByOneRefuseIt) {
  const WorldConfig config = Config();
  std::string at = "[";  // (not "[" + a temporary: GCC 12 warns of a false overlap there)
  at += std::to_string(kLate);
  at += "]";
  struct Fault {
    std::function<void(AgentSnapshot&)> apply;
    std::string message;
  };
  const Fault faults[] = {
      {[](AgentSnapshot& a) { a.id[kLate] = a.id[7]; },
       "agents.id" + at + ": 24 repeats agents.id[7]"},
      {[](AgentSnapshot& a) { a.x[kLate] = 3e6f; },
       "agents.x" + at + ": 3e+06 m is beyond the limit of 2e+06 m"},
      {[](AgentSnapshot& a) { a.flags[kLate] = 4; }, "agents.flags" + at + ": unknown bits 4"},
      {[](AgentSnapshot& a) { a.behavior[kLate] = 9; },
       "agents.behavior" + at +
           ": 9 is not a behaviour (0 by columns, 1 arrive, 2 seek, 3 flee, 4 preferred "
           "velocity, 5 navigate)"},
      {[](AgentSnapshot& a) {
         a.behavior[kLate] = static_cast<uint8_t>(AgentBehavior::kFlee);
         a.flags[kLate] = kSnapshotUsesPreferredVelocity;
       },
       "agents.flags" + at + ": \"uses preferred velocity\" contradicts behavior flee"},
      {[](AgentSnapshot& a) {
         a.behavior[kLate] = static_cast<uint8_t>(AgentBehavior::kNavigate);
         a.target[kLate] = 99;
       },
       "agents.target" + at + ": 99 is not a navigation target of this world"},
      {[](AgentSnapshot& a) {
         // Without goals every agent moves by its given preferred velocity but one.
         a.goal_x.clear();
         a.goal_y.clear();
         for (uint8_t& b : a.behavior) b = static_cast<uint8_t>(AgentBehavior::kPreferredVelocity);
         a.behavior[kLate] = static_cast<uint8_t>(AgentBehavior::kSeek);
       },
       "agents.behavior" + at + ": seek needs the goal columns"},
  };
  for (const Fault& fault : faults) {
    Snapshot s = Crowd();
    fault.apply(s.agents);
    EXPECT_EQ(Refusal(config, s), fault.message);
  }
}

}  // namespace
}  // namespace throng
