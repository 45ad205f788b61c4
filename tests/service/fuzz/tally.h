// Counts of a fuzz run, per case class and per oracle; the summary printed at the end
// (ending in the line CI reads, "throng-fuzz: N passed, M failed") and the JSON report.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "tests/service/fuzz/fuzz_case.h"
#include "tests/service/fuzz/fuzzer.h"

namespace throng::fuzz {

class Tally {
 public:
  // `seconds`: the case's wall time, the calls around it included.
  void Add(const FuzzCase& c, const Verdict& v, double seconds);
  void Print(std::ostream& out) const;
  // The summary as JSON, with `run` (seed, flags, seconds) merged in.
  std::string Json(const std::map<std::string, std::string>& run) const;

  int64_t passed() const { return passed_; }
  int64_t failed() const { return failed_; }

 private:
  struct ClassCounts {
    int64_t requests = 0, ok = 0, refused = 0, failed = 0;
    double seconds = 0;
    std::map<std::string, int64_t> codes;  // status code name -> calls
  };
  std::array<ClassCounts, kCaseClassCount> classes_;
  std::array<int64_t, kOracleCount> oracles_{};
  std::vector<std::string> failures_;  // one line each
  int64_t passed_ = 0, failed_ = 0;
};

// The reproducer: case, verdict and request(s) as text (and the bytes of a single
// request in `<stem>.bin` when saved). `ReproducerText` truncates long requests.
std::string ReproducerText(const FuzzCase& c, const Verdict& v, size_t max_request_chars);
// Writes `<dir>/failure-<n>.txt` (and `.bin`); the path of the text file.
std::string SaveReproducer(const std::string& dir, int64_t n, const FuzzCase& c, const Verdict& v);

}  // namespace throng::fuzz
