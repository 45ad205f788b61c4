// Scenario -> JSON (format in docs/SCENARIOS.md), by the field list of
// scenario_json_fields.h.
#include <bit>
#include <charconv>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/scenarios/scenario.h"
#include "kernels/scenarios/scenario_json_fields.h"

namespace throng::scenarios {
namespace {

using json_fields::Need;
using Json = nlohmann::ordered_json;  // keys in the order of the field list, for readers

// The double that a JSON reader turns back into exactly `f`, with as few digits as
// possible: the float's shortest decimal form ("0.1", not the "0.10000000149011612" that
// double(0.1f) prints as), checked to read back to the same bits. Were the check to fail,
// double(f) itself is used: it always converts back exactly.
double ShortestDouble(float f) {
  char buffer[32];
  const char* end = std::to_chars(buffer, buffer + sizeof buffer, f).ptr;
  double d = 0.0;
  std::from_chars(buffer, end, d);
  const bool exact = std::bit_cast<uint32_t>(static_cast<float>(d)) == std::bit_cast<uint32_t>(f);
  return exact ? d : static_cast<double>(f);
}

class Writer {
 public:
  Writer(Json& out, std::string path) : out_(out), path_(std::move(path)) {}

  template <class T>
  void operator()(const char* key, const T& value, Need) {
    out_[key] = Scalar(value, key);
  }

  template <class E>
  void Enum(const char* key, E value, std::initializer_list<std::pair<E, const char*>> names) {
    for (const auto& [e, name] : names) {
      if (e == value) {
        out_[key] = name;
        return;
      }
    }
    throw std::invalid_argument(Child(key) + ": value " + std::to_string(static_cast<int>(value)) +
                                " has no name");
  }

  void Version(int) {}

  template <class T>
  void Object(const char* key, T& value, Need) {
    Json sub = Json::object();
    Writer w(sub, Child(key));
    json_fields::VisitFields(w, value);
    out_[key] = std::move(sub);
  }

  template <class T>
  void Array(const char* key, std::vector<T>& values, Need) {
    Json array = Json::array();
    for (size_t i = 0; i < values.size(); ++i) {
      Json sub = Json::object();
      Writer w(sub, Child(key) + "[" + std::to_string(i) + "]");
      json_fields::VisitFields(w, values[i]);
      array.push_back(std::move(sub));
    }
    out_[key] = std::move(array);
  }

  void Point(const char* key, const Vec3& point, Need) {
    out_[key] = PointArray({point}, Child(key))[0];
  }

  void Points(const char* key, const std::vector<Vec3>& points, Need) {
    out_[key] = PointArray(points, Child(key));
  }

  void PointLists(const char* key, const std::vector<std::vector<Vec3>>& lists, Need) {
    Json array = Json::array();
    for (size_t i = 0; i < lists.size(); ++i) {
      array.push_back(PointArray(lists[i], Child(key) + "[" + std::to_string(i) + "]"));
    }
    out_[key] = std::move(array);
  }

  // Empty optional columns are left out: absent and empty read back the same.
  template <class T>
  void Column(const char* key, const std::vector<T>& values, Need need) {
    if (values.empty() && need == Need::kOptional) return;
    Json array = Json::array();
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (std::is_same_v<T, float>) {
        array.push_back(
            Number(values[i], [&] { return Child(key) + "[" + std::to_string(i) + "]"; }));
      } else {
        array.push_back(values[i]);
      }
    }
    out_[key] = std::move(array);
  }

 private:
  std::string Child(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  template <class PathFn>
  static double Number(float f, PathFn path) {
    // JSON has no NaN or infinity (nlohmann would write null): refuse rather than lose it.
    if (!std::isfinite(f))
      throw std::invalid_argument(path() + ": not finite, JSON cannot hold it");
    return ShortestDouble(f);
  }

  template <class T>
  Json Scalar(const T& value, const char* key) const {
    if constexpr (std::is_same_v<T, float>) {
      return Number(value, [&] { return Child(key); });
    } else {
      return value;
    }
  }

  static Json PointArray(const std::vector<Vec3>& points, const std::string& path) {
    Json array = Json::array();
    for (size_t i = 0; i < points.size(); ++i) {
      const auto at = [&] { return path + "[" + std::to_string(i) + "]"; };
      array.push_back(
          Json::array({Number(points[i].x, at), Number(points[i].y, at), Number(points[i].z, at)}));
    }
    return array;
  }

  Json& out_;
  std::string path_;
};

}  // namespace

std::string ScenarioToJson(const Scenario& scenario) {
  Json root = Json::object();
  Writer w(root, "");
  // The field list takes references so the reader can fill them; the writer only reads.
  json_fields::VisitFields(w, const_cast<Scenario&>(scenario));
  return root.dump() + "\n";
}

void SaveScenario(const Scenario& scenario, const std::string& path) {
  const std::string text = ScenarioToJson(scenario);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw std::runtime_error(path + ": cannot open for writing");
  file.write(text.data(), static_cast<std::streamsize>(text.size()));
  file.close();
  if (!file) throw std::runtime_error(path + ": write failed");
}

}  // namespace throng::scenarios
