#include "tests/service/fuzz/tally.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>

namespace throng::fuzz {
namespace {

std::string CodeName(grpc::StatusCode code) {
  static const char* kNames[] = {"OK",
                                 "CANCELLED",
                                 "UNKNOWN",
                                 "INVALID_ARGUMENT",
                                 "DEADLINE_EXCEEDED",
                                 "NOT_FOUND",
                                 "ALREADY_EXISTS",
                                 "PERMISSION_DENIED",
                                 "RESOURCE_EXHAUSTED",
                                 "FAILED_PRECONDITION",
                                 "ABORTED",
                                 "OUT_OF_RANGE",
                                 "UNIMPLEMENTED",
                                 "INTERNAL",
                                 "UNAVAILABLE",
                                 "DATA_LOSS",
                                 "UNAUTHENTICATED"};
  const int i = static_cast<int>(code);
  return i >= 0 && i < 17 ? kNames[i] : "CODE_" + std::to_string(i);
}

}  // namespace

void Tally::Add(const FuzzCase& c, const Verdict& v, double seconds) {
  ClassCounts& k = classes_[static_cast<int>(c.klass)];
  ++k.requests;
  k.seconds += seconds;
  ++k.codes[CodeName(v.code)];
  (v.code == grpc::StatusCode::OK ? k.ok : k.refused)++;
  if (!v.failed) {
    ++passed_;
    return;
  }
  ++k.failed;
  ++failed_;
  ++oracles_[static_cast<int>(v.oracle)];
  failures_.push_back(std::string(OracleName(v.oracle)) + " in " +
                      std::string(CaseClassName(c.klass)) + " (" +
                      std::string(MethodName(c.method)) + "): " + v.detail.substr(0, 200));
}

void Tally::Print(std::ostream& out) const {
  for (int o = 0; o < kOracleCount; ++o) {
    out << "oracle " << std::left << std::setw(14) << OracleName(static_cast<Oracle>(o))
        << oracles_[o] << " failed\n";
  }
  for (int i = 0; i < kCaseClassCount; ++i) {
    const ClassCounts& k = classes_[i];
    out << "class  " << std::left << std::setw(15) << CaseClassName(static_cast<CaseClass>(i))
        << k.requests << " requests, " << k.ok << " OK, " << k.refused << " refused, " << k.failed
        << " failed, " << std::fixed << std::setprecision(1) << k.seconds << std::defaultfloat
        << " s (";
    bool first = true;
    for (const auto& [code, n] : k.codes) {
      out << (first ? "" : " ") << code << " " << n;
      first = false;
    }
    out << ")\n";
  }
  out << "throng-fuzz: " << passed_ << " passed, " << failed_ << " failed" << std::endl;
}

std::string Tally::Json(const std::map<std::string, std::string>& run) const {
  nlohmann::json j;
  for (const auto& [key, value] : run) j["run"][key] = value;
  j["passed"] = passed_;
  j["failed"] = failed_;
  for (int o = 0; o < kOracleCount; ++o)
    j["oracles"][OracleName(static_cast<Oracle>(o))] = oracles_[o];
  for (int i = 0; i < kCaseClassCount; ++i) {
    const ClassCounts& k = classes_[i];
    auto& c = j["classes"][std::string(CaseClassName(static_cast<CaseClass>(i)))];
    c["requests"] = k.requests;
    c["ok"] = k.ok;
    c["refused"] = k.refused;
    c["failed"] = k.failed;
    c["seconds"] = k.seconds;
    c["codes"] = k.codes;
  }
  j["failures"] = failures_;
  return j.dump(2);
}

std::string ReproducerText(const FuzzCase& c, const Verdict& v, size_t max_request_chars) {
  std::string request = CaseText(c, max_request_chars != std::string::npos);
  if (request.size() > max_request_chars) {
    request = request.substr(0, max_request_chars) + "\n... (" +
              std::to_string(request.size() - max_request_chars) + " more characters)\n";
  }
  return "oracle: " + std::string(OracleName(v.oracle)) +
         "\nclass: " + std::string(CaseClassName(c.klass)) +
         "\nmethod: " + std::string(MethodName(c.method)) + "\nmutation: " + c.what +
         "\nstatus: " + CodeName(v.code) + " \"" + v.message.substr(0, 500) +
         "\"\nseconds: " + std::to_string(v.seconds) + "\ndetail: " + v.detail + "\nrequest:\n" +
         request;
}

std::string SaveReproducer(const std::string& dir, int64_t n, const FuzzCase& c, const Verdict& v) {
  std::filesystem::create_directories(dir);
  const std::string stem = dir + "/failure-" + std::to_string(n);
  std::ofstream(stem + ".txt") << ReproducerText(c, v, std::string::npos);
  const std::string bytes = CaseBytes(c);
  if (!bytes.empty()) std::ofstream(stem + ".bin", std::ios::binary) << bytes;
  return stem + ".txt";
}

}  // namespace throng::fuzz
