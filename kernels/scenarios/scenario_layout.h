// Building blocks shared by the named world scenarios (kernels/scenarios/scenario.h), and
// the generators themselves, one file each. Internal to the scenario library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/math/vec.cuh"
#include "kernels/scenarios/scenario.h"
#include "kernels/scenarios/scenario_rng.h"
#include "kernels/world/world_types.h"

namespace throng::scenarios::layout {

// Pedestrian scenes (corridor, crossing, town, the bottlenecks, the navigation scenes):
// adult walkers at a brisk pace. A disc of 0.2 m radius covers 0.126 m^2, about a person's
// footprint (shoulders 0.4-0.5 m across, a body 0.25-0.3 m deep), as JuPedSim's default
// does. 0.3 m discs (until 2026-12-04) packed at most 3.2 per m^2, where real crowds reach
// 5 and Weidmann's curve runs to 5.4, and they clogged a 1 m door that real crowds pass
// at 1.6-1.9 persons/(m s) (docs/PERFORMANCE.md, "Body size and doors").
constexpr float kPedestrianRadius = 0.2f;  // m
constexpr float kPedestrianSpeed = 1.4f;   // m/s
constexpr float kPedestrianDt = 0.1f;      // s
// Waiting groups stand on a square lattice with this pitch (0.39 people per m^2, a relaxed
// crowd: at 1 per m^2 two groups meeting head-on in the corridor jam for good), each person
// moved by up to kJitter on each axis: neighbours stay >= 1.6 - 2 * 0.3 = 1 m apart, well
// over the 0.4 m two radii need, so no group starts overlapped.
constexpr float kLatticeSpacing = 1.6f;  // m
constexpr float kJitter = 0.3f;          // m

// Z up, right-handed; ORCA tuned for pedestrians (docs/SCENARIOS.md); agent defaults of
// kPedestrianRadius and kPedestrianSpeed.
WorldConfig PedestrianConfig();

// The pedestrians' body radius, and the navigation fields' clearance with it: a field keeps
// a body's centre that far off the walls, so the two change together.
void SetPedestrianRadius(WorldConfig* c, float radius);

// A pedestrian scene's Scenario before its layout: name, size, seed, PedestrianConfig()
// and the pedestrian time step.
Scenario PedestrianScenario(std::string_view name, size_t size, uint32_t seed);

// Lattice columns that hold `count` people in `rows` rows; at least one.
int ColumnsFor(size_t count, int rows);

// Appends an agent with the next id, its position and its goal.
void AddPedestrian(AgentSnapshot& agents, Vec2 position, Vec2 goal);

// Uniform in [-amount, amount) on each axis.
Vec2 Jitter(ScenarioRng& rng, float amount);

// Counter-clockwise rectangle (agents live outside), heights 0.
std::vector<Vec3> Box(Vec2 lo, Vec2 hi);
// A two-vertex wall, blocking from both sides.
std::vector<Vec3> Wall(Vec2 a, Vec2 b);

// Ticks for a walk of `distance` at `speed`: twice the free walk (room for the detours
// and queues that crowds cause) plus 100 ticks.
int WalkTicks(float distance, float speed, float dt);

// One group of a swap: `count` people on a lattice of `rows` across, filled column by
// column outward from `near` m along `out` (a unit vector from the scene's centre), so
// column c stands at distance near + c * spacing. Each goal is on the opposite side at
// the same lateral place, in column cols - 1 - c: the first to arrive walk deepest and
// do not park in the way of those behind.
void AddSwappingGroup(AgentSnapshot& agents, size_t count, Vec2 out, float near, int rows, int cols,
                      ScenarioRng& rng);

}  // namespace throng::scenarios::layout

namespace throng::scenarios::detail {

Scenario MakeCircle(size_t size, uint32_t seed);    // scenario_crowds.cpp
Scenario MakeRandom(size_t size, uint32_t seed);    // scenario_crowds.cpp
Scenario MakeBlocks(size_t size, uint32_t seed);    // scenario_crowds.cpp
Scenario MakeCorridor(size_t size, uint32_t seed);  // scenario_streets.cpp
Scenario MakeCrossing(size_t size, uint32_t seed);  // scenario_streets.cpp
// The crossing's streets (scenario_streets.cpp): each runs from the plaza's edge,
// half_plaza m from the centre, to its end wall, `end` m from it, and is as wide as the
// plaza.
struct CrossingStreets {
  float half_plaza = 0.f;
  float end = 0.f;
};
CrossingStreets CrossingStreetsFor(size_t size);
Scenario MakeCrossingNavigate(size_t size, uint32_t seed);  // scenario_navigation.cpp
// scenario_bottleneck.cpp; door is BottleneckDoor(name).
Scenario MakeBottleneck(std::string_view name, float door, size_t size, uint32_t seed);
Scenario MakeTown(size_t size, uint32_t seed);            // scenario_town.cpp
Scenario MakeFlock(size_t size, uint32_t seed);           // scenario_forward.cpp
Scenario MakeDrones(size_t size, uint32_t seed);          // scenario_forward.cpp
Scenario MakeUTrap(size_t size, uint32_t seed);           // scenario_navigation.cpp
Scenario MakeBlocksNavigate(size_t size, uint32_t seed);  // scenario_navigation.cpp
Scenario MakeRimea6(size_t size, uint32_t seed);          // scenario_navigation.cpp
// scenario_evacuation.cpp: "rimea_9", "rimea_9_two_exits" or "two_exits".
Scenario MakeEvacuation(std::string_view name, size_t size, uint32_t seed);

}  // namespace throng::scenarios::detail
