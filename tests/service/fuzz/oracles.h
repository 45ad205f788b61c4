// What makes a fuzz case fail, apart from the child dying and calls outliving their
// deadline (the runner watches those): a wrong OK response, a world changed by a refused
// call, an INTERNAL that one of the server's handlers produced.
#pragma once

#include <grpcpp/grpcpp.h>

#include <string>

#include "throng/v1/simulation.pb.h"

namespace throng::fuzz {

namespace v1 = ::throng::v1;

enum class Oracle { kCrash, kHang, kWrongOk, kChangedWorld, kInternal };
constexpr int kOracleCount = 5;
const char* OracleName(Oracle o);

// How fast an agent with status ok may go: its max_speed column when present, else the
// world's (effective) default; ground speed in the frame's ground plane.
struct SpeedRule {
  float default_max_speed = 1.4f;
  v1::UpAxis up_axis = v1::UP_AXIS_Z;
};

// The rule for a world's effective configuration (GetWorld) or a Solve's own one, whose
// default fields left at 0 are the engine's.
SpeedRule RuleOfConfig(const v1::WorldConfig& config);

// Empty when `response` is a correct OK answer to a snapshot of `agents`: one value per
// agent in every result column, every result float finite (clear_distance may be +inf),
// and every ok-status cooperative agent within its max speed times (1 + 1e-3).
std::string CheckOkResponse(const v1::StepResponse& response, const v1::AgentBatch& agents,
                            const SpeedRule& rule);

// Empty when the two states are equal but for stage times (wall clock); else the first
// differences.
std::string StateDifference(v1::GetWorldResponse before, v1::GetWorldResponse after);

// gRPC answers INTERNAL with an empty (or its own fixed) message when the request bytes do
// not parse; anything else that is INTERNAL came from a handler and is a bug.
bool IsParseFailure(const grpc::Status& status);

}  // namespace throng::fuzz
