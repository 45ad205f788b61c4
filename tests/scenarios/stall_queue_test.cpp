// The flow benchmark's stall measure (bench/stall_queue.h): who stands in a queue behind a
// moving front, and how long the others go without progress.
#include "bench/stall_queue.h"

#include <gtest/gtest.h>

#include <vector>

namespace throng::bench {
namespace {

// Agents along x, radius 0.2, max speed 1.4, all wanting to walk +x; vx as given.
struct Line {
  std::vector<float> x, y, radius, vx, vy, max_speed, pref_vx, pref_vy;
  explicit Line(const std::vector<float>& xs, const std::vector<float>& speeds) {
    x = xs;
    vx = speeds;
    const size_t n = xs.size();
    y.assign(n, 0.f);
    radius.assign(n, 0.2f);
    vy.assign(n, 0.f);
    max_speed.assign(n, 1.4f);
    pref_vx.assign(n, 0.5f);
    pref_vy.assign(n, 0.f);
  }
  QueueView View() const { return {x, y, radius, vx, vy, max_speed, pref_vx, pref_vy}; }
};

TEST(StallQueueTest, AQueueBehindAWalkerQueuesAndOneBehindAStandingHeadDoesNot) {
  // 0.41 m apart (touching): three standing behind one walking at 0.5 m/s.
  Line moving({0.f, 0.41f, 0.82f, 1.23f}, {0.f, 0.f, 0.f, 0.5f});
  EXPECT_EQ(QueueingBehindMovingFront(moving.View()), (std::vector<uint8_t>{1, 1, 1, 0}));
  // The same queue whose head stands too: nobody queues behind a moving front.
  Line stuck({0.f, 0.41f, 0.82f, 1.23f}, {0.f, 0.f, 0.f, 0.1f});  // 0.1 < 10% of 1.4
  EXPECT_EQ(QueueingBehindMovingFront(stuck.View()), (std::vector<uint8_t>{0, 0, 0, 0}));
  // A gap wider than 1.5 radius sums (0.6 m) cuts the chain: the first stands alone.
  Line gap({0.f, 0.7f, 1.11f}, {0.f, 0.f, 0.5f});
  EXPECT_EQ(QueueingBehindMovingFront(gap.View()), (std::vector<uint8_t>{0, 1, 0}));
}

TEST(StallQueueTest, OneBehindAndBesideIsNotAheadAndAKnotIsNoFront) {
  // A walker level with agent 0 (90 degrees off its way) is not ahead of it.
  Line beside({0.f, 0.f}, {0.f, 0.5f});
  beside.y[1] = 0.41f;
  EXPECT_EQ(QueueingBehindMovingFront(beside.View()), (std::vector<uint8_t>{0, 0}));
  // Two standing face to face, each ahead of the other: a knot, not a queue.
  Line knot({0.f, 0.41f}, {0.f, 0.f});
  knot.pref_vx[1] = -0.5f;
  EXPECT_EQ(QueueingBehindMovingFront(knot.View()), (std::vector<uint8_t>{0, 0}));
  // Someone home (no way to go) heads no queue either.
  Line home({0.f, 0.41f}, {0.f, 0.f});
  home.pref_vx[1] = 0.f;
  EXPECT_EQ(QueueingBehindMovingFront(home.View()), (std::vector<uint8_t>{0, 0}));
}

TEST(StallQueueTest, FrozenStallsCountFromTheStallsStartOrTheLastQueueingTick) {
  FrozenStalls frozen(50);
  const std::vector<uint8_t> stalled{1, 1}, free{0, 0};
  // Agent 0 stalls without a moving front for 3 flagged ticks: 50 before the flag, then
  // 51 and 52. Agent 1 queues on its first two flagged ticks, then stands alone for two.
  frozen.Tick(stalled, {0, 1});
  frozen.Tick(stalled, {0, 1});
  EXPECT_EQ(frozen.longest(), 51u);
  frozen.Tick(stalled, {0, 0});
  frozen.Tick(free, {0, 0});
  frozen.Tick(stalled, {1, 0});
  EXPECT_EQ(frozen.longest(), 52u);  // agent 1 made progress a tick ago: a new stall, 50
  EXPECT_EQ(frozen.longest_agent(), 0u);  // whose stall it was (throng-bench-flow --stall)
  frozen.Tick(stalled, {1, 0});
  frozen.Tick(stalled, {1, 0});
  frozen.Tick(stalled, {1, 0});
  EXPECT_EQ(frozen.longest(), 53u);  // agent 1's stall passes agent 0's longest
  EXPECT_EQ(frozen.longest_agent(), 1u);
  // Agent 0 stalls again from scratch after a tick of progress; queueing resets it.
  FrozenStalls again(50);
  again.Tick({1}, {1});
  again.Tick({1}, {1});
  EXPECT_EQ(again.longest(), 0u);
  again.Tick({1}, {0});
  EXPECT_EQ(again.longest(), 1u);
}

}  // namespace
}  // namespace throng::bench
