// Reading Prometheus text exposition in tests: one sample's value, and how many series.
#pragma once

#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>

namespace throng::service::scrape {

// The value of the sample line that starts with `series` (name and labels exactly as
// prometheus-cpp writes them: labels sorted by name). Throws when there is none, so a
// misspelt series fails loudly instead of reading as 0.
inline double SampleValue(const std::string& text, const std::string& series) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() > series.size() && line.compare(0, series.size(), series) == 0 &&
        line[series.size()] == ' ') {
      return std::stod(line.substr(series.size() + 1));
    }
  }
  throw std::runtime_error("no sample " + series);
}

// Sample lines (everything but comments and blank lines).
inline size_t SeriesCount(const std::string& text) {
  std::istringstream lines(text);
  size_t n = 0;
  for (std::string line; std::getline(lines, line);) n += !line.empty() && line[0] != '#';
  return n;
}

}  // namespace throng::service::scrape
