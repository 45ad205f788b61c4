// What Backend::PrepareVehicles reads and writes: the snapshot's vehicles made ready for
// the follower, each on its lane in the internal frame, with the per-id memory it reads and
// updates (how the caller's physics moved it since last tick) and its body for the stages
// after. The rule the parallel backends run: vehicle_prepare.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/input/column_bounds.h"
#include "kernels/input/column_source.h"
#include "kernels/math/frame.cuh"
#include "kernels/vehicles/vehicle_body.h"
#include "kernels/vehicles/vehicle_memory.h"

namespace throng {

// A world's lanes by id: `ids` sorted ascending, `index[k]` the lane (its place in the
// world's spline set) of ids[k]. The snapshot's spline ids are validated against it.
struct LaneLookup {
  const uint32_t* ids;
  const uint32_t* index;
  size_t count;
};

// The float columns of VehiclePrepareScene, in its order: what VehicleChecks::bounds holds
// a range for.
enum VehicleFloatColumn : int {
  kVehicleX,
  kVehicleY,
  kVehicleZ,
  kVehicleYaw,
  kVehicleSpeed,
  kVehicleProgressHint,
  kVehicleLength,
  kVehicleWidth,
  kVehicleMaxSpeed,
  kVehicleFloatColumns,
};

// The checks of the snapshot's vehicle values that the preparation runs where the columns
// are (docs/WORLD.md, "Where the checks run"): each present float column within its table
// rule (kernels/world/column_tables.h), each spline id one of the world's lanes, each
// profile at most the world's count of profiles. The host checks the lengths and the ids.
// A row refused here is one the host's checks refuse too; they then name the first
// offender. A refused row is not prepared: its values never reach the follower.
struct VehicleChecks {
  bool on = false;
  ColumnBounds bounds[kVehicleFloatColumns];  // VehicleFloatColumn order
  uint32_t profiles = 0;                      // WorldConfig::vehicle_profiles' count
};

struct VehiclePrepareParams {
  Frame frame;          // the caller's
  float length, width;  // m, for vehicles without their own (VehicleDefaults)
  float max_speed;      // m/s, likewise
  float dt;             // s, this tick's
  // false: the outputs but the memory stay on the backend for the calls that read them
  // there (ColumnSource::kThisTick). A backend with
  // memory of its own leaves the host's rows as they were (the cpu and the reference write
  // them anyway).
  bool outputs_to_host = true;
  // false: the memory stays on the backend likewise, for the FollowSplines that completes
  // it there (FollowRunOptions::memory, with kThisTick vehicles).
  bool memory_to_host = true;
  // kLastTick: the scene's memory rows are what the kept tick's FollowSplines completed
  // (Backend::KeepVehicles), row for row (a device reads its own copy); kHost: the host's.
  ColumnSource memory = ColumnSource::kHost;
  // kLastTick: the scene's x, y, z, yaw, speed and progress hint are what the kept tick's
  // MoveVehicles wrote (its next state), and its other columns, lanes by id included, what
  // that tick's preparation read, row for row (a device reads its own copies); kHost: the
  // host's.
  ColumnSource columns = ColumnSource::kHost;
  VehicleChecks checks = {};  // off: the snapshot was checked on the host
};

// The snapshot's columns (caller's frame; an optional column is null when absent),
// validated (on the host, or by VehiclePrepareParams::checks on the way in), the lanes by
// id, and last tick's memory of each vehicle in the snapshot's order (a new one's fresh).
struct VehiclePrepareScene {
  const uint32_t* id;
  const uint32_t* spline_id;
  const float* x;
  const float* y;
  const float* z;  // optional
  const float* yaw;
  const float* speed;
  const float* progress_hint;  // optional
  const float* length;         // optional
  const float* width;          // optional
  const float* max_speed;      // optional
  const uint32_t* profile;     // optional
  LaneLookup lanes;
  const VehicleMemory* memory;
  size_t count;
};

// The follower's columns (VehicleColumns' rows, internal frame), each vehicle's lane index
// and body, and this tick's memory: last tick's with what the vehicle's motion since says
// (it may be the scene's rows; the follower then writes its progress and wheel angle:
// FollowRunOptions::memory). `profile` is written only when the scene has profiles.
struct VehiclePrepareOutput {
  uint32_t* id;
  uint32_t* spline_id;
  float* px;
  float* py;
  float* pz;
  float* yaw;
  float* speed;
  float* progress_hint;
  float* max_speed;
  float* wheel_angle;
  float* turn_before_move;
  uint16_t* profile;
  uint32_t* lane;
  VehicleBody* bodies;
  VehicleMemory* memory;
};

}  // namespace throng
