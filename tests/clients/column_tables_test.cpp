// The column tables (kernels/world/column_tables.h) are the one list of the API's batch
// columns: every path a column travels (the world's checks, the scenario JSON, the proto
// conversion both ways, the C++ client's spans, the results sent back) must carry every
// row, under the proto's name, without losing or mixing a value. Each column here gets
// values of its own, so a path that drops, swaps or defaults one shows which.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "clients/cpp/scenario_proto.h"
#include "kernels/scenarios/scenario.h"
#include "kernels/world/column_tables.h"
#include "kernels/world/world_types.h"
#include "kernels/world/world_validate.h"
#include "proto/convert.h"
#include "tests/clients/full_columns.h"
#include "throng/client.h"

namespace throng {
namespace {

using testing::AgentColumns;
using testing::ExpectSameColumns;
using testing::ForwardColumns;
using testing::FullSnapshot;
using testing::kRows;
using testing::VehicleColumns;
using Column = testing::ColumnValues;
using testing::AsDoubles;
using service::AgentsToProto;
using service::ForwardToProto;
using service::ResultToProto;
using service::SnapshotFromProto;
using service::VehiclesToProto;

// A message's repeated fields by name, read through reflection (float or uint32).
std::map<std::string, Column> FieldsOf(const google::protobuf::Message& m) {
  using google::protobuf::FieldDescriptor;
  std::map<std::string, Column> out;
  const auto* d = m.GetDescriptor();
  const auto* r = m.GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* field = d->field(i);
    if (!field->is_repeated()) continue;
    Column& values = out[field->name()];
    for (int k = 0; k < r->FieldSize(m, field); ++k) {
      switch (field->cpp_type()) {
        case FieldDescriptor::CPPTYPE_FLOAT:
          values.push_back(r->GetRepeatedFloat(m, field, k));
          break;
        case FieldDescriptor::CPPTYPE_UINT32:
          values.push_back(r->GetRepeatedUInt32(m, field, k));
          break;
        default:
          ADD_FAILURE() << d->name() << "." << field->name() << ": a type the tables have not";
      }
    }
  }
  return out;
}

std::vector<std::string> FieldNames(const google::protobuf::Descriptor* d) {
  std::vector<std::string> out;
  for (int i = 0; i < d->field_count(); ++i) out.push_back(d->field(i)->name());
  return out;
}

class ColumnTablesTest : public ::testing::Test {
 protected:
  ColumnTablesTest() : scenario_(scenarios::MakeScenario("town", 20, 1)) {
    scenario_.initial = FullSnapshot(scenario_.config);
  }
  const WorldConfig& config() const { return scenario_.config; }
  const Snapshot& full() const { return scenario_.initial; }

  scenarios::Scenario scenario_;
};

TEST_F(ColumnTablesTest, EveryColumnIsFilledAndTheWorldAcceptsThem) {
  // A row added to a table with a ByHand rule needs its value in FullSnapshot.
  for (const auto& [name, values] : AgentColumns(full().agents)) {
    EXPECT_EQ(values.size(), kRows) << "agents." << name;
  }
  for (const auto& [name, values] : VehicleColumns(full().vehicles)) {
    EXPECT_EQ(values.size(), kRows) << "vehicles." << name;
  }
  for (const auto& [name, values] : ForwardColumns(full().forward)) {
    EXPECT_EQ(values.size(), kRows) << "forward." << name;
  }
  EXPECT_NO_THROW(ValidateSnapshot(config(), full(), false, 0));
}

TEST_F(ColumnTablesTest, TheProtoBatchesHaveTheTablesColumnsInOrder) {
#define THRONG_NAME(name, type, wire, need, rule) #name,
  EXPECT_EQ(FieldNames(v1::AgentBatch::descriptor()),
            std::vector<std::string>({THRONG_AGENT_COLUMNS(THRONG_NAME)}));
  EXPECT_EQ(FieldNames(v1::VehicleBatch::descriptor()),
            std::vector<std::string>({THRONG_VEHICLE_COLUMNS(THRONG_NAME)}));
  EXPECT_EQ(FieldNames(v1::ForwardBatch::descriptor()),
            std::vector<std::string>({THRONG_FORWARD_COLUMNS(THRONG_NAME)}));
#undef THRONG_NAME
}

TEST_F(ColumnTablesTest, TheResultMessagesHaveTheSentAndMovedColumns) {
  // Sent results and the moved state; the local results (pref_v*, constraints) stay home.
#define THRONG_NAME(name, type, wire) #name,
#define THRONG_MOVED(name) #name,
  using Names = std::set<std::string>;
  const Names agents = {THRONG_AGENT_RESULT_COLUMNS(THRONG_NAME)
                            THRONG_AGENT_MOVED_COLUMNS(THRONG_MOVED)};
  const Names vehicles = {THRONG_VEHICLE_RESULT_COLUMNS(THRONG_NAME)
                              THRONG_VEHICLE_DEBUG_RESULT_COLUMNS(THRONG_NAME)
                                  THRONG_VEHICLE_MOVED_COLUMNS(THRONG_MOVED)};
  const Names forward = {THRONG_FORWARD_RESULT_COLUMNS(THRONG_NAME)
                             THRONG_FORWARD_MOVED_COLUMNS(THRONG_MOVED)};
#undef THRONG_NAME
#undef THRONG_MOVED
  auto names = [](const google::protobuf::Descriptor* d) {
    const auto v = FieldNames(d);
    return Names(v.begin(), v.end());
  };
  EXPECT_EQ(names(v1::AgentResults::descriptor()), agents);
  EXPECT_EQ(names(v1::VehicleResults::descriptor()), vehicles);
  EXPECT_EQ(names(v1::ForwardResults::descriptor()), forward);
}

TEST_F(ColumnTablesTest, ScenarioJsonCarriesEveryColumn) {
  const scenarios::Scenario back = scenarios::ScenarioFromJson(scenarios::ScenarioToJson(scenario_));
  ExpectSameColumns(full(), back.initial, "scenario JSON");
}

TEST_F(ColumnTablesTest, ProtoConversionCarriesEveryColumnBothWays) {
  v1::AgentBatch a;
  v1::VehicleBatch v;
  v1::ForwardBatch f;
  AgentsToProto(full().agents, &a);
  VehiclesToProto(full().vehicles, &v);
  ForwardToProto(full().forward, &f);
  EXPECT_EQ(FieldsOf(a), AgentColumns(full().agents));
  EXPECT_EQ(FieldsOf(v), VehicleColumns(full().vehicles));
  EXPECT_EQ(FieldsOf(f), ForwardColumns(full().forward));
  Snapshot back;
  SnapshotFromProto(full().tick, full().dt, a, v, f, &back);
  ExpectSameColumns(full(), back, "AgentsToProto -> SnapshotFromProto");
}

TEST_F(ColumnTablesTest, TheCppClientsSpansCarryEveryColumn) {
  client::WidenedAgentSpans widened;
  v1::AgentBatch a;
  v1::VehicleBatch v;
  v1::ForwardBatch f;
  client::FillAgents(client::AgentSpansOf(full().agents, &widened), &a);
  client::FillVehicles(client::VehicleSpansOf(full().vehicles), &v);
  client::FillForward(client::ForwardSpansOf(full().forward), &f);
  Snapshot back;
  SnapshotFromProto(full().tick, full().dt, a, v, f, &back);
  ExpectSameColumns(full(), back, "client spans -> SnapshotFromProto");
}

// Fills every result column with values of its own.
template <class Batch, class Visit>
void FillResults(Batch& batch, Visit visit) {
  int j = 0;
  visit(batch, [&](const char*, auto& column) {
    using T = typename std::decay_t<decltype(column)>::value_type;
    ++j;
    column.clear();
    for (size_t r = 0; r < kRows; ++r) column.push_back(static_cast<T>(8 * j + r + 1));
  });
}

template <class Batch, class Visit>
std::map<std::string, Column> ResultColumnsOf(const Batch& batch, Visit visit) {
  std::map<std::string, Column> out;
  visit(batch, [&](const char* name, const auto& column) { out[name] = AsDoubles(column); });
  return out;
}

TEST_F(ColumnTablesTest, ResultToProtoSendsEveryResultAndTheMovedState) {
  TickResult r;
  r.tick = full().tick;
  FillResults(r.agents, [](auto& b, auto f) { VisitAgentResultColumns(b, f); });
  FillResults(r.vehicles, [](auto& b, auto f) { VisitVehicleResultColumns(b, f); });
  FillResults(r.forward, [](auto& b, auto f) { VisitForwardResultColumns(b, f); });
  TickOptions options;
  options.integrate = true;
  options.debug = true;
  v1::StepResponse response;
  ResultToProto(r, full(), options, "cpu", &response);

  // What each message must carry: the results by name, and the moved snapshot columns.
  auto want = [](std::map<std::string, Column> results, const std::map<std::string, Column>& state,
                 const std::vector<std::string>& moved) {
    for (const std::string& name : moved) results[name] = state.at(name);
    return results;
  };
#define THRONG_MOVED(name) #name,
  auto agents = want(ResultColumnsOf(r.agents, [](const auto& b, auto f) { VisitAgentResultColumns(b, f); }),
                     AgentColumns(full().agents), {THRONG_AGENT_MOVED_COLUMNS(THRONG_MOVED)});
  auto vehicles =
      want(ResultColumnsOf(r.vehicles, [](const auto& b, auto f) { VisitVehicleResultColumns(b, f); }),
           VehicleColumns(full().vehicles), {THRONG_VEHICLE_MOVED_COLUMNS(THRONG_MOVED)});
  auto forward =
      want(ResultColumnsOf(r.forward, [](const auto& b, auto f) { VisitForwardResultColumns(b, f); }),
           ForwardColumns(full().forward), {THRONG_FORWARD_MOVED_COLUMNS(THRONG_MOVED)});
#undef THRONG_MOVED
  // The local results are not sent.
#define THRONG_LOCAL(name, type, wire) agents.erase(#name);
  THRONG_AGENT_LOCAL_RESULT_COLUMNS(THRONG_LOCAL)
#undef THRONG_LOCAL
  EXPECT_EQ(FieldsOf(response.agents()), agents);
  EXPECT_EQ(FieldsOf(response.vehicles()), vehicles);
  EXPECT_EQ(FieldsOf(response.forward()), forward);
}

// For every column a rule checks, a bad value in row 1 is rejected, naming table.name[1].
template <class Batch, class Visit>
void ExpectEveryRuleNamesTheRow(const WorldConfig& config, const Snapshot& full, Batch Snapshot::*batch,
                                const std::string& table, Visit visit) {
  std::vector<std::pair<std::string, ColumnRule>> ruled;
  visit(full.*batch, [&](const ColumnInfo& c, const auto&) { ruled.emplace_back(c.name, c.rule); });
  for (size_t j = 0; j < ruled.size(); ++j) {
    const auto& [name, rule] = ruled[j];
    if (rule.kind == ColumnRule::Kind::kByHand) continue;
    std::vector<double> bad;
    switch (rule.kind) {
      case ColumnRule::Kind::kId:
        bad = {1000};  // repeats row 0's id
        break;
      case ColumnRule::Kind::kBounded:
        bad = {NAN, INFINITY, 2.0 * rule.bound, -2.0 * rule.bound};
        break;
      case ColumnRule::Kind::kSize:
        bad = {NAN, 2.0 * rule.bound, 0.0, -1.0, 1e-4};
        break;
      case ColumnRule::Kind::kNonNegative:
        bad = {NAN, 2.0 * rule.bound, -1.0};
        break;
      case ColumnRule::Kind::kByHand:
        break;
    }
    const std::string where = table + "." + name + "[1]";
    for (const double value : bad) {
      Snapshot s = full;
      size_t k = 0;
      visit(s.*batch, [&](const ColumnInfo&, auto& column) {
        using T = typename std::decay_t<decltype(column)>::value_type;
        if (k++ == j) column[1] = static_cast<T>(value);
      });
      try {
        ValidateSnapshot(config, s, false, 0);
        ADD_FAILURE() << where << " = " << value << " was accepted";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).rfind(where, 0), 0u)
            << where << " = " << value << ": " << e.what();
      }
    }
  }
}

TEST_F(ColumnTablesTest, EveryRuledColumnRejectsABadValueNamingTheRow) {
  ExpectEveryRuleNamesTheRow(config(), full(), &Snapshot::agents, "agents",
                             [](auto& b, auto f) { VisitAgentColumns(b, f); });
  ExpectEveryRuleNamesTheRow(config(), full(), &Snapshot::vehicles, "vehicles",
                             [](auto& b, auto f) { VisitVehicleColumns(b, f); });
  ExpectEveryRuleNamesTheRow(config(), full(), &Snapshot::forward, "forward",
                             [](auto& b, auto f) { VisitForwardColumns(b, f); });
}

// A present column of the wrong length is named, by the proto conversion and the world.
TEST_F(ColumnTablesTest, EveryColumnOfTheWrongLengthIsNamed) {
  int checked = 0;
  auto check = [&](auto batch, const std::string& table, auto visit) {
    std::vector<std::string> names;
    visit(full().*batch, [&](const ColumnInfo& c, const auto&) { names.push_back(c.name); });
    for (size_t j = 1; j < names.size(); ++j) {  // column 0 counts the rows
      Snapshot s = full();
      size_t k = 0;
      visit(s.*batch, [&](const ColumnInfo&, auto& column) {
        if (k++ == j) column.pop_back();
      });
      const std::string prefix = table + "." + names[j] + ":";
      try {
        ValidateSnapshot(config(), s, false, 0);
        ADD_FAILURE() << prefix << " a short column was accepted by the world";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
      }
      v1::AgentBatch a;
      v1::VehicleBatch v;
      v1::ForwardBatch f;
      AgentsToProto(s.agents, &a);
      VehiclesToProto(s.vehicles, &v);
      ForwardToProto(s.forward, &f);
      Snapshot back;
      try {
        SnapshotFromProto(s.tick, s.dt, a, v, f, &back);
        ADD_FAILURE() << prefix << " a short column was accepted by the conversion";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
      }
      ++checked;
    }
  };
  check(&Snapshot::agents, "agents", [](auto& b, auto f) { VisitAgentColumns(b, f); });
  check(&Snapshot::vehicles, "vehicles", [](auto& b, auto f) { VisitVehicleColumns(b, f); });
  check(&Snapshot::forward, "forward", [](auto& b, auto f) { VisitForwardColumns(b, f); });
  EXPECT_GT(checked, 40);
}

}  // namespace
}  // namespace throng
