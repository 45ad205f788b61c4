// Plain C++ types of the ORCA problem, shared by every backend and the reference.
// No Thrust or CUDA types here: this is part of the engine's public interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/vec.cuh"

namespace throng {

// Outcome of one agent's velocity solve (ALGORITHMS.md §5, "Empty feasible set").
enum class SolveStatus : uint8_t {
  kOk = 0,         // the linear program found a velocity inside every constraint
  kSafeStop = 1,   // infeasible, standing still satisfies the hard constraints: v = 0
  kEmergency = 2,  // infeasible and unsafe to stop: minimum largest agent-constraint violation
};
constexpr int kSolveStatusCount = 3;

// Per-agent flag bits.
enum AgentFlag : uint8_t {
  // Players, vehicles, scripted agents: keep the velocity their caller gives them, are not
  // solved, and others avoid them with full responsibility (1.0 instead of 0.5).
  kAgentNonCooperative = 1u << 0,
};

// Largest max_neighbors accepted: the per-agent solver works on fixed-capacity arrays.
constexpr int kMaxNeighborsLimit = 64;
// Largest number of obstacle edges one agent may be constrained by in one solve.
constexpr int kMaxObstacleLinesLimit = 64;

struct OrcaParams {
  float time_step = 0.25f;          // s, used for collision (overlap) resolution
  float time_horizon = 10.f;        // tau, s
  float time_horizon_obst = 10.f;   // tau_obst, s
  float neighbor_dist = 15.f;       // m; caps the conservative query radius; 0 = no cap
  int max_neighbors = 10;           // 1 .. kMaxNeighborsLimit
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

// Per-agent results plus the tick's observability counters.
struct OrcaResult {
  std::vector<float> vx, vy;            // chosen velocity, m/s
  std::vector<uint8_t> status;          // SolveStatus
  std::vector<uint16_t> candidates;     // agents passing the conservative per-pair filter
  std::vector<uint16_t> neighbors;      // of those, kept (closest max_neighbors)
  std::vector<uint16_t> constraints;    // half-planes in the solve (obstacle + agent)

  uint64_t status_count[kSolveStatusCount] = {0, 0, 0};
  uint64_t audited_agents = 0;          // agents checked against brute force (audit mode)
  uint64_t audited_false_negatives = 0;
};

}  // namespace throng
