// throng-bench-flow: does the crowd keep moving? Whole scenario runs (the suggested ticks)
// with the figures a user judges flow by: agents home, when they got there, stall episodes
// and the longest one, contacts and bodies in walls. --set changes one solve or detection
// parameter for ablations; --plain runs the plain-ORCA baseline (PlainRvo2Params) on the
// same scene. The bottleneck scenes add the flow through their door.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/body_depth.h"
#include "bench/evacuation.h"
#include "bench/flow_settings.h"
#include "bench/flow_targets.h"
#include "bench/periodic_corridor.h"
#include "bench/stall_queue.h"
#include "bench/world_run.h"
#include "kernels/backends/backend.h"
#include "kernels/scenarios/scenario.h"
#include "kernels/scenarios/scenario_layout.h"
#include "kernels/world/world.h"

namespace throng::bench {
namespace {

struct FlowFigures {
  size_t agents = 0, with_goals = 0, home = 0;
  int ticks = 0;
  double mean_arrival_s = 0, p95_arrival_s = 0;  // over agents that got home
  // Issue 41's "median arrival no later than plain ORCA's": the median over every walker,
  // those not home counting as later than the run (MedianArrival). Arrival times, s.
  double median_arrival_s = -1;
  std::vector<double> arrivals;
  // Issue 41's progress target (no pause longer than 10 s): the longest time without an
  // arrival (door scenes: without a passage) from the first one on, while someone is still
  // walking (LongestPause).
  double longest_pause_s = 0;
  double pause_from_s = 0;  // when it began
  size_t pause_after = 0;   // after how many events
  // The world's totals (docs/WORLD.md, "Tick stats"): stalls begun, and the most ticks
  // without progress of any stalled agent.
  uint64_t stall_episodes = 0, longest_stall = 0;
  // The longest stall not behind a moving front (bench/stall_queue.h), ticks.
  uint64_t longest_frozen_stall = 0;
  uint64_t overlaps = 0, in_obstacles = 0, oscillating = 0, safe_stop = 0, emergency = 0;
  // Measured here from the positions after every tick (bench/body_depth.h): pair-ticks
  // overlapping by more than 1 cm, and the deepest overlap of the run, m.
  uint64_t deep_overlaps = 0;
  double deepest = 0;
  double ms_per_tick = 0;
  // Bottleneck scenes: passages through the door (the line x = 0, crossed from x < 0), and
  // the flow between the 10th and the 90th percentile passage, persons per metre per second.
  size_t passed = 0;
  double door_flow = 0;       // 0 where fewer than 90% passed
  double door_mean_flow = 0;  // passages over the whole run
  // The first and the median passage, s (-1: none, or fewer than half passed): where a
  // later median arrival comes from, the walk to the door or the door itself.
  double first_passage_s = -1, median_passage_s = -1;
  // --not-home: who is not home at the end, and where (a jam to look at).
  struct Straggler {
    uint32_t id;
    float x, y, goal_x, goal_y, vx, vy;
  };
  std::vector<Straggler> not_home;
  // --not-home-kinds: whether those not home at the end are a late crowd or a jam. Walking:
  // at least kWalkingShare of their max speed; standing: under kStandingShare (right of
  // way's creep, docs/ORCA.md); creeping between. Stalled: flagged by the world at the last
  // tick (no progress for detection.stall_ticks). Within 2 m of the goal: arriving.
  struct NotHomeKinds {
    size_t walking = 0, creeping = 0, standing = 0, stalled = 0, within_2m = 0;
    double median_distance = 0;  // m to the goal, over those not home
  };
  NotHomeKinds not_home_kinds;
  // --deepest: the run's deepest pair when it was deepest, and how near a vehicle was.
  struct Contact {
    int tick = -1;
    uint32_t id[2] = {0, 0};
    float x[2] = {0, 0}, y[2] = {0, 0}, vx[2] = {0, 0}, vy[2] = {0, 0};
    double nearest_vehicle = -1;  // m from the pair's midpoint to the nearest rear axle; -1: none
  };
  Contact deepest_contact;
  // Where the longest stall not behind a moving front stood when it reached its length.
  struct Stall {
    int tick = -1;
    uint32_t id = 0;
    float x = 0, y = 0, goal_x = 0, goal_y = 0, vx = 0, vy = 0;
    double nearest_vehicle = -1;  // m to the nearest rear axle; -1: none
    float vehicle_x = 0, vehicle_y = 0, vehicle_speed = 0, vehicle_yaw = 0;  // the nearest's
    int within_metre = 0;  // others whose centres are within 1 m of its centre
  };
  Stall longest_stall_at;
};

// The median arrival over `walkers` people of whom `arrivals` (sorted, s) got home: the
// time by which half of them were home, those still walking counting as later than
// everyone; -1 when fewer than half got home. Judged over the walkers, not over the
// arrivals alone, so that a run which leaves its slowest behind does not look quicker.
double MedianArrival(const std::vector<double>& arrivals, size_t walkers) {
  const size_t half = (walkers + 1) / 2;  // the lower median's rank, from 1
  if (walkers == 0 || arrivals.size() < half) return -1;
  return arrivals[half - 1];
}

// Flow between the passages of the crowd's 10th and 90th percentile person (Seyfried et
// al.'s steady part of an evacuation), persons per metre per second; 0 when fewer than 90%
// of the crowd passed.
// The longest interval between successive events (ticks at which someone arrived or
// passed), and from the last one to the run's end when fewer than `walkers` had one; the
// time before the first is walking, not a pause. No event at all: the whole run.
// The longest pause also says where it was: it begins at `from_s`, after `events_before`
// events (0: no event at all).
struct Pause {
  double seconds = 0, from_s = 0;
  size_t events_before = 0;
};

Pause LongestPause(std::vector<int> event_ticks, size_t walkers, int ticks, float dt) {
  if (walkers == 0) return {};
  if (event_ticks.empty()) return {ticks * static_cast<double>(dt), 0, 0};
  std::sort(event_ticks.begin(), event_ticks.end());
  int longest = 0;
  size_t after = 0;
  for (size_t k = 1; k < event_ticks.size(); ++k) {
    if (event_ticks[k] - event_ticks[k - 1] > longest) {
      longest = event_ticks[k] - event_ticks[k - 1];
      after = k;
    }
  }
  if (event_ticks.size() < walkers && ticks - event_ticks.back() > longest) {
    longest = ticks - event_ticks.back();
    after = event_ticks.size();
  }
  const double from = after > 0 ? event_ticks[after - 1] * static_cast<double>(dt) : 0;
  return {longest * static_cast<double>(dt), from, after};
}

double SteadyFlow(std::vector<int> passage_ticks, size_t crowd, float dt, float door) {
  std::sort(passage_ticks.begin(), passage_ticks.end());
  const size_t lo = crowd / 10, hi = crowd - 1 - crowd / 10;
  if (crowd < 10 || door <= 0.f || passage_ticks.size() <= hi) return 0;
  const double seconds = (passage_ticks[hi] - passage_ticks[lo]) * static_cast<double>(dt);
  return seconds > 0 ? static_cast<double>(hi - lo) / seconds / door : 0;
}

// Issue 41's bound: bodies may touch, not visibly interpenetrate.
constexpr double kDeepOverlap = 0.01;  // m

// The vehicle whose rear axle is nearest (x, y), and how far it is; -1 and -1 with none.
struct NearestVehicle {
  long index = -1;
  double distance = -1;
};
NearestVehicle NearestVehicleTo(const VehicleSnapshot& v, double x, double y) {
  NearestVehicle nearest;
  for (size_t m = 0; m < v.size(); ++m) {
    const double d = std::hypot(x - v.x[m], y - v.y[m]);
    if (nearest.index < 0 || d < nearest.distance) nearest = {static_cast<long>(m), d};
  }
  return nearest;
}

// Agent i of the world's state as it stands at `tick`, for --stall.
void RecordStall(const World& world, size_t i, int tick, FlowFigures::Stall* out) {
  const AgentSnapshot& a = world.state().agents;
  out->tick = tick;
  out->id = a.id[i];
  out->x = a.x[i];
  out->y = a.y[i];
  out->goal_x = a.goal_x.empty() ? 0.f : a.goal_x[i];
  out->goal_y = a.goal_y.empty() ? 0.f : a.goal_y[i];
  out->vx = a.vx.empty() ? 0.f : a.vx[i];
  out->vy = a.vy.empty() ? 0.f : a.vy[i];
  out->within_metre = 0;
  for (size_t j = 0; j < a.size(); ++j) {
    out->within_metre += j != i && std::hypot(a.x[j] - a.x[i], a.y[j] - a.y[i]) < 1.0;
  }
  const VehicleSnapshot& v = world.state().vehicles;
  const NearestVehicle nearest = NearestVehicleTo(v, a.x[i], a.y[i]);
  out->nearest_vehicle = nearest.distance;
  if (nearest.index >= 0) {
    const auto m = static_cast<size_t>(nearest.index);
    out->vehicle_x = v.x[m];
    out->vehicle_y = v.y[m];
    out->vehicle_speed = v.speed[m];
    out->vehicle_yaw = v.yaw[m];
  }
}

constexpr const char* kSolveStatusNames[kSolveStatusCount] = {"ok", "safe_stop", "emergency"};

// The nearest vehicle of a Stall, in words, for --stall and --follow.
std::string NearestVehicleText(const FlowFigures::Stall& t) {
  if (t.nearest_vehicle < 0) return "no vehicle";
  char text[128];
  std::snprintf(text, sizeof text,
                "nearest vehicle axle at (%.2f, %.2f), %.2f m, %.2f m/s, yaw %.2f rad", t.vehicle_x,
                t.vehicle_y, t.nearest_vehicle, t.vehicle_speed, t.vehicle_yaw);
  return text;
}

constexpr float kWalkingShare = 0.3f, kStandingShare = 0.05f;

// Adds agent i, not home at the end, to `kinds` by its speed against its max speed (the
// world's default where the snapshot has none) and its stall flag; its distance to the
// goal to `away`.
void CountNotHome(const AgentSnapshot& a, size_t i, float default_max_speed, bool stalled,
                  FlowFigures::NotHomeKinds* kinds, std::vector<double>* away) {
  const float max_speed = a.max_speed.empty() ? default_max_speed : a.max_speed[i];
  const double speed = a.vx.empty() ? 0.0 : std::hypot(a.vx[i], a.vy[i]);
  if (speed >= kWalkingShare * max_speed) {
    ++kinds->walking;
  } else if (speed < kStandingShare * max_speed) {
    ++kinds->standing;
  } else {
    ++kinds->creeping;
  }
  if (stalled) ++kinds->stalled;
  const double distance = std::hypot(a.x[i] - a.goal_x[i], a.y[i] - a.goal_y[i]);
  if (distance <= 2.0) ++kinds->within_2m;
  away->push_back(distance);
}

FlowFigures Run(const scenarios::Scenario& scenario, BackendKind backend, int ticks,
                size_t list_not_home, int64_t follow_id, float follow_near) {
  World world(scenario.config, backend);
  const size_t n = scenario.initial.agents.size();
  std::vector<int> arrival(n, -1), passage(n, -1);
  const float door = scenarios::BottleneckDoor(scenario.name);
  FlowFigures f;
  f.agents = n;
  Snapshot snapshot = scenario.initial;
  TickOptions options;
  options.integrate = true;
  options.local_results = true;  // the preferred velocities, for who queues behind a front
  TickResult result;
  std::vector<float> radius, max_speed, vx, vy;
  std::vector<uint8_t> stalled;
  FrozenStalls frozen(scenario.config.detection.stall_ticks);
  double ms = 0;
  for (int k = 0; k < ticks; ++k) {
    if (k > 0) {
      snapshot = world.state();
      ++snapshot.tick;
    }
    const auto t0 = std::chrono::steady_clock::now();
    world.Step(snapshot, options, &result);
    ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const AgentSnapshot& a = world.state().agents;
    radius.assign(n, scenario.config.agent_defaults.radius);
    if (!a.radius.empty()) radius = a.radius;
    const BodyDepths depths = MeasureBodyDepths(a.x, a.y, radius, kDeepOverlap);
    f.deep_overlaps += depths.deep_pairs;
    if (depths.deepest > f.deepest) {
      f.deepest = depths.deepest;
      FlowFigures::Contact& c = f.deepest_contact;
      c.tick = k + 1;
      const uint32_t pair[2] = {depths.deepest_i, depths.deepest_j};
      for (int e = 0; e < 2; ++e) {
        const uint32_t i = pair[e];
        c.id[e] = a.id[i];
        c.x[e] = a.x[i];
        c.y[e] = a.y[i];
        c.vx[e] = a.vx.empty() ? 0.f : a.vx[i];
        c.vy[e] = a.vy.empty() ? 0.f : a.vy[i];
      }
      c.nearest_vehicle = NearestVehicleTo(world.state().vehicles, 0.5 * (c.x[0] + c.x[1]),
                                           0.5 * (c.y[0] + c.y[1]))
                              .distance;
    }
    // Stalls: who of the flagged queues behind a moving front (only looked at when someone
    // is flagged).
    stalled.assign(n, 0);
    bool any_stalled = false;
    for (size_t i = 0; i < n; ++i) {
      stalled[i] = (result.agents.flags[i] & kAgentStalled) ? 1 : 0;
      any_stalled = any_stalled || stalled[i];
    }
    if (any_stalled) {
      max_speed.assign(n, scenario.config.agent_defaults.max_speed);
      if (!a.max_speed.empty()) max_speed = a.max_speed;
      vx.assign(n, 0.f);
      vy.assign(n, 0.f);
      if (!a.vx.empty()) vx = a.vx;
      if (!a.vy.empty()) vy = a.vy;
      frozen.Tick(stalled,
                  QueueingBehindMovingFront({a.x, a.y, radius, vx, vy, max_speed,
                                             result.agents.pref_vx, result.agents.pref_vy}));
    } else {
      frozen.Tick(stalled, stalled);  // nobody stalled (and so nobody queueing): all reset
    }
    if (follow_id >= 0 && (k + 1) % 10 == 0) {
      for (size_t i = 0; i < n; ++i) {
        if (a.id[i] != static_cast<uint64_t>(follow_id)) continue;
        FlowFigures::Stall at;
        RecordStall(world, i, k + 1, &at);
        std::printf(
            "  follow: tick %d id %u at (%.2f, %.2f) v (%.2f, %.2f) pref (%.2f, %.2f) solve %s, "
            "%s, %d others within 1 m, %s\n",
            at.tick, at.id, at.x, at.y, at.vx, at.vy, result.agents.pref_vx[i],
            result.agents.pref_vy[i],
            kSolveStatusNames[result.agents.status[i] < kSolveStatusCount ? result.agents.status[i]
                                                                          : 0],
            stalled[i] ? "stalled" : "-", at.within_metre, NearestVehicleText(at).c_str());
        // Who is near it, and what they want and do: a knot's shape (--follow-near).
        for (size_t j = 0; j < n && follow_near > 0.f; ++j) {
          const float dx = a.x[j] - a.x[i], dy = a.y[j] - a.y[i];
          if (j == i || dx * dx + dy * dy > follow_near * follow_near) continue;
          std::printf(
              "    near: id %u at (%+.2f, %+.2f) from it, v (%.2f, %.2f) pref (%.2f, %.2f), %s\n",
              static_cast<unsigned>(a.id[j]), dx, dy, a.vx.empty() ? 0.f : a.vx[j],
              a.vy.empty() ? 0.f : a.vy[j], result.agents.pref_vx[j], result.agents.pref_vy[j],
              stalled[j] ? "stalled" : "-");
        }
      }
    }
    if (frozen.longest() > f.longest_frozen_stall) {
      f.longest_frozen_stall = frozen.longest();
      RecordStall(world, frozen.longest_agent(), k + 1, &f.longest_stall_at);
    }
    for (size_t i = 0; i < n; ++i) {
      if (arrival[i] < 0 && WalksToGoal(a, i) && AtGoal(a, i)) arrival[i] = k + 1;
      if (door > 0.f && passage[i] < 0 && a.x[i] > 0.f) passage[i] = k + 1;
    }
  }
  f.ticks = ticks;
  f.ms_per_tick = ticks > 0 ? ms / ticks : 0;
  const AgentSnapshot& a = world.state().agents;
  std::vector<double> arrivals, away;
  for (size_t i = 0; i < n; ++i) {
    if (!WalksToGoal(a, i)) continue;
    ++f.with_goals;
    if (AtGoal(a, i)) {
      ++f.home;
    } else {
      CountNotHome(a, i, scenario.config.agent_defaults.max_speed, !stalled.empty() && stalled[i],
                   &f.not_home_kinds, &away);
      if (f.not_home.size() < list_not_home) {
        f.not_home.push_back({a.id[i], a.x[i], a.y[i], a.goal_x[i], a.goal_y[i], a.vx[i], a.vy[i]});
      }
    }
    if (arrival[i] >= 0) arrivals.push_back(arrival[i] * static_cast<double>(snapshot.dt));
  }
  if (!away.empty()) {
    std::nth_element(away.begin(), away.begin() + away.size() / 2, away.end());
    f.not_home_kinds.median_distance = away[away.size() / 2];
  }
  if (!arrivals.empty()) {
    std::sort(arrivals.begin(), arrivals.end());
    double sum = 0;
    for (double t : arrivals) sum += t;
    f.mean_arrival_s = sum / arrivals.size();
    f.p95_arrival_s = arrivals[static_cast<size_t>(std::ceil(0.95 * arrivals.size())) - 1];
  }
  f.median_arrival_s = MedianArrival(arrivals, f.with_goals);
  f.arrivals = std::move(arrivals);
  std::vector<int> passages;
  for (int p : passage) {
    if (p >= 0) passages.push_back(p);
  }
  f.passed = passages.size();
  if (door > 0.f) {
    const Pause pause = LongestPause(passages, n, ticks, snapshot.dt);
    f.longest_pause_s = pause.seconds;
    f.pause_from_s = pause.from_s;
    f.pause_after = pause.events_before;
  } else {
    std::vector<int> arrived;
    for (size_t i = 0; i < n; ++i) {
      if (WalksToGoal(a, i) && arrival[i] >= 0) arrived.push_back(arrival[i]);
    }
    const Pause pause = LongestPause(arrived, f.with_goals, ticks, snapshot.dt);
    f.longest_pause_s = pause.seconds;
    f.pause_from_s = pause.from_s;
    f.pause_after = pause.events_before;
  }
  f.door_flow = SteadyFlow(passages, n, snapshot.dt, door);
  if (door > 0.f && !passages.empty()) {
    std::sort(passages.begin(), passages.end());
    f.first_passage_s = passages.front() * static_cast<double>(snapshot.dt);
    if (passages.size() >= (n + 1) / 2) {
      f.median_passage_s = passages[(n + 1) / 2 - 1] * static_cast<double>(snapshot.dt);
    }
  }
  f.door_mean_flow = ticks > 0 && door > 0.f
                         ? passages.size() / (ticks * static_cast<double>(snapshot.dt)) / door
                         : 0;
  const WorldTotals& t = world.totals();
  f.overlaps = t.agent_overlaps;
  f.in_obstacles = t.agents_in_obstacles;
  f.oscillating = t.oscillating;
  f.stall_episodes = t.stall_episodes;
  f.longest_stall = t.longest_stall_ticks;
  f.safe_stop = t.status_count[static_cast<int>(SolveStatus::kSafeStop)];
  f.emergency = t.status_count[static_cast<int>(SolveStatus::kEmergency)];
  return f;
}

// Adds one run's figures to its scene's seeds taken together (`runs_before`: how many were
// added before it); `arrivals` gathers every run's arrival times, s, for the scene's median.
void AddRun(const FlowFigures& f, size_t runs_before, SceneFlow* out,
            std::vector<double>* arrivals) {
  out->home += f.home;
  out->walkers += f.with_goals;
  arrivals->insert(arrivals->end(), f.arrivals.begin(), f.arrivals.end());
  out->longest_pause_s = std::max(out->longest_pause_s, f.longest_pause_s);
  out->longest_frozen_stall = std::max(out->longest_frozen_stall, f.longest_frozen_stall);
  out->deep_overlaps += f.deep_overlaps;
  out->deepest_m = std::max(out->deepest_m, f.deepest);
  out->in_obstacles += f.in_obstacles;
  const bool first = runs_before == 0;
  out->door_flow_min = first ? f.door_flow : std::min(out->door_flow_min, f.door_flow);
  out->door_flow_max = first ? f.door_flow : std::max(out->door_flow_max, f.door_flow);
}

// --targets: one scene at one size, every seed run to the end (Throng with `sets`, or plain
// ORCA: `sets` first, so that a scene's settings hold for both, then PlainRvo2Params), taken
// together as issue 41 judges them (bench/flow_targets.h).
SceneFlow RunSeeds(const std::string& name, size_t size, const std::vector<uint32_t>& seeds,
                   bool plain, const std::vector<std::string>& sets, BackendKind backend,
                   double ticks_factor) {
  SceneFlow out;
  out.door = scenarios::BottleneckDoor(name) > 0.f;
  std::vector<double> arrivals;
  for (size_t k = 0; k < seeds.size(); ++k) {
    scenarios::Scenario s = scenarios::MakeScenario(name, size, seeds[k]);
    for (const std::string& kv : sets) ApplySetting(kv, &s.config);
    if (plain) s.config.orca = PlainRvo2Params(s.config.orca);
    const int ticks = std::max(1, static_cast<int>(std::lround(ticks_factor * s.suggested_ticks)));
    AddRun(Run(s, backend, ticks, 0, -1, 0.f), k, &out, &arrivals);
  }
  std::sort(arrivals.begin(), arrivals.end());
  out.median_s = MedianArrival(arrivals, out.walkers);
  return out;
}

// --targets: every scene and size judged against plain ORCA, one line each, and what was
// missed at the end. Returns 0, or 1 when there is no seed or a scene cannot be made.
int JudgeTargets(const std::vector<std::string>& names, const std::vector<size_t>& sizes,
                 const std::vector<uint32_t>& seeds, const std::vector<std::string>& sets,
                 BackendKind backend, double ticks_factor) {
  if (seeds.empty()) {
    std::fprintf(stderr, "throng-bench-flow: --targets needs at least one seed\n");
    return 1;
  }
  size_t judged = 0, met = 0;
  std::vector<std::string> missed;
  for (const std::string& name : names) {
    for (size_t size : sizes) {
      SceneFlow throng, plain;
      try {
        scenarios::Scenario probe = scenarios::MakeScenario(name, size, seeds.front());
        Vec2 room_lo, room_hi;
        if (scenarios::EvacuationRoom(probe, &room_lo, &room_hi)) {
          std::printf("targets %-13s %6zu: not judged (an evacuation: --scenarios alone)\n",
                      name.c_str(), size);
          continue;
        }
        throng = RunSeeds(name, size, seeds, false, sets, backend, ticks_factor);
        plain = RunSeeds(name, size, seeds, true, sets, backend, ticks_factor);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "throng-bench-flow: %s %zu: %s\n", name.c_str(), size, e.what());
        return 1;
      }
      std::printf("targets %-13s %6zu:", name.c_str(), size);
      for (const TargetVerdict& v : JudgeFlowTargets(throng, plain)) {
        const char* word = v.met ? "ok" : "MISSED";
        std::printf(" %s %s %s;", v.target.c_str(), v.figures.c_str(),
                    v.judged ? word : "(not judged)");
        if (!v.judged) continue;
        ++judged;
        if (v.met) {
          ++met;
        } else {
          missed.push_back(name + " " + std::to_string(size) + " " + v.target);
        }
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  std::printf("targets: %zu of %zu met", met, judged);
  for (size_t k = 0; k < missed.size(); ++k) {
    std::printf("%s%s", k == 0 ? "; missed: " : ", ", missed[k].c_str());
  }
  std::printf("\n");
  return 0;
}

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace
}  // namespace throng::bench

int main(int argc, char** argv) {
  using namespace throng;
  CLI::App app{"Crowd flow over whole scenario runs: home, arrival times, stalls, contacts"};
  std::string scenario_list = "corridor,crossing,town,random,circle";
  std::vector<size_t> sizes{1000};
  std::vector<uint32_t> seeds{1};
  std::string backend = "cpu";
  double ticks_factor = 1.0;
  bool plain = false;
  std::vector<std::string> sets;
  app.add_option("--scenarios", scenario_list, "comma-separated scenario names");
  app.add_option("--sizes", sizes, "pedestrians asked for (comma-separated)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--seed,--seeds", seeds,
                 "scenario seeds (comma-separated): a crowd is chaotic, so judge a rule over "
                 "several; the last row of each scene sums them")
      ->delimiter(',');
  app.add_option("--backend", backend, "reference, cpu, cuda, auto");
  app.add_option("--ticks-factor", ticks_factor, "run this many times the suggested ticks")
      ->check(CLI::PositiveNumber);
  app.add_flag("--plain", plain, "the plain-ORCA baseline (PlainRvo2Params)");
  app.add_option("--set", sets,
                 "key=value, e.g. orca.side_bias=0 or orca.jam_step=false (a switch: true, false, "
                 "1 or 0; see --list-keys)");
  size_t list_not_home = 0;
  app.add_option("--not-home", list_not_home,
                 "after each run, list up to this many agents not home: id, position, goal, "
                 "velocity");
  bool list_not_home_kinds = false;
  app.add_flag("--not-home-kinds", list_not_home_kinds,
               "after each run, those not home by what they do: walking (at least 0.3 of the max "
               "speed), creeping, standing (under 0.05), stalled, within 2 m of the goal, and "
               "their median distance to it: a late crowd or a jam");
  bool list_deepest = false;
  app.add_flag("--deepest", list_deepest,
               "after each run, where and when its deepest body contact was: the tick, both "
               "agents' ids, positions and velocities, the nearest vehicle");
  bool list_pause = false;
  app.add_flag("--pause", list_pause,
               "after each run, where its longest pause was: when it began and after how many "
               "arrivals (door scenes: passages)");
  bool list_stall = false;
  app.add_flag("--stall", list_stall,
               "after each run, where its longest stall not behind a moving front was when it "
               "reached its length: the tick, the agent's id, position, goal and velocity, how "
               "many stand within 1 m, the nearest vehicle");
  int64_t follow_id = -1;
  app.add_option("--follow", follow_id,
                 "every 10 ticks, print this agent's position, velocities, stall flag, "
                 "neighbours within 1 m and nearest vehicle");
  float follow_near = 0.f;
  app.add_option("--follow-near", follow_near,
                 "with --follow: also print everyone within this many metres of the agent, "
                 "their offset from it, velocities and stall flags (0: nobody)")
      ->check(CLI::Range(0.f, 100.f));
  bool targets = false;
  app.add_flag("--targets", targets,
               "instead of a row per run: each scene and size judged against plain ORCA on "
               "the same seeds by issue 41's targets (home, median arrival, pause, stall outside "
               "a queue, bodies, door flow), one line each, and what was missed; --set holds "
               "for both runs, plain ORCA then switches Throng's rules off");
  bool list_keys = false;
  app.add_flag("--list-keys", list_keys, "print the keys --set takes");
  bool fundamental = false;
  std::vector<double> densities{0.5, 1, 1.5, 2, 2.5, 3};
  std::vector<float> radii{0.3f};
  int corridor_ticks = 900;
  app.add_flag("--fundamental", fundamental,
               "instead of the scenarios: speed against density in a periodic corridor, one "
               "way and two ways, beside Weidmann's curve (bench/periodic_corridor.h)");
  app.add_option("--densities", densities, "--fundamental: people per m^2 (comma-separated)")
      ->delimiter(',');
  app.add_option("--radii", radii, "--fundamental: body radii, m (comma-separated)")
      ->delimiter(',');
  app.add_option("--corridor-ticks", corridor_ticks, "--fundamental: ticks per run")
      ->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  if (list_keys) {
    for (const std::string& k : bench::FlowSettingKeys()) std::printf("%s\n", k.c_str());
    return 0;
  }

  try {
    WorldConfig probe;  // unknown keys and bad values fail before any run
    for (const std::string& kv : sets) bench::ApplySetting(kv, &probe);
    ParseBackendKind(backend);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "throng-bench-flow: %s\n", e.what());
    return 2;
  }
  if (fundamental) {
    WorldConfig config = scenarios::layout::PedestrianConfig();
    if (plain) config.orca = PlainRvo2Params(config.orca);
    for (const std::string& kv : sets) bench::ApplySetting(kv, &config);
    std::printf("%-8s %-6s %6s %6s %8s %8s %8s %7s %8s %8s %8s %8s\n", "flow", "solve", "radius",
                "asked", "people", "density", "speed", "weidm", "ratio", "frozen", "deep>1cm",
                "deep_cm");
    for (bool two_way : {false, true}) {
      for (float radius : radii) {
        for (double density : densities) {
          bench::CorridorSetup setup;
          setup.density = density;
          setup.two_way = two_way;
          setup.radius = radius;
          setup.ticks = corridor_ticks;
          const bench::CorridorFigures f =
              bench::RunPeriodicCorridor(setup, config, ParseBackendKind(backend));
          if (!f.fits) {
            std::printf("%-8s %-6s %6.2f %6.2f   (the lattice would overlap bodies)\n",
                        two_way ? "two-way" : "one-way", plain ? "plain" : "throng", radius,
                        density);
            continue;
          }
          std::printf("%-8s %-6s %6.2f %6.2f %8zu %8.2f %8.3f %7.3f %8.2f %8d %8llu %8.2f\n",
                      two_way ? "two-way" : "one-way", plain ? "plain" : "throng", radius, density,
                      f.people, f.density, f.speed, f.weidmann,
                      f.weidmann > 0 ? f.speed / f.weidmann : 0.0, f.frozen_ticks,
                      static_cast<unsigned long long>(f.deep_overlaps), 100 * f.deepest);
          std::fflush(stdout);
        }
      }
    }
    return 0;
  }
  if (targets) {
    return bench::JudgeTargets(bench::Split(scenario_list), sizes, seeds, sets,
                               ParseBackendKind(backend), ticks_factor);
  }
  std::printf(
      "%-13s %6s %-6s %5s %11s %8s %7s %7s %7s %8s %8s %8s %8s %8s %7s %7s %8s %9s %9s %8s %5s\n",
      "scenario", "size", "solve", "ticks", "home", "median_s", "mean_s", "p95_s", "pause_s",
      "episodes", "longest", "frozen", "overlaps", "deep>1cm", "deep_cm", "in_obst", "oscill",
      "safe_stop", "emergency", "ms/tick", "seed");
  for (const std::string& name : bench::Split(scenario_list)) {
    for (size_t size : sizes) {
      bench::SceneFlow sums;  // the seeds taken together
      size_t runs = 0;
      uint64_t overlaps_sum = 0, longest_max = 0;
      std::vector<double> arrivals_all;  // every seed's arrivals, s
      size_t evacuations = 0;
      for (uint32_t seed : seeds) {
        bench::FlowFigures f;
        bool evacuation = false;
        bench::EvacuationFigures evac;
        try {
          scenarios::Scenario s = scenarios::MakeScenario(name, size, seed);
          if (plain) s.config.orca = PlainRvo2Params(s.config.orca);
          for (const std::string& kv : sets) bench::ApplySetting(kv, &s.config);
          const int ticks =
              std::max(1, static_cast<int>(std::lround(ticks_factor * s.suggested_ticks)));
          Vec2 room_lo, room_hi;
          evacuation = scenarios::EvacuationRoom(s, &room_lo, &room_hi);
          if (evacuation) {
            evac = bench::RunEvacuation(s, ParseBackendKind(backend), ticks);
          } else {
            f = bench::Run(s, ParseBackendKind(backend), ticks, list_not_home, follow_id,
                           follow_near);
          }
        } catch (const std::exception& e) {
          std::fprintf(stderr, "throng-bench-flow: %s %zu seed %u: %s\n", name.c_str(), size, seed,
                       e.what());
          return 1;
        }
        if (evacuation) {
          // Whoever leaves the room is taken off the world (bench/evacuation.h); the last
          // one out gives the evacuation time.
          std::printf(
              "%-13s %6zu %-6s evacuation: %zu of %zu out in %d ticks, last at %.1f s, mean "
              "%.1f s, by the left wall %zu, by the right %zu, deeper than 1 cm %llu, deepest "
              "%.2f cm, in obstacles %llu, %.2f ms/tick (seed %u)\n",
              name.c_str(), evac.people, plain ? "plain" : "throng", evac.out, evac.people,
              evac.ticks, evac.last_out_s, evac.mean_out_s, evac.out_left, evac.out_right,
              static_cast<unsigned long long>(evac.deep_overlaps), 100.0 * evac.deepest,
              static_cast<unsigned long long>(evac.in_obstacles), evac.ms_per_tick, seed);
          std::fflush(stdout);
          ++evacuations;
          sums.home += evac.out;
          sums.walkers += evac.people;
          sums.deep_overlaps += evac.deep_overlaps;
          sums.deepest_m = std::max(sums.deepest_m, evac.deepest);
          continue;
        }
        char home[32];
        std::snprintf(home, sizeof home, "%zu/%zu", f.home, f.with_goals);
        char median[16] = "-";
        if (f.median_arrival_s >= 0)
          std::snprintf(median, sizeof median, "%.1f", f.median_arrival_s);
        std::printf(
            "%-13s %6zu %-6s %5d %11s %8s %7.1f %7.1f %7.1f %8llu %8llu %8llu %8llu %8llu %7.2f "
            "%7llu %8llu %9llu %9llu %8.2f %5u\n",
            name.c_str(), f.agents, plain ? "plain" : "throng", f.ticks, home, median,
            f.mean_arrival_s, f.p95_arrival_s, f.longest_pause_s,
            static_cast<unsigned long long>(f.stall_episodes),
            static_cast<unsigned long long>(f.longest_stall),
            static_cast<unsigned long long>(f.longest_frozen_stall),
            static_cast<unsigned long long>(f.overlaps),
            static_cast<unsigned long long>(f.deep_overlaps), 100.0 * f.deepest,
            static_cast<unsigned long long>(f.in_obstacles),
            static_cast<unsigned long long>(f.oscillating),
            static_cast<unsigned long long>(f.safe_stop),
            static_cast<unsigned long long>(f.emergency), f.ms_per_tick, seed);
        for (const bench::FlowFigures::Straggler& a : f.not_home) {
          std::printf(
              "  not home: id %u at (%.2f, %.2f), goal (%.2f, %.2f), %.2f m away, v (%.2f, "
              "%.2f)\n",
              a.id, a.x, a.y, a.goal_x, a.goal_y, std::hypot(a.x - a.goal_x, a.y - a.goal_y), a.vx,
              a.vy);
        }
        if (list_not_home_kinds && f.home < f.with_goals) {
          const bench::FlowFigures::NotHomeKinds& k = f.not_home_kinds;
          std::printf(
              "  not home: %zu: walking %zu, creeping %zu, standing %zu; stalled %zu; within 2 m "
              "of the goal %zu; median distance to it %.1f m\n",
              f.with_goals - f.home, k.walking, k.creeping, k.standing, k.stalled, k.within_2m,
              k.median_distance);
        }
        if (list_pause) {
          std::printf("  longest pause: %.1f s from %.1f s, after %zu of %zu %s\n",
                      f.longest_pause_s, f.pause_from_s, f.pause_after, f.with_goals,
                      scenarios::BottleneckDoor(name) > 0.f ? "passages" : "arrivals");
        }
        if (list_stall && f.longest_stall_at.tick >= 0) {
          const bench::FlowFigures::Stall& t = f.longest_stall_at;
          std::printf(
              "  longest stall: %llu ticks at tick %d, id %u at (%.2f, %.2f), goal (%.2f, "
              "%.2f), v (%.2f, %.2f), %d others within 1 m, %s\n",
              static_cast<unsigned long long>(f.longest_frozen_stall), t.tick, t.id, t.x, t.y,
              t.goal_x, t.goal_y, t.vx, t.vy, t.within_metre, bench::NearestVehicleText(t).c_str());
        }
        if (list_deepest && f.deepest_contact.tick >= 0) {
          const bench::FlowFigures::Contact& c = f.deepest_contact;
          char vehicle[48] = "no vehicle";
          if (c.nearest_vehicle >= 0) {
            std::snprintf(vehicle, sizeof vehicle, "nearest vehicle axle %.2f m",
                          c.nearest_vehicle);
          }
          std::printf(
              "  deepest: %.2f cm at tick %d, id %u at (%.2f, %.2f) v (%.2f, %.2f), id %u at "
              "(%.2f, %.2f) v (%.2f, %.2f), %s\n",
              100.0 * f.deepest, c.tick, c.id[0], c.x[0], c.y[0], c.vx[0], c.vy[0], c.id[1],
              c.x[1], c.y[1], c.vx[1], c.vy[1], vehicle);
        }
        if (scenarios::BottleneckDoor(name) > 0.f) {
          char steady[96] = "fewer than 90% passed";
          if (f.door_flow > 0) {
            std::snprintf(steady, sizeof steady, "%.2f from the 10%% to the 90%% passage",
                          f.door_flow);
          }
          std::printf(
              "%-13s %6zu %-6s door: %zu of %zu through; persons/(m s): %s, %.2f over the "
              "run; first passage %.1f s, median %.1f s (seed %u)\n",
              name.c_str(), f.agents, plain ? "plain" : "throng", f.passed, f.agents, steady,
              f.door_mean_flow, f.first_passage_s, f.median_passage_s, seed);
        }
        std::fflush(stdout);
        bench::AddRun(f, runs++, &sums, &arrivals_all);
        overlaps_sum += f.overlaps;
        longest_max = std::max<uint64_t>(longest_max, f.longest_stall);
      }
      if (seeds.size() > 1) {
        std::sort(arrivals_all.begin(), arrivals_all.end());
        const double median_all = bench::MedianArrival(arrivals_all, sums.walkers);
        // Evacuations keep no arrival times (their line gives the mean time out).
        char median[48] = ", median arrival -";
        if (evacuations > 0) median[0] = '\0';
        if (evacuations == 0 && median_all >= 0)
          std::snprintf(median, sizeof median, ", median arrival %.1f s", median_all);
        std::printf(
            "%-13s %6zu %-6s all %zu seeds: home %zu/%zu (%.1f%%)%s, longest stall %llu (not "
            "behind a moving front %llu), overlaps %llu, deeper than 1 cm %llu, deepest %.2f "
            "cm\n",
            name.c_str(), size, plain ? "plain" : "throng", seeds.size(), sums.home, sums.walkers,
            sums.walkers ? 100.0 * sums.home / sums.walkers : 0.0, median,
            static_cast<unsigned long long>(longest_max),
            static_cast<unsigned long long>(sums.longest_frozen_stall),
            static_cast<unsigned long long>(overlaps_sum),
            static_cast<unsigned long long>(sums.deep_overlaps), 100.0 * sums.deepest_m);
      }
    }
  }
  return 0;
}
