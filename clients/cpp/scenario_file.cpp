#include "throng/scenario_file.h"

#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace throng::client {
namespace {

using nlohmann::json;

// One part of the document into its message, strictly: an unknown field is an error, as
// it would be on the wire.
void ParsePart(const json& doc, const char* key, const char* part, google::protobuf::Message* out) {
  const auto it = doc.find(key);
  if (it == doc.end()) return;
  if (!it->is_object())
    throw std::runtime_error(std::string("scenario ") + part + ": not an object");
  const auto status = google::protobuf::util::JsonStringToMessage(it->dump(), out);
  if (!status.ok()) {
    throw std::runtime_error(std::string("scenario ") + part + ": " + status.ToString());
  }
}

}  // namespace

ProtoScenario ParseScenarioJson(const std::string& text) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    throw std::runtime_error("scenario: not a JSON object");
  }
  const json format = doc.value("format", json());
  if (format != "throng.v1") {
    throw std::runtime_error("scenario: format is " + format.dump() +
                             ", expected \"throng.v1\" (write it with throng-scenario --proto)");
  }
  ProtoScenario s;
  try {
    s.name = doc.value("name", std::string());
    s.suggested_ticks = doc.value("suggested_ticks", uint32_t{0});
    ParsePart(doc, "config", "config", &s.config);
    const json initial = doc.value("initial", json::object());
    if (!initial.is_object()) throw std::runtime_error("scenario initial: not an object");
    s.tick = initial.value("tick", uint64_t{0});
    s.dt = initial.value("dt", 0.1f);
    ParsePart(initial, "agents", "initial.agents", &s.agents);
    ParsePart(initial, "vehicles", "initial.vehicles", &s.vehicles);
    ParsePart(initial, "forward", "initial.forward", &s.forward);
  } catch (const json::exception& e) {  // a scalar of the wrong type
    throw std::runtime_error(std::string("scenario: ") + e.what());
  }
  return s;
}

ProtoScenario LoadScenarioFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("scenario: cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseScenarioJson(text.str());
}

}  // namespace throng::client
