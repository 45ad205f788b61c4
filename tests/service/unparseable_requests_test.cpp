// Requests gRPC refuses before any handler runs (bytes that do not parse) are counted, with
// their method, in throng_rpcs_total and throng_unparseable_requests_total; parseable
// requests, good or bad, are not counted there. An in-process server, so the test can read
// the metrics it records.
#include "service/unparseable_requests.h"

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "service/metrics.h"
#include "service/registry.h"
#include "service/simulation_service.h"
#include "tests/metrics/scrape_text.h"
#include "tests/service/fuzz/raw_call.h"

namespace throng::service {
namespace {

using scrape::SampleValue;

TEST(UnparseableRequestsTest, bytes_that_do_not_parse_are_counted_with_their_method) {
  ServiceMetrics metrics("", 4);
  WorldRegistry registry(
      4, [](int64_t) {}, [](int64_t, int64_t) {});
  SimulationService service(BackendKind::kCpu, {}, TokenAuth(""), &registry, &metrics);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> creators;
  creators.push_back(std::make_unique<UnparseableRequestCounterFactory>(&metrics));
  builder.experimental().SetInterceptorCreators(std::move(creators));
  const std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_NE(port, 0);
  grpc::GenericStub stub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));

  auto call = [&](const std::string& method, const std::string& bytes) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    std::string response;
    return fuzz::RawUnaryCall(stub, &context, "/throng.v1.Simulation/" + method, bytes, &response);
  };
  const std::string never_ending_tag("\xff\xff\xff\xff\xff", 5);
  EXPECT_EQ(call("Step", never_ending_tag).error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_EQ(call("Step", std::string("\x22\x7f\x0a", 3)).error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_EQ(call("CreateWorld", never_ending_tag).error_code(), grpc::StatusCode::INTERNAL);
  // Parseable: an empty StepRequest is a valid message, refused by the handler.
  EXPECT_EQ(call("Step", "").error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  const std::string text = metrics.Scrape();
  EXPECT_EQ(SampleValue(text, R"(throng_unparseable_requests_total{method="Step"})"), 2);
  EXPECT_EQ(SampleValue(text, R"(throng_unparseable_requests_total{method="CreateWorld"})"), 1);
  EXPECT_EQ(SampleValue(text, R"(throng_rpcs_total{code="INTERNAL",method="Step"})"), 2);
  EXPECT_EQ(SampleValue(text, R"(throng_rpcs_total{code="INVALID_ARGUMENT",method="Step"})"), 1);
  server->Shutdown();
}

}  // namespace
}  // namespace throng::service
