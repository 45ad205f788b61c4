// The fixed label values of throngd's metrics. Every series is created up front from
// these lists (so dashboards see zeros rather than gaps), and a value outside them is
// recorded as "other": callers cannot grow the number of series.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace throng::service {

inline constexpr std::array<std::string_view, 4> kBackends = {"cpu", "cuda", "reference", "other"};

// Indexed by SolveStatus.
inline constexpr std::array<std::string_view, 3> kCases = {"ok", "safe_stop", "emergency"};

// The methods of throng.v1.Simulation, then "other" (e.g. health checks).
inline constexpr std::array<std::string_view, 12> kRpcMethods = {
    "CreateWorld", "Step",  "StreamSteps", "Advance",     "GetWorld",           "ListWorlds",
    "DeleteWorld", "Solve", "ExportWorld", "ImportWorld", "GetNavigationField", "other"};

// grpc::StatusCode names in code order (0 = OK .. 16 = UNAUTHENTICATED), then "other".
// clang-format off
inline constexpr std::array<std::string_view, 18> kRpcCodes = {
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
    "UNAUTHENTICATED", "other"};
// clang-format on

// The index of `value` in `list`, or the last ("other") when it is not there.
template <size_t N>
constexpr size_t LabelIndex(const std::array<std::string_view, N>& list, std::string_view value) {
  for (size_t i = 0; i + 1 < N; ++i) {
    if (list[i] == value) return i;
  }
  return N - 1;
}

constexpr size_t BackendIndex(std::string_view v) { return LabelIndex(kBackends, v); }
constexpr size_t RpcMethodIndex(std::string_view v) { return LabelIndex(kRpcMethods, v); }
constexpr size_t RpcCodeIndex(std::string_view v) { return LabelIndex(kRpcCodes, v); }

}  // namespace throng::service
