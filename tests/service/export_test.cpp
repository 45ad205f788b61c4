// ExportWorld and ImportWorld between two real throngd processes (docs/SERVICE.md, "Moving
// a world"): every scenario moves and continues bit for bit; a corrupted export, one of
// another format, one with a bad value or a taken id is refused and changes nothing.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include "kernels/scenarios/scenario.h"
#include "proto/convert.h"
#include "tests/service/fuzz/mutators.h"
#include "tests/service/service_test_util.h"
#include "tests/service/throngd_process.h"

namespace throng::service::testing {
namespace {

using google::protobuf::util::MessageDifferencer;
using grpc::StatusCode;

class ExportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    from_ = new ThrongdProcess();
    to_ = new ThrongdProcess();
  }
  static void TearDownTestSuite() {
    delete from_;
    delete to_;
  }
  static ThrongdProcess* from_;
  static ThrongdProcess* to_;
};
ThrongdProcess* ExportTest::from_ = nullptr;
ThrongdProcess* ExportTest::to_ = nullptr;

// A world of the scenario on `stub`, stepped once on its initial snapshot (integrated)
// and advanced `ticks` more.
std::string RunScenario(v1::Simulation::Stub& stub, const scenarios::Scenario& s, int ticks) {
  const std::string id = CreateWorld(stub, s.config);
  TickOptions integrate;
  integrate.integrate = true;
  const v1::StepRequest step = StepRequest(id, s.initial, integrate);
  v1::StepResponse stepped;
  const auto status = stub.Step(Context().get(), step, &stepped);
  EXPECT_TRUE(status.ok()) << status.error_message();
  v1::AdvanceRequest advance;
  advance.set_world_id(id);
  advance.set_ticks(ticks);
  advance.set_dt(s.initial.dt);
  v1::AdvanceResponse advanced;
  EXPECT_TRUE(stub.Advance(Context().get(), advance, &advanced).ok());
  return id;
}

v1::StepResponse AdvanceOne(v1::Simulation::Stub& stub, const std::string& id, float dt) {
  v1::AdvanceRequest request;
  request.set_world_id(id);
  request.set_ticks(1);
  request.set_dt(dt);
  v1::AdvanceResponse response;
  const auto status = stub.Advance(Context().get(), request, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
  v1::StepResponse last = response.last();
  last.mutable_stats()->clear_stage_seconds();  // timings: the only thing that may differ
  last.clear_world_id();                        // and the name, for a copy
  return last;
}

v1::WorldExport Export(v1::Simulation::Stub& stub, const std::string& id) {
  v1::ExportWorldRequest request;
  request.set_world_id(id);
  v1::WorldExport out;
  const auto status = stub.ExportWorld(Context().get(), request, &out);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return out;
}

grpc::Status Import(v1::Simulation::Stub& stub, const v1::WorldExport& e, v1::WorldInfo* info,
                    const std::string& id = "") {
  v1::ImportWorldRequest request;
  *request.mutable_world_export() = e;
  request.set_world_id(id);
  return stub.ImportWorld(Context().get(), request, info);
}

int WorldCount(v1::Simulation::Stub& stub) {
  v1::ListWorldsResponse worlds;
  EXPECT_TRUE(stub.ListWorlds(Context().get(), {}, &worlds).ok());
  return worlds.worlds_size();
}

TEST_F(ExportTest, every_scenario_moves_and_continues_bit_for_bit) {
  auto from = from_->Stub(), to = to_->Stub();
  for (const std::string& name : scenarios::ScenarioNames()) {
    SCOPED_TRACE(name);
    const scenarios::Scenario s = scenarios::MakeScenario(name, 120, 3);
    const std::string id = RunScenario(*from, s, 25);
    const v1::WorldExport exported = Export(*from, id);
    EXPECT_EQ(Export(*from, id).SerializeAsString(), exported.SerializeAsString())
        << "the same world exports to the same bytes";
    v1::WorldInfo info;
    const auto status = Import(*to, exported, &info);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(info.world_id(), id);
    EXPECT_EQ(info.last_tick(), s.initial.tick + 25);

    for (int t = 0; t < 20; ++t) {
      const v1::StepResponse a = AdvanceOne(*from, id, s.initial.dt);
      const v1::StepResponse b = AdvanceOne(*to, id, s.initial.dt);
      ASSERT_EQ(a.SerializeAsString(), b.SerializeAsString()) << "tick " << a.tick();
    }
    v1::GetWorldRequest get;
    get.set_world_id(id);
    get.set_include_state(true);
    v1::GetWorldResponse a, b;
    ASSERT_TRUE(from->GetWorld(Context().get(), get, &a).ok());
    ASSERT_TRUE(to->GetWorld(Context().get(), get, &b).ok());
    EXPECT_TRUE(MessageDifferencer::Equals(a.totals(), b.totals()));
    EXPECT_TRUE(MessageDifferencer::Equals(a.config(), b.config()));
    EXPECT_EQ(a.agents().SerializeAsString(), b.agents().SerializeAsString());
    EXPECT_EQ(a.vehicles().SerializeAsString(), b.vehicles().SerializeAsString());
    EXPECT_EQ(a.forward().SerializeAsString(), b.forward().SerializeAsString());
    EXPECT_EQ(a.totals().ticks(), 46u);
  }
}

// Re-routed agents and the crowd their fields come from (docs/NAVIGATION.md, "Re-routing")
// travel too: the two_exits room after re-routes began continues bit for bit.
TEST_F(ExportTest, a_world_with_rerouted_agents_continues_bit_for_bit) {
  auto from = from_->Stub(), to = to_->Stub();
  const scenarios::Scenario s = scenarios::MakeScenario("two_exits", 200, 1);
  const std::string id = RunScenario(*from, s, 220);
  const v1::WorldExport exported = Export(*from, id);
  v1::WorldExportPayload payload;
  ASSERT_TRUE(payload.ParseFromString(exported.payload()));
  ASSERT_TRUE(payload.crowd().present());
  EXPECT_EQ(payload.crowd().x_size(), 200);
  EXPECT_GT(payload.totals().reroutes(), 0u);
  uint32_t rerouted = 0;
  for (uint32_t r : payload.agent_memory().route()) rerouted += r > 0;
  EXPECT_GT(rerouted, 0u);
  v1::WorldInfo info;
  const auto status = Import(*to, exported, &info);
  ASSERT_TRUE(status.ok()) << status.error_message();
  for (int t = 0; t < 40; ++t) {
    const v1::StepResponse a = AdvanceOne(*from, id, s.initial.dt);
    const v1::StepResponse b = AdvanceOne(*to, id, s.initial.dt);
    ASSERT_EQ(a.SerializeAsString(), b.SerializeAsString()) << "tick " << a.tick();
  }
}

// The payload re-serialized with a change, under a matching checksum.
v1::WorldExport Edited(const v1::WorldExport& e,
                       const std::function<void(v1::WorldExportPayload*)>& edit) {
  v1::WorldExportPayload payload;
  EXPECT_TRUE(payload.ParseFromString(e.payload()));
  edit(&payload);
  v1::WorldExport out = e;
  out.set_payload(payload.SerializeAsString());
  out.set_crc32(static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(out.payload().data()), out.payload().size())));
  return out;
}

TEST_F(ExportTest, a_bad_export_is_refused_and_changes_nothing) {
  auto from = from_->Stub(), to = to_->Stub();
  const scenarios::Scenario s = scenarios::MakeScenario("town", 100, 4);
  const std::string id = RunScenario(*from, s, 5);
  const v1::WorldExport good = Export(*from, id);
  const int before = WorldCount(*to);

  const auto refused = [&](const v1::WorldExport& e, StatusCode code, const std::string& says,
                           const std::string& as = "") {
    v1::WorldInfo info;
    const auto status = Import(*to, e, &info, as);
    EXPECT_EQ(status.error_code(), code) << status.error_message();
    EXPECT_NE(status.error_message().find(says), std::string::npos) << status.error_message();
    EXPECT_EQ(WorldCount(*to), before);
  };
  v1::WorldExport bad = good;
  bad.mutable_payload()->at(bad.payload().size() / 2) ^= 0x10;
  refused(bad, StatusCode::INVALID_ARGUMENT, "does not match its crc32");
  bad = good;
  bad.mutable_payload()->resize(bad.payload().size() / 2);
  refused(bad, StatusCode::INVALID_ARGUMENT, "does not match its crc32");
  bad = good;
  bad.set_world_id("someone-else");
  refused(bad, StatusCode::INVALID_ARGUMENT,
          "world_export.world_id: \"someone-else\" is not the payload's");
  bad = good;
  bad.set_format(2);
  refused(bad, StatusCode::INVALID_ARGUMENT, "world_export.format: 2, this throngd reads format 1");
  bad = Edited(good,
               [](v1::WorldExportPayload* p) { p->mutable_agent_memory()->set_last_side(0, 9); });
  refused(bad, StatusCode::INVALID_ARGUMENT, "world_export: memory.agents[0].last_side");
  bad =
      Edited(good, [](v1::WorldExportPayload* p) { p->mutable_vehicle_memory()->add_progress(1); });
  refused(bad, StatusCode::INVALID_ARGUMENT, "vehicle_memory.progress: ");
  bad = Edited(good, [](v1::WorldExportPayload* p) { p->mutable_crowd()->add_x(1); });
  refused(bad, StatusCode::INVALID_ARGUMENT, "crowd.y: ");
  bad = Edited(good, [](v1::WorldExportPayload* p) {
    p->mutable_crowd()->set_present(true);
    p->mutable_crowd()->add_x(NAN);
    p->mutable_crowd()->add_y(0);
  });
  refused(bad, StatusCode::INVALID_ARGUMENT, "crowd.positions[0]");
  bad = Edited(good, [](v1::WorldExportPayload* p) { p->mutable_agents()->set_x(3, 1e30f); });
  refused(bad, StatusCode::INVALID_ARGUMENT, "world_export: agents.x[3]");
  bad = Edited(good, [](v1::WorldExportPayload* p) {
    p->mutable_config()->set_name(std::string(300, 'n'));
  });
  refused(bad, StatusCode::INVALID_ARGUMENT, "config.name");
  refused(good, StatusCode::INVALID_ARGUMENT, "world_id: \"bad id!\" may hold only", "bad id!");

  // Its own id is taken where it came from; under another it is a second, equal world.
  v1::WorldInfo info;
  auto status = Import(*from, good, &info);
  EXPECT_EQ(status.error_code(), StatusCode::ALREADY_EXISTS) << status.error_message();
  status = Import(*from, good, &info, "town-copy");
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(info.world_id(), "town-copy");
  EXPECT_EQ(AdvanceOne(*from, id, s.initial.dt).SerializeAsString(),
            AdvanceOne(*from, "town-copy", s.initial.dt).SerializeAsString());
  // A new world never takes an imported id: import under the id the next new world would
  // get, and the next one skips it.
  const std::string last = CreateWorld(*from, s.config);  // "w-K"
  const std::string next = "w-" + std::to_string(std::stoi(last.substr(2)) + 1);
  v1::WorldInfo named;
  status = Import(*from, good, &named, next);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(CreateWorld(*from, s.config), "w-" + std::to_string(std::stoi(last.substr(2)) + 2));
}

// A caller names its world (behind a proxy that routes by world id, every caller does).
// Hostile exports: the fuzzer's value mutations (extreme and non-finite numbers, odd
// integers, resized columns, long strings) on a town's payload, under a matching checksum,
// so that each reaches the checks behind the checksum. Every import is refused with a
// client's error, or accepted and then steps; no INTERNAL, no crash, and the server's
// worlds are as many as before.
TEST_F(ExportTest, mutated_exports_are_refused_or_work) {
  auto to = to_->Stub();
  const scenarios::Scenario s = scenarios::MakeScenario("town", 60, 8);
  const v1::WorldExport good = Export(*from_->Stub(), RunScenario(*from_->Stub(), s, 3));
  const int before = WorldCount(*to);
  fuzz::Rng rng(20261203);
  int accepted = 0, refused = 0;
  for (int k = 0; k < 300; ++k) {
    std::string what;
    const v1::WorldExport e =
        Edited(good, [&](v1::WorldExportPayload* p) { what = fuzz::AnyValueMutation(p, rng); });
    const std::string id = "hostile-" + std::to_string(k);
    v1::WorldInfo info;
    const auto status = Import(*to, e, &info, id);
    if (status.ok()) {
      ++accepted;
      v1::AdvanceRequest advance;
      advance.set_world_id(id);
      advance.set_ticks(1);
      advance.set_dt(s.initial.dt);
      v1::AdvanceResponse out;
      const auto stepped = to->Advance(Context().get(), advance, &out);
      EXPECT_NE(stepped.error_code(), StatusCode::INTERNAL)
          << what << ": " << stepped.error_message();
      v1::DeleteWorldRequest del;
      del.set_world_id(id);
      v1::DeleteWorldResponse deleted;
      ASSERT_TRUE(to->DeleteWorld(Context().get(), del, &deleted).ok()) << what;
    } else {
      ++refused;
      const StatusCode code = status.error_code();
      EXPECT_TRUE(code == StatusCode::INVALID_ARGUMENT || code == StatusCode::RESOURCE_EXHAUSTED ||
                  code == StatusCode::FAILED_PRECONDITION)
          << what << ": " << code << " " << status.error_message();
    }
    ASSERT_EQ(WorldCount(*to), before) << what;
  }
  EXPECT_GT(refused, 50);  // the mutations reach the checks
  EXPECT_GT(accepted, 0);  // and some are harmless values
}

TEST(NamedWorldTest, a_caller_chosen_id_is_used_once_and_checked) {
  ThrongdProcess server;
  auto stub = server.Stub();
  const auto config = MakeTestScene(3, 0).config;
  v1::CreateWorldRequest request = CreateRequest(config);
  request.set_world_id("plaza:7");
  v1::WorldInfo info;
  auto status = stub->CreateWorld(Context().get(), request, &info);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(info.world_id(), "plaza:7");
  status = stub->CreateWorld(Context().get(), request, &info);
  EXPECT_EQ(status.error_code(), StatusCode::ALREADY_EXISTS) << status.error_message();
  request.set_world_id("plaza 7");
  status = stub->CreateWorld(Context().get(), request, &info);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT) << status.error_message();
  request.set_world_id(std::string(129, 'a'));
  status = stub->CreateWorld(Context().get(), request, &info);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_EQ(WorldCount(*stub), 1);
  // The server still names worlds that come without an id.
  request.clear_world_id();
  ASSERT_TRUE(stub->CreateWorld(Context().get(), request, &info).ok());
  EXPECT_EQ(info.world_id(), "w-1");
}

TEST(ExportLimitsTest, an_import_holds_to_the_servers_limits) {
  ThrongdProcess from, small({"--max-agents-per-world", "50"});
  auto a = from.Stub(), b = small.Stub();
  const scenarios::Scenario s = scenarios::MakeScenario("random", 100, 2);
  const v1::WorldExport e = Export(*a, RunScenario(*a, s, 2));
  v1::WorldInfo info;
  const auto status = Import(*b, e, &info);
  EXPECT_EQ(status.error_code(), StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_EQ(WorldCount(*b), 0);
}

}  // namespace
}  // namespace throng::service::testing
