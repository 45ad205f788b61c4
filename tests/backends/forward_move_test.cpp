// Backend::MoveForwardAgents: every backend moves forward agents as the reference does
// (written from docs/FORWARD.md's motion rule, in float), bit for bit, in all four frames.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/steering/forward_move_types.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

template <class T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

struct Next {
  std::vector<float> x, y, z, fx, fy, fz;
  explicit Next(size_t n) : x(n), y(n), z(n), fx(n), fy(n), fz(n) {}
  ForwardMoveOutput View() {
    return {x.data(), y.data(), z.data(), fx.data(), fy.data(), fz.data()};
  }
};

class ForwardMoveTest : public BackendParamTest {};

TEST_P(ForwardMoveTest, MovesAsTheReferenceDoesInEveryFrame) {
  const size_t n = 3000;
  std::mt19937 rng(61);
  std::uniform_real_distribution<float> at(-2000.f, 2000.f), unit(-1.f, 1.f), speed(0.f, 8.f);
  std::vector<Vec3> position(n), move(n);
  std::vector<float> speeds(n);
  for (size_t i = 0; i < n; ++i) {
    position[i] = {at(rng), at(rng), 0.05f * at(rng)};
    move[i] = Normalize(Vec3{unit(rng), unit(rng), i % 2 == 0 ? 0.f : unit(rng)});
    speeds[i] = speed(rng);
  }
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  for (const Frame frame :
       {Frame{UpAxis::kZ, Handedness::kRight}, Frame{UpAxis::kZ, Handedness::kLeft},
        Frame{UpAxis::kY, Handedness::kRight}, Frame{UpAxis::kY, Handedness::kLeft}}) {
    const ForwardMoveScene scene{position.data(), move.data(), speeds.data(), n};
    Next got(n), want(n);
    backend->MoveForwardAgents({frame, 0.05f}, scene, got.View());
    reference->MoveForwardAgents({frame, 0.05f}, scene, want.View());
    EXPECT_TRUE(SameBits(got.x, want.x) && SameBits(got.y, want.y) && SameBits(got.z, want.z));
    EXPECT_TRUE(SameBits(got.fx, want.fx) && SameBits(got.fy, want.fy) &&
                SameBits(got.fz, want.fz));
    // It moved speed * dt along its direction: the distance between the caller's old and
    // new positions (the frames keep lengths).
    const Vec3 from = frame.ToExternal(position[1]);
    const float moved = Length(Vec3{got.x[1], got.y[1], got.z[1]} - from);
    EXPECT_NEAR(moved, speeds[1] * 0.05f, 1e-3f);
    const Vec3 heading = frame.ToExternal(move[1]);
    EXPECT_FLOAT_EQ(got.fx[1], heading.x);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ForwardMoveTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
