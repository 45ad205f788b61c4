#include "tests/service/fuzz/fuzz_case.h"

#include <google/protobuf/text_format.h>

namespace throng::fuzz {

std::string_view CaseClassName(CaseClass c) {
  switch (c) {
    case CaseClass::kValid:
      return "valid";
    case CaseClass::kBitFlip:
      return "bit_flip";
    case CaseClass::kExtreme:
      return "extreme_value";
    case CaseClass::kNonFinite:
      return "non_finite";
    case CaseClass::kColumnLength:
      return "column_length";
    case CaseClass::kHugeCount:
      return "huge_count";
    case CaseClass::kTick:
      return "tick";
    case CaseClass::kDuplicateId:
      return "duplicate_id";
    case CaseClass::kUnknownSpline:
      return "unknown_spline";
    case CaseClass::kSolve:
      return "solve";
    case CaseClass::kCreateWorld:
      return "create_world";
    case CaseClass::kStream:
      return "stream";
    case CaseClass::kAdvance:
      return "advance";
    case CaseClass::kOddId:
      return "odd_id";
  }
  return "?";
}

std::string_view MethodName(Method m) {
  switch (m) {
    case Method::kStep:
      return "Step";
    case Method::kStepRaw:
      return "Step (raw bytes)";
    case Method::kStream:
      return "StreamSteps";
    case Method::kSolve:
      return "Solve";
    case Method::kCreateWorld:
      return "CreateWorld";
    case Method::kAdvance:
      return "Advance";
    case Method::kGetWorld:
      return "GetWorld";
    case Method::kDeleteWorld:
      return "DeleteWorld";
  }
  return "?";
}

namespace {

std::string ToText(const google::protobuf::Message& m, bool single_line) {
  google::protobuf::TextFormat::Printer printer;
  printer.SetSingleLineMode(single_line);
  std::string out;
  printer.PrintToString(m, &out);
  return single_line ? out + "\n" : out;
}

std::string Hex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

}  // namespace

std::string CaseText(const FuzzCase& c, bool single_line) {
  const auto text = [single_line](const google::protobuf::Message& m) {
    return ToText(m, single_line);
  };
  switch (c.method) {
    case Method::kStep:
      return text(c.step);
    case Method::kStepRaw:
      return "hex: " + Hex(c.raw) + "\n";
    case Method::kStream: {
      std::string out;
      for (size_t i = 0; i < c.stream.size(); ++i) {
        out += "# request " + std::to_string(i) + "\n" + text(c.stream[i]);
      }
      return out;
    }
    case Method::kSolve:
      return text(c.solve);
    case Method::kCreateWorld:
      return text(c.create);
    case Method::kAdvance:
      return text(c.advance);
    case Method::kGetWorld:
      return text(c.get);
    case Method::kDeleteWorld:
      return text(c.del);
  }
  return "";
}

std::string CaseBytes(const FuzzCase& c) {
  switch (c.method) {
    case Method::kStep:
      return c.step.SerializeAsString();
    case Method::kStepRaw:
      return c.raw;
    case Method::kStream:
      return "";
    case Method::kSolve:
      return c.solve.SerializeAsString();
    case Method::kCreateWorld:
      return c.create.SerializeAsString();
    case Method::kAdvance:
      return c.advance.SerializeAsString();
    case Method::kGetWorld:
      return c.get.SerializeAsString();
    case Method::kDeleteWorld:
      return c.del.SerializeAsString();
  }
  return "";
}

}  // namespace throng::fuzz
