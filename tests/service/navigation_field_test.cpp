// GetNavigationField: a world's field for one target, as the engine built it, bit for
// bit, over gRPC; an unknown target or world is NOT_FOUND and names what there is.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "kernels/world/world.h"
#include "proto/convert.h"
#include "tests/service/service_test_util.h"
#include "tests/service/throngd_process.h"

namespace throng::service::testing {
namespace {

using grpc::StatusCode;

std::vector<Vec3> Box(float x0, float y0, float x1, float y1) {
  return {{x0, y0, 0.f}, {x1, y0, 0.f}, {x1, y1, 0.f}, {x0, y1, 0.f}};
}

// A wall between two targets: one a point, one a polygon.
WorldConfig TwoTargets() {
  WorldConfig c;
  c.obstacles = {Box(-1.f, -6.f, 1.f, 6.f)};
  c.navigation_targets = {{4, {{-8.f, 0.f, 0.f}}}, {9, Box(6.f, -1.f, 8.f, 1.f)}};
  return c;
}

TEST(NavigationFieldTest, is_the_engines_field_bit_for_bit) {
  ThrongdProcess server;
  auto stub = server.Stub();
  const WorldConfig config = TwoTargets();
  const std::string id = CreateWorld(*stub, config);
  World engine(config, BackendKind::kCpu);
  for (const uint32_t target : {4u, 9u}) {
    SCOPED_TRACE(target);
    v1::GetNavigationFieldRequest request;
    request.set_world_id(id);
    request.set_target_id(target);
    v1::NavigationField got;
    const auto status = stub->GetNavigationField(Context().get(), request, &got);
    ASSERT_TRUE(status.ok()) << status.error_message();
    const std::optional<NavDistanceGrid> want = engine.NavigationDistances(target);
    ASSERT_TRUE(want.has_value());
    EXPECT_EQ(got.target_id(), target);
    EXPECT_EQ(got.origin_x(), want->spec.origin.x);
    EXPECT_EQ(got.origin_y(), want->spec.origin.y);
    EXPECT_EQ(got.cell(), want->spec.cell);
    ASSERT_EQ(got.columns(), static_cast<uint32_t>(want->spec.nx));
    ASSERT_EQ(got.rows(), static_cast<uint32_t>(want->spec.ny));
    ASSERT_EQ(static_cast<size_t>(got.distance_size()), want->distance.size());
    EXPECT_EQ(std::memcmp(got.distance().data(), want->distance.data(),
                          want->distance.size() * sizeof(float)),
              0);
    // Inside the wall nothing is reachable; beside the target the distance is small.
    const auto at = [&](float x, float y) {
      const int i = static_cast<int>((x - got.origin_x()) / got.cell());
      const int j = static_cast<int>((y - got.origin_y()) / got.cell());
      return got.distance(j * static_cast<int>(got.columns()) + i);
    };
    EXPECT_TRUE(std::isinf(at(0.f, 0.f)));
    EXPECT_LT(target == 4 ? at(-8.f, 0.5f) : at(7.f, 0.f), 1.f);
  }
}

TEST(NavigationFieldTest, an_unknown_target_or_world_is_not_found) {
  ThrongdProcess server;
  auto stub = server.Stub();
  const std::string id = CreateWorld(*stub, TwoTargets());
  const std::string plain = CreateWorld(*stub, WorldConfig{});
  const auto ask = [&](const std::string& world, uint32_t target) {
    v1::GetNavigationFieldRequest request;
    request.set_world_id(world);
    request.set_target_id(target);
    v1::NavigationField out;
    return stub->GetNavigationField(Context().get(), request, &out);
  };
  auto status = ask(id, 5);
  EXPECT_EQ(status.error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(status.error_message(),
            "target_id: 5 is not a navigation target of this world (its targets: 4, 9)");
  status = ask(plain, 0);
  EXPECT_EQ(status.error_code(), StatusCode::NOT_FOUND);
  EXPECT_NE(status.error_message().find("it has none"), std::string::npos);
  EXPECT_EQ(ask("w-999", 4).error_code(), StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace throng::service::testing
