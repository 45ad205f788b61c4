// Independent double-precision ORCA reference; see orca_ref.h and docs/ORCA.md.
// The geometry follows RVO2 2.0 (Agent.cpp computeNewVelocity, linearProgram1/2/3;
// RVOSimulator::addObstacle) written afresh; deviations are the ones docs/ORCA.md fixes.
#include "kernels/reference/orca_ref.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>

#include "kernels/reference/orca_ref_geometry.h"

namespace throng::reference {

using namespace detail;  // the units of one reference (orca_ref_geometry.h)

namespace {

// Tolerance of the safe-stop test: v = 0 may violate a hard line by this much (m/s).
constexpr double kSafeStopTolerance = 1e-5;

// docs/ORCA.md's conflict and infeasibility knobs as one solve uses them.
struct SolveRules {
  bool ordered = true;  // false: the RVO2 baseline (silent LP3, status ok)
  double side_bias = 0.0;
  double side_bias_fade = 0.0;
  double contact_margin_ratio = 0.0;
  bool shorten_horizon = false;
  bool overlap_is_hard = false;
  bool revalidate = false;
  int revalidate_passes = 1;
  bool revalidate_fallback = false;
  bool jam_step = false;
  double jam_step_depth = 0.0;
  bool squeeze_step = false;
  bool density_speed = false;
  bool headway_speed = false;
  double headway_time = 0.0;
  double headway_anticipation = 0.0;
  bool right_of_way = false;
  bool standing_detour = false;
  bool corner_lines = false;
};

SolveRules RulesFor(const OrcaParams& params, const OrcaOptions& options) {
  SolveRules rules;
  if (options.fallback == Fallback::kPlainRvo2) {
    rules.ordered = false;  // everything else plain
    return rules;
  }
  rules.side_bias = params.side_bias;
  rules.side_bias_fade = params.side_bias_fade;
  rules.contact_margin_ratio = params.contact_margin_ratio;
  rules.shorten_horizon = params.shorten_horizon;
  rules.overlap_is_hard = params.overlap_is_hard;
  rules.revalidate = params.revalidate;
  rules.revalidate_passes = params.revalidate_passes;
  rules.revalidate_fallback = params.revalidate_fallback;
  rules.jam_step = params.jam_step;
  rules.squeeze_step = params.squeeze_step;
  rules.density_speed = params.density_speed;
  rules.headway_speed = params.headway_speed;
  rules.headway_time = params.headway_time;
  rules.headway_anticipation = params.headway_anticipation;
  rules.right_of_way = params.right_of_way;
  rules.standing_detour = params.standing_detour;
  rules.corner_lines = params.corner_lines;
  rules.jam_step_depth = params.jam_step_depth;
  rules.ordered = options.fallback == Fallback::kOrdered;
  return rules;
}

// What one agent's solves share, whatever the horizon and the pass: the agent, its
// obstacle lines (tau_obst) and its kept neighbours (chosen with the full tau).
struct AgentSetup {
  size_t self_index = 0;
  AgentState self;
  std::vector<Line> obstacle_lines;
  size_t candidate_count = 0;
  std::vector<size_t> neighbors;  // agent indices, closest first
};

AgentSetup SetUpAgent(const OrcaScene& scene, const std::vector<ObstacleVertex>& vertices,
                      size_t agent, bool corner_lines) {
  AgentSetup setup;
  const AgentColumns& agents = scene.agents;
  const OrcaParams& params = scene.params;
  setup.self_index = agent;
  setup.self = ReadAgent(agents, agent);
  if (setup.self.non_cooperative) return setup;
  const AgentState& self = setup.self;

  const double tau_obst = params.time_horizon_obst;
  for (size_t edge : SelectObstacleEdges(vertices, self, tau_obst)) {
    AddObstacleLine(vertices, edge, self, tau_obst, corner_lines, &setup.obstacle_lines);
  }

  // Conservative candidates: no contact within tau is possible beyond this radius.
  const double tau = params.time_horizon;
  const double cap = params.neighbor_dist;
  // docs/ORCA.md, "Neighbours ahead": with follower_weight, a candidate behind the agent
  // that walks within 45 degrees of the agent's preferred direction is ordered at its
  // squared distance times 1 + weight * the cosine of its angle behind.
  const double follower_weight = params.follower_weight;
  const double pref_length = std::hypot(self.pref_velocity.x, self.pref_velocity.y);
  auto ordered = [&](double dx, double dy, double dist_sq, size_t j) {
    if (!(follower_weight > 0.0) || !(pref_length > 0.0) || !(dist_sq > 0.0)) return dist_sq;
    const double ex = self.pref_velocity.x / pref_length, ey = self.pref_velocity.y / pref_length;
    const double behind = -(dx * ex + dy * ey) / std::sqrt(dist_sq);  // cos of the angle behind
    const double pjx = agents.pref_vx[j], pjy = agents.pref_vy[j];
    const bool walks_its_way =
        pjx * ex + pjy * ey > 0.70710678118654752 * std::hypot(pjx, pjy);  // cos 45 degrees
    return behind > 0.0 && walks_its_way ? dist_sq * (1.0 + follower_weight * behind) : dist_sq;
  };
  // (tier, ordering distance, id, index); tier 0: non-cooperative neighbours are kept first.
  std::vector<std::tuple<int, double, uint32_t, size_t>> candidates;
  for (size_t j = 0; j < agents.size(); ++j) {
    if (j == agent) continue;
    const double dx = static_cast<double>(agents.px[j]) - self.position.x;
    const double dy = static_cast<double>(agents.py[j]) - self.position.y;
    const double dist_sq = dx * dx + dy * dy;
    const double reach = self.radius + static_cast<double>(agents.radius[j]) +
                         (self.max_speed + static_cast<double>(agents.max_speed[j])) * tau;
    if (dist_sq > reach * reach) continue;
    if (cap > 0.0 && dist_sq > cap * cap) continue;
    const int tier = (agents.flags[j] & kAgentNonCooperative) ? 0 : 1;
    candidates.emplace_back(tier, ordered(dx, dy, dist_sq, j), agents.id[j], j);
  }
  setup.candidate_count = candidates.size();
  std::sort(candidates.begin(), candidates.end());  // closest first, ties by id
  const size_t keep = std::min(candidates.size(), static_cast<size_t>(params.max_neighbors));
  for (size_t k = 0; k < keep; ++k) setup.neighbors.push_back(std::get<3>(candidates[k]));
  return setup;
}

// docs/ORCA.md, "Right of way". Slow: speed at most a fifth of the preferred speed, or at
// most a twentieth of the max speed (a creep in a jam, where the preferred speed itself is
// small).
bool SlowInJam(const AgentState& a) {
  const double speed_sq = AbsSq(a.velocity);
  return speed_sq <= 0.04 * AbsSq(a.pref_velocity) ||
         speed_sq <= 0.0025 * a.max_speed * a.max_speed;
}

// The velocity agent i would take with only the walls in its way: LP2 over its obstacle
// lines toward its preferred velocity; zero when the walls leave nothing. Only a slow
// cooperative agent's is ever read, so the others get their preferred velocity.
Vec2d WantedVelocity(const AgentSetup& setup) {
  const AgentState& self = setup.self;
  if (self.non_cooperative || !SlowInJam(self)) return self.pref_velocity;
  Vec2d want;
  if (lp::LinearProgram2(setup.obstacle_lines, self.max_speed, self.pref_velocity, false, &want) <
      setup.obstacle_lines.size()) {
    return {0.0, 0.0};
  }
  return want;
}

// Whether `self` (wanting self_want) gives way to `other` (wanting other_want): both
// cooperative and slow, centres within 1.25 radius sums, and the other goes first: the
// one the walls leave more of its preferred velocity (by more than 0.1 of it), else the
// one further along the sum of the two preferred directions (by more than 0.05 radius
// sums), else the lower id.
bool GivesWay(const AgentState& self, Vec2d self_want, const AgentState& other, Vec2d other_want) {
  if (self.non_cooperative || other.non_cooperative) return false;
  if (!SlowInJam(self) || !SlowInJam(other)) return false;
  const double radius_sum = self.radius + other.radius;
  if (AbsSq(other.position - self.position) > 1.5625 * radius_sum * radius_sum) return false;
  auto progress = [](const AgentState& a, Vec2d want) {
    const double pref_sq = AbsSq(a.pref_velocity);
    return pref_sq > 0.0 ? Dot(want, a.pref_velocity) / pref_sq : 0.0;
  };
  const double lead = progress(other, other_want) - progress(self, self_want);
  if (lead > 0.1) return true;
  if (lead < -0.1) return false;
  auto unit = [](Vec2d v) {
    const double length = std::sqrt(AbsSq(v));
    return length > 0.0 ? (1.0 / length) * v : Vec2d{0.0, 0.0};
  };
  const double ahead =
      Dot(other.position - self.position, unit(self.pref_velocity) + unit(other.pref_velocity));
  if (ahead > 0.05 * radius_sum) return true;
  if (ahead < -0.05 * radius_sum) return false;
  return other.id < self.id;
}

// Kept neighbour j as a solve sees it. previous (repair passes only): a neighbour whose
// status there is not ok is treated as non-cooperative, moving at its velocity there.
AgentState NeighborAsSeen(const OrcaScene& scene, size_t j, const OrcaResult* previous) {
  AgentState other = ReadAgent(scene.agents, j);
  if (previous != nullptr && previous->status[j] != static_cast<uint8_t>(SolveStatus::kOk)) {
    other.non_cooperative = true;
    other.velocity = {previous->vx[j], previous->vy[j]};
  }
  return other;
}

// The lines of one solve: obstacle lines, then one agent line per kept neighbour at
// horizon agent_tau. previous (repair passes only): a neighbour whose status there is not
// ok is treated as non-cooperative, moving at its velocity there.
// wants (right of way only, else null): every agent's WantedVelocity.
AgentProblem MakeProblem(const OrcaScene& scene, const AgentSetup& setup, double agent_tau,
                         double margin_ratio, const OrcaResult* previous,
                         const std::vector<Vec2d>* wants) {
  AgentProblem problem;
  if (setup.self.non_cooperative) return problem;
  problem.lines = setup.obstacle_lines;
  problem.obstacle_line_count = problem.lines.size();
  problem.hard.assign(problem.lines.size(), true);
  problem.overlapping.assign(problem.lines.size(), false);
  problem.candidate_count = setup.candidate_count;
  problem.neighbors = setup.neighbors;
  const double time_step = scene.params.time_step;
  const size_t self_index = setup.self_index;
  auto gives_way = [&](size_t j) {
    return wants != nullptr &&
           GivesWay(setup.self, (*wants)[self_index], ReadAgent(scene.agents, j), (*wants)[j]);
  };
  for (size_t j : setup.neighbors) {
    AgentState other = NeighborAsSeen(scene, j, previous);
    // Given way to: avoided with full responsibility, its line hard.
    if (gives_way(j)) other.non_cooperative = true;
    bool overlapping = false;
    problem.lines.push_back(
        AgentLine(setup.self, other, time_step, agent_tau, margin_ratio, &overlapping));
    problem.hard.push_back(other.non_cooperative);
    problem.overlapping.push_back(overlapping);
  }
  // Right of way's second lines, at the velocity each neighbour given way to wants, while
  // the solve's line arrays have room (as many as an agent can hold in the parallel solve).
  constexpr size_t kLineCapacity = kMaxObstacleLinesLimit + kMaxNeighborsLimit;
  for (size_t j : setup.neighbors) {
    if (problem.lines.size() >= kLineCapacity) break;
    if (!gives_way(j)) continue;
    AgentState wanting = NeighborAsSeen(scene, j, previous);
    wanting.non_cooperative = true;
    wanting.velocity = (*wants)[j];
    bool overlapping = false;
    problem.lines.push_back(
        AgentLine(setup.self, wanting, time_step, agent_tau, margin_ratio, &overlapping));
    problem.hard.push_back(true);
    problem.overlapping.push_back(overlapping);
    problem.wanting.push_back(j);
  }
  return problem;
}

// docs/ORCA.md, step 0, density-aware preferred speed: the share of its preferred speed the
// agent keeps. The density is a Gaussian kernel (sigma 0.3 m) around the point 0.6 m ahead
// of the agent along its preferred velocity, summed over the agent and its kept
// neighbours, each by how far it walks the agent's way; the share is Weidmann's speed at
// that density over his free speed, at least 0.1. No preferred velocity: 1.
double DensitySpeedShare(const OrcaScene& scene, const AgentSetup& setup) {
  constexpr double kLead = 0.6, kSigma = 0.3, kFloor = 0.1;
  const AgentState& self = setup.self;
  const double speed = std::sqrt(AbsSq(self.pref_velocity));
  if (!(speed > 0.0)) return 1.0;
  const Vec2d ahead = self.position + (kLead / speed) * self.pref_velocity;
  auto weight = [&](Vec2d p) {
    return std::exp(-AbsSq(p - ahead) / (2 * kSigma * kSigma)) / (2 * M_PI * kSigma * kSigma);
  };
  double density = weight(self.position);
  for (size_t j : setup.neighbors) {
    // A neighbour counts by the cosine of the angle between the two preferred velocities
    // (nothing for the other way; fully when it has no preference).
    const AgentState other = ReadAgent(scene.agents, j);
    const double other_speed = std::sqrt(AbsSq(other.pref_velocity));
    const double along =
        other_speed > 0.0
            ? std::max(0.0, Dot(other.pref_velocity, self.pref_velocity) / (other_speed * speed))
            : 1.0;
    density += along * weight(other.position);
  }
  const double weidmann = 1.0 - std::exp(-1.913 * (1.0 / density - 1.0 / 5.4));
  return std::clamp(weidmann, kFloor, 1.0);
}

// docs/ORCA.md, step 0, headway speed: the share of its preferred speed the agent keeps
// behind the nearest kept neighbour in line ahead, (distance + anticipation * leader's
// speed along the agent's way (none when it walks back) - radius sum) / (time gap *
// preferred speed), at least 0.1 and at most 1. In line: in front of the agent along its
// preferred velocity, at most a quarter of the radius sum off that line (strictly less),
// and preferring to walk within 30 degrees of the agent's way (strictly). No preferred
// velocity: 1. `self` is the agent with its preference as density-aware speed left it; the
// leader's speed is as this pass sees it (NeighborAsSeen: in a repair pass, a neighbour
// that turned non-ok walks at its velocity of the pass before).
double HeadwaySpeedShare(const OrcaScene& scene, const AgentSetup& setup, const AgentState& self,
                         const OrcaResult* previous, double time_gap, double anticipation) {
  constexpr double kLaneShare = 0.25, kFloor = 0.1, kCone = 0.86602540378443865;
  const double speed = std::sqrt(AbsSq(self.pref_velocity));
  if (!(speed > 0.0)) return 1.0;
  const Vec2d way = (1.0 / speed) * self.pref_velocity;
  const Vec2d side{-way.y, way.x};
  double share = 1.0;
  for (size_t j : setup.neighbors) {
    const AgentState other = NeighborAsSeen(scene, j, previous);
    const Vec2d offset = other.position - self.position;
    const double sum_radii = self.radius + other.radius;
    if (Dot(offset, way) <= 0.0) continue;
    if (std::abs(Dot(offset, side)) >= kLaneShare * sum_radii) continue;
    if (Dot(other.pref_velocity, way) <= kCone * std::sqrt(AbsSq(other.pref_velocity))) continue;
    const double leader_speed = std::max(0.0, Dot(other.velocity, way));
    const double gap = std::sqrt(AbsSq(offset)) + anticipation * leader_speed - sum_radii;
    share = std::min(share, gap / (time_gap * speed));
  }
  return std::clamp(share, kFloor, 1.0);
}

// docs/ORCA.md, step 0, round standing obstacles: a preferred velocity that runs into a
// standing (at most 0.25 m/s) agent the caller drives (non-cooperative), the gap between
// the two bodies at most 2 m, turns to the nearer edge (the right one on a tie) of the
// directions such kept neighbours block: each the cone of its radius sum plus 5 cm,
// overlapping cones joined into one. Not beyond 120 degrees either way; walked at least at
// half the max speed. `self` is the agent with its preference as the speed rules left it.
Vec2d StandingDetour(const OrcaScene& scene, const AgentSetup& setup, const AgentState& self) {
  constexpr double kLook = 2.0, kStanding = 0.25, kClearance = 0.05, kWidest = 2.0944, kPace = 0.5,
                   kPi = 3.14159265358979323846;
  const double speed = std::sqrt(AbsSq(self.pref_velocity));
  if (!(speed > 0.0)) return self.pref_velocity;
  const double heading = std::atan2(self.pref_velocity.y, self.pref_velocity.x);
  std::vector<std::pair<double, double>> cones;  // [from, to], offsets from the heading
  for (size_t j : setup.neighbors) {
    if ((scene.agents.flags[j] & kAgentNonCooperative) == 0) continue;
    const AgentState other = ReadAgent(scene.agents, j);
    if (AbsSq(other.velocity) > kStanding * kStanding) continue;
    const Vec2d offset = other.position - self.position;
    const double distance = std::sqrt(AbsSq(offset));
    const double reach = self.radius + other.radius + kClearance;
    if (!(distance > reach) || distance - reach > kLook) continue;
    double centre = std::atan2(offset.y, offset.x) - heading;
    while (centre > kPi) centre -= 2.0 * kPi;
    while (centre <= -kPi) centre += 2.0 * kPi;
    const double half = std::asin(reach / distance);
    cones.emplace_back(centre - half, centre + half);
  }
  double from = 0.0, to = 0.0;
  bool blocked = false;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [lo, hi] : cones) {
      if (hi < from || lo > to) continue;
      if (!blocked) {
        from = lo;
        to = hi;
        blocked = grew = true;
      } else if (lo < from || hi > to) {
        from = std::min(from, lo);
        to = std::max(to, hi);
        grew = true;
      }
    }
  }
  if (!blocked) return self.pref_velocity;
  const double turn = -from <= to ? from : to;  // the right (clockwise) side on a tie
  if (std::abs(turn) > kWidest) return self.pref_velocity;
  const double c = std::cos(turn), s = std::sin(turn);
  Vec2d turned{c * self.pref_velocity.x - s * self.pref_velocity.y,
               s * self.pref_velocity.x + c * self.pref_velocity.y};
  const double pace = kPace * self.max_speed;
  if (speed < pace) turned = (pace / speed) * turned;
  return turned;
}

// docs/ORCA.md, step 5: the jam step's shares of the least-violation velocity, tried in
// this order.
constexpr double kJamStepShares[] = {1.0, 0.5, 0.25, 0.1};

// Whether `velocity` may be taken for one time step: for every kept neighbour (as the
// solve sees it, NeighborAsSeen), whether it moves on at its velocity or makes the same
// step towards the agent, the overlap of the two bodies after the step is at most
// `depth`, or no deeper than it is now.
bool JamStepAllowed(const OrcaScene& scene, const AgentSetup& setup, const OrcaResult* previous,
                    Vec2d velocity, double depth) {
  const double dt = scene.params.time_step;
  const AgentState& self = setup.self;
  const Vec2d self_next = self.position + dt * velocity;
  for (size_t j : setup.neighbors) {
    const AgentState other = NeighborAsSeen(scene, j, previous);
    const double touch = self.radius + other.radius;
    const double overlap_now = touch - std::sqrt(AbsSq(other.position - self.position));
    const double bound = std::max(depth, overlap_now);
    const Vec2d mirrored = other.position - dt * velocity;
    for (const Vec2d other_next : {other.position + dt * other.velocity, mirrored}) {
      if (touch - std::sqrt(AbsSq(other_next - self_next)) > bound) return false;
    }
  }
  return true;
}

// docs/ORCA.md, step 5, the squeeze step's pace: a tenth of the max speed, and the speed
// under which the jam step's velocity counts as standing.
constexpr double kSqueezePace = 0.1;

// The squeeze step for an agent the jam step leaves standing or creeping: the first pair of
// kept neighbours (closest first) that it gives way to, touching it within 1.05 radius sums
// from opposite sides; of the two directions square to the line between them (the left one
// first), the first where a step at kSqueezePace of the max speed keeps every obstacle line
// (within kSafeStopTolerance) and JamStepAllowed holds, into *velocity. None: false.
bool SqueezeStep(const OrcaScene& scene, const AgentSetup& setup, const OrcaResult* previous,
                 const std::vector<Vec2d>* wants, double depth, Vec2d* velocity) {
  constexpr double kTouch = 1.05;      // radius sums
  if (wants == nullptr) return false;  // right of way off: nobody goes first
  const AgentState& self = setup.self;
  const double pace = kSqueezePace * self.max_speed;
  // Only against a wall: some obstacle line passes within the pace of standing still (a
  // creep at the pace toward it would break it).
  const auto near_standing = [pace](const Line& wall) {
    return Det(wall.direction, wall.point) > -pace;
  };
  if (std::none_of(setup.obstacle_lines.begin(), setup.obstacle_lines.end(), near_standing)) {
    return false;
  }
  std::vector<size_t> pressing;  // neighbours given way to, touching, closest first
  for (size_t j : setup.neighbors) {
    const AgentState other = ReadAgent(scene.agents, j);
    const double reach = kTouch * (self.radius + other.radius);
    if (AbsSq(other.position - self.position) <= reach * reach &&
        GivesWay(self, (*wants)[setup.self_index], other, (*wants)[j])) {
      pressing.push_back(j);
    }
  }
  for (size_t a = 0; a < pressing.size(); ++a) {
    for (size_t b = a + 1; b < pressing.size(); ++b) {
      const Vec2d first = ReadAgent(scene.agents, pressing[a]).position;
      const Vec2d second = ReadAgent(scene.agents, pressing[b]).position;
      if (!(Dot(first - self.position, second - self.position) < 0.0)) continue;
      const Vec2d along = Normalize(second - first);
      const Vec2d left = pace * Vec2d{-along.y, along.x};
      for (const Vec2d step : {left, -left}) {
        bool walls_kept = true;
        for (const Line& wall : setup.obstacle_lines) {
          if (Det(wall.direction, wall.point - step) > kSafeStopTolerance) walls_kept = false;
        }
        if (walls_kept && JamStepAllowed(scene, setup, previous, step, depth)) {
          *velocity = step;
          return true;
        }
      }
    }
  }
  return false;
}

uint16_t SaturateU16(size_t n) {
  return static_cast<uint16_t>(std::min<size_t>(n, std::numeric_limits<uint16_t>::max()));
}

}  // namespace

AgentProblem BuildProblem(const OrcaScene& scene, size_t agent) {
  const std::vector<ObstacleVertex> vertices = BuildObstacleVertices(scene.obstacles);
  const bool corner_lines = scene.params.corner_lines;
  const AgentSetup setup = SetUpAgent(scene, vertices, agent, corner_lines);
  // Right of way reads the wants of the agent and its kept neighbours only.
  std::vector<Vec2d> wants(scene.agents.size());
  if (scene.params.right_of_way) {
    wants[agent] = WantedVelocity(setup);
    for (size_t j : setup.neighbors) {
      wants[j] = WantedVelocity(SetUpAgent(scene, vertices, j, corner_lines));
    }
  }
  return MakeProblem(scene, setup, scene.params.time_horizon, scene.params.contact_margin_ratio,
                     nullptr, scene.params.right_of_way ? &wants : nullptr);
}

std::vector<lp::Line> BuildLines(const OrcaScene& scene, size_t agent,
                                 size_t* obstacle_line_count) {
  AgentProblem problem = BuildProblem(scene, agent);
  if (obstacle_line_count != nullptr) *obstacle_line_count = problem.obstacle_line_count;
  return std::move(problem.lines);
}

namespace {

struct AgentSolution {
  Vec2d velocity;
  SolveStatus status = SolveStatus::kOk;
  uint8_t flags = 0;          // SolveFlag bits of this solve (kSolveShortenedHorizon)
  bool lp2_succeeded = true;  // at tau or at a shortened horizon
  double horizon = 0.0;       // agent-line horizon of the problem the velocity came from
  bool target_biased = false;
};

// One agent's solve, docs/ORCA.md "Solve and infeasibility": pass 1 when previous is
// null, else a repair pass against previous's non-ok neighbours. feasible_only stops after
// steps 0-2 (the caller keeps its earlier result when no LP2 succeeds).
// wants: as MakeProblem's.
AgentSolution SolveAgent(const OrcaScene& scene, const AgentSetup& setup, const SolveRules& rules,
                         const std::vector<Vec2d>* wants, const OrcaResult* previous,
                         bool feasible_only, SolveDiagnostics* diag) {
  const OrcaParams& params = scene.params;
  AgentState self = setup.self;
  if (rules.density_speed) self.pref_velocity = DensitySpeedShare(scene, setup) * self.pref_velocity;
  if (rules.headway_speed) {
    self.pref_velocity = HeadwaySpeedShare(scene, setup, self, previous, rules.headway_time,
                                           rules.headway_anticipation) *
                         self.pref_velocity;
  }
  if (rules.standing_detour) self.pref_velocity = StandingDetour(scene, setup, self);
  const double tau = params.time_horizon;
  const double time_step = params.time_step;
  AgentSolution out;
  out.horizon = tau;
  const AgentProblem problem =
      MakeProblem(scene, setup, tau, rules.contact_margin_ratio, previous, wants);

  // Step 0: the target. v_pref, turned clockwise by side_bias times the largest share
  // any neighbour whose agent line of the full-tau problem v_pref breaks asks for
  // (obstacle lines do not count).
  Vec2d target = self.pref_velocity;
  if (rules.side_bias != 0.0) {
    double share = 0.0;
    for (size_t k = problem.obstacle_line_count; k < problem.lines.size(); ++k) {
      const Line& line = problem.lines[k];
      if (Det(line.direction, line.point - self.pref_velocity) > 0.0) {
        const size_t j = problem.NeighborOfLine(k - problem.obstacle_line_count);
        share =
            std::max(share, SideBiasShare(self, ReadAgent(scene.agents, j), rules.side_bias_fade));
      }
    }
    out.target_biased = share > 0.0;
    if (out.target_biased) {
      const double c = std::cos(rules.side_bias * share);
      const double s = std::sin(rules.side_bias * share);
      target = {c * target.x + s * target.y, -s * target.x + c * target.y};
    }
  }

  // Step 1: LP2 at tau.
  if (diag != nullptr) {
    ++diag->lp2_solves;
    if (previous != nullptr) ++diag->pass_two_lp2_solves;
  }
  size_t failed = lp::LinearProgram2(problem.lines, self.max_speed, target, false, &out.velocity);
  if (failed == problem.lines.size()) return out;  // ok

  // Step 2: shorter horizons tau_k = max(tau / 2^k, time_step), while the previous one
  // was longer than time_step; only the agent lines change.
  const AgentProblem* last = &problem;  // the problem of the last LP2 (LP3 starts there)
  AgentProblem shortened;
  if (rules.shorten_horizon) {
    double tau_k = tau;
    while (tau_k > time_step) {
      tau_k = std::max(0.5 * tau_k, time_step);
      shortened = MakeProblem(scene, setup, tau_k, rules.contact_margin_ratio, previous, wants);
      if (diag != nullptr) {
        ++diag->shortened_lp2_solves;
        if (previous != nullptr) ++diag->pass_two_lp2_solves;
      }
      Vec2d velocity;
      const size_t f =
          lp::LinearProgram2(shortened.lines, self.max_speed, target, false, &velocity);
      out.velocity = velocity;  // the optimum, or LP2's partial one (LP3's start)
      out.horizon = tau_k;
      if (f == shortened.lines.size()) {
        out.flags = kSolveShortenedHorizon;
        return out;  // ok at a shorter horizon
      }
      failed = f;
      last = &shortened;
    }
  }
  out.lp2_succeeded = false;
  if (feasible_only) return out;

  // Step 3: safe stop iff v = 0 meets every hard line of the full-tau problem.
  bool stop_is_safe = rules.ordered;
  for (size_t k = 0; stop_is_safe && k < problem.lines.size(); ++k) {
    const Line& line = problem.lines[k];
    const bool hard = problem.hard[k] || (rules.overlap_is_hard && problem.overlapping[k]);
    // v = 0 is allowed by this line iff Det(direction, point - 0) <= 0.
    if (hard && Det(line.direction, line.point) > kSafeStopTolerance) stop_is_safe = false;
  }
  if (stop_is_safe && !rules.jam_step) {
    out.velocity = {0.0, 0.0};
    out.status = SolveStatus::kSafeStop;
    return out;
  }

  // Step 4: LP3 on the last problem's lines, from that LP2's failure and partial result.
  if (diag != nullptr) ++diag->lp3_solves;
  lp::LinearProgram3(last->lines, last->obstacle_line_count, failed, self.max_speed, &out.velocity);
  // The RVO2 baseline hides the failure; the ordered handling reports it.
  out.status = !rules.ordered  ? SolveStatus::kOk
               : stop_is_safe ? SolveStatus::kSafeStop
                              : SolveStatus::kEmergency;
  if (!rules.jam_step || !rules.ordered) return out;

  // Step 5, the jam step: the first share of LP3's velocity that keeps bodies clear.
  const Vec2d least_violation = out.velocity;
  bool share_found = false;
  for (double share : kJamStepShares) {
    const Vec2d step = share * least_violation;
    if (JamStepAllowed(scene, setup, previous, step, rules.jam_step_depth)) {
      out.velocity = step;
      share_found = true;
      break;
    }
  }
  bool zero_breaks_non_cooperative = false;
  if (!share_found) {
    // No share keeps bodies clear: stand, unless standing breaks the line of a neighbour
    // that will not give way (a vehicle, a player: flagged non-cooperative by the caller,
    // not a neighbour a repair pass treats so).
    for (size_t k = problem.obstacle_line_count; k < problem.lines.size(); ++k) {
      const Line& line = problem.lines[k];
      const size_t j = problem.NeighborOfLine(k - problem.obstacle_line_count);
      const bool caller_driven = (scene.agents.flags[j] & kAgentNonCooperative) != 0;
      if (caller_driven && Det(line.direction, line.point) > kSafeStopTolerance)
        zero_breaks_non_cooperative = true;
    }
    if (!zero_breaks_non_cooperative) out.velocity = {0.0, 0.0};
  }
  // The squeeze step, for an agent the jam step leaves standing or creeping (not one that
  // takes LP3's whole velocity for a caller-driven neighbour).
  bool squeezed = false;
  const double creep = kSqueezePace * self.max_speed;
  if (rules.squeeze_step && (share_found || !zero_breaks_non_cooperative) &&
      AbsSq(out.velocity) < creep * creep) {
    squeezed = SqueezeStep(scene, setup, previous, wants, rules.jam_step_depth, &out.velocity);
  }
  if ((share_found || squeezed) && (out.velocity.x != 0.0 || out.velocity.y != 0.0)) {
    out.flags |= kSolveJamStep;
  }
  return out;
}

void StoreVelocity(const AgentSolution& s, size_t i, OrcaResult* result, SolveDiagnostics* diag) {
  result->vx[i] = static_cast<float>(s.velocity.x);
  result->vy[i] = static_cast<float>(s.velocity.y);
  result->status[i] = static_cast<uint8_t>(s.status);
  if (diag != nullptr) {
    diag->horizon[i] = s.horizon;
    diag->target_biased[i] = s.target_biased;
  }
}

}  // namespace

OrcaResult SolveOrca(const OrcaScene& scene, const OrcaOptions& options,
                     SolveDiagnostics* diagnostics) {
  const AgentColumns& agents = scene.agents;
  const size_t n = agents.size();
  assert(scene.params.max_neighbors >= 1 && scene.params.max_neighbors <= kMaxNeighborsLimit);
  const std::vector<ObstacleVertex> vertices = BuildObstacleVertices(scene.obstacles);
  const SolveRules rules = RulesFor(scene.params, options);

  OrcaResult result;
  result.vx.assign(n, 0.f);
  result.vy.assign(n, 0.f);
  result.status.assign(n, static_cast<uint8_t>(SolveStatus::kOk));
  result.candidates.assign(n, 0);
  result.neighbors.assign(n, 0);
  result.constraints.assign(n, 0);
  result.solve_flags.assign(n, 0);
  if (diagnostics != nullptr) {
    diagnostics->horizon.assign(n, 0.0);
    diagnostics->target_biased.assign(n, false);
  }

  // Pass 1. Right of way reads the neighbours' wanted velocities, so every agent is set up
  // before any is solved.
  std::vector<AgentSetup> setups(n);
  for (size_t i = 0; i < n; ++i) {
    if (i % 256 == 0) ThrowIfStopRequested(options.stop, "orca");
    setups[i] = SetUpAgent(scene, vertices, i, rules.corner_lines);
  }
  std::vector<Vec2d> wants;
  if (rules.right_of_way) {
    for (const AgentSetup& setup : setups) wants.push_back(WantedVelocity(setup));
  }
  const std::vector<Vec2d>* wants_used = wants.empty() ? nullptr : &wants;
  for (size_t i = 0; i < n; ++i) {
    if (i % 256 == 0) ThrowIfStopRequested(options.stop, "orca");
    if ((agents.flags[i] & kAgentNonCooperative) != 0) {
      // Not solved: keeps its input velocity, status ok, no flags, no counted work.
      result.vx[i] = agents.vx[i];
      result.vy[i] = agents.vy[i];
      continue;
    }
    const AgentSetup& setup = setups[i];
    const AgentSolution s =
        SolveAgent(scene, setup, rules, wants_used, nullptr, false, diagnostics);
    StoreVelocity(s, i, &result, diagnostics);
    result.solve_flags[i] = s.flags;
    result.candidates[i] = SaturateU16(setup.candidate_count);
    result.neighbors[i] = SaturateU16(setup.neighbors.size());
    result.constraints[i] = SaturateU16(setup.obstacle_lines.size() + setup.neighbors.size());
  }
  if (options.record_kept) {
    const auto k = static_cast<size_t>(scene.params.max_neighbors);
    result.kept_ids.assign(n * k, kNoKeptId);
    for (size_t i = 0; i < n; ++i) {
      for (size_t m = 0; m < setups[i].neighbors.size(); ++m) {
        result.kept_ids[i * k + m] = agents.id[setups[i].neighbors[m]];
      }
    }
  }

  // Repair passes (docs/ORCA.md): each reads only the previous pass's results; counts do
  // not change (same lines, same number). turned[i]: i is not ok in the previous pass's
  // results and was ok before it (after pass 1: not ok).
  const auto ok = static_cast<uint8_t>(SolveStatus::kOk);
  std::vector<bool> turned(n);
  for (size_t i = 0; i < n; ++i) turned[i] = result.status[i] != ok;
  const int passes = rules.revalidate ? rules.revalidate_passes : 0;
  for (int pass = 0; pass < passes; ++pass) {
    if (std::none_of(turned.begin(), turned.end(), [](bool t) { return t; })) break;
    const OrcaResult previous = result;
    std::vector<bool> turned_now(n, false);
    for (size_t i = 0; i < n; ++i) {
      if (i % 256 == 0) ThrowIfStopRequested(options.stop, "orca");
      if ((agents.flags[i] & kAgentNonCooperative) != 0 || previous.status[i] != ok) continue;
      const std::vector<size_t>& kept = setups[i].neighbors;
      if (std::none_of(kept.begin(), kept.end(), [&](size_t j) { return turned[j]; })) continue;
      const AgentSolution s = SolveAgent(scene, setups[i], rules, wants_used, &previous,
                                         !rules.revalidate_fallback, diagnostics);
      uint8_t& flags = result.solve_flags[i];
      if (s.lp2_succeeded) {
        StoreVelocity(s, i, &result, diagnostics);  // status ok
        flags = static_cast<uint8_t>((flags & ~kSolveShortenedHorizon) | kSolveRevalidated |
                                     kSolveAdopted | s.flags);
      } else if (rules.revalidate_fallback) {
        StoreVelocity(s, i, &result, diagnostics);  // safe stop or emergency
        flags = static_cast<uint8_t>((flags & ~(kSolveShortenedHorizon | kSolveAdopted)) |
                                     kSolveRevalidated | s.flags);
        turned_now[i] = true;
      } else {
        flags |= kSolveRevalidated;  // keeps its earlier velocity and flags
      }
    }
    turned.swap(turned_now);
  }

  // What a caller is told is finite, and a solved velocity is inside the speed disc: a
  // case beyond either becomes an emergency with a finite velocity (docs/ORCA.md).
  for (size_t i = 0; i < n; ++i) {
    if ((agents.flags[i] & kAgentNonCooperative) != 0) continue;
    const double vx = result.vx[i], vy = result.vy[i];
    const double speed = std::sqrt(vx * vx + vy * vy);
    const double max_speed = agents.max_speed[i];
    if (speed <= max_speed * (1.0 + 1e-4)) continue;  // false for NaN too
    const double scale = std::isfinite(speed) && speed > 0.0 ? max_speed / speed : 0.0;
    const bool finite = std::isfinite(vx) && std::isfinite(vy);
    result.vx[i] = finite ? static_cast<float>(vx * scale) : 0.f;
    result.vy[i] = finite ? static_cast<float>(vy * scale) : 0.f;
    result.status[i] = static_cast<uint8_t>(SolveStatus::kEmergency);
  }

  result.CountStatuses();
  return result;
}

OrcaResult StepScene(OrcaScene& scene, const OrcaOptions& options, SolveDiagnostics* diagnostics) {
  OrcaResult result = SolveOrca(scene, options, diagnostics);
  AgentColumns& agents = scene.agents;
  const double dt = scene.params.time_step;
  // Second phase: every velocity was computed from the same snapshot above.
  for (size_t i = 0; i < agents.size(); ++i) {
    agents.vx[i] = result.vx[i];
    agents.vy[i] = result.vy[i];
    agents.px[i] = static_cast<float>(agents.px[i] + static_cast<double>(agents.vx[i]) * dt);
    agents.py[i] = static_cast<float>(agents.py[i] + static_cast<double>(agents.vy[i]) * dt);
  }
  return result;
}

}  // namespace throng::reference
