// Independent ORCA reference (docs/ORCA.md): double precision, brute-force neighbour and
// obstacle search, no grid, nothing shared with the parallel kernels except the public
// scene/result types. It is the oracle the float kernels are checked against, so it
// favours being obviously correct over being fast (O(N^2) per solve).
//
// Bit-reproducible on one platform for one input; build it with -ffp-contract=off so that
// fused multiply-adds do not change results between compilers or flags.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/orca/orca_types.h"

namespace throng::reference {

// What to do when the linear program over all lines has no solution.
enum class Fallback {
  // docs/ORCA.md, "Solve and infeasibility", with the knobs of scene.params (side_bias,
  // contact_margin_ratio, shorten_horizon, overlap_is_hard, revalidate, revalidate_passes,
  // revalidate_fallback).
  kOrdered,
  // RVO2's behaviour, a baseline for benchmarks only: the params' conflict knobs are
  // ignored (as if side_bias = 0, contact_margin_ratio = 0 and the three flags false), and an
  // infeasible program silently takes linearProgram3's velocity with status ok.
  kPlainRvo2,
  // OrcaParams::rvo2_fallback alone: the params' knobs as in kOrdered, but an infeasible
  // program silently takes linearProgram3's velocity with status ok, as RVO2 does. What
  // the parallel backends do with rvo2_fallback set and the rules left on.
  kSilentLp3,
};

// How the reference runs (not part of the problem: everything docs/ORCA.md fixes is read
// from scene.params).
struct OrcaOptions {
  Fallback fallback = Fallback::kOrdered;
  StopRequested stop = nullptr;  // asked every 256 agents: true ends the solve with TickCancelled
  bool record_kept = false;      // fill OrcaResult::kept_ids, closest first
};

// Reference-only diagnostics (the engine reports the per-agent solve_flags and their
// counters in OrcaResult instead). The counters add up over SolveOrca calls; the
// per-agent columns are those of the last call.
struct SolveDiagnostics {
  uint64_t lp2_solves = 0;            // LP2 runs at the full horizon tau, every pass
  uint64_t shortened_lp2_solves = 0;  // LP2 runs at shorter horizons, every pass
  uint64_t pass_two_lp2_solves = 0;   // of all LP2 runs, those of the repair passes
  uint64_t lp3_solves = 0;
  // Per agent: the agent-line horizon of the problem the reported velocity came from
  // (tau, a shortened tau_k, or, for safe stop and emergency, the last horizon tried;
  // 0 for non-cooperative agents), and whether rule 0 turned that solve's target.
  std::vector<double> horizon;
  std::vector<bool> target_biased;
};

// Solves every agent from the same snapshot; fills every field of OrcaResult (audited_*
// stay 0: brute force has no false negatives; times stay 0). Input is assumed validated.
OrcaResult SolveOrca(const OrcaScene& scene, const OrcaOptions& options = {},
                     SolveDiagnostics* diagnostics = nullptr);

// One simulation step: SolveOrca, then v = new velocity and p += v * time_step for every
// agent (non-cooperative agents keep their input velocity and move by it).
OrcaResult StepScene(OrcaScene& scene, const OrcaOptions& options = {},
                     SolveDiagnostics* diagnostics = nullptr);

// The 2D linear programs of RVO2 2.0 (Agent.cpp), in double precision; exposed for tests.
namespace lp {

struct Vec2d {
  double x = 0.0;
  double y = 0.0;
};

inline Vec2d operator+(Vec2d a, Vec2d b) { return {a.x + b.x, a.y + b.y}; }
inline Vec2d operator-(Vec2d a, Vec2d b) { return {a.x - b.x, a.y - b.y}; }
inline Vec2d operator-(Vec2d a) { return {-a.x, -a.y}; }
inline Vec2d operator*(double s, Vec2d a) { return {s * a.x, s * a.y}; }
inline double Dot(Vec2d a, Vec2d b) { return a.x * b.x + a.y * b.y; }
// > 0 when b lies counter-clockwise of a.
inline double Det(Vec2d a, Vec2d b) { return a.x * b.y - a.y * b.x; }

// Half-plane: v is allowed iff Det(direction, point - v) <= 0 (left of the direction).
// direction has unit length.
struct Line {
  Vec2d point;
  Vec2d direction;
};

// RVO_EPSILON's role (nearly parallel lines, "already covered" obstacles), scaled for
// double precision: a sine of 1e-9 rad between unit directions.
constexpr double kEpsilon = 1e-9;

// Optimum on line `line_no` subject to lines [0, line_no) and |v| <= radius.
// direction_opt: opt_velocity is a unit direction to go furthest along, else a point to
// get closest to. Returns false (result untouched) when no point of the line is feasible.
bool LinearProgram1(const std::vector<Line>& lines, size_t line_no, double radius,
                    Vec2d opt_velocity, bool direction_opt, Vec2d* result);

// Incremental 2D LP with the speed disc. Returns lines.size() on success, else the index
// of the line that failed; *result then holds the optimum over the lines before it.
size_t LinearProgram2(const std::vector<Line>& lines, double radius, Vec2d opt_velocity,
                      bool direction_opt, Vec2d* result);

// Keeps lines [0, num_obstacle_lines) hard and minimises the largest violation of the
// others, starting from the LP2 failure at begin_line with *result as LP2 left it.
void LinearProgram3(const std::vector<Line>& lines, size_t num_obstacle_lines, size_t begin_line,
                    double radius, Vec2d* result);

}  // namespace lp

// Everything one agent's pass-1 solve is built from, at the full horizon tau with
// scene.params.contact_margin_ratio, for tests that inspect constraints.
struct AgentProblem {
  std::vector<lp::Line> lines;    // obstacle lines first, then one line per neighbour
  std::vector<bool> hard;         // per line: obstacle, or neighbour is non-cooperative
  std::vector<bool> overlapping;  // per line: agent line from the collision branch
  size_t obstacle_line_count = 0;
  size_t candidate_count = 0;     // agents passing the conservative per-pair filter
  std::vector<size_t> neighbors;  // agent indices kept, closest first (their line order)
  // Right of way: after the per-neighbour lines, one more line per neighbour the agent
  // gives way to, at the velocity that neighbour wants; these are the neighbours' indices.
  std::vector<size_t> wanting;
  // The agent index of the neighbour behind agent line k (k counted after the obstacle
  // lines).
  size_t NeighborOfLine(size_t k) const {
    return k < neighbors.size() ? neighbors[k] : wanting[k - neighbors.size()];
  }
};

// Builds agent `agent`'s pass-1 problem from the snapshot. A non-cooperative agent is not
// solved and gets an empty problem.
AgentProblem BuildProblem(const OrcaScene& scene, size_t agent);

// The lines of BuildProblem; *obstacle_line_count (if not null) gets how many come first.
std::vector<lp::Line> BuildLines(const OrcaScene& scene, size_t agent, size_t* obstacle_line_count);

}  // namespace throng::reference
