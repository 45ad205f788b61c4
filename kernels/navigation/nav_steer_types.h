// What Backend::SteerNavigating reads and writes (docs/NAVIGATION.md, "In a world"): the
// world's targets and fields as the steering reads them, and per pedestrian the columns
// that a navigating agent's preferred velocity comes from. The rule the parallel backends
// run: nav_steer.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/detection/agent_conditions.h"
#include "kernels/input/column_source.h"
#include "kernels/math/frame.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/navigation/nav_types.h"

namespace throng {

// One field as the lookup reads it: its grid and a heading per cell (NavField). A null
// `heading` is no field.
struct NavFieldView {
  NavGridSpec spec;
  const uint8_t* heading = nullptr;
};

// A navigation target as the steering reads it: its point (a polygon's vertex mean), and
// for a polygon (three vertices or more) its vertices at NavSteerWorld::rings[ring_begin,
// ring_begin + ring_count).
struct NavSteerTarget {
  Vec2 point{0.f, 0.f};
  uint32_t ring_begin = 0, ring_count = 0;
};

// A target's id and its index in NavSteerWorld::targets; NavSteerWorld::keys holds one
// per target, ordered by id, for a binary search.
struct NavTargetKey {
  uint32_t id = 0, index = 0;
};

// The world's navigation (internal frame), target k's entries at index k.
struct NavSteerWorld {
  const NavSteerTarget* targets = nullptr;
  const NavTargetKey* keys = nullptr;
  size_t target_count = 0;
  const Vec2* rings = nullptr;
  size_t ring_points = 0;
  const NavFieldView* fields = nullptr;        // each target's field
  const NavFieldView* crowd_fields = nullptr;  // each target's crowd field, where built
  const Vec2* headings = nullptr;              // NavHeadingTable(): a unit vector per heading
  // Changes whenever anything above does. A backend with memory of its own copies the
  // world when it sees a version it has not copied, and reads its copy otherwise.
  uint64_t version = 0;
};

struct NavSteerParams {
  Frame frame;                 // the caller's: the goal columns'
  float max_accel = 0.f;       // AgentDefaults::max_accel
  float slowing_radius = 0.f;  // AgentDefaults::slowing_radius
  float dt = 0.f;
  // NavFieldParams::goal_cone as its cosine and sine (NavGoalCone).
  bool cone_on = false;
  float cone_cos = 1.f, cone_sin = 0.f;
  // kLastTick: the target column is what the last SteerNavigating or NavigationRoutes
  // read, unchanged, as many rows.
  ColumnSource targets = ColumnSource::kHost;
  // kLastTick: the memory is what the kept tick's ReportPedestrians wrote (as
  // PedestrianReportParams::memory); else the scene's.
  ColumnSource memory = ColumnSource::kHost;
  // false: the preferred velocities stay on the backend, where the solve reads them
  // (ColumnSource::kThisTick). The cpu and the reference write the host's anyway.
  bool outputs_to_host = true;
};

// Per pedestrian: the snapshot's target and goal columns (the caller's frame; goals null
// when it has none, goal_z null when it has no heights), and the memory whose `route` says
// whether the agent follows its target's crowd field. The rows this tick's
// PreparePedestrians prepared are read where it left them (the position, velocity, max
// speed and whether the agent navigates; the cuda backend also reads the goals there);
// the cpu and the reference read the `prepared` columns, the host's.
struct NavSteerScene {
  const uint32_t* target = nullptr;
  const float* goal_x = nullptr;
  const float* goal_y = nullptr;
  const float* goal_z = nullptr;
  const AgentMemory* memory = nullptr;  // null: no re-routing (nobody follows a crowd field)
  // The preparation's outputs, on the host.
  const float* px = nullptr;
  const float* py = nullptr;
  const float* vx = nullptr;
  const float* vy = nullptr;
  const float* max_speed = nullptr;
  const uint8_t* navigates = nullptr;
  size_t count = 0;
};

// What NavigationRoutes answers: per target (NavSteerWorld's order) 1 where a re-routed
// navigating pedestrian names it, else 0 (`routed`, target_count bytes); and, where
// `x` and `y` are not null, every pedestrian's prepared position (internal frame), the
// crowd a refresh builds the crowd fields from.
struct NavRoutesOutput {
  uint8_t* routed = nullptr;
  float* x = nullptr;
  float* y = nullptr;
};

// A navigating agent's preferred velocity (internal frame), written over what the
// preparation left (zero) for the rows that navigate; the other rows are not written.
struct NavSteerOutput {
  float* pref_vx = nullptr;
  float* pref_vy = nullptr;
};

}  // namespace throng
