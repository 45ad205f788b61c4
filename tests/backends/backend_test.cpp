#include "kernels/backends/backend.h"

#include <gtest/gtest.h>

namespace throng {
namespace {

TEST(BackendTest, names_parse_both_ways) {
  for (BackendKind k :
       {BackendKind::kAuto, BackendKind::kCuda, BackendKind::kCpu, BackendKind::kReference}) {
    EXPECT_EQ(ParseBackendKind(BackendName(k)), k);
  }
  EXPECT_THROW(ParseBackendKind("gpu"), std::invalid_argument);
}

TEST(BackendTest, auto_picks_cuda_only_with_a_device) {
  const auto backend = CreateBackend(BackendKind::kAuto);
  EXPECT_EQ(backend->kind(), CudaDeviceAvailable() ? BackendKind::kCuda : BackendKind::kCpu);
}

TEST(BackendTest, asking_for_cuda_without_a_device_is_a_clear_error) {
  if (CudaDeviceAvailable()) GTEST_SKIP() << "a CUDA device is present";
  try {
    CreateBackend(BackendKind::kCuda);
    FAIL() << "expected BackendUnavailable";
  } catch (const BackendUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
  }
}

TEST(BackendTest, cpu_and_reference_are_always_there) {
  EXPECT_EQ(CreateBackend(BackendKind::kCpu)->kind(), BackendKind::kCpu);
  EXPECT_EQ(CreateBackend(BackendKind::kReference)->kind(), BackendKind::kReference);
}

TEST(BackendTest, bad_queries_are_rejected_with_the_column_and_index) {
  for (BackendKind k : {BackendKind::kCpu, BackendKind::kReference}) {
    const auto backend = CreateBackend(k);
    SplineDesc d;
    d.points = {{0, 0, 0}, {10, 0, 0}};
    backend->SetSplines({d});
    SplineQueries q;
    q.Resize(3);
    q.spline[2] = 1;
    SplineQueryResults out;
    try {
      backend->QuerySplines(q, &out);
      FAIL() << "expected an error";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("queries.spline[2]"), std::string::npos) << e.what();
    }
    q.spline[2] = 0;
    q.s[1] = std::nanf("");
    EXPECT_THROW(backend->QuerySplines(q, &out), std::invalid_argument);
    q.s[1] = 0;
    q.px.pop_back();
    EXPECT_THROW(backend->QuerySplines(q, &out), std::invalid_argument);
    // Two lanes with one id: rejected by every backend, naming both.
    try {
      backend->SetSplines({d, d});
      ADD_FAILURE() << "expected a duplicate-id error";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("splines[1].id"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace throng
