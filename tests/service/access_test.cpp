// What a throngd lets through: limits, bearer tokens, TLS, and the standard services
// (health checking, reflection) next to throng.v1.Simulation.
#include <google/protobuf/descriptor.pb.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "tests/service/service_test_util.h"
#include "tests/service/throngd_process.h"

namespace throng::service::testing {
namespace {

using grpc::StatusCode;

TEST(LimitsTest, max_worlds) {
  ThrongdProcess server({"--max-worlds", "2"});
  ASSERT_NE(server.port(), 0);
  auto stub = server.Stub();
  const auto config = MakeTestScene(3, 0).config;
  const std::string a = CreateWorld(*stub, config);
  CreateWorld(*stub, config);
  v1::WorldInfo info;
  auto status = stub->CreateWorld(Context().get(), CreateRequest(config), &info);
  EXPECT_EQ(status.error_code(), StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(status.error_message().find("--max-worlds"), std::string::npos);
  v1::DeleteWorldRequest del;
  del.set_world_id(a);
  v1::DeleteWorldResponse out;
  ASSERT_TRUE(stub->DeleteWorld(Context().get(), del, &out).ok());
  status = stub->CreateWorld(Context().get(), CreateRequest(config), &info);
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST(LimitsTest, max_agents_per_world) {
  ThrongdProcess server({"--max-agents-per-world", "10"});
  ASSERT_NE(server.port(), 0);
  auto stub = server.Stub();
  const auto fits = MakeTestScene(8, 2);
  const std::string id = CreateWorld(*stub, fits.config);
  v1::StepResponse out;
  ASSERT_TRUE(stub->Step(Context().get(), StepRequest(id, fits.snapshot), &out).ok());

  auto big = MakeTestScene(9, 2);
  big.snapshot.tick = 2;
  auto status = stub->Step(Context().get(), StepRequest(id, big.snapshot), &out);
  EXPECT_EQ(status.error_code(), StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(status.error_message().find("--max-agents-per-world"), std::string::npos);

  v1::SolveRequest solve;
  const auto step = StepRequest("", big.snapshot);
  *solve.mutable_agents() = step.agents();
  *solve.mutable_vehicles() = step.vehicles();
  solve.set_dt(0.1f);
  status = stub->Solve(Context().get(), solve, &out);
  EXPECT_EQ(status.error_code(), StatusCode::RESOURCE_EXHAUSTED);

  v1::GetWorldRequest get;
  get.set_world_id(id);
  v1::GetWorldResponse world;
  ASSERT_TRUE(stub->GetWorld(Context().get(), get, &world).ok());
  EXPECT_EQ(world.tick(), 1u);
}

TEST(LimitsTest, max_message_size) {
  ThrongdProcess server({"--max-message-mb", "1"});
  ASSERT_NE(server.port(), 0);
  auto stub = server.Stub();
  auto scene = MakeTestScene(60000, 0);  // about 1.7 MB of columns
  const std::string id = CreateWorld(*stub, scene.config);
  v1::StepResponse out;
  const auto status = stub->Step(Context().get(), StepRequest(id, scene.snapshot), &out);
  EXPECT_EQ(status.error_code(), StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
}

class TokenTest : public ::testing::Test {
 protected:
  static void ExpectTokenChecks(ThrongdProcess& server, const std::string& token) {
    ASSERT_NE(server.port(), 0);
    auto stub = server.Stub();
    v1::ListWorldsResponse list;
    auto status = stub->ListWorlds(Context().get(), {}, &list);
    EXPECT_EQ(status.error_code(), StatusCode::UNAUTHENTICATED);
    EXPECT_NE(status.error_message().find("missing"), std::string::npos);
    status = stub->ListWorlds(Context(60, token + "x").get(), {}, &list);
    EXPECT_EQ(status.error_code(), StatusCode::UNAUTHENTICATED);
    EXPECT_NE(status.error_message().find("wrong"), std::string::npos);
    auto context = Context();
    context->AddMetadata("authorization", token);  // no "Bearer "
    EXPECT_EQ(stub->ListWorlds(context.get(), {}, &list).error_code(), StatusCode::UNAUTHENTICATED);
    status = stub->ListWorlds(Context(60, token).get(), {}, &list);
    EXPECT_TRUE(status.ok()) << status.error_message();

    // Every method checks, before anything else (an unknown world would be NOT_FOUND).
    v1::StepResponse step;
    EXPECT_EQ(stub->Step(Context().get(), v1::StepRequest(), &step).error_code(),
              StatusCode::UNAUTHENTICATED);
    v1::WorldInfo info;
    EXPECT_EQ(stub->CreateWorld(Context().get(), {}, &info).error_code(),
              StatusCode::UNAUTHENTICATED);
    auto stream_context = Context();
    auto stream = stub->StreamSteps(stream_context.get());
    stream->WritesDone();
    EXPECT_EQ(stream->Finish().error_code(), StatusCode::UNAUTHENTICATED);
    ASSERT_TRUE(stub->CreateWorld(Context(60, token).get(), {}, &info).ok());
  }
};

TEST_F(TokenTest, missing_wrong_right) {
  ThrongdProcess server({"--token", "s3cret-token"});
  ExpectTokenChecks(server, "s3cret-token");
}

TEST_F(TokenTest, token_file) {
  const auto path =
      std::filesystem::temp_directory_path() / ("throngd-token-" + std::to_string(getpid()));
  std::ofstream(path) << "file-token-42\n";
  ThrongdProcess server({"--token-file", path.string()});
  ExpectTokenChecks(server, "file-token-42");
  std::filesystem::remove(path);
}

// Options from a file, as the packaged service reads /etc/throng/throngd.conf: what the
// file sets holds, the command line wins over it, an unknown name is refused, and the
// file the package ships starts a server.
class ConfigFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    path_ = std::filesystem::temp_directory_path() /
            ("throngd-conf-" + std::to_string(getpid()) + ".toml");
    std::ofstream(path_) << text;
    return path_.string();
  }
  void TearDown() override { std::filesystem::remove(path_); }

  // How many of three CreateWorld calls succeed.
  static int WorldsCreated(const ThrongdProcess& server) {
    auto stub = server.Stub();
    const auto config = MakeTestScene(3, 0).config;
    int created = 0;
    for (int i = 0; i < 3; ++i) {
      v1::WorldInfo info;
      created += stub->CreateWorld(Context().get(), CreateRequest(config), &info).ok();
    }
    return created;
  }

  std::filesystem::path path_;
};

TEST_F(ConfigFileTest, file_sets_options_and_the_command_line_wins) {
  const std::string conf = Write("# a comment\nmax-worlds = 1\nlog-level = \"warn\"\n");
  {
    ThrongdProcess server({"--config", conf});
    ASSERT_NE(server.port(), 0);
    EXPECT_EQ(WorldsCreated(server), 1);
  }
  ThrongdProcess server({"--config", conf, "--max-worlds", "2"});
  ASSERT_NE(server.port(), 0);
  EXPECT_EQ(WorldsCreated(server), 2);
}

TEST_F(ConfigFileTest, unknown_name_is_refused) {
  const std::string conf = Write("max-wrlds = 1\n");
  // Were it accepted, throngd would serve: on no port of anyone's, for at most 10 s.
  const std::string command = "timeout 10 " + std::string(THRONGD_PATH) + " --config " + conf +
                              " --listen 127.0.0.1:0 --metrics '' 2>&1";
  FILE* out = popen(command.c_str(), "r");
  ASSERT_NE(out, nullptr);
  std::string text;
  char buf[256];
  while (fgets(buf, sizeof buf, out)) text += buf;
  const int status = pclose(out);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0) << text;
  EXPECT_NE(text.find("max-wrlds"), std::string::npos) << text;
}

TEST_F(ConfigFileTest, the_packaged_file_starts_a_server) {
  // Its listen and metrics addresses give way to the test's free port and no metrics.
  ThrongdProcess server({"--config", THRONG_SOURCE_DIR "/packaging/throngd.conf"});
  ASSERT_NE(server.port(), 0);
  EXPECT_EQ(WorldsCreated(server), 3);
}

// A self-signed certificate for localhost and 127.0.0.1, made with openssl for this run.
class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("throngd-tls-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    const std::string command =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
        "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout " +
        (dir_ / "key.pem").string() + " -out " + (dir_ / "cert.pem").string() + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    std::ifstream in(dir_ / "cert.pem");
    std::stringstream text;
    text << in.rdbuf();
    cert_ = text.str();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
  std::string cert_;
};

TEST_F(TlsTest, serves_tls_with_token_and_refuses_plain_text) {
  ThrongdProcess server({"--tls-cert", (dir_ / "cert.pem").string(), "--tls-key",
                         (dir_ / "key.pem").string(), "--token", "tls-token"});
  ASSERT_NE(server.port(), 0);
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = cert_;
  const auto address = "localhost:" + std::to_string(server.port());
  auto stub = v1::Simulation::NewStub(grpc::CreateChannel(address, grpc::SslCredentials(ssl)));
  v1::ListWorldsResponse list;
  auto status = stub->ListWorlds(Context(30, "tls-token").get(), {}, &list);
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(stub->ListWorlds(Context(30).get(), {}, &list).error_code(),
            StatusCode::UNAUTHENTICATED);

  auto plain = server.Stub();
  status = plain->ListWorlds(Context(5, "tls-token").get(), {}, &list);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.error_code(), StatusCode::UNAVAILABLE) << status.error_message();
}

TEST(StandardServicesTest, health_check_serving) {
  ThrongdProcess server({"--token", "t"});  // probes need no token
  ASSERT_NE(server.port(), 0);
  auto health = grpc::health::v1::Health::NewStub(server.Channel());
  for (const char* service : {"", "throng.v1.Simulation"}) {
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    grpc::health::v1::HealthCheckResponse response;
    const auto status = health->Check(Context().get(), request, &response);
    ASSERT_TRUE(status.ok()) << service << ": " << status.error_message();
    EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING) << service;
  }
}

// throngd --health-check: the probe container health checks run (docs/SERVICE.md).
TEST(StandardServicesTest, health_check_mode_exits_by_serving_status) {
  auto probe = [](int port) {
    const std::string command = std::string(THRONGD_PATH) +
                                " --health-check 127.0.0.1:" + std::to_string(port) +
                                " > /dev/null";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  int port = 0;
  {
    ThrongdProcess server({"--token", "t"});  // the probe needs no token
    ASSERT_NE(server.port(), 0);
    port = server.port();
    EXPECT_EQ(probe(port), 0);
  }
  EXPECT_EQ(probe(port), 2) << "nothing listens there any more";
}

TEST(StandardServicesTest, reflection_lists_the_service_and_its_file) {
  ThrongdProcess server;
  ASSERT_NE(server.port(), 0);
  namespace refl = grpc::reflection::v1alpha;
  auto stub = refl::ServerReflection::NewStub(server.Channel());
  auto context = Context();
  auto stream = stub->ServerReflectionInfo(context.get());

  refl::ServerReflectionRequest request;
  request.set_list_services("");
  ASSERT_TRUE(stream->Write(request));
  refl::ServerReflectionResponse response;
  ASSERT_TRUE(stream->Read(&response));
  std::vector<std::string> names;
  for (const auto& s : response.list_services_response().service()) names.push_back(s.name());
  EXPECT_NE(std::find(names.begin(), names.end(), "throng.v1.Simulation"), names.end())
      << ::testing::PrintToString(names);

  request.set_file_containing_symbol("throng.v1.Simulation");
  ASSERT_TRUE(stream->Write(request));
  ASSERT_TRUE(stream->Read(&response));
  ASSERT_GE(response.file_descriptor_response().file_descriptor_proto_size(), 1);
  google::protobuf::FileDescriptorProto file;
  ASSERT_TRUE(file.ParseFromString(response.file_descriptor_response().file_descriptor_proto(0)));
  EXPECT_EQ(file.name(), "throng/v1/simulation.proto");
  EXPECT_EQ(file.package(), "throng.v1");
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

}  // namespace
}  // namespace throng::service::testing
