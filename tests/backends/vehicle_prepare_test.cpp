// Backend::PrepareVehicles: every backend makes the snapshot's vehicles ready for the
// follower as the reference (written from docs/VEHICLES.md, in double) does: the lane each
// spline id names, the pose in the internal frame in all four frames, the world's defaults
// where a column is absent, the progress hint (the snapshot's, else the memory's, else the
// nearest point of the whole lane within the engine's metre samples), the share of a turn
// the caller's physics makes before the move, read from the motion since last tick, and
// the memory updated in place. The cpu backend is the engine's own rules bit for bit
// (UpdateTurnBeforeMove, ProjectOnWholeLane), which the world ran on the host before.
#include "kernels/vehicles/vehicle_prepare.cuh"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/math/scalar.cuh"
#include "kernels/vehicles/spline.h"
#include "kernels/vehicles/turn_before_move.h"
#include "kernels/vehicles/vehicle_prepare_types.h"
#include "kernels/world/world_validate.h"
#include "tests/backends/backend_param.h"

namespace throng {
namespace {

using testing::BackendParamName;
using testing::BackendParamTest;

bool SameFloat(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

const Frame kFrames[] = {{UpAxis::kZ, Handedness::kRight},
                         {UpAxis::kZ, Handedness::kLeft},
                         {UpAxis::kY, Handedness::kRight},
                         {UpAxis::kY, Handedness::kLeft}};

// Three lanes whose ids are not in order: a straight road, a closed loop and an S-bend,
// internal frame.
std::vector<SplineDesc> Lanes() {
  std::vector<SplineDesc> lanes(3);
  lanes[0].id = 40;
  lanes[0].points = {{-100.f, 0.f, 0.f}, {0.f, 0.f, 0.f}, {100.f, 0.f, 0.f}};
  lanes[1].id = 7;
  lanes[1].closed = true;
  for (int k = 0; k < 12; ++k) {
    const float a = 2.f * kPi * static_cast<float>(k) / 12.f;
    lanes[1].points.push_back({300.f + 50.f * std::cos(a), 50.f * std::sin(a), 1.f});
  }
  lanes[2].id = 19;
  lanes[2].points = {{0.f, 200.f, 0.f},
                     {40.f, 230.f, 0.f},
                     {80.f, 200.f, 0.f},
                     {120.f, 170.f, 0.f},
                     {160.f, 200.f, 0.f}};
  return lanes;
}

// The snapshot's vehicles near their lanes (in the caller's frame), their memory, and the
// internal pose each one has. Memory by i % 4: never seen; seen with a progress and a
// tick's motion turning 0.05 rad with a share of 0, 0.5 or 1 before the move; seen with
// no motion (the estimate stays); seen a tick ago with no dt yet (a restored world).
struct Fleet {
  std::vector<uint32_t> id, spline_id, profile;
  std::vector<float> x, y, z, yaw, speed, hint, length, width, max_speed;
  std::vector<VehicleMemory> memory;
  std::vector<float> share;  // the share each motion was made with (-1: none)

  Fleet(size_t n, const Frame& frame, uint32_t seed) : memory(n), share(n, -1.f) {
    const std::vector<SplineDesc> lanes = Lanes();
    const SplineSet set = BuildSplineSet(lanes);
    const SplineSetView view = set.View();
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.f, 1.f), angle(-kPi, kPi);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t lane = static_cast<uint32_t>(i % 3);
      const float s = (0.05f + 0.9f * unit(rng)) * view.headers[lane].length;
      Vec3 at, tangent;
      FrameAt(view, lane, s, &at, &tangent);
      const Vec2 side = RightOf(Normalize(Vec2{tangent.x, tangent.y}));
      const float aside = 3.f * (2.f * unit(rng) - 1.f);
      const Vec3 p{at.x + side.x * aside, at.y + side.y * aside, at.z};
      const float heading = angle(rng);
      const float v = 5.f + 25.f * unit(rng);
      const Vec3 caller = frame.ToExternal(p);
      id.push_back(static_cast<uint32_t>(1000 + i));
      spline_id.push_back(lanes[lane].id);
      x.push_back(caller.x), y.push_back(caller.y), z.push_back(caller.z);
      yaw.push_back(frame.YawToExternal(heading));
      speed.push_back(v);
      hint.push_back(s + 0.5f);
      length.push_back(3.f + 9.f * unit(rng));
      width.push_back(1.5f + unit(rng));
      max_speed.push_back(10.f + 20.f * unit(rng));
      profile.push_back(static_cast<uint32_t>(i % 2));
      VehicleMemory& m = memory[i];
      m.wheel_angle = 0.2f * (2.f * unit(rng) - 1.f);
      m.turn_before_move = 0.25f;
      switch (i % 4) {
        case 0:
          break;  // never seen: the defaults
        case 1: {
          const float f = 0.5f * static_cast<float>(i % 3);
          const float turn = (i % 8 == 1 ? 0.05f : -0.05f);
          const float from_yaw = heading - turn;
          const float chord = v * 0.1f;
          const Vec2 dir = HeadingOf(from_yaw + f * turn);
          m.progress = s;
          m.last_position = {p.x - chord * dir.x, p.y - chord * dir.y};
          m.last_yaw = WrapAngle(from_yaw);
          m.last_speed = v;
          m.last_dt = 0.1f;
          share[i] = f;
          break;
        }
        case 2:
          m.progress = s;
          m.last_position = {p.x, p.y};
          m.last_yaw = heading;
          m.last_speed = v;
          m.last_dt = 0.1f;
          break;
        default:
          m.progress = s;
          break;
      }
    }
  }

  // With every optional column, or with none but the height (a ground coordinate in the
  // frames with Y up).
  VehiclePrepareScene Scene(bool optional, const LaneLookup& lanes) {
    auto maybe = [optional](const auto& column) { return optional ? column.data() : nullptr; };
    return {id.data(),        spline_id.data(), x.data(),    y.data(),      z.data(),
            yaw.data(),       speed.data(),     maybe(hint), maybe(length), maybe(width),
            maybe(max_speed), maybe(profile),   lanes,       memory.data(), id.size()};
  }
};

struct Prepared {
  std::vector<uint32_t> id, spline_id, lane;
  std::vector<float> px, py, pz, yaw, speed, hint, max_speed, wheel, turn;
  std::vector<uint16_t> profile;
  std::vector<VehicleBody> bodies;
  std::vector<VehicleMemory> memory;  // this tick's, apart from the fleet's last tick's
  explicit Prepared(size_t n)
      : id(n),
        spline_id(n),
        lane(n),
        px(n),
        py(n),
        pz(n),
        yaw(n),
        speed(n),
        hint(n),
        max_speed(n),
        wheel(n),
        turn(n),
        profile(n),
        bodies(n),
        memory(n) {}
  VehiclePrepareOutput View() {
    return {id.data(),   spline_id.data(), px.data(),   py.data(),        pz.data(),
            yaw.data(),  speed.data(),     hint.data(), max_speed.data(), wheel.data(),
            turn.data(), profile.data(),   lane.data(), bodies.data(),    memory.data()};
  }
};

// The lanes by id, as a world lays them out (LaneLookup): 7, 19, 40 are lanes 1, 2, 0.
struct Lookup {
  std::vector<uint32_t> ids{7, 19, 40}, index{1, 2, 0};
  LaneLookup View() const { return {ids.data(), index.data(), ids.size()}; }
};

constexpr VehiclePrepareParams kDefaults{{}, 4.5f, 1.8f, 13.9f, 0.1f};

class VehiclePrepareTest : public BackendParamTest {};

TEST_P(VehiclePrepareTest, PreparesAsTheReferenceDoesInEveryFrame) {
  const size_t n = 400;
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  backend->SetSplines(Lanes());
  reference->SetSplines(Lanes());
  const Lookup lookup;
  const float loop = BuildSplineSet(Lanes()).View().headers[1].length;  // the closed lane
  for (const bool optional : {true, false}) {
    for (const Frame& frame : kFrames) {
      SCOPED_TRACE(::testing::Message()
                   << "optional columns " << optional << ", frame up " << int(frame.up)
                   << " handedness " << int(frame.handedness));
      Fleet got_fleet(n, frame, 5), want_fleet(n, frame, 5);
      Prepared got(n), want(n);
      VehiclePrepareParams params = kDefaults;
      params.frame = frame;
      backend->PrepareVehicles(params, got_fleet.Scene(optional, lookup.View()), got.View());
      reference->PrepareVehicles(params, want_fleet.Scene(optional, lookup.View()), want.View());
      size_t projected = 0, read = 0;
      for (size_t i = 0; i < n; ++i) {
        const VehicleMemory &gm = got.memory[i], &wm = want.memory[i];
        ASSERT_EQ(got.lane[i], i % 3) << i;
        ASSERT_EQ(got.lane[i], want.lane[i]) << i;
        ASSERT_EQ(got.id[i], got_fleet.id[i]) << i;
        ASSERT_EQ(got.spline_id[i], got_fleet.spline_id[i]) << i;
        // The frames swap and negate axes: exact on both.
        ASSERT_TRUE(SameFloat(got.px[i], want.px[i]) && SameFloat(got.py[i], want.py[i]) &&
                    SameFloat(got.pz[i], want.pz[i]))
            << i;
        ASSERT_TRUE(SameFloat(got.yaw[i], want.yaw[i])) << i;
        ASSERT_TRUE(SameFloat(got.speed[i], got_fleet.speed[i])) << i;
        ASSERT_TRUE(SameFloat(got.max_speed[i], optional ? got_fleet.max_speed[i] : 13.9f)) << i;
        ASSERT_TRUE(SameFloat(got.wheel[i], got_fleet.memory[i].wheel_angle)) << i;
        if (optional) {
          ASSERT_EQ(got.profile[i], got_fleet.profile[i]) << i;
        }
        // The body: its axle and heading, its size or the world's.
        const VehicleBody &gb = got.bodies[i], &wb = want.bodies[i];
        ASSERT_TRUE(SameFloat(gb.axle.x, got.px[i]) && SameFloat(gb.axle.y, got.py[i])) << i;
        ASSERT_NEAR(gb.heading.x, wb.heading.x, 1e-6f) << i;
        ASSERT_NEAR(gb.heading.y, wb.heading.y, 1e-6f) << i;
        ASSERT_TRUE(SameFloat(gb.length, wb.length) && SameFloat(gb.width, wb.width)) << i;
        ASSERT_TRUE(SameFloat(gb.length, optional ? got_fleet.length[i] : 4.5f)) << i;
        // The share of the turn made before the move, read from the motion.
        ASSERT_NEAR(got.turn[i], want.turn[i], 1e-3f) << i;
        if (got_fleet.share[i] >= 0.f) {
          ASSERT_NEAR(got.turn[i], got_fleet.share[i], 2e-3f) << i;
          ++read;
        } else {
          ASSERT_EQ(got.turn[i], 0.25f) << i;  // the estimate the memory had
        }
        ASSERT_TRUE(SameFloat(gm.turn_before_move, got.turn[i])) << i;
        ASSERT_TRUE(SameFloat(wm.turn_before_move, want.turn[i])) << i;
        // The memory keeps this tick's pose for the next.
        ASSERT_TRUE(SameFloat(gm.last_position.x, got.px[i]) &&
                    SameFloat(gm.last_position.y, got.py[i]))
            << i;
        ASSERT_TRUE(SameFloat(gm.last_yaw, got.yaw[i]) && SameFloat(gm.last_speed, got.speed[i]) &&
                    SameFloat(gm.last_dt, 0.1f))
            << i;
        ASSERT_TRUE(SameFloat(wm.last_position.x, want.px[i]) && SameFloat(wm.last_dt, 0.1f)) << i;
        // What the follower completes comes through as it was, for it to read.
        ASSERT_TRUE(SameFloat(gm.progress, got_fleet.memory[i].progress) &&
                    SameFloat(gm.wheel_angle, got_fleet.memory[i].wheel_angle))
            << i;
        ASSERT_TRUE(SameFloat(wm.progress, want_fleet.memory[i].progress)) << i;
        // The hint: the snapshot's, else the memory's, else the whole lane's nearest point.
        if (optional) {
          ASSERT_TRUE(SameFloat(got.hint[i], got_fleet.hint[i])) << i;
        } else if (i % 4 != 0) {
          ASSERT_TRUE(SameFloat(got.hint[i], got_fleet.memory[i].progress)) << i;
        } else {
          // The engine keeps its best sample, at most a metre apart along the lane.
          // On the closed lane, 0 and the lap's length are one place.
          float d = std::fabs(got.hint[i] - want.hint[i]);
          if (i % 3 == 1) d = std::fmin(d, loop - d);
          ASSERT_LE(d, 1.f) << i << " lane " << i % 3;
          ++projected;
        }
      }
      EXPECT_GT(read, n / 8);
      if (!optional) {
        EXPECT_GT(projected, n / 8);
      }
    }
  }
}

// Lanes named by ids in any order; a snapshot that lists a lane's id twice gets the same lane.
TEST(LaneLookupTest, FindsEveryIdsLane) {
  const Lookup lookup;
  const LaneLookup v = lookup.View();
  EXPECT_EQ(LaneOf(v, 40), 0u);
  EXPECT_EQ(LaneOf(v, 7), 1u);
  EXPECT_EQ(LaneOf(v, 19), 2u);
}

TEST(VehiclePrepareCpuTest, IsTheEngineRulesBitForBit) {
  const size_t n = 600;
  auto backend = CreateBackend(BackendKind::kCpu);
  backend->SetSplines(Lanes());
  const SplineSet set = BuildSplineSet(Lanes());
  const Lookup lookup;
  for (const Frame& frame : kFrames) {
    Fleet fleet(n, frame, 11);
    const std::vector<VehicleMemory> before = fleet.memory;
    Prepared got(n);
    VehiclePrepareParams params = kDefaults;
    params.frame = frame;
    backend->PrepareVehicles(params, fleet.Scene(false, lookup.View()), got.View());
    for (size_t i = 0; i < n; ++i) {
      const VehicleMemory& m = before[i];
      const Vec3 p = frame.ToInternal({fleet.x[i], fleet.y[i], fleet.z[i]});
      const float yaw = frame.YawToInternal(fleet.yaw[i]);
      const float turn =
          m.last_dt > 0.f
              ? UpdateTurnBeforeMove(m.turn_before_move, m.last_position, m.last_yaw, {p.x, p.y},
                                     yaw, MaxF(m.last_speed, fleet.speed[i]) * m.last_dt)
              : m.turn_before_move;
      ASSERT_TRUE(SameFloat(got.turn[i], turn)) << i;
      const float hint =
          m.progress >= 0.f ? m.progress : ProjectOnWholeLane(set.View(), got.lane[i], p);
      ASSERT_TRUE(SameFloat(got.hint[i], hint)) << i;
      const Vec2 heading = HeadingOf(yaw);
      ASSERT_TRUE(SameFloat(got.bodies[i].heading.x, heading.x) &&
                  SameFloat(got.bodies[i].heading.y, heading.y))
          << i;
    }
  }
}

// With the checks on, each backend refuses the rows the host's checks refuse (a value out
// of its column's rule, a spline that is not a lane, a profile past the world's count),
// prepares none of them, and refuses none of a good fleet; the reference counts the same.
TEST_P(VehiclePrepareTest, RefusesTheRowsTheChecksRefuseAsTheReferenceDoes) {
  const size_t n = 5000;  // past the cpu's one-thread passes
  auto backend = CreateBackend(GetParam());
  auto reference = CreateBackend(BackendKind::kReference);
  backend->SetSplines(Lanes());
  reference->SetSplines(Lanes());
  const Lookup lookup;
  const Frame frame = kFrames[0];
  VehiclePrepareParams params = kDefaults;
  params.checks = VehicleChecksForPreparation();
  params.checks.profiles = 1;  // profiles 0 and 1 are the world's
  auto refused = [&](Backend& b, Fleet fleet, Prepared* out) {
    return b.PrepareVehicles(params, fleet.Scene(true, lookup.View()), out->View());
  };
  const Fleet good(n, frame, 9);
  Prepared first(n);
  EXPECT_EQ(refused(*backend, good, &first), 0u);
  Prepared unused(n);
  EXPECT_EQ(refused(*reference, good, &unused), 0u);
  struct Fault {
    size_t row;
    std::function<void(Fleet&, size_t)> apply;
  };
  const Fault faults[] = {
      {4001, [](Fleet& f, size_t i) { f.x[i] = NAN; }},
      {4003, [](Fleet& f, size_t i) { f.y[i] = 3e6f; }},
      {4005, [](Fleet& f, size_t i) { f.z[i] = -INFINITY; }},
      {4007, [](Fleet& f, size_t i) { f.yaw[i] = 1e9f; }},
      {4009, [](Fleet& f, size_t i) { f.speed[i] = -1.f; }},
      {4011, [](Fleet& f, size_t i) { f.hint[i] = NAN; }},
      {4013, [](Fleet& f, size_t i) { f.length[i] = 0.f; }},
      {4015, [](Fleet& f, size_t i) { f.width[i] = 1e6f; }},
      {4017, [](Fleet& f, size_t i) { f.max_speed[i] = -3.f; }},
      {4019, [](Fleet& f, size_t i) { f.spline_id[i] = 8; }},
      {4021, [](Fleet& f, size_t i) { f.profile[i] = 2; }},
  };
  Fleet bad = good;
  for (const Fault& fault : faults) {
    Fleet one = good;
    fault.apply(one, fault.row);
    SCOPED_TRACE(::testing::Message() << "row " << fault.row);
    std::string host;
    try {  // the host's checks refuse it too
      WorldConfig config;
      config.splines = Lanes();
      config.vehicle_profiles.resize(1);
      VehicleSnapshot v;
      v.id = one.id, v.spline_id = one.spline_id, v.x = one.x, v.y = one.y, v.z = one.z;
      v.yaw = one.yaw, v.speed = one.speed, v.progress_hint = one.hint;
      v.length = one.length, v.width = one.width, v.max_speed = one.max_speed;
      v.profile = one.profile;
      ValidateVehicles(config, v);
    } catch (const std::invalid_argument& e) {
      host = e.what();
    }
    EXPECT_NE(host, "");
    Prepared out = first;
    EXPECT_EQ(refused(*backend, one, &out), 1u);
    EXPECT_TRUE(SameFloat(out.px[fault.row], first.px[fault.row]));  // as it was
    EXPECT_EQ(refused(*reference, one, &unused), 1u);
    fault.apply(bad, fault.row);
  }
  const uint64_t all = sizeof faults / sizeof faults[0];
  EXPECT_EQ(refused(*backend, bad, &unused), all);
  EXPECT_EQ(refused(*reference, bad, &unused), all);
}

INSTANTIATE_TEST_SUITE_P(Backends, VehiclePrepareTest,
                         ::testing::Values(BackendKind::kCpu, BackendKind::kCuda),
                         BackendParamName);

}  // namespace
}  // namespace throng
