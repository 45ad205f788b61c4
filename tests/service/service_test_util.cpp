#include "tests/service/service_test_util.h"

#include <google/protobuf/util/message_differencer.h>

#include <chrono>
#include <cmath>
#include <random>

#include "proto/convert.h"

namespace throng::service::testing {

TestScene MakeTestScene(int agents, int vehicles, uint32_t seed) {
  TestScene s;
  WorldConfig& c = s.config;
  c.orca.time_horizon = 4.f;
  c.orca.max_neighbors = 12;
  c.obstacles.push_back({{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}});
  c.splines.push_back(SplineDesc{kLaneId, {{-60, -30, 0}, {0, -34, 0}, {60, -30, 0}}, false, 12.f});
  c.audit_every = 5;

  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> jitter(-0.2f, 0.2f);
  auto& a = s.snapshot.agents;
  const float ring = std::max(6.f, 0.4f * static_cast<float>(agents));
  for (int i = 0; i < agents; ++i) {
    const float angle = 2.f * 3.14159265f * static_cast<float>(i) / static_cast<float>(agents);
    a.id.push_back(static_cast<uint32_t>(100 + 3 * i));
    a.x.push_back(ring * std::cos(angle) + jitter(rng));
    a.y.push_back(ring * std::sin(angle) + jitter(rng));
    a.radius.push_back(0.25f + 0.01f * static_cast<float>(i % 10));
    a.goal_x.push_back(-a.x.back());
    a.goal_y.push_back(-a.y.back());
  }
  auto& v = s.snapshot.vehicles;
  for (int i = 0; i < vehicles; ++i) {
    v.id.push_back(static_cast<uint32_t>(i + 1));
    v.x.push_back(-50.f + 12.f * static_cast<float>(i));
    v.y.push_back(-31.f + jitter(rng));
    v.yaw.push_back(0.f);
    v.speed.push_back(5.f + static_cast<float>(i % 3));
    v.spline_id.push_back(kLaneId);
  }
  s.snapshot.tick = 1;
  s.snapshot.dt = 0.1f;
  return s;
}

void AddForwardAgents(TestScene* scene, int n) {
  ForwardSnapshot& f = scene->snapshot.forward;
  for (int i = 0; i < n; ++i) {
    const float x = -20.f + 6.f * static_cast<float>(i);
    f.id.push_back(static_cast<uint32_t>(500 + 2 * i));
    f.x.push_back(x);
    f.y.push_back(40.f);
    f.z.push_back(2.f);
    f.forward_x.push_back(1.f);
    f.forward_y.push_back(0.f);
    f.forward_z.push_back(0.f);
    f.speed.push_back(2.f + 0.25f * static_cast<float>(i));
    f.radius.push_back(0.4f + 0.05f * static_cast<float>(i % 3));
    f.goal_x.push_back(x + 30.f);
    f.goal_y.push_back(40.f);
    f.goal_z.push_back(2.f);
    f.probes.push_back(static_cast<uint32_t>(5 + 2 * (i % 3)));
  }
}

v1::CreateWorldRequest CreateRequest(const WorldConfig& config, const std::string& name) {
  v1::CreateWorldRequest request;
  ConfigToProto(config, request.mutable_config());
  request.mutable_config()->set_name(name);
  request.mutable_config()->set_backend(v1::BACKEND_CPU);
  return request;
}

v1::StepRequest StepRequest(const std::string& world_id, const Snapshot& snapshot,
                            const TickOptions& options) {
  v1::StepRequest request;
  request.set_world_id(world_id);
  request.set_tick(snapshot.tick);
  request.set_dt(snapshot.dt);
  AgentsToProto(snapshot.agents, request.mutable_agents());
  VehiclesToProto(snapshot.vehicles, request.mutable_vehicles());
  ForwardToProto(snapshot.forward, request.mutable_forward());
  request.mutable_options()->set_integrate(options.integrate);
  request.mutable_options()->set_debug(options.debug);
  return request;
}

v1::StepResponse EngineStep(World& world, const Snapshot& snapshot, const TickOptions& options,
                            const std::string& world_id) {
  TickResult result;
  world.Step(snapshot, options, &result);
  v1::StepResponse response;
  response.set_world_id(world_id);
  ResultToProto(result, world.state(), options, BackendName(world.backend()), &response);
  return response;
}

::testing::AssertionResult SameMessage(const google::protobuf::Message& got,
                                       const google::protobuf::Message& want) {
  google::protobuf::util::MessageDifferencer differ;
  std::string report;
  differ.ReportDifferencesToString(&report);
  if (differ.Compare(got, want)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << report.substr(0, 2000);
}

::testing::AssertionResult SameResponse(v1::StepResponse got, v1::StepResponse want) {
  got.mutable_stats()->clear_stage_seconds();
  want.mutable_stats()->clear_stage_seconds();
  got.clear_world_id();
  want.clear_world_id();
  return SameMessage(got, want);
}

std::unique_ptr<grpc::ClientContext> Context(double seconds, const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(seconds * 1e3)));
  if (!token.empty()) context->AddMetadata("authorization", "Bearer " + token);
  return context;
}

std::string CreateWorld(v1::Simulation::Stub& stub, const WorldConfig& config) {
  v1::WorldInfo info;
  const auto status = stub.CreateWorld(Context().get(), CreateRequest(config), &info);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return info.world_id();
}

}  // namespace throng::service::testing
