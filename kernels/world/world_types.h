// The world tick's plain C++ types: a world's static configuration, the snapshots that
// replace its dynamic part every tick, and what a tick returns. Snapshots and results
// are in the caller's frame (WorldConfig::frame); the engine converts once, at the edge.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/detection/agent_conditions.h"
#include "kernels/input/column_rule.h"
#include "kernels/input/input_limits.h"
#include "kernels/input/stop_request.h"
#include "kernels/math/frame.cuh"
#include "kernels/navigation/nav_types.h"
#include "kernels/orca/orca_types.h"
#include "kernels/steering/forward_prepare_types.h"
#include "kernels/steering/forward_scene.h"
#include "kernels/steering/pedestrian_prepare_types.h"
#include "kernels/vehicles/bicycle.cuh"
#include "kernels/vehicles/path_check.cuh"
#include "kernels/vehicles/spline.h"
#include "kernels/vehicles/vehicle.cuh"
#include "kernels/world/column_tables.h"

namespace throng {

// AgentBehavior, SnapshotAgentFlag and AgentDefaults: kernels/steering/pedestrian_prepare_types.h.
std::string_view AgentBehaviorName(AgentBehavior behavior);

// Used where a snapshot leaves an optional vehicle column out.
struct VehicleDefaults {
  float length = 4.5f;      // m, bumper to bumper
  float width = 1.8f;       // m
  float max_speed = 13.9f;  // m/s (50 km/h)
  BicycleParams bicycle;    // integration only
};

// ForwardDefaults: kernels/steering/forward_prepare_types.h.

// The vertical extent of a static obstacle for forward agents' casts (a prism); an
// unbounded one stands at every height. Heights are the caller's up coordinate.
struct HeightRange {
  bool bounded = false;
  float base = 0.f, top = 0.f;  // m, when bounded
};

// A static sphere (caller's frame). Only forward agents meet spheres.
struct SphereObstacle {
  Vec3 center;
  float radius = 1.f;
};

// Where navigating agents go (docs/NAVIGATION.md), in the caller's frame: one vertex is a
// point, three or more a polygon (heights ignored). Ids are the agents' `target` values.
struct NavigationTarget {
  NavigationTarget() = default;
  // {id, shape} or {id, shape, region}: most targets have no region.
  NavigationTarget(uint32_t target_id, std::vector<Vec3> target_shape,
                   std::vector<Vec3> target_region = {})
      : id(target_id), shape(std::move(target_shape)), region(std::move(target_region)) {}

  uint32_t id = 0;
  std::vector<Vec3> shape;
  // Empty: the field covers the world's grid (every obstacle and target, with margins).
  // Else two opposite corners of a box on the ground, in the caller's frame: the field
  // covers that box only, and holds the shape (docs/NAVIGATION.md, "Regions").
  std::vector<Vec3> region;
};

struct WorldConfig {
  Frame frame;                      // the caller's frame, for everything in and out
  std::vector<SplineDesc> splines;  // lanes, control points in the caller's frame
  // Static obstacles in the caller's ground plane: each vertex is a 3D point whose height
  // is ignored. Either orientation is accepted; two vertices make a wall.
  std::vector<std::vector<Vec3>> obstacles;
  // Empty, or one per obstacle: its height range for forward agents (pedestrians and
  // vehicles ignore heights).
  std::vector<HeightRange> obstacle_heights;
  std::vector<SphereObstacle> spheres;
  ForwardDefaults forward;
  OrcaParams orca;  // time_step is replaced by each tick's dt
  FollowerParams follower;
  // Per-vehicle follower parameters: VehicleSnapshot::profile k follows with
  // vehicle_profiles[k - 1] (0: `follower`). The bicycle geometry, lag and control period
  // in them are replaced by the world's, like `follower`'s.
  std::vector<FollowerParams> vehicle_profiles;
  float world_speed_limit = 0.f;  // m/s over every lane; 0 = none
  AgentDefaults agent_defaults;
  VehicleDefaults vehicle_defaults;
  DetectionParams detection;
  PathCheckParams path_check;
  uint32_t audit_every = 0;  // see OrcaRunOptions::audit_every
  // Navigation fields, one per target, built with the world (docs/NAVIGATION.md).
  std::vector<NavigationTarget> navigation_targets;
  NavFieldParams navigation;
};

// The snapshot and result structs are the column tables expanded
// (kernels/world/column_tables.h): one std::vector per row, in the table's order.
#define THRONG_SNAPSHOT_COLUMN(name, type, wire, need, rule) std::vector<type> name;
#define THRONG_RESULT_COLUMN(name, type, wire) std::vector<type> name;

// Agents, one value per agent in every present column (THRONG_AGENT_COLUMNS). Optional
// columns are empty when absent and then take the world's defaults. `behavior`: kByColumns,
// or an absent column, takes the world's AgentDefaults::behavior; arrive, seek and flee
// need the goal columns.
struct AgentSnapshot {
  THRONG_AGENT_COLUMNS(THRONG_SNAPSHOT_COLUMN)

  size_t size() const { return id.size(); }
  bool has_goals() const { return !goal_x.empty(); }
};

// Vehicles, one value per vehicle in every present column (THRONG_VEHICLE_COLUMNS).
struct VehicleSnapshot {
  THRONG_VEHICLE_COLUMNS(THRONG_SNAPSHOT_COLUMN)

  size_t size() const { return id.size(); }
};

// The behaviour agent i moves by, never kByColumns. An agent's own value comes first,
// then its kSnapshotUsesPreferredVelocity flag, then the world's default, then the
// columns (goals: arrive; none: preferred velocity). Values are validated beforehand.
AgentBehavior EffectiveBehavior(const AgentSnapshot& agents, size_t i, AgentBehavior world_default);

// The snapshot's pedestrian columns as the preparation reads them (an absent optional
// column null): pointers into `agents`, valid while it is unchanged.
PedestrianPrepareScene PedestrianSceneOf(const AgentSnapshot& agents);

// Forward-moving agents (drones, birds, fish, vehicles off their lanes), one value per
// agent in every present column (THRONG_FORWARD_COLUMNS).
struct ForwardSnapshot {
  THRONG_FORWARD_COLUMNS(THRONG_SNAPSHOT_COLUMN)

  size_t size() const { return id.size(); }
  bool has_goals() const { return !goal_x.empty(); }
};

// Calls f(ColumnInfo, column) for every column of a batch, in the table's order (const or
// not): what validation, the scenario JSON and the tests walk.
#define THRONG_VISIT_COLUMN(name, type, wire, need, rule) \
  f(ColumnInfo{#name, ColumnNeed::need, rule}, batch.name);
template <class Batch, class F>
void VisitAgentColumns(Batch& batch, F&& f) {
  THRONG_AGENT_COLUMNS(THRONG_VISIT_COLUMN)
}
template <class Batch, class F>
void VisitVehicleColumns(Batch& batch, F&& f) {
  THRONG_VEHICLE_COLUMNS(THRONG_VISIT_COLUMN)
}
template <class Batch, class F>
void VisitForwardColumns(Batch& batch, F&& f) {
  THRONG_FORWARD_COLUMNS(THRONG_VISIT_COLUMN)
}
#undef THRONG_VISIT_COLUMN

// Calls f(ColumnInfo, from_column, to_column) for every column of two batches of one kind,
// in the table's order: what copies part of a batch into another walks.
#define THRONG_VISIT_COLUMN_PAIR(name, type, wire, need, rule) \
  f(ColumnInfo{#name, ColumnNeed::need, rule}, from.name, to.name);
template <class From, class To, class F>
void VisitAgentColumnPairs(From& from, To& to, F&& f) {
  THRONG_AGENT_COLUMNS(THRONG_VISIT_COLUMN_PAIR)
}
template <class From, class To, class F>
void VisitVehicleColumnPairs(From& from, To& to, F&& f) {
  THRONG_VEHICLE_COLUMNS(THRONG_VISIT_COLUMN_PAIR)
}
#undef THRONG_VISIT_COLUMN_PAIR

struct Snapshot {
  uint64_t tick = 0;  // must increase from one accepted tick to the next
  float dt = 0.1f;    // s, > 0
  AgentSnapshot agents;
  VehicleSnapshot vehicles;
  ForwardSnapshot forward;
};

struct TickOptions {
  bool integrate = false;  // move agents and vehicles by dt; the result becomes the state
  bool debug = false;      // fill the vehicles' look-ahead targets
  // Fill the pedestrians' local result columns (THRONG_AGENT_LOCAL_RESULT_COLUMNS: the
  // preferred velocity each one's solve used, its constraint count), which benchmarks and
  // tests read and the service never sends; empty otherwise, and neither written nor,
  // on cuda, copied back.
  bool local_results = false;
  // Asked between stages and inside the long ones: true ends the tick with TickCancelled,
  // before anything is committed (kernels/input/stop_request.h).
  StopRequested stop = nullptr;
};

// Stages of one tick, each timed separately.
enum class Stage : uint8_t {
  kValidate,
  kUpload,
  kGrid,
  kPreferred,
  kCandidates,
  kOrca,
  kVehicles,
  kIntegrate,
  kStats,
  kDownload,
  kForward,  // forward agents' casts
};
constexpr int kStageCount = 11;
// "validate", "upload", "grid", "preferred", "candidates", "orca", "vehicles",
// "integrate", "stats", "download", "forward".
std::string_view StageName(Stage stage);

// The backend's calls a tick makes, each timed (TimedBackend): where a tick's time beyond
// its ORCA solve goes. kSetup: installing splines, obstacles and shapes, and batch spline
// queries, which a tick makes only when the world's geometry changes.
enum class BackendCall : uint8_t {
  kSolveOrca,
  kPreparePedestrians,
  kReportPedestrians,
  kMovePedestrians,
  kPrepareVehicles,
  kMoveVehicles,
  kWriteVehicleDiscs,
  kMoveForwardAgents,
  kBrakeForPaths,
  kFollowSplines,
  kCheckPaths,
  kSteerForward,
  kCountContacts,
  kSteerNavigating,
  kSetup,
};
constexpr int kBackendCallCount = 15;
// "solve", "prepare", "report", "move", "ready", "drive", "discs", "fly", "brake",
// "follow", "paths", "forward", "contacts", "navigate", "setup" ("ready": the vehicles made
// ready for the follower, PrepareVehicles).
std::string_view BackendCallName(BackendCall call);

// The observability list of docs/ALGORITHMS.md §5, for one tick.
struct TickStats {
  uint64_t tick = 0;
  uint64_t agents = 0, vehicles = 0;
  uint64_t status_count[kSolveStatusCount] = {0, 0, 0};  // by SolveStatus
  uint64_t oscillating = 0, stalled = 0;
  // Jams (docs/OPERATIONS.md): agents whose stall began this tick (their counter reached
  // DetectionParams::stall_ticks), and the longest running stall, in ticks without
  // progress, over the agents stalled now (0: none).
  uint64_t stall_episodes = 0;
  uint64_t longest_stall_ticks = 0;
  // Solved agents whose solve was infeasible and that moved by a jam step instead of
  // standing (docs/ORCA.md, step 5; SolveFlag kSolveJamStep).
  uint64_t jam_steps = 0;
  // Navigating agents re-routed this tick (kAgentRerouted; docs/NAVIGATION.md).
  uint64_t reroutes = 0;
  uint64_t stopped = 0;         // agents wanting to move but given no speed
  double time_stopped_s = 0;    // stopped * dt
  double constraints_mean = 0;  // half-planes per solved agent
  uint32_t constraints_max = 0;
  double deviation_mean = 0;  // |v - v_pref| over solved agents, m/s
  double deviation_max = 0;
  uint64_t candidates = 0, neighbors = 0;  // summed over agents
  uint64_t audited_agents = 0, audited_false_negatives = 0;
  // Measured at the positions the tick ends with (after integration when it integrates).
  uint64_t agent_overlaps = 0;    // pedestrian pairs closer than their radii sum
  uint64_t vehicle_overlaps = 0;  // pedestrian-vehicle pairs touching
  uint64_t agents_in_obstacles = 0;
  uint64_t vehicles_braking = 0;  // vehicles whose speed is capped by something ahead
  uint64_t forward_agents = 0;
  uint64_t forward_blocked = 0;  // forward agents every probe of which hit something
  // Forward agents whose body overlaps a static obstacle at the tick's start.
  uint64_t forward_in_obstacles = 0;
  std::array<double, kStageCount> stage_ms{};  // wall-clock milliseconds per Stage
  // Of the stages' time, the wall time inside the backend's calls (the rest ran on the
  // host only, whatever the backend), and of that, the ORCA solve's (Backend::SolveOrca:
  // validate, upload, grid, candidates, solve, download). Not sent over the API.
  double backend_ms = 0;
  double orca_solve_ms = 0;
  std::array<double, kBackendCallCount> backend_call_ms{};  // backend_ms, call by call
  // Bytes each Stage copied between host and backend memory (Backend::transferred): 0 on
  // the cpu backend, which reads host memory in place.
  std::array<uint64_t, kStageCount> stage_bytes_to_backend{}, stage_bytes_to_host{};

  double total_ms() const;
};

// Results, one value per row of the snapshot (THRONG_*_RESULT_COLUMNS).
struct AgentResults {
  THRONG_AGENT_RESULT_COLUMNS(THRONG_RESULT_COLUMN)
  THRONG_AGENT_LOCAL_RESULT_COLUMNS(THRONG_RESULT_COLUMN)
};

struct VehicleResults {
  THRONG_VEHICLE_RESULT_COLUMNS(THRONG_RESULT_COLUMN)
  THRONG_VEHICLE_DEBUG_RESULT_COLUMNS(THRONG_RESULT_COLUMN)  // empty unless TickOptions::debug
};

struct ForwardResults {
  THRONG_FORWARD_RESULT_COLUMNS(THRONG_RESULT_COLUMN)
};

#undef THRONG_SNAPSHOT_COLUMN
#undef THRONG_RESULT_COLUMN

// Calls f(name, column) for every result column of a batch, sent ones first.
#define THRONG_VISIT_RESULT_COLUMN(name, type, wire) f(#name, batch.name);
template <class Batch, class F>
void VisitAgentResultColumns(Batch& batch, F&& f) {
  THRONG_AGENT_RESULT_COLUMNS(THRONG_VISIT_RESULT_COLUMN)
  THRONG_AGENT_LOCAL_RESULT_COLUMNS(THRONG_VISIT_RESULT_COLUMN)
}
template <class Batch, class F>
void VisitVehicleResultColumns(Batch& batch, F&& f) {
  THRONG_VEHICLE_RESULT_COLUMNS(THRONG_VISIT_RESULT_COLUMN)
  THRONG_VEHICLE_DEBUG_RESULT_COLUMNS(THRONG_VISIT_RESULT_COLUMN)
}
template <class Batch, class F>
void VisitForwardResultColumns(Batch& batch, F&& f) {
  THRONG_FORWARD_RESULT_COLUMNS(THRONG_VISIT_RESULT_COLUMN)
}
#undef THRONG_VISIT_RESULT_COLUMN

struct TickResult {
  uint64_t tick = 0;
  AgentResults agents;      // in snapshot order
  VehicleResults vehicles;  // in snapshot order
  ForwardResults forward;   // in snapshot order
  TickStats stats;
};

// Sums over every tick a world has run.
struct WorldTotals {
  uint64_t ticks = 0;
  uint64_t status_count[kSolveStatusCount] = {0, 0, 0};
  uint64_t oscillating = 0, stalled = 0;  // agent-ticks flagged
  uint64_t stall_episodes = 0;
  uint64_t longest_stall_ticks = 0;  // the largest TickStats::longest_stall_ticks
  uint64_t jam_steps = 0;            // agent-ticks
  uint64_t reroutes = 0;
  uint64_t agent_overlaps = 0, vehicle_overlaps = 0, agents_in_obstacles = 0;
  uint64_t forward_in_obstacles = 0;  // forward-agent-ticks
  double time_stopped_s = 0;

  void Add(const TickStats& stats);
};

}  // namespace throng
