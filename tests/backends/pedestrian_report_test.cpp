// Backend::ReportPedestrians: every backend gives the reference's results, flags, memory and
// sums bit for bit over many ticks of agents that stall, oscillate, re-route and stand
// non-cooperative; and the sums are what the per-agent outputs add up to. And
// Backend::MovePedestrians: the reference's moves, bit for bit, in every frame.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/detection/pedestrian_report_types.h"
#include "kernels/steering/pedestrian_move_types.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

// One tick's inputs, as the world passes them after its solve (internal frame).
struct ReportInputs {
  std::vector<float> px, py, pref_vx, pref_vy, vx, vy, vz;
  std::vector<uint8_t> flags, status, solve_flags, has_goal, navigates;
  std::vector<uint16_t> constraints, candidates, neighbors;
  std::vector<Vec2> goal;

  // With last tick's memory.
  PedestrianReportScene Scene(const std::vector<AgentMemory>& memory) const {
    return {px.data(),          py.data(),          pref_vx.data(),    pref_vy.data(),
            flags.data(),       vx.data(),          vy.data(),         status.data(),
            constraints.data(), solve_flags.data(), candidates.data(), neighbors.data(),
            vz.data(),          goal.data(),        has_goal.data(),   navigates.data(),
            memory.data(),      px.size()};
  }
};

// Outputs and the memory they update.
struct ReportOutputs {
  std::vector<float> vx, vy, vz, pref_vx, pref_vy, pref_vz;
  std::vector<uint8_t> status, flags;
  std::vector<uint16_t> constraints;
  std::vector<AgentMemory> memory;

  explicit ReportOutputs(size_t n)
      : vx(n),
        vy(n),
        vz(n),
        pref_vx(n),
        pref_vy(n),
        pref_vz(n),
        status(n),
        flags(n),
        constraints(n),
        memory(n) {}
  PedestrianReportOutput View() {
    return {vx.data(),      vy.data(),     vz.data(),          pref_vx.data(), pref_vy.data(),
            pref_vz.data(), status.data(), constraints.data(), flags.data(),   memory.data()};
  }
  // Without the local columns (TickOptions::local_results off): those stay as they were.
  PedestrianReportOutput ViewWithoutLocal() {
    return {vx.data(), vy.data(),     vz.data(), nullptr,      nullptr,
            nullptr,   status.data(), nullptr,   flags.data(), memory.data()};
  }
};

// n agents around goals; some stand still (they stall), some swing side to side from tick
// to tick (they oscillate), some are home, some non-cooperative; the positions close in on
// the goals only for those that move.
class Crowd {
 public:
  explicit Crowd(size_t n) : rng_(17) {
    std::uniform_real_distribution<float> at(-50.f, 50.f);
    in_.px.resize(n);
    in_.py.resize(n);
    in_.goal.resize(n);
    kind_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      in_.px[i] = at(rng_);
      in_.py[i] = at(rng_);
      in_.goal[i] = {at(rng_), at(rng_)};
      kind_[i] = static_cast<int>(rng_() % 6);
    }
    in_.has_goal.assign(n, 0);
    in_.navigates.assign(n, 0);
    in_.flags.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
      in_.has_goal[i] = kind_[i] != 4;  // kind 4 walks by its preferred velocity alone
      in_.navigates[i] = i % 3 == 0;
      in_.flags[i] = kind_[i] == 5 ? kAgentNonCooperative : 0;
      if (kind_[i] == 3) in_.goal[i] = {in_.px[i] + 0.05f, in_.py[i]};  // home
    }
    for (auto* column : {&in_.pref_vx, &in_.pref_vy, &in_.vx, &in_.vy, &in_.vz})
      column->assign(n, 0.f);
    in_.status.assign(n, 0);
    in_.solve_flags.assign(n, 0);
    in_.constraints.assign(n, 0);
    in_.candidates.assign(n, 0);
    in_.neighbors.assign(n, 0);
  }

  // The next tick's inputs: the ones that move walked last tick's velocity for dt.
  const ReportInputs& Next(int tick, float dt) {
    for (size_t i = 0; i < in_.px.size(); ++i) {
      in_.px[i] += in_.vx[i] * dt;
      in_.py[i] += in_.vy[i] * dt;
      const Vec2 to_goal = in_.goal[i] - Vec2{in_.px[i], in_.py[i]};
      const float d = Length(to_goal);
      const Vec2 pref = in_.has_goal[i] && d > 1e-3f ? to_goal * (1.3f / d) : Vec2{1.1f, -0.4f};
      Vec2 v = pref;
      switch (kind_[i]) {
        case 0:  // stands: a jam
          v = {0.f, 0.f};
          break;
        case 1:  // swings from one side of its preference to the other
          v = pref + Vec2{-pref.y, pref.x} * ((tick % 2 == 0) ? 0.4f : -0.4f);
          break;
        case 2:  // creeps
          v = pref * 0.02f;
          break;
        default:
          break;
      }
      in_.pref_vx[i] = pref.x;
      in_.pref_vy[i] = pref.y;
      in_.vx[i] = v.x;
      in_.vy[i] = v.y;
      in_.vz[i] = std::uniform_real_distribution<float>(-0.2f, 0.2f)(rng_);
      in_.status[i] = static_cast<uint8_t>(rng_() % kSolveStatusCount);
      in_.solve_flags[i] = (rng_() % 4 == 0) ? kSolveJamStep : 0;
      in_.constraints[i] = static_cast<uint16_t>(rng_() % 40);
      in_.candidates[i] = static_cast<uint16_t>(rng_() % 60);
      in_.neighbors[i] = static_cast<uint16_t>(std::min<uint32_t>(in_.candidates[i], 10));
    }
    return in_;
  }

 private:
  std::mt19937 rng_;
  ReportInputs in_;
  std::vector<int> kind_;
};

PedestrianReportParams Params() {
  PedestrianReportParams p;
  p.frame = {UpAxis::kY, Handedness::kLeft};  // a frame that converts (Unity's)
  p.detection.stall_ticks = 7;
  p.detection.oscillation_window = 8;
  p.detection.oscillation_flips = 3;
  p.dt = 0.1f;
  p.reroute = true;
  return p;
}

template <class T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

bool SameFloat(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Field by field: the structs' padding is not theirs to compare.
bool SameMemory(const std::vector<AgentMemory>& a, const std::vector<AgentMemory>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const AgentMemory &x = a[i], &y = b[i];
    if (x.flip_history != y.flip_history || x.last_side != y.last_side ||
        x.ticks_without_progress != y.ticks_without_progress ||
        !SameFloat(x.progress_ref, y.progress_ref) || !SameFloat(x.goal.x, y.goal.x) ||
        !SameFloat(x.goal.y, y.goal.y) || x.route != y.route) {
      return false;
    }
  }
  return true;
}

bool SameSums(const PedestrianSums& a, const PedestrianSums& b) {
  bool same = a.candidates == b.candidates && a.neighbors == b.neighbors && a.solved == b.solved &&
              a.jam_steps == b.jam_steps && a.constraints_sum == b.constraints_sum &&
              a.constraints_max == b.constraints_max && a.deviation_sum == b.deviation_sum &&
              SameFloat(a.deviation_max, b.deviation_max) && a.oscillating == b.oscillating &&
              a.stalled == b.stalled && a.stall_episodes == b.stall_episodes &&
              a.stopped == b.stopped && a.reroutes == b.reroutes &&
              a.longest_stall_ticks == b.longest_stall_ticks;
  for (int k = 0; k < kSolveStatusCount; ++k) same = same && a.status_count[k] == b.status_count[k];
  return same;
}

class PedestrianReportTest : public BackendParamTest {};

TEST_P(PedestrianReportTest, GivesTheReferencesResultsFlagsMemoryAndSums) {
  const size_t n = 4000;
  const PedestrianReportParams params = Params();
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  Crowd crowd(n);
  ReportOutputs got(n), want(n), bare(n);
  bare.pref_vx.assign(n, -7.f);  // a value no tick writes: the bare outputs' locals stay so
  bare.constraints.assign(n, 999);
  std::vector<AgentMemory> last(n);    // the backend's memory of last tick, read apart
  uint64_t flagged[4] = {0, 0, 0, 0};  // oscillating, stalled, stopped, rerouted
  for (int tick = 0; tick < 60; ++tick) {
    SCOPED_TRACE(::testing::Message() << "tick " << tick);
    const ReportInputs& in = crowd.Next(tick, params.dt);
    // The backend reads last tick's memory from one buffer and writes another (as the
    // world calls it); the reference updates its own in place.
    std::swap(last, got.memory);
    const PedestrianSums sums = backend->ReportPedestrians(params, in.Scene(last), got.View());
    const PedestrianSums expected =
        reference->ReportPedestrians(params, in.Scene(want.memory), want.View());
    ASSERT_TRUE(SameSums(sums, expected));
    ASSERT_TRUE(SameBits(got.vx, want.vx) && SameBits(got.vy, want.vy) &&
                SameBits(got.vz, want.vz) && SameBits(got.pref_vx, want.pref_vx) &&
                SameBits(got.pref_vy, want.pref_vy) && SameBits(got.pref_vz, want.pref_vz));
    ASSERT_TRUE(SameBits(got.status, want.status) && SameBits(got.constraints, want.constraints) &&
                SameBits(got.flags, want.flags));
    ASSERT_TRUE(SameMemory(got.memory, want.memory));
    // Without the local columns the rest is the same, and the local columns untouched.
    const PedestrianSums bare_sums =
        backend->ReportPedestrians(params, in.Scene(bare.memory), bare.ViewWithoutLocal());
    ASSERT_TRUE(SameSums(bare_sums, sums));
    ASSERT_TRUE(SameBits(bare.vx, got.vx) && SameBits(bare.vy, got.vy) &&
                SameBits(bare.vz, got.vz) && SameBits(bare.status, got.status) &&
                SameBits(bare.flags, got.flags) && SameMemory(bare.memory, got.memory));
    ASSERT_TRUE(SameBits(bare.pref_vx, std::vector<float>(n, -7.f)) &&
                SameBits(bare.constraints, std::vector<uint16_t>(n, 999)));
    flagged[0] += sums.oscillating;
    flagged[1] += sums.stalled;
    flagged[2] += sums.stopped;
    flagged[3] += sums.reroutes;
  }
  // The scene sets off every detector.
  for (const uint64_t count : flagged) EXPECT_GT(count, 100u);
}

// The sums are the per-agent outputs added up (the deviation to within its unit), the
// same at one thread and at two.
TEST(PedestrianSumsTest, AreWhatTheOutputsAddUpToAtAnyThreadCount) {
  const size_t n = 3000;
  const PedestrianReportParams params = Params();
  auto cpu = CreateBackend(BackendKind::kCpu);
  Crowd crowd(n);
  ReportOutputs out(n);
  const int threads = omp_get_max_threads();
  for (int tick = 0; tick < 30; ++tick) {
    SCOPED_TRACE(::testing::Message() << "tick " << tick);
    const ReportInputs& in = crowd.Next(tick, params.dt);
    const std::vector<AgentMemory> memory_before = out.memory;
    omp_set_num_threads(1);
    const PedestrianSums one = cpu->ReportPedestrians(params, in.Scene(memory_before), out.View());
    omp_set_num_threads(threads > 1 ? threads : 2);
    const PedestrianSums s = cpu->ReportPedestrians(params, in.Scene(memory_before), out.View());
    omp_set_num_threads(threads);
    ASSERT_TRUE(SameSums(one, s));

    uint64_t solved = 0, candidates = 0, oscillating = 0, stalled = 0, stopped = 0, longest = 0,
             status[kSolveStatusCount] = {0, 0, 0};
    uint32_t constraints_max = 0;
    double deviation = 0, deviation_max = 0;
    for (size_t i = 0; i < n; ++i) {
      candidates += in.candidates[i];
      if (in.flags[i] & kAgentNonCooperative) {
        EXPECT_EQ(out.flags[i], 0);
        continue;
      }
      ++solved;
      ++status[in.status[i]];
      constraints_max = std::max<uint32_t>(constraints_max, in.constraints[i]);
      const double d = Length(Vec2{in.vx[i] - in.pref_vx[i], in.vy[i] - in.pref_vy[i]});
      deviation += d;
      deviation_max = std::max(deviation_max, d);
      oscillating += (out.flags[i] & kAgentOscillating) != 0;
      stopped += (out.flags[i] & kAgentStopped) != 0;
      if (out.flags[i] & kAgentStalled) {
        ++stalled;
        longest = std::max<uint64_t>(longest, out.memory[i].ticks_without_progress);
      }
    }
    EXPECT_EQ(s.solved, solved);
    EXPECT_EQ(s.candidates, candidates);
    for (int k = 0; k < kSolveStatusCount; ++k) EXPECT_EQ(s.status_count[k], status[k]);
    EXPECT_EQ(s.constraints_max, constraints_max);
    EXPECT_EQ(s.oscillating, oscillating);
    EXPECT_EQ(s.stalled, stalled);
    EXPECT_EQ(s.stopped, stopped);
    EXPECT_EQ(s.longest_stall_ticks, longest);
    EXPECT_EQ(static_cast<double>(s.deviation_max), deviation_max);
    // Each agent's deviation loses less than one unit (2^-20 m/s).
    const double summed = static_cast<double>(s.deviation_sum) / kDeviationUnits;
    EXPECT_LE(summed, deviation);
    EXPECT_GT(summed, deviation - static_cast<double>(solved) / kDeviationUnits);
  }
}

class PedestrianMoveTest : public BackendParamTest {};

TEST_P(PedestrianMoveTest, MovesAsTheReferenceDoesInEveryFrame) {
  const size_t n = 2000;
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> at(-1000.f, 1000.f), speed(-3.f, 3.f);
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  for (const Frame frame :
       {Frame{UpAxis::kZ, Handedness::kRight}, Frame{UpAxis::kZ, Handedness::kLeft},
        Frame{UpAxis::kY, Handedness::kRight}, Frame{UpAxis::kY, Handedness::kLeft}}) {
    std::vector<float> vx(n), vy(n), vz(n), rvx(n), rvy(n), rvz(n), px(n), py(n), pz(n);
    for (size_t i = 0; i < n; ++i) {
      vx[i] = speed(rng), vy[i] = speed(rng), vz[i] = speed(rng);
      rvx[i] = speed(rng), rvy[i] = speed(rng), rvz[i] = speed(rng);
      px[i] = at(rng), py[i] = at(rng), pz[i] = at(rng) * 0.01f;
    }
    const PedestrianMoveScene scene{vx.data(),  vy.data(),  vz.data(), rvx.data(),
                                    rvy.data(), rvz.data(), n};
    struct Moved {
      std::vector<float> px, py, pz, x, y, z, vx, vy, vz;
      PedestrianMoveOutput View() {
        return {px.data(), py.data(), pz.data(), x.data(), y.data(),
                z.data(),  vx.data(), vy.data(), vz.data()};
      }
    };
    Moved got{px,
              py,
              pz,
              std::vector<float>(n),
              std::vector<float>(n),
              std::vector<float>(n),
              std::vector<float>(n),
              std::vector<float>(n),
              std::vector<float>(n)};
    Moved want = got;
    for (int tick = 0; tick < 3; ++tick) {
      backend->MovePedestrians({frame, 0.1f}, scene, got.View());
      reference->MovePedestrians({frame, 0.1f}, scene, want.View());
    }
    EXPECT_TRUE(SameBits(got.px, want.px) && SameBits(got.py, want.py) &&
                SameBits(got.pz, want.pz));
    EXPECT_TRUE(SameBits(got.x, want.x) && SameBits(got.y, want.y) && SameBits(got.z, want.z));
    EXPECT_TRUE(SameBits(got.vx, rvx) && SameBits(got.vy, rvy) && SameBits(got.vz, rvz));
    // It moved: three ticks of 0.1 s at the velocity.
    EXPECT_NEAR(got.px[0], px[0] + 0.3f * vx[0], 1e-3f);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, PedestrianMoveTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         BackendParamName);

INSTANTIATE_TEST_SUITE_P(Backends, PedestrianReportTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
