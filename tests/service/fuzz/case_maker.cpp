#include "tests/service/fuzz/case_maker.h"

#include <array>
#include <cfloat>
#include <limits>

#include "tests/service/fuzz/mutators.h"

namespace throng::fuzz {
namespace {

// Relative weights, in CaseClass order. Huge cases cost seconds each on two cores, and
// a few of them find what many would.
constexpr std::array<int, kCaseClassCount> kWeights = {
    10,  // valid
    10,  // bit_flip
    14,  // extreme_value
    8,   // non_finite
    8,   // column_length
    1,   // huge_count
    6,   // tick
    5,   // duplicate_id
    5,   // unknown_spline
    8,   // solve
    8,   // create_world
    6,   // stream
    6,   // advance
    4,   // odd_id
};

int Below(int n, std::mt19937_64& rng) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

void Append(std::string* what, const std::string& more) {
  if (!what->empty()) *what += "; ";
  *what += more;
}

}  // namespace

CaseClass CaseMaker::PickClass() {
  std::discrete_distribution<int> pick(kWeights.begin(), kWeights.end());
  return static_cast<CaseClass>(pick(rng_));
}

int CaseMaker::PickWorld(int worlds) { return Below(worlds, rng_); }

FuzzCase CaseMaker::Make(CaseClass klass, const WorldView& w) {
  FuzzCase c;
  switch (klass) {
    case CaseClass::kValid:
      c = Valid(w);
      break;
    case CaseClass::kBitFlip:
      c = BitFlip(w);
      break;
    case CaseClass::kExtreme:
    case CaseClass::kNonFinite:
      c = Values(klass, w);
      break;
    case CaseClass::kColumnLength:
      c = ColumnLength(w);
      break;
    case CaseClass::kHugeCount:
      c = Huge(w);
      break;
    case CaseClass::kTick:
      c = Valid(w);
      c.step.set_tick(OddTick(w.next_tick, rng_));
      c.what = "tick = " + std::to_string(c.step.tick());
      break;
    case CaseClass::kDuplicateId:
      c = Valid(w);
      c.what = DuplicateId(c.step.mutable_agents(), c.step.mutable_vehicles(), rng_);
      break;
    case CaseClass::kUnknownSpline:
      c = Valid(w);
      c.what = UnknownSplineId(w.scene->config, c.step.mutable_vehicles(), rng_);
      break;
    case CaseClass::kSolve:
      c = Solve(w);
      break;
    case CaseClass::kCreateWorld:
      c = Create(w);
      break;
    case CaseClass::kStream:
      c = Stream(w);
      break;
    case CaseClass::kAdvance:
      c = Advance(w);
      break;
    case CaseClass::kOddId:
      c = OddId(w);
      break;
  }
  c.klass = klass;
  return c;
}

FuzzCase CaseMaker::Valid(const WorldView& w) {
  FuzzCase c;
  c.method = Method::kStep;
  c.world = w.index;
  c.step = MakeBaseStep(*w.scene, w.id, w.next_tick, rng_);
  return c;
}

FuzzCase CaseMaker::BitFlip(const WorldView& w) {
  FuzzCase c = Valid(w);
  c.method = Method::kStepRaw;
  c.raw = c.step.SerializeAsString();
  c.what = CorruptBytes(&c.raw, rng_);
  return c;
}

FuzzCase CaseMaker::Values(CaseClass klass, const WorldView& w) {
  const auto value = [&] {
    return klass == CaseClass::kExtreme ? ExtremeFloat(rng_) : NonFiniteFloat(rng_);
  };
  const int target = Below(20, rng_);
  const int count = Below(5, rng_) == 0 ? 2 : 1;
  FuzzCase c;
  if (target < 14) {
    c = Valid(w);
    for (int k = 0; k < count; ++k) Append(&c.what, SetRandomFloat(&c.step, value(), rng_));
  } else if (target < 17) {
    c = Solve(w, 0);
    for (int k = 0; k < count; ++k) Append(&c.what, SetRandomFloat(&c.solve, value(), rng_));
  } else {
    c = Create(w, 0);
    for (int k = 0; k < count; ++k) {
      Append(&c.what, SetRandomFloat(c.create.mutable_config(), value(), rng_));
    }
  }
  return c;
}

FuzzCase CaseMaker::ColumnLength(const WorldView& w) {
  FuzzCase c;
  if (Below(5, rng_) != 0) {
    c = Valid(w);
    c.what = ResizeRandomList(&c.step, rng_);
  } else {
    c = Solve(w, 0);
    c.what = ResizeRandomList(&c.solve, rng_);
  }
  return c;
}

FuzzCase CaseMaker::Huge(const WorldView& w) {
  FuzzCase c;
  switch (Below(7, rng_)) {
    case 0:
      c = Valid(w);
      c.step.clear_vehicles();
      HugeAgents(c.step.mutable_agents(), 200'000);
      Append(&c.what, "200000 agents, ids and positions");
      break;
    case 1:
      c = Solve(w, 0);
      c.solve.clear_vehicles();
      HugeAgents(c.solve.mutable_agents(), 200'000);
      Append(&c.what, "Solve: 200000 agents, ids and positions");
      break;
    case 2:
      c = Create(w, 0);
      HugeSpline(c.create.mutable_config(), 100'000, rng_);
      Append(&c.what, "a spline of 100000 points");
      break;
    case 3: {
      c = Create(w, 0);
      const int vertices = Below(2, rng_) ? 100'000 : 99'000;
      HugeObstacle(c.create.mutable_config(), vertices);
      Append(&c.what, "an obstacle of " + std::to_string(vertices) + " vertices");
      break;
    }
    case 4:
      c = Valid(w);
      c.step.set_world_id(LongString(8000, rng_));
      c.what = "Step: world_id of 8000 bytes";
      break;
    case 5:
      c.method = Method::kGetWorld;
      c.get.set_world_id(LongString(8000, rng_));
      c.get.set_include_state(true);
      c.what = "GetWorld: world_id of 8000 bytes";
      break;
    default:
      c = Create(w, 0);
      c.create.mutable_config()->set_name(LongString(8000, rng_));
      Append(&c.what, "name of 8000 bytes");
      break;
  }
  return c;
}

FuzzCase CaseMaker::Solve(const WorldView& w, int mutations) {
  FuzzCase c;
  c.method = Method::kSolve;
  c.solve = MakeBaseSolve(*w.scene, rng_);
  if (mutations < 0) mutations = Below(3, rng_);
  for (int k = 0; k < mutations; ++k) Append(&c.what, AnyValueMutation(&c.solve, rng_));
  return c;
}

FuzzCase CaseMaker::Create(const WorldView& w, int mutations) {
  FuzzCase c;
  c.method = Method::kCreateWorld;
  *c.create.mutable_config() = w.scene->config;
  c.create.mutable_config()->set_name("fuzz-created");
  if (mutations < 0) mutations = 1 + Below(3, rng_);
  for (int k = 0; k < mutations; ++k) {
    Append(&c.what, AnyValueMutation(c.create.mutable_config(), rng_));
  }
  return c;
}

FuzzCase CaseMaker::Stream(const WorldView& w) {
  FuzzCase c;
  c.method = Method::kStream;
  c.world = w.index;
  const int n = 2 + Below(4, rng_);
  for (int k = 0; k < n; ++k) {
    auto r = MakeBaseStep(*w.scene, w.id, w.next_tick + k, rng_);
    std::string what;
    switch (Below(8, rng_)) {
      case 0:
      case 1:
      case 2:
      case 3:
        break;  // valid
      case 4:
        what = DuplicateId(r.mutable_agents(), r.mutable_vehicles(), rng_);
        break;
      case 5:
        r.set_tick(OddTick(w.next_tick + k, rng_));
        what = "tick = " + std::to_string(r.tick());
        break;
      default:
        what = AnyValueMutation(&r, rng_);
        break;
    }
    if (!what.empty()) Append(&c.what, "request " + std::to_string(k) + ": " + what);
    c.stream.push_back(std::move(r));
  }
  return c;
}

FuzzCase CaseMaker::Advance(const WorldView& w) {
  FuzzCase c;
  c.method = Method::kAdvance;
  c.world = w.index;
  c.advance.set_world_id(w.id);
  const int t = Below(100, rng_);
  const uint32_t ticks = t < 10 ? 0u : t < 13 ? 200u : t < 14 ? 0xffffffffu : 1u + Below(5, rng_);
  c.advance.set_ticks(ticks);
  static const float kDts[] = {0.f,
                               -0.f,
                               -1.f,
                               std::numeric_limits<float>::quiet_NaN(),
                               std::numeric_limits<float>::infinity(),
                               1e-38f,
                               FLT_TRUE_MIN,
                               10.f,
                               10.0001f,
                               1e38f,
                               3.4e38f,
                               1e6f,
                               1e-3f};
  const float dt = Below(2, rng_) ? 0.1f : kDts[Below(std::size(kDts), rng_)];
  c.advance.set_dt(dt);
  c.what = "ticks = " + std::to_string(ticks) + ", dt = " + std::to_string(dt);
  return c;
}

FuzzCase CaseMaker::OddId(const WorldView& w) {
  static const std::vector<std::string> kIds = {"",
                                                " ",
                                                "w-0",
                                                "w-",
                                                "W-1",
                                                "w-1 ",
                                                " w-1",
                                                "w-01",
                                                "w-18446744073709551616",
                                                "w--1",
                                                "w-1\n",
                                                "\t",
                                                "\xe6\x97\xa5\xe6\x9c\xac",
                                                std::string("w-1\0x", 5),
                                                "../w-1",
                                                "%s%n"};
  std::string id = Below(5, rng_) == 0 ? LongString(Below(2, rng_) ? 8000 : 70000, rng_)
                                       : kIds[Below(kIds.size(), rng_)];
  FuzzCase c;
  const int method = Below(20, rng_);
  if (method < 8) {
    c.method = Method::kGetWorld;
    c.get.set_world_id(id);
    c.get.set_include_state(Below(2, rng_));
  } else if (method < 14) {
    c.method = Method::kDeleteWorld;
    c.del.set_world_id(id);
  } else if (method < 17) {
    c = Valid(w);
    c.step.set_world_id(id);
  } else {
    c = Advance(w);
    c.advance.set_world_id(id);
  }
  c.what = "world_id of " + std::to_string(id.size()) + " bytes: \"" + id.substr(0, 40) + "\"";
  return c;
}

}  // namespace throng::fuzz
