// What a world's forward agents hand between their three backend calls in a tick
// (Backend::PrepareForwardScene, SteerForwardScene, MoveForwardAgents): the snapshot's
// columns made into the fan's agents, with every other body of the tick, on the backend;
// the fan's answers in the caller's frame with their sums; the move after it. The rules the
// parallel backends run: forward_prepare.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/input/column_bounds.h"
#include "kernels/input/column_source.h"
#include "kernels/math/frame.cuh"
#include "kernels/steering/forward_scene_types.h"
#include "kernels/vehicles/vehicle_body.h"

namespace throng {

// Forward agents' fan (docs/ALGORITHMS.md §4), for agents whose snapshot leaves a setting out.
struct ForwardDefaults {
  FanMode mode = FanMode::kGround;
  int probes = 9;             // 1 .. kMaxFanProbes
  float half_angle = 1.2f;    // rad, (0, pi]
  float probe_length = 10.f;  // m
  float turn_speed = 3.f;     // 1/s
  float radius = 0.5f;        // m, the body the casts sweep
};

// The float columns of ForwardPrepareScene whose table rule is a bound
// (kernels/world/column_tables.h), in its order: what ForwardChecks::bounds holds a range for.
enum ForwardBoundedColumn : int {
  kForwardX,
  kForwardY,
  kForwardZ,
  kForwardHeadingX,
  kForwardHeadingY,
  kForwardHeadingZ,
  kForwardSpeed,
  kForwardGoalX,
  kForwardGoalY,
  kForwardGoalZ,
  kForwardBoundedColumns,
};

// The checks of the snapshot's forward values that the preparation runs where the columns
// are (docs/WORLD.md, "Where the checks run"): each present bounded column within its table
// rule, and the rules of forward_value_rules.h (the fan's settings, the speed's floor, the
// heading for the world's fan mode). The host checks the lengths, the columns that come
// together and the ids. A row refused here is one the host's checks refuse too; they then
// name the first offender. Nothing is prepared when a row is refused.
struct ForwardChecks {
  bool on = false;
  ColumnBounds bounds[kForwardBoundedColumns];  // ForwardBoundedColumn order
};

struct ForwardPrepareParams {
  Frame frame;  // the caller's
  ForwardDefaults defaults;
  float dt = 0.f;
  // The side of the bodies' grid cells, m (FanGridCell over these agents).
  float cell = 10.f;
  // kThisTick: the pedestrians' columns are what this tick's PreparePedestrians wrote (its
  // agents' px, py and radius, and z), and the vehicles' what its PrepareVehicles wrote
  // (bodies and pz), unchanged on the host or never brought there.
  ColumnSource pedestrians = ColumnSource::kHost;
  ColumnSource vehicles = ColumnSource::kHost;
  // kLastTick: the scene's x, y, z, forward_x, forward_y and forward_z are what the kept
  // tick's MoveForwardAgents wrote (Backend::KeepForward; all six present, as many rows),
  // and every other forward column is present exactly where the last PrepareForwardScene's
  // scene had it, with what it read.
  ColumnSource columns = ColumnSource::kHost;
  ForwardChecks checks = {};  // off: the snapshot was checked on the host
};

// The snapshot's forward agents (the caller's frame; checked on the host, or by
// ForwardPrepareParams::checks on the way in; an optional column left out is a null
// pointer, and goal_y is there exactly when goal_x is), and the tick's other
// bodies: the pedestrians as the solve will take them and the vehicles' bodies (internal
// frame).
struct ForwardPrepareScene {
  const float* x;
  const float* y;
  const float* z;
  const float* forward_x;
  const float* forward_y;
  const float* forward_z;
  const float* speed;
  const float* radius;
  const float* goal_x;
  const float* goal_y;
  const float* goal_z;
  const uint32_t* probes;
  const float* half_angle;
  const float* probe_length;
  const float* turn_speed;
  size_t count;
  const float* pedestrian_x;
  const float* pedestrian_y;
  const float* pedestrian_radius;
  const float* pedestrian_z;  // the feet
  size_t pedestrians;
  const VehicleBody* vehicle_bodies;
  const float* vehicle_z;  // the wheels' contact
  size_t vehicles;
};

struct ForwardSteerParams {
  Frame frame;  // the caller's, for the answers
  // false: the answers stay on the backend (the move reads the direction there). A backend
  // with memory of its own then leaves the host's as they were; the cpu and the reference
  // write them.
  bool results_to_host = true;
};

// Each agent's answer in the caller's frame (ForwardResults' columns).
struct ForwardSteerOutput {
  float* move_x;
  float* move_y;
  float* move_z;
  uint16_t* probe;
  float* hit_distance;
  uint8_t* all_blocked;
};

// Over every agent of the fan: those every probe of which hit something, and those whose
// body already overlaps a static shape.
struct ForwardSums {
  uint64_t blocked = 0;
  uint64_t in_obstacles = 0;
};

}  // namespace throng
