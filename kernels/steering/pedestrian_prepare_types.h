// What Backend::PreparePedestrians reads and writes: the snapshot's pedestrian columns
// turned into the solve's agents (internal frame, the world's defaults where a column is
// absent), with the preferred velocity each agent's behaviour gives (docs/ALGORITHMS.md §3).
// The rule the parallel backends run: pedestrian_prepare.cuh. The agents' snapshot flags,
// behaviours and defaults are defined here because that rule reads them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/input/column_bounds.h"
#include "kernels/input/column_source.h"
#include "kernels/math/frame.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/orca_types.h"

namespace throng {

// Snapshot flag bits of an agent (AgentSnapshot::flags).
enum SnapshotAgentFlag : uint8_t {
  // A player or scripted agent: keeps the velocity its caller gives, is not solved, and
  // everyone else avoids it with full responsibility. Same bit as kAgentNonCooperative.
  kSnapshotNonCooperative = 1u << 0,
  // Moves by its preferred-velocity columns even when the snapshot has goal columns.
  kSnapshotUsesPreferredVelocity = 1u << 1,
};

// How a pedestrian's preferred velocity is made (docs/ALGORITHMS.md §3; AgentSnapshot::behavior).
enum class AgentBehavior : uint8_t {
  // Implied by the columns: arrive when the snapshot has goals (unless the agent is
  // flagged kSnapshotUsesPreferredVelocity), else its preferred velocity.
  kByColumns = 0,
  kArrive = 1,             // to the goal, stopping on it
  kSeek = 2,               // at the goal at full speed (no slowing radius)
  kFlee = 3,               // away from the goal point at full speed
  kPreferredVelocity = 4,  // the pref_v* columns as given (absent: stand still)
  kNavigate = 5,           // to its navigation target along the world's field (docs/NAVIGATION.md)
};
constexpr uint8_t kAgentBehaviorCount = 6;

// Used where a snapshot leaves an optional agent column out.
struct AgentDefaults {
  float radius = 0.2f;          // m (a person's footprint, docs/WORLD.md)
  float max_speed = 1.4f;       // m/s
  float max_accel = 3.f;        // m/s^2, the arrive behaviour's largest acceleration
  float slowing_radius = 1.5f;  // m, arrive ramps its speed down inside it
  AgentBehavior behavior = AgentBehavior::kByColumns;  // for agents without a behavior value
};

// The float columns of PedestrianPrepareScene, in its order: what PedestrianChecks::bounds
// holds a range for.
enum PedestrianFloatColumn : int {
  kPedestrianX,
  kPedestrianY,
  kPedestrianZ,
  kPedestrianVx,
  kPedestrianVy,
  kPedestrianVz,
  kPedestrianRadius,
  kPedestrianMaxSpeed,
  kPedestrianGoalX,
  kPedestrianGoalY,
  kPedestrianGoalZ,
  kPedestrianPrefVx,
  kPedestrianPrefVy,
  kPedestrianPrefVz,
  kPedestrianFloatColumns,
};

// The checks of the snapshot's agent values that the preparation runs where the columns
// are (docs/WORLD.md, "Where the checks run"), so that no pass on the host reads them: each present
// float column within its table rule (kernels/world/column_tables.h) and each row's flags
// and behaviour as the host's checks take them (known flag bits; a known behaviour; arrive,
// seek or flee only with goals, and never with the "uses preferred velocity" flag;
// navigate only where `navigation` allows it). The host checks the rest: lengths and ids;
// Backend::SteerNavigating checks each navigating row's target. A row refused here is one
// the host's checks refuse too; they then name the first offender. A refused row is not
// prepared (its outputs are left as they were): its values never reach the steering.
struct PedestrianChecks {
  bool on = false;
  ColumnBounds bounds[kPedestrianFloatColumns];  // PedestrianFloatColumn order
  // The world has navigation targets and the snapshot a target column: a row may navigate.
  bool navigation = false;
};

struct PedestrianPrepareParams {
  Frame frame;  // the caller's
  AgentDefaults defaults;
  float dt = 0.f;
  // kLastTick: the scene's x, y, z, vx, vy and vz are the last MovePedestrians' x, y, z,
  // next_vx, next_vy and next_vz (all six present, as many rows), and every other column is
  // present exactly where the last PreparePedestrians' scene had it, with what it read.
  ColumnSource columns = ColumnSource::kHost;
  // false: the prepared columns stay on the backend, for the tick's calls that read them
  // there (ColumnSource::kThisTick: the solve, the report, the move). A backend with memory
  // of its own then leaves the host's as they were; the cpu and the reference write them.
  bool outputs_to_host = true;
  PedestrianChecks checks;  // off: the snapshot was checked on the host
};

// The snapshot's agent columns (the caller's frame), validated (on the host, or by
// PedestrianPrepareParams::checks on the way in). An optional column that
// the snapshot leaves out is a null pointer; x and y are always there, and goal_y is
// there exactly when goal_x is.
struct PedestrianPrepareScene {
  const float* x;
  const float* y;
  const float* z;
  const float* vx;
  const float* vy;
  const float* vz;
  const float* radius;
  const float* max_speed;
  const uint8_t* flags;     // SnapshotAgentFlag bits
  const uint8_t* behavior;  // AgentBehavior values
  const float* goal_x;
  const float* goal_y;
  const float* goal_z;
  const float* pref_vx;
  const float* pref_vy;
  const float* pref_vz;
  size_t count;
};

// The solve's agents (AgentColumns' columns, internal frame; each agent's id is its
// index), and per agent what the stages after the solve read: its height and vertical
// speed, where its progress is measured to (goal, where has_goal), and whether it
// navigates. A navigating agent's preferred velocity is left at zero: the backend steers it
// along its field afterwards (Backend::SteerNavigating).
struct PedestrianPrepareOutput {
  AgentColumnsOut agents;
  float* z;
  float* vz;
  Vec2* goal;
  uint8_t* has_goal;
  uint8_t* navigates;
};

}  // namespace throng
