// Backend::BrakeForPaths: every backend caps target speeds, throttle and brake as the
// reference (written in double from docs/WORLD.md) does, within float rounding, and counts
// the same vehicles slowed; the cpu backend is the world's host loop before it, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/vehicles/path_check_types.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

constexpr float kGap = 3.f;
const std::vector<BrakingProfile> kProfiles = {{6.f, 0.5f}, {3.f, 0.2f}, {9.f, 1.5f}};

// A tick's vehicles: nothing ahead, something inside the gap, something further on.
struct Traffic {
  std::vector<float> clear, speed, target, throttle, brake;
  std::vector<uint16_t> profile;
  explicit Traffic(size_t n, uint32_t seed)
      : clear(n), speed(n), target(n), throttle(n), brake(n), profile(n) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.f, 1.f);
    for (size_t i = 0; i < n; ++i) {
      const int kind = static_cast<int>(i % 4);
      clear[i] = kind == 0   ? std::numeric_limits<float>::infinity()
                 : kind == 1 ? kGap * unit(rng)
                             : 100.f * unit(rng);
      speed[i] = 30.f * unit(rng);
      target[i] = 30.f * unit(rng);
      throttle[i] = unit(rng);
      brake[i] = unit(rng);
      profile[i] = static_cast<uint16_t>(i % kProfiles.size());
    }
  }
  PathBrakingScene Scene(bool profiles) const {
    return {kGap,
            clear.data(),
            speed.data(),
            profiles ? profile.data() : nullptr,
            kProfiles.data(),
            kProfiles.size(),
            clear.size()};
  }
  PathBrakingOutput Out() { return {target.data(), throttle.data(), brake.data()}; }
};

class PathBrakingTest : public BackendParamTest {};

TEST_P(PathBrakingTest, CapsAsTheReferenceDoes) {
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  for (const bool profiles : {true, false}) {
    SCOPED_TRACE(profiles ? "with profiles" : "the world's follower for all");
    const Traffic before(4000, 67);
    Traffic got = before, want = before;
    const uint64_t slowed = backend->BrakeForPaths(got.Scene(profiles), got.Out());
    const uint64_t slowed_ref = reference->BrakeForPaths(want.Scene(profiles), want.Out());
    EXPECT_EQ(slowed, slowed_ref);
    EXPECT_GT(slowed, 1000u);
    EXPECT_LT(slowed, 4000u);
    uint64_t changed = 0;
    for (size_t i = 0; i < before.clear.size(); ++i) {
      ASSERT_NEAR(got.target[i], want.target[i], 1e-5f * (1.f + want.target[i])) << i;
      ASSERT_NEAR(got.throttle[i], want.throttle[i], 1e-5f) << i;
      ASSERT_NEAR(got.brake[i], want.brake[i], 1e-5f) << i;
      changed += got.target[i] != before.target[i];
      if (std::isinf(before.clear[i])) {  // nothing ahead: the follower's answers stand
        ASSERT_EQ(got.target[i], before.target[i]);
        ASSERT_EQ(got.brake[i], before.brake[i]);
      }
      if (before.clear[i] <= kGap && before.target[i] > 0.f) {  // no room: stop
        ASSERT_EQ(got.target[i], 0.f);
        ASSERT_EQ(got.throttle[i], 0.f);
        if (before.speed[i] > 0.f) {
          ASSERT_GT(got.brake[i], 0.f);
        }
      }
    }
    EXPECT_EQ(changed, slowed);
  }
}

// The world's loop before the braking became a backend call.
uint64_t HostLoop(Traffic* t, bool profiles) {
  uint64_t braking = 0;
  for (size_t i = 0; i < t->clear.size(); ++i) {
    const BrakingProfile own = kProfiles[profiles ? t->profile[i] : 0];
    const float decel = own.max_brake_decel;
    float cap = std::numeric_limits<float>::infinity();
    if (std::isfinite(t->clear[i])) {
      const float room = t->clear[i] - kGap;
      cap = room > 0.f ? std::sqrt(2.f * decel * room) : 0.f;
    }
    if (cap >= t->target[i]) continue;
    ++braking;
    t->target[i] = cap;
    const float speed = t->speed[i], gain = own.speed_gain;
    t->throttle[i] = std::clamp((cap - speed) * gain, 0.f, 1.f);
    const float room = std::max(t->clear[i] - kGap, 1e-3f);
    const float needed = speed > cap ? speed * speed / (2.f * room) / decel : 0.f;
    t->brake[i] = std::clamp(std::max((speed - cap) * gain, needed), 0.f, 1.f);
  }
  return braking;
}

TEST(PathBrakingCpuTest, IsTheWorldsHostLoopBitForBit) {
  auto backend = CreateBackend(BackendKind::kCpu);
  for (const bool profiles : {true, false}) {
    Traffic got(4000, 71);
    Traffic want = got;
    EXPECT_EQ(backend->BrakeForPaths(got.Scene(profiles), got.Out()), HostLoop(&want, profiles));
    const size_t bytes = got.target.size() * sizeof(float);
    EXPECT_EQ(std::memcmp(got.target.data(), want.target.data(), bytes), 0);
    EXPECT_EQ(std::memcmp(got.throttle.data(), want.throttle.data(), bytes), 0);
    EXPECT_EQ(std::memcmp(got.brake.data(), want.brake.data(), bytes), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, PathBrakingTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
