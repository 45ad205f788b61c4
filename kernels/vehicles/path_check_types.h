// The vehicles' path check as every backend takes it (Backend::CheckPaths): its
// parameters and one tick's scene, types only; and the braking for what it found
// (Backend::BrakeForPaths). The check itself is kernels/vehicles/path_check.cuh (cpu, cuda)
// and kernels/reference/path_check_ref.cpp; the braking kernels/vehicles/path_braking.cuh
// and kernels/reference/path_braking_ref.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/input/column_source.h"
#include "kernels/vehicles/vehicle_body.h"

namespace throng {

struct PathCheckParams {
  float gap = 3.f;              // m kept to whatever is ahead when stopped
  float reaction_time = 1.f;    // s of travel added to the braking distance
  float min_length = 6.f;       // m checked even when standing
  float lateral_margin = 0.5f;  // m added to the half width of the checked corridor
};

// One tick's pedestrians and vehicles as the caller holds them (internal frame; host
// memory). Pointers and counts: nvcc compiles this header as C++17.
struct PathCheckScene {
  const float* agent_x = nullptr;
  const float* agent_y = nullptr;
  const float* agent_radius = nullptr;
  const float* agent_vx = nullptr;  // current velocity: where a pedestrian is heading
  const float* agent_vy = nullptr;
  size_t agents = 0;
  const VehicleBody* bodies = nullptr;
  const uint32_t* spline = nullptr;  // each vehicle's lane (index in the installed set)
  const float* progress = nullptr;   // m, the rear axle's place on the lane
  const float* speed = nullptr;      // m/s
  size_t vehicles = 0;
  // The caller's promise that the backend's last ORCA solve had exactly these points as
  // its agents: the pedestrians, then each vehicle's discs (VehicleBody::Disc) in order,
  // as the world builds both. A parallel backend then reads that solve's neighbour grid
  // instead of sorting the points again; the answers are the same either way.
  bool points_were_last_solve = false;
  // kThisTick: bodies, spline and speed are the last PrepareVehicles' bodies, lane and
  // speed, and progress the last FollowSplines' progress (a device reads its own copies).
  ColumnSource vehicle_columns = ColumnSource::kHost;
  // false: the answer stays on the backend, for the braking that reads it there
  // (PathBrakingScene::columns kThisTick), and `clear` comes back empty (the cpu and the
  // reference fill it anyway).
  bool clear_to_host = true;
};

// Braking for what the path check found: a vehicle's brakes and speed loop, as its
// follower parameters give them (FollowerParams::max_brake_decel, speed_gain).
struct BrakingProfile {
  float max_brake_decel;  // m/s^2, > 0
  float speed_gain;       // throttle or brake per m/s of speed error
};

// Per vehicle: metres free ahead (CheckPaths' answer), its speed, and its profile: an
// index into `profiles`, where 0 is the world's follower and k the world's profile k - 1
// (a null column: 0 for every vehicle).
struct PathBrakingScene {
  float gap;  // m kept to whatever is ahead (PathCheckParams::gap)
  const float* clear;
  const float* speed;
  const uint16_t* profile;
  const BrakingProfile* profiles;
  size_t profile_count;
  size_t count;
  // kThisTick: clear is the last CheckPaths' answer, speed and profile the last
  // PrepareVehicles' speed and profile, and the output's columns the last FollowSplines'
  // target speed, throttle and brake (a device caps its own copies, then brings them home).
  ColumnSource columns = ColumnSource::kHost;
  // false: with kThisTick, the capped answers stay on the backend, for the move that reads
  // them there (VehicleMoveParams::columns kThisTick); a backend with memory of its own
  // leaves the host's rows as they were (the cpu and the reference cap them anyway).
  bool answers_to_host = true;
};

// The follower's answers, in and out: a vehicle whose target speed is above the speed
// that stops `gap` short of what is ahead gets that speed as its target, and the throttle
// and brake that reach it (at least the deceleration that stops in the room left).
struct PathBrakingOutput {
  float* target_speed;
  float* throttle;
  float* brake;
};

}  // namespace throng
