// The columns of every batch the API carries, written once (docs/ARCHITECTURE.md, "Where a
// new thing goes"). Each table is an X-macro: a row per column, in the proto's field order.
// Expanded, they make the engine's snapshot and result structs (world_types.h), the
// world's column checks (world_validate.cpp), the scenario JSON (scenario_json_fields.h),
// the proto conversion (proto/convert.cpp) and the C++ client's spans (clients/cpp/).
// The Python client reads the proto's descriptors, so it needs no table.
//
// Snapshot rows: X(name, type, wire, need, rule)
//   name  the column's name in the engine struct, the proto message, JSON and the clients
//   type  the engine's element type
//   wire  the proto's element type (small integers travel as uint32)
//   need  kRequired (every snapshot carries it) or kOptional (empty when absent)
//   rule  how every value is checked (kernels/input/column_rule.h): Bounded(bound, unit),
//         Size(bound, unit), NonNegative(bound, unit), Id(), or ByHand() for a column
//         whose values a named check in world_validate.cpp or forward_validate.cpp
//         reads (the lengths of every column are checked for all rules)
// Result rows: X(name, type, wire), always one value per row of the snapshot.
//
// No includes: the client includes this without the engine. The tokens in `need` and
// `rule` resolve only where a table is expanded with them.
#pragma once

// Agents (pedestrians): AgentSnapshot, v1::AgentBatch. The first column counts the rows.
#define THRONG_AGENT_COLUMNS(X)                                                    \
  X(id, uint32_t, uint32_t, kRequired, Id())                /* unique per batch */ \
  X(x, float, float, kRequired, Bounded(kMaxCoordinate, "m")) /* position */       \
  X(y, float, float, kRequired, Bounded(kMaxCoordinate, "m"))                      \
  X(z, float, float, kOptional, Bounded(kMaxCoordinate, "m")) /* absent: 0 */      \
  X(vx, float, float, kOptional, Bounded(kMaxSpeed, "m/s")) /* current velocity */ \
  X(vy, float, float, kOptional, Bounded(kMaxSpeed, "m/s"))                        \
  X(vz, float, float, kOptional, Bounded(kMaxSpeed, "m/s"))                        \
  X(radius, float, float, kOptional, Size(kMaxRadius, "m"))                        \
  X(max_speed, float, float, kOptional, Size(kMaxSpeed, "m/s"))                    \
  /* arrive/seek/flee target: x and y together */                                  \
  X(goal_x, float, float, kOptional, Bounded(kMaxCoordinate, "m"))                 \
  X(goal_y, float, float, kOptional, Bounded(kMaxCoordinate, "m"))                 \
  X(goal_z, float, float, kOptional, Bounded(kMaxCoordinate, "m"))                 \
  /* preferred velocity: x and y together */                                       \
  X(pref_vx, float, float, kOptional, Bounded(kMaxSpeed, "m/s"))                   \
  X(pref_vy, float, float, kOptional, Bounded(kMaxSpeed, "m/s"))                   \
  X(pref_vz, float, float, kOptional, Bounded(kMaxSpeed, "m/s"))                   \
  X(flags, uint8_t, uint32_t, kOptional, ByHand())    /* SnapshotAgentFlag bits */ \
  X(behavior, uint8_t, uint32_t, kOptional, ByHand()) /* AgentBehavior values */  \
  X(target, uint32_t, uint32_t, kOptional, ByHand()) /* navigation target id */

// Vehicles: VehicleSnapshot, v1::VehicleBatch.
#define THRONG_VEHICLE_COLUMNS(X)                                                         \
  X(id, uint32_t, uint32_t, kRequired, Id())       /* a separate id space from agents */  \
  X(x, float, float, kRequired, Bounded(kMaxCoordinate, "m")) /* the rear-axle centre */  \
  X(y, float, float, kRequired, Bounded(kMaxCoordinate, "m"))                             \
  X(z, float, float, kOptional, Bounded(kMaxCoordinate, "m"))                             \
  X(yaw, float, float, kRequired, Bounded(kMaxYaw, "rad")) /* caller's ground plane */    \
  X(speed, float, float, kRequired, NonNegative(kMaxSpeed, "m/s"))                        \
  X(spline_id, uint32_t, uint32_t, kRequired, ByHand()) /* the lane followed */           \
  /* m along the lane; absent: a known vehicle continues from last tick's progress */     \
  X(progress_hint, float, float, kOptional, Bounded(kMaxLaneLength, "m"))                 \
  X(length, float, float, kOptional, Size(kMaxVehicleSize, "m"))                          \
  X(width, float, float, kOptional, Size(kMaxVehicleSize, "m"))                           \
  X(max_speed, float, float, kOptional, Size(kMaxSpeed, "m/s"))                           \
  X(profile, uint32_t, uint32_t, kOptional, ByHand()) /* 0: the world's follower, k: the  \
                                                         profile k - 1 */

// Forward-moving agents (drones, birds, fish): ForwardSnapshot, v1::ForwardBatch.
#define THRONG_FORWARD_COLUMNS(X)                                                     \
  X(id, uint32_t, uint32_t, kRequired, Id())                                          \
  X(x, float, float, kRequired, Bounded(kMaxCoordinate, "m")) /* centre */            \
  X(y, float, float, kRequired, Bounded(kMaxCoordinate, "m"))                         \
  X(z, float, float, kOptional, Bounded(kMaxCoordinate, "m"))                         \
  /* heading, any length > 0 (a bounded one keeps its square finite) */               \
  X(forward_x, float, float, kRequired, Bounded(kMaxDirection, ""))                   \
  X(forward_y, float, float, kRequired, Bounded(kMaxDirection, ""))                   \
  X(forward_z, float, float, kOptional, Bounded(kMaxDirection, ""))                   \
  X(speed, float, float, kRequired, Bounded(kMaxSpeed, "m/s")) /* and >= 0.001 */     \
  X(radius, float, float, kOptional, ByHand())                                        \
  X(goal_x, float, float, kOptional, Bounded(kMaxCoordinate, "m")) /* fan target */   \
  X(goal_y, float, float, kOptional, Bounded(kMaxCoordinate, "m"))                    \
  X(goal_z, float, float, kOptional, Bounded(kMaxCoordinate, "m"))                    \
  /* the fan's settings per agent (absent: the world's ForwardDefaults) */            \
  X(probes, uint32_t, uint32_t, kOptional, ByHand())                                  \
  X(half_angle, float, float, kOptional, ByHand())                                    \
  X(probe_length, float, float, kOptional, ByHand())                                  \
  X(turn_speed, float, float, kOptional, ByHand())

// Agents' results sent back (AgentResults, v1::AgentResults).
#define THRONG_AGENT_RESULT_COLUMNS(X)                                      \
  X(vx, float, float) /* chosen velocity (vz: the snapshot's, unchanged) */ \
  X(vy, float, float)                                                       \
  X(vz, float, float)                                                       \
  X(status, uint8_t, uint32_t) /* SolveStatus */                            \
  X(flags, uint8_t, uint32_t)  /* AgentCondition bits */

// Agents' results kept in process (benchmarks, tests), not sent: filled only when
// TickOptions::local_results asks, empty otherwise.
#define THRONG_AGENT_LOCAL_RESULT_COLUMNS(X)                                \
  X(pref_vx, float, float) /* the preferred velocity the solve used */      \
  X(pref_vy, float, float)                                                  \
  X(pref_vz, float, float)                                                  \
  X(constraints, uint16_t, uint32_t) /* half-planes in the solve */

// Vehicles' results sent back (VehicleResults, v1::VehicleResults).
#define THRONG_VEHICLE_RESULT_COLUMNS(X)                                    \
  X(steering, float, float)       /* [-1, 1], +1 full right */              \
  X(throttle, float, float)       /* [0, 1] */                              \
  X(brake, float, float)          /* [0, 1] */                              \
  X(target_speed, float, float)   /* m/s after the path check */            \
  X(cte, float, float)            /* m, > 0 right of the lane's centre */   \
  X(progress, float, float)       /* m along the lane */                    \
  X(clear_distance, float, float) /* m free ahead (+inf: nothing seen) */

// Vehicles' debug results (TickOptions::debug; empty otherwise), docs/ALGORITHMS.md §1: the
// look-ahead point, the lane point at `progress`, the lane's unit tangent at the target
// (caller's frame), the two angles (rad, > 0: to the vehicle's right) and the look-ahead
// distance (m).
#define THRONG_VEHICLE_DEBUG_RESULT_COLUMNS(X) \
  X(target_x, float, float)                    \
  X(target_y, float, float)                    \
  X(target_z, float, float)                    \
  X(progress_x, float, float)                  \
  X(progress_y, float, float)                  \
  X(progress_z, float, float)                  \
  X(tangent_x, float, float)                   \
  X(tangent_y, float, float)                   \
  X(tangent_z, float, float)                   \
  X(position_delta, float, float)              \
  X(heading_delta, float, float)               \
  X(look_ahead, float, float)

// Forward agents' results (ForwardResults, v1::ForwardResults).
#define THRONG_FORWARD_RESULT_COLUMNS(X)                                 \
  X(move_x, float, float) /* unit direction moved along (caller's frame) */ \
  X(move_y, float, float)                                                \
  X(move_z, float, float)                                                \
  X(probe, uint16_t, uint32_t)   /* the chosen probe */                  \
  X(hit_distance, float, float)  /* its hit, m (+inf: free) */           \
  X(all_blocked, uint8_t, uint32_t) /* every probe hit: the farthest was taken */

// The snapshot columns a response carries back when the tick integrates (the new state):
// X(name), a column of the snapshot table and of the result message alike.
#define THRONG_AGENT_MOVED_COLUMNS(X) X(x) X(y) X(z)
#define THRONG_VEHICLE_MOVED_COLUMNS(X) X(x) X(y) X(z) X(yaw) X(speed)
#define THRONG_FORWARD_MOVED_COLUMNS(X) X(x) X(y) X(z) X(forward_x) X(forward_y) X(forward_z)
