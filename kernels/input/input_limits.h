// Magnitude limits on everything a caller sends (docs/SERVICE.md, "Limits"). "Finite" is
// not "sane": a position of 3e38 m is finite, and sizes derived from it (grid cells,
// search squares, lane samples, memory) would not be. Each bound is far beyond any game
// world yet keeps every derived size, and so the work and memory of one tick, bounded.
// Validation checks them before anything changes; a world never holds a value beyond one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace throng {

// A world is at most 4,000 km across: float positions still step by 0.25 m out there, and
// cell indices (coordinate / 1 mm) stay far inside int64.
constexpr float kMaxCoordinate = 2e6f;  // m, |x|, |y|, |z| of every point
// Above any vehicle a game steers (Mach 3); bounds look-ahead and path-check lengths.
constexpr float kMaxSpeed = 1000.f;  // m/s, every speed and velocity component
// Any finite yaw is a heading; within 10^4 rad float still steps by under a milliradian.
constexpr float kMaxYaw = 1e4f;         // rad, |yaw| of a vehicle
constexpr float kMaxWheelAngle = 1.5f;  // rad, |road-wheel angle| (tan() stays finite)
constexpr float kMaxRadius = 100.f;     // m, a pedestrian (or any agent steered as one)
// A direction's components: any length is a direction, a bounded one keeps its square finite.
constexpr float kMaxDirection = 1e6f;
// The smallest radius, size or max speed: below it squares leave float's normal range
// (1e-45 m/s squared is 0) and the programs' answers stop meaning anything.
constexpr float kMinSize = 1e-3f;         // m and m/s
constexpr float kMaxVehicleSize = 100.f;  // m, a vehicle's length and width
// Arc length is a float: at 100 km it steps by 8 mm, about what lane keeping resolves.
constexpr float kMaxLaneLength = 1e5f;  // m, one spline (and |progress_hint|)
// Lane tables hold 32 bytes per metre: 2,000 km of lanes are 64 MB on each backend.
constexpr double kMaxTotalLaneLength = 2e6;  // m, all splines of one world
constexpr size_t kMaxSplines = 10'000;
constexpr size_t kMaxSplinePoints = 1'000'000;    // control points, all splines of a world
constexpr size_t kMaxObstacleVertices = 100'000;  // all obstacles of a world
// Follower profiles of one world (VehicleColumns::profile is a uint16 index into them).
constexpr size_t kMaxVehicleProfiles = 1'024;
// Navigation targets per world, and vertices per target polygon. Each target's field covers
// the world's grid or its own region, and kMaxNavigationFieldCells bounds their cells
// together: many targets need regions (docs/NAVIGATION.md, "Regions").
constexpr size_t kMaxNavigationTargets = 1'024;
constexpr size_t kMaxTargetVertices = 1'024;
// Cells over all of a world's static fields: 8 targets over the largest grid (4,096 x 4,096
// cells, 1 km x 1 km at 0.25 m with its margins). A field keeps one byte a cell
// (docs/NAVIGATION.md, "Storage"), so they hold at most 134 MB; the crowd fields of
// re-routing, at most one per target, at most as much again. A field is marched at about
// 0.08 us a cell, one per thread: the largest world takes about 8 s to create here.
constexpr size_t kMaxNavigationFieldCells = size_t{8} * 4096 * 4096;
// Exact in a double, so every client language sees the tick it sent; at 1,000 ticks a
// second it lasts 285,000 years, and a world at the limit still has room to Advance.
constexpr uint64_t kMaxTick = uint64_t{1} << 53;
constexpr float kMaxDistance = 1e4f;      // m, configured distances (look-ahead, windows)
constexpr float kMaxSeconds = 100.f;      // s, configured time horizons
constexpr float kMinSeconds = 1e-3f;      // s, dt and horizons: their inverses scale lines
constexpr float kMaxAcceleration = 1e3f;  // m/s^2, configured accelerations
constexpr float kMaxGain = 1e3f;          // configured gains (1/m, s/m)
constexpr size_t kMaxNameLength = 256;    // bytes of a world's name
// Status messages quote at most this much of a caller's string (a world id, a name), so
// that an 8,000-byte id still gets its NOT_FOUND and not gRPC's metadata limit.
constexpr size_t kMaxQuotedLength = 64;

// A world or request too large for this server: RESOURCE_EXHAUSTED, not INVALID_ARGUMENT
// (each value is fine; their sum is what does not fit). The message names the field.
class LimitExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace throng
