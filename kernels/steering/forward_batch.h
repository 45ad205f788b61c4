// Forward-only agents (drones, fish, vehicles off-lane) steered by the cast-fan of
// docs/ALGORITHMS.md §4, as columns for every backend, and their validation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/math/vec.cuh"

namespace throng {

struct FanParams {
  float fov = 1.2f;           // rad, half-angle of the fan, in (0, pi]
  int probes = 9;             // 1 .. kMaxFanProbes
  float max_distance = 10.f;  // m, probe length
  float turn_speed = 3.f;     // 1/s, blend rate toward the chosen direction
};
constexpr int kMaxFanProbes = 64;

struct ForwardAgentColumns {
  std::vector<uint32_t> id;
  std::vector<float> px, py;  // centre, m
  std::vector<float> fx, fy;  // forward direction (any non-zero length)
  std::vector<float>
      radius;  // m, > 0; probes start at the agent's front (centre + forward * radius)

  size_t size() const { return id.size(); }
  void Resize(size_t n);
};

struct FanResults {
  std::vector<float> move_x, move_y;      // unit direction to move along this tick
  std::vector<float> chosen_x, chosen_y;  // the chosen probe's direction
  std::vector<int16_t> probe;             // its index
  std::vector<float> hit_distance;        // +inf when the probe is free
  std::vector<uint8_t> all_blocked;       // every probe hit: the farthest hit was taken

  void Resize(size_t n);
};

// Throws std::invalid_argument naming the field: fov outside (0, pi], probes outside
// [1, kMaxFanProbes], max_distance <= 0, negative turn speed, dt <= 0, non-finite or
// zero-length forward directions, radius <= 0, column length mismatches.
void ValidateFan(const FanParams& params, float dt, const ForwardAgentColumns& agents);

}  // namespace throng
