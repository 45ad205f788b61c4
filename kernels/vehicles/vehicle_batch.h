// Vehicles as columns for the batched follower (every backend), and their validation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/input/column_source.h"
#include "kernels/vehicles/follower_types.h"
#include "kernels/vehicles/vehicle_memory.h"

namespace throng {

// One value per vehicle in every column (internal frame).
struct VehicleColumns {
  std::vector<uint32_t> id;
  std::vector<uint32_t> spline_id;   // the lane's SplineDesc::id
  std::vector<float> px, py, pz;     // m
  std::vector<float> yaw;            // rad, counter-clockwise from +X
  std::vector<float> speed;          // m/s, >= 0
  std::vector<float> progress_hint;  // m, last tick's progress (0 for a new vehicle)
  std::vector<float> max_speed;      // m/s, > 0

  // Optional per-vehicle parameters (a truck steers and brakes unlike a car): `profile`
  // is empty (every vehicle uses the world's FollowerParams) or has one entry per vehicle,
  // 0 for the world's parameters and k for profiles[k - 1].
  std::vector<uint16_t> profile;
  std::vector<FollowerParams> profiles;
  // Optional road-wheel angle, rad, + = right (VehicleState::wheel_angle): what lag
  // compensation predicts from. Empty: 0 for every vehicle (the wheels straight).
  std::vector<float> wheel_angle;
  // Optional share of a tick's turn made before its move, 0..1
  // (VehicleState::turn_before_move): a world reads it from each vehicle's motion. Empty:
  // 1 for every vehicle (Throng's bicycle, turn first).
  std::vector<float> turn_before_move;

  size_t size() const { return id.size(); }
  void Resize(size_t n);
};

struct FollowerResults {
  std::vector<float> steering, throttle, brake, target_speed, cte, progress;
  std::vector<float> position_delta, heading_delta, look_ahead;  // debug signals
  std::vector<float> target_x, target_y, target_z;               // debug: look-ahead point
  std::vector<float> progress_x, progress_y, progress_z;         // debug: lane point at `progress`
  std::vector<float> tangent_x, tangent_y, tangent_z;  // debug: unit tangent at the target

  void Resize(size_t n);
};

// How a world's tick runs the follower (Backend::FollowSplines).
struct FollowRunOptions {
  // kThisTick: the vehicles' columns are what the last PrepareVehicles wrote (its
  // VehiclePrepareOutput: id to turn_before_move and profile, with `lane` the spline
  // index of each), unchanged on the host since (kernels/input/column_source.h).
  ColumnSource vehicles = ColumnSource::kHost;
  // false: the debug columns (position_delta to tangent_z) stay on the backend; a backend
  // with memory of its own leaves the host's rows as they were (the cpu and the reference
  // write them anyway).
  bool debug_to_host = true;
  // true: a BrakeForPaths promised these answers (PathBrakingScene::columns kThisTick)
  // follows in the same tick and brings target_speed, throttle and brake home, capped;
  // those three stay on the backend until then (a backend with memory of its own leaves
  // the host's rows as they were; the cpu and the reference write them anyway).
  bool braking_follows = false;
  // Non-null: the world's memory of these vehicles, row for row, which the follower
  // completes for the tick (kernels/vehicles/vehicle_remember.cuh): each one's progress,
  // and the wheel angle its steering turns the bicycle its parameters were told to
  // (max_steer_angle and steering_lag over control_period). With kThisTick the rows are
  // the last PrepareVehicles' VehiclePrepareOutput::memory (a device completes its own
  // copy).
  VehicleMemory* memory = nullptr;
  // false: the completed memory stays on the backend, for the commit that keeps it
  // (Backend::KeepVehicles) and the next preparation that reads it there; a backend with
  // memory of its own leaves the host's rows as they were (the cpu and the reference write
  // them anyway).
  bool memory_to_host = true;
  // false: steering, cte and progress stay on the backend too (the results of a tick no
  // host stage reads: an Advance's before its last), for the calls of the tick that read
  // them there; a backend with memory of its own leaves the host's rows as they were (the
  // cpu and the reference write them anyway).
  bool answers_to_host = true;
};

// Throws std::invalid_argument naming the field ("follower.max_yaw_delta: ..." or, with
// a prefix, "vehicles.profiles[2].max_yaw_delta: ..."): max_yaw_delta <= 0, negative gains
// or limits, a heading weight outside [0, 1], non-finite values.
void ValidateFollowerParams(const FollowerParams& params, float world_speed_limit,
                            const std::string& prefix = "follower.");

// The parameter table the kernels index with VehicleColumns::profile: the world's
// parameters first, then the vehicles' profiles.
std::vector<FollowerParams> ParameterTable(const FollowerParams& world,
                                           const VehicleColumns& vehicles);

// Validates every column and returns each vehicle's spline index in `spline_ids` (the
// installed set's ids in order). Throws std::invalid_argument naming column and index:
// "vehicles.spline_id[3]: 42 is not a spline of this world".
std::vector<uint32_t> ValidateVehicles(const VehicleColumns& vehicles,
                                       const std::vector<uint32_t>& spline_ids);

}  // namespace throng
