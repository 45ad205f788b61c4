#include "kernels/orca/orca_validate.h"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <stdexcept>
#include <string>

#include "kernels/input/column_checks.h"
#include "kernels/input/first_index.h"
#include "kernels/input/input_limits.h"

namespace throng {
namespace {

[[noreturn]] void Reject(const std::string& what) { throw std::invalid_argument(what); }

std::string At(const char* column, size_t i) { return ColumnAt("agents", column, i); }

// Upper bounds (kernels/input/input_limits.h) keep every derived size (query radius, cell,
// candidates per agent) bounded. A time step is a tick's dt: at most 10 s.
constexpr float kMaxTimeStep = 10.f;  // s

// Times at least a millisecond: their inverses scale the programs' lines.
void RequirePositive(const char* name, float v, float max) {
  if (!(v >= kMinSeconds && v <= max)) {
    Reject(std::string("params.") + name +
           ": must be >= 0.001 and <= " + std::to_string(static_cast<int>(max)));
  }
}

std::string VertexName(size_t polygon, size_t vertex) {
  return "obstacles[" + std::to_string(polygon) + "].vertices[" + std::to_string(vertex) + "]";
}

}  // namespace

void ValidateObstacles(const std::vector<Polygon>& polygons) {
  for (size_t o = 0; o < polygons.size(); ++o) {
    const std::vector<Vec2>& vs = polygons[o].vertices;
    if (vs.size() < 2) {
      throw std::invalid_argument("obstacles[" + std::to_string(o) +
                                  "]: needs at least 2 vertices, has " + std::to_string(vs.size()));
    }
    for (size_t i = 0; i < vs.size(); ++i) {
      if (!std::isfinite(vs[i].x) || !std::isfinite(vs[i].y)) {
        throw std::invalid_argument(VertexName(o, i) + ": non-finite coordinate");
      }
    }
    for (size_t i = 0; i < vs.size(); ++i) {
      // Float, as the solve computes it: also catches edges whose squared length underflows.
      const float len_sq = LengthSq(vs[(i + 1) % vs.size()] - vs[i]);
      if (!(len_sq > 0.f)) {
        throw std::invalid_argument(VertexName(o, i) + ": zero-length edge to the next vertex");
      }
      if (!std::isfinite(len_sq)) {
        throw std::invalid_argument(VertexName(o, i) + ": edge to the next vertex too long");
      }
    }
  }
}

void ValidateOrcaParams(const OrcaParams& params) {
  RequirePositive("time_step", params.time_step, kMaxTimeStep);
  RequirePositive("time_horizon", params.time_horizon, kMaxSeconds);
  RequirePositive("time_horizon_obst", params.time_horizon_obst, kMaxSeconds);
  if (!std::isfinite(params.side_bias) || std::fabs(params.side_bias) > 1.5707964f) {
    Reject("params.side_bias: must be within [-pi/2, pi/2]");
  }
  if (!std::isfinite(params.side_bias_fade) || params.side_bias_fade < 0.f ||
      params.side_bias_fade > 100.f) {
    Reject("params.side_bias_fade: must be within [0, 100]");
  }
  if (!(params.follower_weight >= 0.f && params.follower_weight <= 10.f)) {
    Reject("params.follower_weight: must be within [0, 10]");
  }
  if (!std::isfinite(params.contact_margin_ratio) || params.contact_margin_ratio < 0.f ||
      params.contact_margin_ratio > 0.5f) {
    Reject("params.contact_margin_ratio: must be within [0, 0.5]");
  }
  if (!std::isfinite(params.jam_step_depth) || params.jam_step_depth < 0.f ||
      params.jam_step_depth > 1.f) {
    Reject("params.jam_step_depth: must be within [0, 1] m");
  }
  if (!std::isfinite(params.headway_time) || params.headway_time < 0.05f ||
      params.headway_time > 5.f) {
    Reject("params.headway_time: must be within [0.05, 5] s");
  }
  if (!std::isfinite(params.headway_anticipation) || params.headway_anticipation < 0.f ||
      !(params.headway_anticipation <= params.headway_time - 0.05f)) {
    Reject("params.headway_anticipation: must be within [0, headway_time - 0.05] s");
  }
  if (!std::isfinite(params.neighbor_dist) || params.neighbor_dist < 0.f ||
      params.neighbor_dist > kMaxDistance) {
    Reject("params.neighbor_dist: must be >= 0 and <= 10000 (0 = no cap)");
  }
  if (params.max_neighbors < 1 || params.max_neighbors > kMaxNeighborsLimit) {
    Reject("params.max_neighbors: " + std::to_string(params.max_neighbors) + " is outside [1, " +
           std::to_string(kMaxNeighborsLimit) + "]");
  }
  if (params.revalidate_passes < 1 || params.revalidate_passes > kMaxRevalidatePasses) {
    Reject("params.revalidate_passes: " + std::to_string(params.revalidate_passes) +
           " is outside [1, " + std::to_string(kMaxRevalidatePasses) + "]");
  }
}

// The ORCA agent's float columns with their bounds, in the order errors name them: the
// one-pass check and the walk that names an offender both read this one list.
struct BoundedColumn {
  const char* name;
  const std::vector<float>* values;
  float bound;
  const char* unit;
  bool size;  // at least kMinSize (a radius or a max speed), not only within +-bound
};

void ValidateAgents(const AgentColumns& a) {
  const size_t n = a.id.size();
  if (n > 0xfffffffeu) Reject("agents: too many agents");
  const BoundedColumn columns[] = {
      {"px", &a.px, kMaxCoordinate, "m", false},
      {"py", &a.py, kMaxCoordinate, "m", false},
      {"vx", &a.vx, kMaxSpeed, "m/s", false},
      {"vy", &a.vy, kMaxSpeed, "m/s", false},
      {"max_speed", &a.max_speed, kMaxSpeed, "m/s", true},
      {"pref_vx", &a.pref_vx, kMaxSpeed, "m/s", false},
      {"pref_vy", &a.pref_vy, kMaxSpeed, "m/s", false},
      {"radius", &a.radius, kMaxRadius, "m", true},
  };
  const auto bad_flags = [&](size_t i) { return (a.flags[i] & ~kAgentNonCooperative) != 0; };
  // The common case in one pass over every column; an offender is then named by the walk
  // below, in the list's order.
  bool lengths_right = a.flags.size() == n;
  ValueRange ranges[std::size(columns)];
  for (size_t c = 0; c < std::size(columns); ++c) {
    const BoundedColumn& col = columns[c];
    lengths_right = lengths_right && col.values->size() == n;
    ranges[c] = {col.values->data(), col.size ? kMinSize : -col.bound, col.bound};
  }
  if (lengths_right && AllInRange(ranges, std::size(columns), n) &&
      FirstIndexWhere(n, bad_flags) == n) {
    RequireUniqueIds("agents", a.id);
    return;
  }
  for (const BoundedColumn& col : columns) RequireLength("agents", col.name, col.values->size(), n);
  RequireLength("agents", "flags", a.flags.size(), n);
  for (const BoundedColumn& col : columns) {
    RequireBoundedColumns("agents", {{col.name, col.values}}, n, col.bound, col.unit);
  }
  // Within bounds everywhere; what is left: sizes below kMinSize and unknown flag bits,
  // named at the first index that has one.
  const auto too_small = [&](size_t i) {
    for (const BoundedColumn& col : columns) {
      if (col.size && !((*col.values)[i] >= kMinSize)) return true;
    }
    return false;
  };
  const size_t first = FirstIndexWhere(n, [&](size_t i) { return too_small(i) || bad_flags(i); });
  if (first == n) {
    RequireUniqueIds("agents", a.id);
    return;
  }
  for (const BoundedColumn& col : columns) {
    if (!col.size || (*col.values)[first] >= kMinSize) continue;
    char text[96];
    std::snprintf(text, sizeof text, ": must be >= 0.001 and <= %g %s", col.bound, col.unit);
    Reject(At(col.name, first) + text);
  }
  Reject(At("flags", first) + ": unknown flag bits");
}

}  // namespace throng
