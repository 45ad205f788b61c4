// One fuzz case: the class of mutation it came from, the call it makes and its
// request(s), in the API's messages (or raw bytes for the bit-flip class).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "throng/v1/simulation.pb.h"

namespace throng::fuzz {

namespace v1 = ::throng::v1;

enum class CaseClass {
  kValid,          // an unmutated snapshot: exercises the OK-response oracle
  kBitFlip,        // serialized bytes corrupted, sent raw to /throng.v1.Simulation/Step
  kExtreme,        // huge, tiny or denormal finite floats in a column or config field
  kNonFinite,      // NaN or infinity
  kColumnLength,   // a column (or list) one value short, one long, or empty
  kHugeCount,      // 200k agents, 100k spline points or obstacle vertices, 8 KB strings
  kTick,           // 0, 2^64 - 1, a tick in the past...
  kDuplicateId,    //
  kUnknownSpline,  // a vehicle on a lane the world does not have
  kSolve,          // stateless Solve, mutated or not
  kCreateWorld,    // CreateWorld with a mutated configuration
  kStream,         // StreamSteps of several requests, some mutated
  kAdvance,        // Advance with odd ticks or dt
  kOddId,          // GetWorld, DeleteWorld, Step, Advance with odd world ids
};
constexpr int kCaseClassCount = 14;
std::string_view CaseClassName(CaseClass c);

enum class Method {
  kStep,
  kStepRaw,
  kStream,
  kSolve,
  kCreateWorld,
  kAdvance,
  kGetWorld,
  kDeleteWorld
};
std::string_view MethodName(Method m);

struct FuzzCase {
  CaseClass klass = CaseClass::kValid;
  Method method = Method::kStep;
  int world = -1;    // the base world it targets (its state is checked), or -1
  std::string what;  // the mutations, for the reproducer
  v1::StepRequest step;
  std::string raw;                      // kStepRaw
  std::vector<v1::StepRequest> stream;  // kStream
  v1::SolveRequest solve;
  v1::CreateWorldRequest create;
  v1::AdvanceRequest advance;
  v1::GetWorldRequest get;
  v1::DeleteWorldRequest del;
};

// The request(s) in protobuf text format (raw bytes as hex), one line per request when
// `single_line`, and their serialized bytes when the call has a single request.
std::string CaseText(const FuzzCase& c, bool single_line = false);
std::string CaseBytes(const FuzzCase& c);

}  // namespace throng::fuzz
