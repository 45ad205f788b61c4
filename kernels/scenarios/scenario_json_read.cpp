// JSON -> Scenario (format in docs/SCENARIOS.md), by the field list of
// scenario_json_fields.h. Every error names its JSON path:
// "config.orca.time_horizon: expected a number", "initial.agents.x[3]: expected a number".
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/scenarios/scenario.h"
#include "kernels/scenarios/scenario_json_fields.h"

namespace throng::scenarios {
namespace {

using json_fields::Need;
using Json = nlohmann::json;

[[noreturn]] void Fail(const std::string& path, const std::string& what) {
  throw std::invalid_argument(path + ": " + what);
}

std::string At(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

void Read(const Json& j, const std::string& path, float& out) {
  if (!j.is_number()) Fail(path, "expected a number");
  const double d = j.get<double>();
  // Doubles from FLT_MAX + half an ulp (2^128 - 2^103) up round to infinity; the shortest
  // decimal form of FLT_MAX itself ("3.4028235e+38") lies just above FLT_MAX, below that.
  constexpr double kFloatOverflow = 0x1p128 - 0x1p103;
  if (!(std::fabs(d) < kFloatOverflow)) Fail(path, "out of the float range");
  out = static_cast<float>(d);
}

void Read(const Json& j, const std::string& path, bool& out) {
  if (!j.is_boolean()) Fail(path, "expected true or false");
  out = j.get<bool>();
}

void Read(const Json& j, const std::string& path, std::string& out) {
  if (!j.is_string()) Fail(path, "expected a string");
  out = j.get<std::string>();
}

template <class T>
requires std::is_integral_v<T>
void Read(const Json& j, const std::string& path, T& out) {
  if (!j.is_number_integer()) Fail(path, "expected an integer");
  using Limits = std::numeric_limits<T>;
  // nlohmann keeps non-negative integers unsigned and negative ones signed.
  bool fits = false;
  if (j.is_number_unsigned()) {
    fits = j.get<uint64_t>() <= static_cast<uint64_t>(Limits::max());
  } else {
    fits = std::is_signed_v<T> && j.get<int64_t>() >= static_cast<int64_t>(Limits::min());
  }
  if (!fits) {
    Fail(path,
         "out of range " + std::to_string(Limits::min()) + " .. " + std::to_string(Limits::max()));
  }
  out =
      j.is_number_unsigned() ? static_cast<T>(j.get<uint64_t>()) : static_cast<T>(j.get<int64_t>());
}

// [x, y, z], or [x, y] with z = 0 for hand-written ground-plane data.
Vec3 ReadPoint(const Json& j, const std::string& path) {
  if (!j.is_array() || j.size() < 2 || j.size() > 3) Fail(path, "expected [x, y, z]");
  Vec3 p{0.f, 0.f, 0.f};
  Read(j[0], At(path, 0), p.x);
  Read(j[1], At(path, 1), p.y);
  if (j.size() == 3) Read(j[2], At(path, 2), p.z);
  return p;
}

std::vector<Vec3> ReadPoints(const Json& j, const std::string& path) {
  if (!j.is_array()) Fail(path, "expected an array of points");
  std::vector<Vec3> points;
  points.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) points.push_back(ReadPoint(j[i], At(path, i)));
  return points;
}

// One JSON object: fields are looked up by the field list, and once it is walked,
// Finish() reports any key the list does not have (a misspelt optional field would
// otherwise be silently ignored).
class Reader {
 public:
  Reader(const Json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) Fail(path_.empty() ? "(top level)" : path_, "expected an object");
  }

  template <class T>
  void operator()(const char* key, T& value, Need need) {
    if (const Json* j = Find(key, need)) Read(*j, Child(key), value);
  }

  template <class E>
  void Enum(const char* key, E& value, std::initializer_list<std::pair<E, const char*>> names) {
    const Json* j = Find(key, Need::kOptional);
    if (!j) return;
    std::string expected;
    for (const auto& [e, name] : names) {
      if (j->is_string() && j->get<std::string>() == name) {
        value = e;
        return;
      }
      expected += std::string(expected.empty() ? "\"" : " or \"") + name + "\"";
    }
    Fail(Child(key), "expected " + expected);
  }

  void Version(int version) {
    if (version != json_fields::kFormatVersion) {
      Fail(Child("version"), "unsupported " + std::to_string(version) + " (this build reads " +
                                 std::to_string(json_fields::kFormatVersion) + ")");
    }
  }

  template <class T>
  void Object(const char* key, T& value, Need need) {
    const Json* j = Find(key, need);
    if (!j) return;
    Reader sub(*j, Child(key));
    json_fields::VisitFields(sub, value);
    sub.Finish();
  }

  template <class T>
  void Array(const char* key, std::vector<T>& values, Need need) {
    const Json* j = Find(key, need);
    if (!j) return;
    if (!j->is_array()) Fail(Child(key), "expected an array");
    values.assign(j->size(), T{});
    for (size_t i = 0; i < j->size(); ++i) {
      Reader sub((*j)[i], At(Child(key), i));
      json_fields::VisitFields(sub, values[i]);
      sub.Finish();
    }
  }

  // One [x, y, z], read as a one-point list.
  void Point(const char* key, Vec3& point, Need need) {
    if (const Json* j = Find(key, need)) point = ReadPoints(Json::array({*j}), Child(key))[0];
  }

  void Points(const char* key, std::vector<Vec3>& points, Need need) {
    if (const Json* j = Find(key, need)) points = ReadPoints(*j, Child(key));
  }

  void PointLists(const char* key, std::vector<std::vector<Vec3>>& lists, Need need) {
    const Json* j = Find(key, need);
    if (!j) return;
    if (!j->is_array()) Fail(Child(key), "expected an array of point arrays");
    lists.clear();
    for (size_t i = 0; i < j->size(); ++i) lists.push_back(ReadPoints((*j)[i], At(Child(key), i)));
  }

  // The first column visited counts the rows; every other non-empty column must match it
  // (a required column must match even when empty).
  template <class T>
  void Column(const char* key, std::vector<T>& values, Need need) {
    const Json* j = Find(key, need);
    if (!j) return;
    const std::string path = Child(key);
    if (!j->is_array()) Fail(path, "expected an array");
    if (!rows_) {
      rows_ = j->size();
      rows_key_ = key;
    } else if (j->size() != *rows_ && (need == Need::kRequired || !j->empty())) {
      Fail(path, std::to_string(j->size()) + " values, expected " + std::to_string(*rows_) +
                     " (one per " + rows_key_ + ")");
    }
    values.resize(j->size());
    for (size_t i = 0; i < j->size(); ++i) Read((*j)[i], At(path, i), values[i]);
  }

  void Finish() const {
    for (const auto& item : object_.items()) {
      if (std::find(seen_.begin(), seen_.end(), item.key()) == seen_.end()) {
        Fail(Child(item.key().c_str()), "unknown field");
      }
    }
  }

 private:
  std::string Child(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  const Json* Find(const char* key, Need need) {
    seen_.emplace_back(key);
    const auto it = object_.find(key);
    if (it == object_.end()) {
      if (need == Need::kRequired) Fail(Child(key), "missing");
      return nullptr;
    }
    return &*it;
  }

  const Json& object_;
  std::string path_;
  std::vector<std::string> seen_;
  std::optional<size_t> rows_;
  std::string rows_key_;
};

}  // namespace

Scenario ScenarioFromJson(std::string_view text) {
  Json root;
  try {
    root = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    throw std::invalid_argument(std::string("not valid JSON: ") + e.what());
  }
  Scenario scenario;
  Reader reader(root, "");
  json_fields::VisitFields(reader, scenario);
  reader.Finish();
  return scenario;
}

Scenario LoadScenario(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path + ": cannot open for reading");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw std::runtime_error(path + ": read failed");
  try {
    return ScenarioFromJson(text.str());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

}  // namespace throng::scenarios
