#include "tests/service/fuzz/mutators.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "tests/service/fuzz/field_slots.h"

namespace throng::fuzz {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

template <typename T>
const T& Pick(const std::vector<T>& values, Rng& rng) {
  return values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng)];
}
int Below(int n, Rng& rng) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

std::string FloatText(float v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
  return text;
}

std::string At(const FieldSlot& s, int index) {
  return s.field->is_repeated() ? s.path + "[" + std::to_string(index) + "]" : s.path;
}

int PickIndex(const FieldSlot& s, Rng& rng) {
  if (!s.field->is_repeated()) return -1;
  return Below(s.owner->GetReflection()->FieldSize(*s.owner, s.field), rng);
}

bool IsFloat(const FieldDescriptor& f) { return f.cpp_type() == FieldDescriptor::CPPTYPE_FLOAT; }

bool IsIntegral(const FieldDescriptor& f) {
  switch (f.cpp_type()) {
    case FieldDescriptor::CPPTYPE_UINT32:
    case FieldDescriptor::CPPTYPE_UINT64:
    case FieldDescriptor::CPPTYPE_INT32:
    case FieldDescriptor::CPPTYPE_INT64:
    case FieldDescriptor::CPPTYPE_ENUM:
    case FieldDescriptor::CPPTYPE_BOOL:
      return true;
    default:
      return false;
  }
}

// Appends a copy of the list's last element (or a default one) to a repeated field.
void AppendOne(Message* m, const FieldDescriptor* f) {
  const auto* r = m->GetReflection();
  const int n = r->FieldSize(*m, f);
  const int last = n - 1;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_FLOAT:
      r->AddFloat(m, f, n ? r->GetRepeatedFloat(*m, f, last) : 0.f);
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      r->AddDouble(m, f, n ? r->GetRepeatedDouble(*m, f, last) : 0.0);
      break;
    case FieldDescriptor::CPPTYPE_UINT32:
      // A copied id would be a duplicate: ids get a fresh value, anything else a copy.
      r->AddUInt32(m, f, n ? r->GetRepeatedUInt32(*m, f, last) + (f->name() == "id") : 0u);
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      r->AddUInt64(m, f, n ? r->GetRepeatedUInt64(*m, f, last) : 0u);
      break;
    case FieldDescriptor::CPPTYPE_MESSAGE: {
      Message* added = r->AddMessage(m, f);
      if (n) added->CopyFrom(r->GetRepeatedMessage(*m, f, last));
      break;
    }
    default:
      break;  // the API has no other repeated types
  }
}

}  // namespace

float ExtremeFloat(Rng& rng) {
  static const std::vector<float> kValues = {
      1e38f, -1e38f, 3.4e38f, -3.4e38f, FLT_MAX, -FLT_MAX,     1e20f,   -1e20f, 1e6f,
      -1e6f, 1e5f,   FLT_MIN, -FLT_MIN, 1e-40f,  FLT_TRUE_MIN, -1e-42f, -0.f,
  };
  return Pick(kValues, rng);
}

float NonFiniteFloat(Rng& rng) {
  static const std::vector<float> kValues = {
      std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
      std::numeric_limits<float>::signaling_NaN(), std::numeric_limits<float>::infinity(),
      -std::numeric_limits<float>::infinity()};
  return Pick(kValues, rng);
}

uint64_t OddInteger(Rng& rng) {
  static const std::vector<uint64_t> kValues = {
      0,          1,          2,          31,         32,         33,
      63,         64,         65,         255,        256,        65535,
      65536,      0x7fffffff, 0x80000000, 0xffffffff, 1ull << 32, (1ull << 53) + 1,
      1ull << 63, ~0ull};
  return Below(4, rng) == 0 ? rng() : Pick(kValues, rng);
}

uint64_t OddTick(uint64_t next, Rng& rng) {
  const std::vector<uint64_t> values = {0,
                                        1,
                                        ~0ull,
                                        ~0ull - 1,
                                        1ull << 63,
                                        1ull << 53,
                                        (1ull << 53) + 1,
                                        (1ull << 53) - 1,
                                        next > 0 ? next - 1 : 0,
                                        next + 1000000};
  return Below(5, rng) == 0 ? rng() : Pick(values, rng);
}

std::string SetRandomFloat(Message* m, float value, Rng& rng) {
  const auto slots = CollectSlots(m, IsFloat);
  if (slots.empty()) return "no float field";
  const FieldSlot& s = Pick(slots, rng);
  const int index = PickIndex(s, rng);
  const auto* r = s.owner->GetReflection();
  if (index >= 0) {
    r->SetRepeatedFloat(s.owner, s.field, index, value);
  } else {
    r->SetFloat(s.owner, s.field, value);
  }
  return At(s, index) + " = " + FloatText(value);
}

std::string SetRandomInteger(Message* m, Rng& rng) {
  const auto slots = CollectSlots(m, IsIntegral);
  if (slots.empty()) return "no integer field";
  const FieldSlot& s = Pick(slots, rng);
  const int i = PickIndex(s, rng);
  const auto* r = s.owner->GetReflection();
  Message* o = s.owner;
  const FieldDescriptor* f = s.field;
  const uint64_t v = OddInteger(rng);
  std::string text = std::to_string(v);
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_UINT32:
      text = std::to_string(static_cast<uint32_t>(v));
      i >= 0 ? r->SetRepeatedUInt32(o, f, i, static_cast<uint32_t>(v))
             : r->SetUInt32(o, f, static_cast<uint32_t>(v));
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      i >= 0 ? r->SetRepeatedUInt64(o, f, i, v) : r->SetUInt64(o, f, v);
      break;
    case FieldDescriptor::CPPTYPE_INT32:
    case FieldDescriptor::CPPTYPE_ENUM: {
      // Enums are open in proto3: any int32 travels, and small ones are the likely bugs.
      const int32_t e = Below(2, rng) ? Below(8, rng) - 1 : static_cast<int32_t>(v);
      text = std::to_string(e);
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
        i >= 0 ? r->SetRepeatedEnumValue(o, f, i, e) : r->SetEnumValue(o, f, e);
      } else {
        i >= 0 ? r->SetRepeatedInt32(o, f, i, e) : r->SetInt32(o, f, e);
      }
      break;
    }
    case FieldDescriptor::CPPTYPE_INT64:
      i >= 0 ? r->SetRepeatedInt64(o, f, i, static_cast<int64_t>(v))
             : r->SetInt64(o, f, static_cast<int64_t>(v));
      break;
    case FieldDescriptor::CPPTYPE_BOOL: {
      const bool b = i >= 0 ? !r->GetRepeatedBool(*o, f, i) : !r->GetBool(*o, f);
      text = b ? "true" : "false";
      i >= 0 ? r->SetRepeatedBool(o, f, i, b) : r->SetBool(o, f, b);
      break;
    }
    default:
      break;
  }
  return At(s, i) + " = " + text;
}

std::string ResizeRandomList(Message* m, Rng& rng) {
  const auto slots = CollectSlots(
      m, [](const FieldDescriptor& f) { return f.is_repeated(); }, true);
  if (slots.empty()) return "no list";
  const FieldSlot& s = Pick(slots, rng);
  const auto* r = s.owner->GetReflection();
  const int n = r->FieldSize(*s.owner, s.field);
  const int op = Below(3, rng);
  if (op == 0 && n > 0) {
    r->RemoveLast(s.owner, s.field);
    return s.path + ": " + std::to_string(n) + " -> " + std::to_string(n - 1) + " values";
  }
  if (op == 1) {
    AppendOne(s.owner, s.field);
    return s.path + ": " + std::to_string(n) + " -> " + std::to_string(n + 1) + " values";
  }
  r->ClearField(s.owner, s.field);
  return s.path + ": " + std::to_string(n) + " -> 0 values";
}

std::string DuplicateId(v1::AgentBatch* agents, v1::VehicleBatch* vehicles, Rng& rng) {
  const bool use_agents = agents->id_size() >= 2 && (vehicles->id_size() < 2 || Below(4, rng) != 0);
  auto* ids = use_agents ? agents->mutable_id() : vehicles->mutable_id();
  if (ids->size() < 2) return "fewer than two ids";
  const int i = Below(ids->size(), rng);
  int j = Below(ids->size() - 1, rng);
  if (j >= i) ++j;
  (*ids)[j] = (*ids)[i];
  const std::string table = use_agents ? "agents" : "vehicles";
  return table + ".id[" + std::to_string(j) + "] = " + table + ".id[" + std::to_string(i) + "]";
}

std::string UnknownSplineId(const v1::WorldConfig& config, v1::VehicleBatch* v, Rng& rng) {
  std::set<uint32_t> known;
  uint32_t largest = 0;
  for (const auto& s : config.splines()) {
    known.insert(s.id());
    largest = std::max(largest, s.id());
  }
  if (v->id_size() == 0) {
    v->add_id(1);
    v->add_x(0.f);
    v->add_y(0.f);
    v->add_yaw(0.f);
    v->add_speed(1.f);
    v->add_spline_id(0);
  }
  uint32_t id = 0;
  const std::vector<uint32_t> candidates = {0u, 1u, largest + 1, largest - 1, 0xffffffffu};
  do {
    id = Below(2, rng) ? Pick(candidates, rng) : static_cast<uint32_t>(rng());
  } while (known.count(id));
  const int i = Below(v->id_size(), rng);
  v->set_spline_id(i, id);
  return "vehicles.spline_id[" + std::to_string(i) + "] = " + std::to_string(id);
}

std::string CorruptBytes(std::string* bytes, Rng& rng) {
  if (bytes->empty()) bytes->push_back('\0');
  const int op = Below(20, rng);
  const auto position = [&] {
    return std::uniform_int_distribution<size_t>(0, bytes->size() - 1)(rng);
  };
  if (op < 12) {
    const int flips = 1 + Below(8, rng);
    std::string what = "flipped bits (byte.bit):";
    for (int k = 0; k < flips; ++k) {
      const size_t at = position();
      const int bit = Below(8, rng);
      (*bytes)[at] = static_cast<char>((*bytes)[at] ^ (1 << bit));
      what.append(" ").append(std::to_string(at)).append(".").append(std::to_string(bit));
    }
    return what;
  }
  if (op < 15) {
    const size_t keep = position();
    bytes->resize(keep);
    return "cut to " + std::to_string(keep) + " bytes";
  }
  if (op < 17) {
    const size_t at = position();
    std::string run(1 + Below(16, rng), '\0');
    for (char& c : run) c = static_cast<char>(rng());
    bytes->insert(at, run);
    return "inserted " + std::to_string(run.size()) + " random bytes at " + std::to_string(at);
  }
  const size_t at = position();
  const char values[] = {'\xff', '\0', '\x80', static_cast<char>(rng())};
  (*bytes)[at] = values[Below(4, rng)];
  return "overwrote byte " + std::to_string(at);
}

void HugeAgents(v1::AgentBatch* agents, int count) {
  agents->Clear();
  // A square grid 1.5 m apart: many agents, each with only a few neighbours.
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count))));
  for (int i = 0; i < count; ++i) {
    agents->add_id(static_cast<uint32_t>(i + 1));
    agents->add_x(1.5f * static_cast<float>(i % side));
    agents->add_y(1.5f * static_cast<float>(i / side));
  }
}

void HugeSpline(v1::WorldConfig* config, int points, Rng& rng) {
  uint32_t id = 1;
  for (const auto& s : config->splines()) id = std::max(id, s.id() + 1);
  auto* s = config->add_splines();
  s->set_id(id);
  const float spacing = std::uniform_real_distribution<float>(0.2f, 1.2f)(rng);
  for (int k = 0; k < points; ++k) {
    auto* p = s->add_points();
    p->set_x(-100.f + spacing * static_cast<float>(k));
    p->set_y(100.f + 5.f * std::sin(static_cast<float>(k) / 50.f));
  }
}

void HugeObstacle(v1::WorldConfig* config, int vertices) {
  auto* o = config->add_obstacles();
  for (int k = 0; k < vertices; ++k) {
    const double a = 2.0 * 3.141592653589793 * k / vertices;
    auto* p = o->add_vertices();
    p->set_x(static_cast<float>(500.0 + 200.0 * std::cos(a)));
    p->set_y(static_cast<float>(500.0 + 200.0 * std::sin(a)));
  }
}

std::string LongString(size_t bytes, Rng& rng) {
  std::string s(bytes, 'x');
  for (char& c : s) c = static_cast<char>('a' + Below(26, rng));
  return s;
}

std::string AnyValueMutation(Message* m, Rng& rng) {
  const int op = Below(20, rng);
  if (op < 7) return SetRandomFloat(m, ExtremeFloat(rng), rng);
  if (op < 11) return SetRandomFloat(m, NonFiniteFloat(rng), rng);
  if (op < 15) return SetRandomInteger(m, rng);
  return ResizeRandomList(m, rng);
}

}  // namespace throng::fuzz
