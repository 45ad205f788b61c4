// The C++ client against a real throngd on a free loopback port: results equal the
// engine's in process for the same snapshots, streams equal steps, and failures arrive as
// client::Error with the server's code and message.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "clients/cpp/scenario_proto.h"
#include "kernels/scenarios/scenario.h"
#include "kernels/world/world.h"
#include "proto/convert.h"
#include "tests/clients/full_columns.h"
#include "throng/client.h"

namespace throng::client {
namespace {

// throngd --listen 127.0.0.1:0 (the kernel picks a free port; throngd prints it).
class Throngd {
 public:
  explicit Throngd(std::vector<std::string> flags) {
    std::vector<std::string> args = {THRONGD_PATH, "--listen", "127.0.0.1:0", "--metrics", "",
                                     "--backend",  "cpu",      "--log-level", "warn"};
    args.insert(args.end(), flags.begin(), flags.end());
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], STDOUT_FILENO);
      close(fds[0]);
      close(fds[1]);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(fds[1]);
    out_ = fdopen(fds[0], "r");  // kept open: throngd may still write to stdout
    char line[256] = {};
    if (!out_ || !std::fgets(line, sizeof line, out_) || !std::strstr(line, "listening on ")) {
      throw std::runtime_error(std::string("throngd did not start: ") + line);
    }
    address_ = std::strstr(line, "listening on ") + std::strlen("listening on ");
    address_.erase(address_.find_last_not_of(" \r\n") + 1);
  }
  ~Throngd() {
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    if (out_) std::fclose(out_);
  }
  const std::string& address() const { return address_; }

 private:
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
  std::string address_;
};

Throngd* g_server = nullptr;

class ServerEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { g_server = new Throngd({}); }
  void TearDown() override {
    delete g_server;
    g_server = nullptr;
  }
};

Client Connect(const std::string& address, const std::string& token = "") {
  ConnectOptions options;
  options.address = address;
  options.token = token;
  options.timeout = std::chrono::seconds(60);
  Client client(options);
  client.WaitReady(std::chrono::seconds(10));
  return client;
}

// The request the client sends for `state` (the same path game_loop takes).
v1::StepRequest Request(const std::string& world, const Snapshot& s, bool integrate) {
  v1::StepRequest request = MakeStep(world, s.tick, s.dt, integrate);
  WidenedAgentSpans widened;
  FillAgents(AgentSpansOf(s.agents, &widened), request.mutable_agents());
  FillVehicles(VehicleSpansOf(s.vehicles), request.mutable_vehicles());
  return request;
}

template <typename T, typename U>
void ExpectSame(std::span<const T> got, const std::vector<U>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i], static_cast<T>(want[i])) << what << "[" << i << "]";
  }
}

void ExpectMatchesEngine(const v1::StepResponse& r, const TickResult& e, const Snapshot& after) {
  ExpectSame(Column(r.agents().vx()), e.agents.vx, "agents.vx");
  ExpectSame(Column(r.agents().vy()), e.agents.vy, "agents.vy");
  ExpectSame(Column(r.agents().status()), e.agents.status, "agents.status");
  ExpectSame(Column(r.agents().flags()), e.agents.flags, "agents.flags");
  ExpectSame(Column(r.agents().x()), after.agents.x, "agents.x");
  ExpectSame(Column(r.agents().y()), after.agents.y, "agents.y");
  ExpectSame(Column(r.vehicles().steering()), e.vehicles.steering, "vehicles.steering");
  ExpectSame(Column(r.vehicles().throttle()), e.vehicles.throttle, "vehicles.throttle");
  ExpectSame(Column(r.vehicles().brake()), e.vehicles.brake, "vehicles.brake");
  ExpectSame(Column(r.vehicles().progress()), e.vehicles.progress, "vehicles.progress");
  ExpectSame(Column(r.vehicles().x()), after.vehicles.x, "vehicles.x");
  ExpectSame(Column(r.vehicles().yaw()), after.vehicles.yaw, "vehicles.yaw");
  EXPECT_EQ(r.stats().ok(), e.stats.status_count[0]);
  EXPECT_EQ(r.stats().agent_overlaps(), e.stats.agent_overlaps);
  EXPECT_EQ(r.stats().vehicle_overlaps(), e.stats.vehicle_overlaps);
}

// A town with pedestrians and vehicles, small enough for a test.
scenarios::Scenario Town() { return scenarios::MakeScenario("town", 150, 3); }

TEST(ClientEndToEnd, StepsAndStreamEqualTheEngineInProcess) {
  const auto scenario = Town();
  ASSERT_GT(scenario.initial.vehicles.size(), 0u);
  Client client = Connect(g_server->address());
  const auto config = ScenarioToProto(scenario).config;
  const std::string stepped = client.CreateWorld(config).world_id();
  const std::string streamed = client.CreateWorld(config).world_id();
  auto stream = client.OpenStream();

  World engine(scenario.config, BackendKind::kCpu);
  Snapshot state = scenario.initial;
  TickResult result;
  for (int tick = 0; tick < 8; ++tick) {
    SCOPED_TRACE("tick " + std::to_string(tick));
    const v1::StepResponse by_step = client.Step(Request(stepped, state, true));
    const v1::StepResponse by_stream = stream->Step(Request(streamed, state, true));
    engine.Step(state, {.integrate = true, .debug = false}, &result);
    ExpectMatchesEngine(by_step, result, engine.state());
    ExpectMatchesEngine(by_stream, result, engine.state());
    state = engine.state();  // the next snapshot: everyone where the tick left them
    state.tick += 1;
    state.vehicles.progress_hint.clear();  // continued server-side, as in process
  }
  stream->Close();
  const auto info = client.GetWorld(stepped).info();
  EXPECT_EQ(info.last_tick(), scenario.initial.tick + 7);
  EXPECT_EQ(info.agents(), scenario.initial.agents.size());
  client.DeleteWorld(stepped);
  client.DeleteWorld(streamed);
}

TEST(ClientEndToEnd, SolveEqualsAFirstStep) {
  const auto scenario = scenarios::MakeScenario("crossing", 80, 5);
  const auto proto = ScenarioToProto(scenario);
  Client client = Connect(g_server->address());
  const std::string world = client.CreateWorld(proto.config).world_id();
  const v1::StepRequest step = Request(world, scenario.initial, false);
  v1::SolveRequest solve;
  *solve.mutable_config() = proto.config;
  solve.set_tick(step.tick());
  solve.set_dt(step.dt());
  *solve.mutable_agents() = step.agents();
  *solve.mutable_vehicles() = step.vehicles();
  const v1::StepResponse a = client.Step(step), b = client.Solve(solve);
  EXPECT_EQ(a.agents().SerializeAsString(), b.agents().SerializeAsString());
  EXPECT_EQ(a.vehicles().SerializeAsString(), b.vehicles().SerializeAsString());
  client.DeleteWorld(world);
}

// Every column of the tables, each with values of its own, through the client's spans,
// the wire, throngd's conversion and the world's checks, and back as the world's state.
TEST(ClientEndToEnd, EveryTableColumnReachesTheWorldAndComesBack) {
  const auto scenario = scenarios::MakeScenario("town", 20, 1);
  const Snapshot full = testing::FullSnapshot(scenario.config);
  Client client = Connect(g_server->address());
  const std::string world = client.CreateWorld(ScenarioToProto(scenario).config).world_id();
  v1::StepRequest request = MakeStep(world, full.tick, full.dt, false);
  WidenedAgentSpans widened;
  FillAgents(AgentSpansOf(full.agents, &widened), request.mutable_agents());
  FillVehicles(VehicleSpansOf(full.vehicles), request.mutable_vehicles());
  FillForward(ForwardSpansOf(full.forward), request.mutable_forward());
  const v1::StepResponse stepped = client.Step(request);
  EXPECT_EQ(stepped.agents().vx_size(), static_cast<int>(testing::kRows));
  EXPECT_EQ(stepped.vehicles().steering_size(), static_cast<int>(testing::kRows));
  EXPECT_EQ(stepped.forward().move_x_size(), static_cast<int>(testing::kRows));
  const v1::GetWorldResponse got = client.GetWorld(world, true);
  Snapshot back;
  service::SnapshotFromProto(got.tick(), got.dt(), got.agents(), got.vehicles(), got.forward(), &back);
  EXPECT_EQ(back.tick, full.tick);
  EXPECT_EQ(back.dt, full.dt);
  testing::ExpectSameColumns(full, back, "client -> throngd -> GetWorld(include_state)");
  client.DeleteWorld(world);
}

TEST(ClientEndToEnd, BadInputIsAnErrorWithTheServersMessageAndChangesNothing) {
  const auto scenario = scenarios::MakeScenario("crossing", 20, 1);
  Client client = Connect(g_server->address());
  const std::string world = client.CreateWorld(ScenarioToProto(scenario).config).world_id();
  client.Step(Request(world, scenario.initial, false));

  Snapshot bad = scenario.initial;
  bad.tick += 1;
  bad.agents.radius.assign(bad.agents.size(), 0.3f);
  bad.agents.radius[1] = -1.f;
  try {
    client.Step(Request(world, bad, false));
    FAIL() << "a negative radius was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(e.message().find("agents.radius[1]"), std::string::npos) << e.message();
    EXPECT_NE(std::string(e.what()).find("INVALID_ARGUMENT: "), std::string::npos);
  }
  EXPECT_EQ(client.GetWorld(world).info().last_tick(), scenario.initial.tick);

  try {
    client.Step(Request("no-such-world", bad, false));
    FAIL() << "an unknown world was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), grpc::StatusCode::NOT_FOUND) << e.what();
  }

  // On a stream, the bad tick ends the stream with its status; the good one stood.
  auto stream = client.OpenStream();
  Snapshot good = scenario.initial;
  good.tick += 1;
  stream->Step(Request(world, good, false));
  bad.tick = good.tick + 1;
  EXPECT_THROW(
      {
        try {
          stream->Step(Request(world, bad, false));
        } catch (const Error& e) {
          EXPECT_EQ(e.code(), grpc::StatusCode::INVALID_ARGUMENT);
          throw;
        }
      },
      Error);
  EXPECT_EQ(client.GetWorld(world).info().last_tick(), good.tick);
  client.DeleteWorld(world);
}

TEST(ClientEndToEnd, AdvanceListAndDelete) {
  const auto scenario = scenarios::MakeScenario("circle", 30, 1);
  Client client = Connect(g_server->address());
  const std::string world = client.CreateWorld(ScenarioToProto(scenario).config).world_id();
  EXPECT_THROW(client.Advance(world, 3, 0.1f), Error);  // no state yet: FAILED_PRECONDITION
  client.Step(Request(world, scenario.initial, true));
  const v1::AdvanceResponse advanced = client.Advance(world, 3, scenario.initial.dt);
  EXPECT_EQ(advanced.totals().ticks(), 4u);
  EXPECT_EQ(advanced.last().agents().x_size(), static_cast<int>(scenario.initial.agents.size()));
  bool listed = false;
  for (const auto& info : client.ListWorlds()) listed |= info.world_id() == world;
  EXPECT_TRUE(listed);
  client.DeleteWorld(world);
  try {
    client.GetWorld(world);
    FAIL() << "a deleted world was found";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), grpc::StatusCode::NOT_FOUND);
  }
}

TEST(ClientEndToEnd, TokenIsSentAndChecked) {
  Throngd guarded({"--token", "s3cret"});
  try {
    Connect(guarded.address()).ListWorlds();
    FAIL() << "a call without the token was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), grpc::StatusCode::UNAUTHENTICATED) << e.what();
  }
  EXPECT_NO_THROW(Connect(guarded.address(), "s3cret").ListWorlds());
}

TEST(ClientEndToEnd, TlsWithARootCertificate) {
  char dir_template[] = "/tmp/throng_client_tls_XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  const std::string key = dir + "/key.pem", cert = dir + "/cert.pem";
  const std::string openssl =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
      "-addext subjectAltName=IP:127.0.0.1 -keyout " +
      key + " -out " + cert + " 2>/dev/null";
  ASSERT_EQ(std::system(openssl.c_str()), 0);
  Throngd tls({"--tls-cert", cert, "--tls-key", key});
  std::ifstream in(cert);
  std::stringstream pem;
  pem << in.rdbuf();
  ConnectOptions options;
  options.address = tls.address();
  options.tls_root_cert_pem = pem.str();
  options.timeout = std::chrono::seconds(30);
  Client client(options);
  EXPECT_TRUE(client.ListWorlds().empty());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng::client

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new throng::client::ServerEnvironment);
  return RUN_ALL_TESTS();
}
