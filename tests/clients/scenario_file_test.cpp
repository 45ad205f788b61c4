// What a game built against the installed client alone relies on (docs/CLIENTS.md): a
// scenario file from throng-scenario reads back as the very messages the engine's bridge
// makes, and VehicleMotion moves vehicles exactly as throngd's own integration does.
#include "throng/scenario_file.h"

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "clients/cpp/scenario_proto.h"
#include "kernels/scenarios/scenario.h"
#include "throng/vehicle_motion.h"

namespace throng::client {
namespace {

using google::protobuf::util::MessageDifferencer;

TEST(ScenarioFile, ReadsBackWhatThrongScenarioWrites) {
  for (const char* name : {"town", "drones", "bottleneck_1m"}) {
    SCOPED_TRACE(name);
    const scenarios::Scenario scenario = scenarios::MakeScenario(name, 300, 7);
    const ProtoScenario expected = ScenarioToProto(scenario);
    const ProtoScenario read = ParseScenarioJson(ScenarioToProtoJson(scenario));
    EXPECT_EQ(read.name, name);
    EXPECT_EQ(read.suggested_ticks, static_cast<uint32_t>(scenario.suggested_ticks));
    EXPECT_GT(read.suggested_ticks, 0u);
    EXPECT_EQ(read.tick, expected.tick);
    EXPECT_EQ(read.dt, expected.dt);
    EXPECT_TRUE(MessageDifferencer::Equals(read.config, expected.config));
    EXPECT_TRUE(MessageDifferencer::Equals(read.agents, expected.agents));
    EXPECT_TRUE(MessageDifferencer::Equals(read.vehicles, expected.vehicles));
    EXPECT_TRUE(MessageDifferencer::Equals(read.forward, expected.forward));
    EXPECT_GT(read.agents.id_size() + read.forward.id_size(), 0);
  }
}

std::string ErrorOf(const std::string& json) {
  try {
    ParseScenarioJson(json);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ScenarioFile, SaysWhichPartIsWrong) {
  EXPECT_EQ(ErrorOf("not json"), "scenario: not a JSON object");
  EXPECT_EQ(ErrorOf(R"({"format": "v0"})"),
            "scenario: format is \"v0\", expected \"throng.v1\" (write it with "
            "throng-scenario --proto)");
  EXPECT_NE(ErrorOf(R"({"format": "throng.v1", "config": {"no_such_field": 1}})")
                .find("scenario config: "),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"format": "throng.v1", "initial": {"agents": {"x": ["a"]}}})")
                .find("scenario initial.agents: "),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"format": "throng.v1", "initial": {"dt": "fast"}})").find("scenario: "),
            std::string::npos);
  EXPECT_EQ(ErrorOf(R"({"format": "throng.v1", "initial": 3})"), "scenario initial: not an object");
  EXPECT_THROW(LoadScenarioFile("/nonexistent/town.json"), std::runtime_error);
}

// The engine integrates (StepOptions.integrate) with the world's bicycle and frame; a game
// that applies the same controls with VehicleMotion lands on the same poses, bit for bit,
// tick after tick, the steering lag's state included.
TEST(VehicleMotion, MovesVehiclesAsThrongdIntegrates) {
  const scenarios::Scenario scenario = scenarios::MakeScenario("town", 500, 3);
  ASSERT_GT(scenario.initial.vehicles.size(), 0u);
  const int ticks = 60;
  const std::vector<v1::StepResponse> engine = RunInProcess(scenario, ticks, false);
  const ProtoScenario proto = ScenarioToProto(scenario);
  v1::VehicleBatch game = proto.vehicles;
  VehicleMotion motion(proto.config);
  bool turned = false;
  for (int t = 0; t < ticks; ++t) {
    const v1::VehicleResults& answer = engine[t].vehicles();
    motion.Apply(answer, proto.dt, &game);
    for (int i = 0; i < game.id_size(); ++i) {
      ASSERT_EQ(game.x(i), answer.x(i)) << "tick " << t << " vehicle " << i;
      ASSERT_EQ(game.y(i), answer.y(i)) << "tick " << t << " vehicle " << i;
      ASSERT_EQ(game.yaw(i), answer.yaw(i)) << "tick " << t << " vehicle " << i;
      ASSERT_EQ(game.speed(i), answer.speed(i)) << "tick " << t << " vehicle " << i;
      turned = turned || answer.steering(i) != 0.f;
    }
  }
  EXPECT_TRUE(turned);  // the lag state was exercised
}

v1::VehicleBatch OneVehicle(float x, float y, float z) {
  v1::VehicleBatch v;
  v.add_id(1);
  v.add_x(x);
  v.add_y(y);
  v.add_z(z);
  v.add_yaw(0.f);
  v.add_speed(5.f);
  return v;
}

// Unity's frame (Y up, left-handed) is ROS's (Z up, right-handed) with y and z swapped:
// the same controls drive the same car along the same ground path in both.
TEST(VehicleMotion, DrivesInTheWorldsFrame) {
  v1::WorldConfig ros, unity;
  unity.set_up_axis(v1::UP_AXIS_Y);
  unity.set_handedness(v1::HANDEDNESS_LEFT);
  unity.mutable_bicycle()->set_wheelbase(3.f);
  ros.mutable_bicycle()->set_wheelbase(3.f);
  VehicleMotion in_ros(ros), in_unity(unity);
  v1::VehicleBatch a = OneVehicle(1, 2, 0.5f), b = OneVehicle(1, 0.5f, 2);
  v1::VehicleResults controls;
  controls.add_steering(0.4f);
  controls.add_throttle(0.3f);
  controls.add_brake(0.f);
  for (int t = 0; t < 40; ++t) {
    in_ros.Apply(controls, 0.1f, &a);
    in_unity.Apply(controls, 0.1f, &b);
  }
  EXPECT_FLOAT_EQ(a.x(0), b.x(0));
  EXPECT_FLOAT_EQ(a.y(0), b.z(0));
  EXPECT_EQ(a.z(0), 0.5f);  // the height is the caller's
  EXPECT_EQ(b.y(0), 0.5f);
  EXPECT_FLOAT_EQ(a.speed(0), b.speed(0));
  EXPECT_GT(a.speed(0), 5.f);
  EXPECT_GT(std::abs(a.y(0) - 2.f), 1.f);  // it turned
}

TEST(VehicleMotion, RefusesControlsForAnotherBatch) {
  v1::WorldConfig config;
  VehicleMotion motion(config);
  v1::VehicleBatch vehicles;
  vehicles.add_id(1);
  vehicles.add_x(0);
  vehicles.add_y(0);
  vehicles.add_yaw(0);
  vehicles.add_speed(1);
  v1::VehicleResults none;
  EXPECT_THROW(motion.Apply(none, 0.1f, &vehicles), std::invalid_argument);
}

}  // namespace
}  // namespace throng::client
