// Plain C++ types of the ORCA problem, shared by every backend and the reference.
// No Thrust or CUDA types here: this is part of the engine's public interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/input/column_source.h"
#include "kernels/input/stop_request.h"
#include "kernels/math/vec.cuh"

namespace throng {

// Outcome of one agent's velocity solve (docs/ALGORITHMS.md §5, "Empty feasible set").
enum class SolveStatus : uint8_t {
  kOk = 0,         // the linear program found a velocity inside every constraint
  kSafeStop = 1,   // infeasible, standing still satisfies the hard constraints: v = 0
  kEmergency = 2,  // infeasible and unsafe to stop: minimum largest agent-constraint violation
};
constexpr int kSolveStatusCount = 3;

// How an agent's solve went, beyond its status (bits of OrcaResult::solve_flags).
enum SolveFlag : uint8_t {
  kSolveShortenedHorizon = 1u << 0,  // feasible only at a horizon shorter than tau
  kSolveRevalidated = 1u << 1,       // re-solved in a repair pass
  kSolveAdopted = 1u << 2,           // a repair pass's feasible velocity was taken
  // Infeasible, and the agent moves by a bounded share of the least-violation velocity
  // instead of standing or pushing (OrcaParams::jam_step; docs/ORCA.md, step 5).
  kSolveJamStep = 1u << 3,
};

// Per-agent flag bits.
enum AgentFlag : uint8_t {
  // Players, vehicles, scripted agents: keep the velocity their caller gives them, are not
  // solved, and others avoid them with full responsibility (1.0 instead of 0.5).
  kAgentNonCooperative = 1u << 0,
};

// Largest max_neighbors accepted: the per-agent solver works on fixed-capacity arrays.
constexpr int kMaxNeighborsLimit = 64;
// The solve's local arrays come in two sizes (orca::SolveAgent): this many neighbours, which
// most worlds ask for (max_neighbors 10 by default), and kMaxNeighborsLimit.
constexpr int kSmallNeighborCap = 16;
// Largest number of obstacle edges one agent may be constrained by in one solve.
constexpr int kMaxObstacleLinesLimit = 64;
// Largest OrcaParams::revalidate_passes accepted.
constexpr int kMaxRevalidatePasses = 16;

struct OrcaParams {
  float time_step = 0.25f;         // s, used for collision (overlap) resolution
  float time_horizon = 10.f;       // tau, s
  float time_horizon_obst = 10.f;  // tau_obst, s
  float neighbor_dist = 15.f;      // m; caps the conservative query radius; 0 = no cap
  int max_neighbors = 10;          // 1 .. kMaxNeighborsLimit

  // Throng's handling of conflicts and infeasibility (docs/ORCA.md, "Solve"). With
  // side_bias = 0, contact_margin_ratio = 0 and the four flags false, the solve is exactly
  // docs/ALGORITHMS.md §5's plain order (LP2; safe stop if v = 0 meets the hard lines; LP3).
  float side_bias = 0.3f;  // rad: when v_pref breaks an agent line, aim this far right
  // Combined radii (0 .. 100): the bias fades as the conflicting neighbour lies further to
  // the agent's right of their closing path, over this many combined radii (a quarter of
  // it for an oncoming neighbour), so that offset pairs pass on their natural side and
  // counter-flows form lanes (docs/ORCA.md, step 0). 0: the whole bias for every conflict.
  float side_bias_fade = 2.f;
  // Clearance kept between solved agents, as a fraction of the pair's radius sum: agent
  // lines use (r_A + r_B) * (1 + ratio). Relative, so that 0.3 m pedestrians and 1.5 m
  // benchmark agents get the same share (0.01 m and 0.05 m); docs/ORCA.md, "Contact margin".
  float contact_margin_ratio = 1.f / 60.f;
  bool shorten_horizon = true;  // retry with tau/2, tau/4, .. down to time_step first
  bool overlap_is_hard = true;  // an overlapping neighbour's line is hard for the safe stop
  bool revalidate = true;       // repair passes against neighbours that did not take their half
  // Re-validation repeated to a fixed point (docs/ORCA.md, "Repair passes"): at most this
  // many passes after pass 1, each re-solving agents next to one that turned non-ok in the
  // pass before. 1: the single second pass. 16, the most allowed: in a queue of 2,000 at a
  // door a chain of stops ran past 4 links, and along RiMEA 6's wall past 8; the agent
  // that stopped last was walked into by up to 8.7 and 7.4 cm (docs/ORCA.md, "Repair
  // passes"). Passes stop early when nothing turned, so a calm crowd pays for one.
  int revalidate_passes = kMaxRevalidatePasses;
  // A failed re-solve falls back as pass 1 does (safe stop, else emergency) instead of
  // keeping a velocity that relied on the neighbour taking its half; the agent then counts
  // as turned non-ok for the next pass.
  bool revalidate_fallback = true;
  // Density-aware preferred speed (docs/ORCA.md, step 0): the preferred velocity is
  // scaled by Weidmann's fundamental diagram at the density of kept neighbours walking
  // the agent's way just ahead, so that a dense crowd walks as slowly as real ones do.
  // Off: it costs arrivals where streams cross (docs/PERFORMANCE.md).
  bool density_speed = false;
  // Headway speed (docs/ORCA.md, step 0): the preferred speed is cut to what the gap to
  // the person in line ahead allows, Tordeux's collision-free speed model with
  // anticipation, so that a one-way crowd walks at Weidmann's speeds and a dense
  // counter-flow keeps moving (on since 2026-12-04; docs/PERFORMANCE.md, "Headway speed and
  // right of way on by default").
  bool headway_speed = true;
  float headway_time = 0.6f;  // s, 0.05 .. 5: the time gap T
  // s, 0 .. T - 0.05: the leader read this far ahead. 0: at 0.3 s (T 0.9 s) the 1 m door
  // flows as without the rule, but the two-way corridor at 3 /m^2 froze on the reference.
  float headway_anticipation = 0.f;
  // Jam step (docs/ORCA.md, step 5): an infeasible solve (safe stop or emergency) moves by
  // the largest share (1, 1/2, 1/4, 1/10) of LP3's least-violation velocity after which no
  // kept neighbour, whether it moves on at its velocity or stands, overlaps the agent by
  // more than jam_step_depth (or by more than now), so that a stop lasts a tick, not the
  // rest of the jam. No share does: stand, or, where standing breaks a non-cooperative
  // neighbour's line, the whole LP3 velocity as without the rule. false: plain safe stop.
  bool jam_step = true;
  float jam_step_depth = 0.01f;  // m, 0 .. 1
  // Squeeze step (docs/ORCA.md, step 5; acts with jam_step and right_of_way): an agent the
  // jam step leaves standing or creeping (under a tenth of its max speed) against a wall,
  // which gives way to two neighbours touching it from opposite sides, steps square to the
  // line between them at a tenth of its max speed, where the walls' lines and the bodies'
  // allowance let it, so that a walker squeezed against a wall between two that each go
  // first over it does not hold all three for good. Off by default: it frees Blocks of
  // 10,000's knot (seed 3) and the knot's five alone at once, but Blocks of 1,000 pauses
  // longer with it over twelve seeds (docs/PERFORMANCE.md, "The squeeze step against
  // walls").
  bool squeeze_step = false;
  // Right of way (docs/ORCA.md, "Right of way"): of two cooperative agents standing nearly still
  // within reach of each other, one goes first (the one the walls leave more of its way,
  // then the one in front, then the lower id) and the other avoids it with full
  // responsibility, at the velocity it has and at the one it wants, so that an even split
  // of the way does not leave both standing. On since 2026-12-04 (docs/PERFORMANCE.md,
  // "Headway speed and right of way on by default"); its price is contacts under 1 cm.
  bool right_of_way = true;
  // Followers behind (docs/ORCA.md, "Neighbours ahead"), 0 .. 10: when more candidates
  // than max_neighbors are in reach, a candidate behind the agent that walks its way
  // (preferred directions within 45 degrees) is ordered as if farther, its squared distance
  // times 1 + follower_weight * cos(angle behind), so that a full list keeps more of the
  // people ahead. 0: the nearest, as RVO2. Off by default: 1 brings 7% more of the
  // crossing of 10,000 home, slows Blocks and the doors, and makes the neighbour query 72%
  // dearer (docs/PERFORMANCE.md, "The neighbours ahead").
  float follower_weight = 0.f;
  // Round standing obstacles (docs/ORCA.md, step 0): a preferred velocity that runs into a
  // standing non-cooperative neighbour (a waiting car, a player) within 2 m turns to the
  // nearer edge of the directions such neighbours block, so that a walker whose goal lies
  // behind a waiting car walks round it instead of standing pressed against its side. On
  // since 2026-12-07 (docs/PERFORMANCE.md, "Round standing cars").
  bool standing_detour = true;
  // Corner lines (docs/ORCA.md, "Corner lines"): an agent beyond an edge's end, within its
  // radius of the edge's line, sees the edge end-on, and where its velocity runs back along
  // the edge, the edge itself gives the line. RVO2 hands that leg to a neighbouring edge
  // that sees the same corner and hands it back, so neither lines it and a body steps up to
  // 5 cm into a block's face at its corner (docs/PERFORMANCE.md, "Corner lines"). false:
  // RVO2's rule.
  bool corner_lines = true;
  // Comparison baseline only: RVO2 2.0's silent fallback (infeasible -> LP3, reported ok).
  // Use PlainRvo2Params() to get the whole baseline.
  bool rvo2_fallback = false;
};

// The RVO2 library's behaviour, for baselines: no side bias, no margin, no shorter
// horizons, no second pass, and infeasible solves silently take LP3's velocity.
inline OrcaParams PlainRvo2Params(OrcaParams p) {
  p.side_bias = 0.f;
  p.contact_margin_ratio = 0.f;
  p.shorten_horizon = false;
  p.overlap_is_hard = false;
  p.revalidate = false;
  p.revalidate_passes = 1;
  p.revalidate_fallback = false;
  p.jam_step = false;
  p.squeeze_step = false;
  p.density_speed = false;
  p.headway_speed = false;
  p.right_of_way = false;
  p.follower_weight = 0.f;
  p.standing_detour = false;
  p.corner_lines = false;
  p.rvo2_fallback = true;
  return p;
}

// AgentColumns' columns as pointers to fill, from some row on: what a backend call that
// writes solve agents (the pedestrians' preparation, the vehicles' discs) writes into.
struct AgentColumnsOut {
  uint32_t* id;
  float* px;
  float* py;
  float* vx;
  float* vy;
  float* radius;
  float* max_speed;
  float* pref_vx;
  float* pref_vy;
  uint8_t* flags;  // AgentFlag bits
};

// Agents as structure of arrays; every column has one value per agent.
struct AgentColumns {
  std::vector<uint32_t> id;
  std::vector<float> px, py;            // position, m
  std::vector<float> vx, vy;            // current velocity, m/s
  std::vector<float> radius;            // m, > 0
  std::vector<float> max_speed;         // m/s, > 0
  std::vector<float> pref_vx, pref_vy;  // preferred velocity, m/s
  std::vector<uint8_t> flags;           // AgentFlag bits

  size_t size() const { return id.size(); }
  void Resize(size_t n);
  void Reserve(size_t n);
  // The columns from row `first` on, to fill.
  AgentColumnsOut Out(size_t first);
};

// A static obstacle: vertices counter-clockwise (agents live outside). Two vertices
// make a wall that blocks from both sides (RVO2's convention).
struct Polygon {
  std::vector<Vec2> vertices;
};

struct OrcaScene {
  OrcaParams params;
  AgentColumns agents;
  std::vector<Polygon> obstacles;
};

// How a solve is run (not part of the problem).
struct OrcaRunOptions {
  // 0: off. k: every k-th agent (in grid order) is checked against a brute-force search:
  // the neighbours it would keep that the grid's list lacks are counted (false negatives;
  // must stay 0).
  uint32_t audit_every = 0;
  // The parallel backends' neighbour scan reads only as far as a full list's farthest
  // entry (and the buckets that hold non-cooperative agents), so OrcaResult::candidates
  // counts the candidates it read. On: it reads every cell within reach and counts every
  // candidate, as the reference does (the equivalence tests compare the counts). The kept
  // lists, and so the velocities, are the same either way.
  bool count_every_candidate = false;
  // Asked between stages and chunks of agents; true ends the solve with TickCancelled.
  StopRequested stop = nullptr;
  // Fill OrcaResult::kept_ids (the equivalence tests compare them); off in a tick.
  bool record_kept = false;
  // kThisTick: the agents' rows [0, k) are the last PreparePedestrians' agent columns (k
  // its count) and rows [k, size) the last WriteVehicleDiscs' (written from row k).
  ColumnSource agents = ColumnSource::kHost;
  // false: the per-agent results stay on the backend, for the tick's calls that read them
  // there (ColumnSource::kThisTick). A backend with memory of its own then leaves `out`'s
  // columns as they were and its counters at zero, the audit's excepted; the cpu and the
  // reference fill them anyway.
  bool results_to_host = true;
};

// Wall-clock milliseconds per stage; parallel backends synchronise between stages.
struct OrcaStageTimes {
  double validate_ms = 0, upload_ms = 0, grid_ms = 0, neighbors_ms = 0, solve_ms = 0,
         revalidate_ms = 0, download_ms = 0;
};

// Per-agent results plus the tick's observability counters.
constexpr uint32_t kNoKeptId = 0xffffffffu;

struct OrcaResult {
  std::vector<float> vx, vy;          // chosen velocity, m/s
  std::vector<uint8_t> status;        // SolveStatus
  std::vector<uint16_t> candidates;   // agents read that pass the conservative per-pair filter
  std::vector<uint16_t> neighbors;    // of those, kept (closest max_neighbors)
  std::vector<uint16_t> constraints;  // half-planes in the solve (obstacle + agent)
  std::vector<uint8_t> solve_flags;   // SolveFlag bits
  // With OrcaRunOptions::record_kept, max_neighbors entries per agent: the ids of the
  // neighbours it kept, in the backend's order (compare them as sets), then kNoKeptId.
  // Empty otherwise.
  std::vector<uint32_t> kept_ids;

  uint64_t status_count[kSolveStatusCount] = {0, 0, 0};
  uint64_t shortened_horizon = 0;     // agents solved only at a horizon shorter than tau
  uint64_t revalidated = 0;           // agents re-solved in a repair pass
  uint64_t revalidation_adopted = 0;  // of those, agents that took a feasible repair velocity
  uint64_t jam_steps = 0;             // infeasible agents that moved by a jam step
  uint64_t audited_agents = 0;        // agents checked against brute force (audit mode)
  uint64_t audited_false_negatives = 0;
  OrcaStageTimes times;

  void Resize(size_t n);
  // Recomputes status_count and the solve-flag counters from the per-agent columns.
  void CountStatuses();
};

}  // namespace throng
