// Backend::MoveVehicles: every backend moves vehicles as the reference's bicycle (written in
// double from docs/VEHICLES.md) does, within float rounding, in all four frames; and the cpu
// backend's move is the engine's StepBicycle bit for bit, so a world that moved its
// vehicles on the host before moves them the same on the backend. Backend::WriteVehicleDiscs
// likewise: the reference's footprint within float rounding, the engine's VehicleBody discs
// bit for bit on the cpu.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/math/scalar.cuh"
#include "kernels/orca/orca_types.h"
#include "kernels/vehicles/bicycle.cuh"
#include "kernels/vehicles/vehicle_disc_types.h"
#include "kernels/vehicles/vehicle_move_types.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

// Vehicles anywhere within 1 km, any heading, from standing to 30 m/s, wheels anywhere in
// their range, and controls also beyond theirs (the move clamps them).
struct Fleet {
  std::vector<float> px, py, pz, yaw, speed, wheel, steering, throttle, brake, progress;
  std::vector<VehicleBody> bodies;

  Fleet(size_t n, const BicycleParams& bike, uint32_t seed)
      : px(n),
        py(n),
        pz(n),
        yaw(n),
        speed(n),
        wheel(n),
        steering(n),
        throttle(n),
        brake(n),
        progress(n),
        bodies(n) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> at(-1000.f, 1000.f), angle(-kPi, kPi), unit(0.f, 1.f),
        control(-1.5f, 1.5f), size(1.f, 12.f);
    for (size_t i = 0; i < n; ++i) {
      px[i] = at(rng), py[i] = at(rng), pz[i] = 0.01f * at(rng);
      yaw[i] = angle(rng);
      speed[i] = i % 7 == 0 ? 0.f : 30.f * unit(rng);
      wheel[i] = bike.max_steer_angle * (2.f * unit(rng) - 1.f);
      steering[i] = control(rng), throttle[i] = control(rng), brake[i] = control(rng);
      progress[i] = 500.f * unit(rng);
      bodies[i] = {{px[i], py[i]}, HeadingOf(yaw[i]), size(rng), 0.3f * size(rng)};
    }
  }
  VehicleMoveScene Scene() const {
    return {px.data(),    py.data(),       pz.data(),       yaw.data(),
            speed.data(), wheel.data(),    steering.data(), throttle.data(),
            brake.data(), progress.data(), px.size()};
  }
};

struct Moved {
  std::vector<float> wheel, x, y, z, yaw, speed, hint;
  std::vector<VehicleBody> bodies;
  explicit Moved(const Fleet& fleet)
      : wheel(fleet.wheel),
        x(fleet.px.size()),
        y(x),
        z(x),
        yaw(x),
        speed(x),
        hint(x),
        bodies(fleet.bodies) {}
  VehicleMoveOutput View() {
    return {wheel.data(), bodies.data(), x.data(),     y.data(),
            z.data(),     yaw.data(),    speed.data(), hint.data()};
  }
};

bool SameFloat(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

const Frame kFrames[] = {{UpAxis::kZ, Handedness::kRight},
                         {UpAxis::kZ, Handedness::kLeft},
                         {UpAxis::kY, Handedness::kRight},
                         {UpAxis::kY, Handedness::kLeft}};

class VehicleMoveTest : public BackendParamTest {};

TEST_P(VehicleMoveTest, MovesAsTheReferenceBicycleDoesInEveryFrame) {
  const size_t n = 2000;
  BicycleParams bike;
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  for (const float lag : {0.3f, 0.f}) {
    bike.steering_time_constant = lag;
    for (const Frame& frame : kFrames) {
      SCOPED_TRACE(::testing::Message() << "lag " << lag << ", frame up " << int(frame.up)
                                        << " handedness " << int(frame.handedness));
      const Fleet fleet(n, bike, 31);
      Moved got(fleet), want(fleet);
      const VehicleMoveParams params{frame, bike, 0.1f};
      backend->MoveVehicles(params, fleet.Scene(), got.View());
      reference->MoveVehicles(params, fleet.Scene(), want.View());
      size_t stopped = 0;
      for (size_t i = 0; i < n; ++i) {
        // Float rounding of a 1 km coordinate is 6e-5 m; angles are small numbers.
        const float place = 2e-4f;
        ASSERT_NEAR(got.x[i], want.x[i], place) << i;
        ASSERT_NEAR(got.y[i], want.y[i], place) << i;
        ASSERT_NEAR(got.z[i], want.z[i], place) << i;
        ASSERT_NEAR(got.bodies[i].axle.x, want.bodies[i].axle.x, place) << i;
        ASSERT_NEAR(got.bodies[i].axle.y, want.bodies[i].axle.y, place) << i;
        ASSERT_NEAR(WrapAngle(got.yaw[i] - want.yaw[i]), 0.f, 2e-5f) << i;
        ASSERT_NEAR(got.bodies[i].heading.x, want.bodies[i].heading.x, 2e-5f) << i;
        ASSERT_NEAR(got.bodies[i].heading.y, want.bodies[i].heading.y, 2e-5f) << i;
        ASSERT_NEAR(got.speed[i], want.speed[i], 1e-5f) << i;
        ASSERT_NEAR(got.wheel[i], want.wheel[i], 1e-6f) << i;
        // The yaw stays in [-pi, pi); the size and the progress pass through.
        ASSERT_GE(got.yaw[i], -kPi);
        ASSERT_LT(got.yaw[i], kPi);
        ASSERT_TRUE(SameFloat(got.hint[i], fleet.progress[i])) << i;
        ASSERT_TRUE(SameFloat(got.bodies[i].length, fleet.bodies[i].length)) << i;
        ASSERT_TRUE(SameFloat(got.bodies[i].width, fleet.bodies[i].width)) << i;
        // Brakes stop a car; they never reverse it.
        ASSERT_GE(got.speed[i], 0.f);
        if (got.speed[i] == 0.f) ++stopped;
      }
      EXPECT_GT(stopped, 0u);  // some braked to a stand within the tick
      // Without lag the wheel is the clamped command at once.
      if (lag == 0.f) {
        EXPECT_FLOAT_EQ(got.wheel[0], Clamp(fleet.steering[0], -1.f, 1.f) * bike.max_steer_angle);
      }
    }
  }
}

TEST(VehicleMoveCpuTest, IsTheEngineBicycleBitForBit) {
  const size_t n = 2000;
  const BicycleParams bike;
  auto backend = CreateBackend(BackendKind::kCpu);
  for (const Frame& frame : kFrames) {
    const Fleet fleet(n, bike, 47);
    Moved got(fleet);
    backend->MoveVehicles({frame, bike, 0.05f}, fleet.Scene(), got.View());
    for (size_t i = 0; i < n; ++i) {
      VehicleState st{};
      st.position = {fleet.px[i], fleet.py[i], fleet.pz[i]};
      st.yaw = fleet.yaw[i];
      st.speed = fleet.speed[i];
      st.wheel_angle = fleet.wheel[i];
      StepBicycle(st, fleet.steering[i], fleet.throttle[i], fleet.brake[i], bike, 0.05f);
      const Vec3 p = frame.ToExternal(st.position);
      ASSERT_TRUE(SameFloat(got.x[i], p.x) && SameFloat(got.y[i], p.y) && SameFloat(got.z[i], p.z))
          << i;
      ASSERT_TRUE(SameFloat(got.yaw[i], frame.YawToExternal(st.yaw))) << i;
      ASSERT_TRUE(SameFloat(got.speed[i], st.speed) && SameFloat(got.wheel[i], st.wheel_angle))
          << i;
      ASSERT_TRUE(SameFloat(got.bodies[i].axle.x, st.position.x) &&
                  SameFloat(got.bodies[i].axle.y, st.position.y))
          << i;
      const Vec2 heading = HeadingOf(st.yaw);
      ASSERT_TRUE(SameFloat(got.bodies[i].heading.x, heading.x) &&
                  SameFloat(got.bodies[i].heading.y, heading.y))
          << i;
    }
  }
}

// The solve's agent columns after `first` pedestrian rows.
struct DiscRows {
  std::vector<uint32_t> id;
  std::vector<float> px, py, vx, vy, radius, max_speed, pref_vx, pref_vy;
  std::vector<uint8_t> flags;
  uint32_t first;
  DiscRows(uint32_t first_id, size_t discs)
      : id(discs),
        px(discs),
        py(discs),
        vx(discs),
        vy(discs),
        radius(discs),
        max_speed(discs),
        pref_vx(discs),
        pref_vy(discs),
        flags(discs),
        first(first_id) {}
  VehicleDiscOutput View() {
    return {first,
            {id.data(), px.data(), py.data(), vx.data(), vy.data(), radius.data(), max_speed.data(),
             pref_vx.data(), pref_vy.data(), flags.data()}};
  }
};

class VehicleDiscsTest : public BackendParamTest {};

TEST_P(VehicleDiscsTest, CoverEachBodyAsTheReferenceFootprintDoes) {
  const size_t m = 1500;
  const uint32_t pedestrians = 777;
  const Fleet fleet(m, BicycleParams{}, 53);
  std::vector<VehicleBody> bodies = fleet.bodies;
  bodies[0].length = 400.f, bodies[0].width = 0.5f;  // a needle: at most 32 discs
  bodies[1].length = 1.f, bodies[1].width = 3.f;     // wider than long: one disc
  std::vector<float> speed = fleet.speed;
  speed[2] = 0.f;  // a standing car's discs still count as moving a little
  std::vector<uint32_t> start(m + 1, 0);
  for (size_t v = 0; v < m; ++v) start[v + 1] = start[v] + bodies[v].DiscCount();
  const size_t discs = start[m];
  ASSERT_EQ(start[1] - start[0], static_cast<uint32_t>(VehicleBody::kMaxDiscs));
  ASSERT_EQ(start[2] - start[1], 1u);
  const VehicleDiscScene scene{bodies.data(), speed.data(), start.data(), m};
  DiscRows got(pedestrians, discs), want(pedestrians, discs);
  CreateBackend(GetParam())->WriteVehicleDiscs(scene, got.View());
  CreateBackend(BackendKind::kReference)->WriteVehicleDiscs(scene, want.View());
  for (size_t k = 0; k < discs; ++k) {
    ASSERT_EQ(got.id[k], pedestrians + k);
    ASSERT_EQ(want.id[k], pedestrians + k);
    ASSERT_EQ(got.flags[k], kAgentNonCooperative);
    ASSERT_EQ(want.flags[k], kAgentNonCooperative);
    ASSERT_NEAR(got.px[k], want.px[k], 2e-4f) << k;
    ASSERT_NEAR(got.py[k], want.py[k], 2e-4f) << k;
    ASSERT_NEAR(got.radius[k], want.radius[k], 1e-5f) << k;
    ASSERT_NEAR(got.vx[k], want.vx[k], 1e-5f) << k;
    ASSERT_NEAR(got.vy[k], want.vy[k], 1e-5f) << k;
    ASSERT_NEAR(got.max_speed[k], want.max_speed[k], 1e-5f) << k;
    // A vehicle's discs are non-cooperative agents that want what they do.
    ASSERT_TRUE(SameFloat(got.pref_vx[k], got.vx[k]) && SameFloat(got.pref_vy[k], got.vy[k]));
  }
  EXPECT_FLOAT_EQ(got.max_speed[start[2]], 0.01f);
  // Each body's discs reach its corners: the rear-left corner of the first car lies within
  // its first disc.
  const VehicleBody& car = bodies[3];
  const Vec2 left{-car.heading.y, car.heading.x};
  const Vec2 corner = car.axle - car.rear() * car.heading + 0.5f * car.width * left;
  const size_t k = start[3];
  EXPECT_LE(Length(corner - Vec2{got.px[k], got.py[k]}), got.radius[k] * (1.f + 1e-5f));
}

TEST(VehicleDiscsCpuTest, AreTheEngineFootprintBitForBit) {
  const size_t m = 1500;
  const Fleet fleet(m, BicycleParams{}, 59);
  std::vector<uint32_t> start(m + 1, 0);
  for (size_t v = 0; v < m; ++v) start[v + 1] = start[v] + fleet.bodies[v].DiscCount();
  DiscRows got(0, start[m]);
  CreateBackend(BackendKind::kCpu)
      ->WriteVehicleDiscs({fleet.bodies.data(), fleet.speed.data(), start.data(), m}, got.View());
  for (size_t v = 0; v < m; ++v) {
    const VehicleBody& body = fleet.bodies[v];
    const Vec2 velocity = body.heading * fleet.speed[v];
    for (int j = 0; j < body.DiscCount(); ++j) {
      const size_t k = start[v] + static_cast<size_t>(j);
      const Vec2 c = body.Disc(j);
      ASSERT_TRUE(SameFloat(got.px[k], c.x) && SameFloat(got.py[k], c.y)) << v << " " << j;
      ASSERT_TRUE(SameFloat(got.radius[k], body.DiscRadius()));
      ASSERT_TRUE(SameFloat(got.vx[k], velocity.x) && SameFloat(got.vy[k], velocity.y));
      ASSERT_TRUE(SameFloat(got.max_speed[k], std::max(fleet.speed[v], 0.01f)));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, VehicleDiscsTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         BackendParamName);

INSTANTIATE_TEST_SUITE_P(Backends, VehicleMoveTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
