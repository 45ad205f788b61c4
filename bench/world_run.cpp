#include "bench/world_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <numeric>

#include "bench/machine.h"
#include "kernels/backends/backend.h"
#include "kernels/backends/cuda_required.h"
#include "kernels/world/world.h"

namespace throng::bench {
namespace {

using Clock = std::chrono::steady_clock;

// One backend's world and what was measured on it.
struct Lane {
  std::string name;
  std::unique_ptr<World> world;
  TickResult result;
  std::vector<double> tick_ms;
  std::array<std::vector<double>, kStageCount> stage_ms;
  std::array<std::vector<double>, kBackendCallCount> call_ms;
  std::array<uint64_t, kStageCount> bytes_to_backend{}, bytes_to_host{};  // most in a tick
  std::vector<double> host_only_ms, host_only_share, tick_per_orca;
  bool on_device = false;
  // In use before the world existed: the context, the kernels' modules and their per-thread
  // local memory (reserved at a kernel's first launch: OpenLane's warm-up), other runs.
  uint64_t device_base = 0;
  std::optional<uint64_t> device_peak;
  std::optional<uint64_t> device_warmup;  // what the warm-up left reserved (the runtime's)
  Agreement agreement;
};

// A world of a few dozen agents of `scenario`'s kind on cuda, stepped once and destroyed.
// False (with the reason printed) where the scenario has no such size: the baseline then
// stays the context's, as before.
bool WarmUpDevice(const scenarios::Scenario& scenario) {
  try {
    const scenarios::Scenario small = scenarios::MakeScenario(scenario.name, 64, scenario.seed);
    World world(small.config, BackendKind::kCuda);
    TickOptions options;
    options.integrate = true;
    TickResult result;
    world.Step(small.initial, options, &result);
    return true;
  } catch (const BackendUnavailable&) {
    throw;  // no device: OpenLane says so
  } catch (const std::exception& e) {
    std::printf("cuda       no warm-up for %s (%s): device_bytes includes the first launches\n",
                scenario.name.c_str(), e.what());
    return false;
  }
}

// The world on `name`, or null with the reason recorded when this machine lacks it.
std::unique_ptr<Lane> OpenLane(const scenarios::Scenario& scenario, const std::string& name,
                               std::vector<Skipped>* skipped) {
  auto lane = std::make_unique<Lane>();
  lane->name = name;
  const BackendKind kind = ParseBackendKind(name);
  // The baseline is read first: on a CUDA build it also creates the context, which
  // is the runtime's cost, not the world's.
  std::optional<uint64_t> base = DeviceUsedBytes();
  try {
    if (kind == BackendKind::kCuda && base) {
      // A first launch loads the kernels' modules and reserves their local memory for every
      // thread the device can hold (the ORCA kernels' stack: about 4 KB a thread, some
      // 1 GB on an H200; docs/PERFORMANCE.md), whatever the agent count; the runtime keeps
      // both. A small world of the same scenario, stepped once and gone, puts them in the
      // baseline, so that device_bytes is what the world holds, per agent.
      const std::optional<uint64_t> warm =
          WarmUpDevice(scenario) ? DeviceUsedBytes() : std::nullopt;
      if (warm) {
        lane->device_warmup = *warm > *base ? *warm - *base : 0;
        base = warm;
      }
    }
    lane->world = std::make_unique<World>(scenario.config, kind);
  } catch (const BackendUnavailable& e) {
    if (kind == BackendKind::kCuda && CudaRequired()) throw;  // a GPU check needs the GPU
    std::printf("%-10s skipped: %s\n", name.c_str(), e.what());
    skipped->push_back({name, e.what()});
    return nullptr;
  }
  lane->on_device = lane->world->backend() == BackendKind::kCuda && base.has_value();
  lane->device_base = base.value_or(0);
  return lane;
}

void StepLane(Lane& lane, const Snapshot& snapshot, bool timed) {
  TickOptions options;
  options.integrate = true;
  const auto t0 = Clock::now();
  lane.world->Step(snapshot, options, &lane.result);
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (lane.on_device) {
    // Sampled after every tick: the backend's buffers only grow, so the last sample is
    // normally the peak, but a shrinking allocator would show here too.
    const std::optional<uint64_t> used = DeviceUsedBytes();
    if (used) {
      const uint64_t held = *used > lane.device_base ? *used - lane.device_base : 0;
      lane.device_peak = std::max(lane.device_peak.value_or(0), held);
    }
  }
  if (!timed) return;
  lane.tick_ms.push_back(ms);
  const TickStats& stats = lane.result.stats;
  // Everything of the tick outside its backend's calls, Step's own bookkeeping included.
  const double host_only = std::max(0.0, ms - stats.backend_ms);
  lane.host_only_ms.push_back(host_only);
  if (ms > 0) lane.host_only_share.push_back(host_only / ms);
  if (stats.orca_solve_ms > 0) lane.tick_per_orca.push_back(ms / stats.orca_solve_ms);
  for (int k = 0; k < kBackendCallCount; ++k) lane.call_ms[k].push_back(stats.backend_call_ms[k]);
  for (int s = 0; s < kStageCount; ++s) {
    lane.stage_ms[s].push_back(stats.stage_ms[s]);
    lane.bytes_to_backend[s] = std::max(lane.bytes_to_backend[s], stats.stage_bytes_to_backend[s]);
    lane.bytes_to_host[s] = std::max(lane.bytes_to_host[s], stats.stage_bytes_to_host[s]);
  }
}

// Accumulates how far `other`'s outputs are from `first`'s on the same snapshot.
void Compare(const TickResult& first, const TickResult& other, Agreement* a) {
  const AgentResults &f = first.agents, &o = other.agents;
  for (size_t i = 0; i < f.vx.size(); ++i) {
    const double d =
        std::hypot(static_cast<double>(f.vx[i]) - o.vx[i], static_cast<double>(f.vy[i]) - o.vy[i]);
    ++a->agent_ticks;
    if (d > kAgreementTolerance) ++a->agent_ticks_differing;
    a->velocity_max_abs = std::max(a->velocity_max_abs, d);
  }
  const VehicleResults &fv = first.vehicles, &ov = other.vehicles;
  for (size_t i = 0; i < fv.steering.size(); ++i) {
    const double ds = std::abs(static_cast<double>(fv.steering[i]) - ov.steering[i]);
    const double dt = std::abs(static_cast<double>(fv.throttle[i]) - ov.throttle[i]);
    const double db = std::abs(static_cast<double>(fv.brake[i]) - ov.brake[i]);
    ++a->vehicle_ticks;
    if (std::max({ds, dt, db}) > kAgreementTolerance) ++a->vehicle_ticks_differing;
    a->steering_max_abs = std::max(a->steering_max_abs, ds);
    a->throttle_max_abs = std::max(a->throttle_max_abs, dt);
    a->brake_max_abs = std::max(a->brake_max_abs, db);
  }
  // Forward agents count as agents: their unit move direction (times their speed would
  // be a velocity; the direction alone is what the fan decides).
  const ForwardResults &ff = first.forward, &of = other.forward;
  for (size_t i = 0; i < ff.move_x.size(); ++i) {
    const double d = std::hypot(static_cast<double>(ff.move_x[i]) - of.move_x[i],
                                std::hypot(static_cast<double>(ff.move_y[i]) - of.move_y[i],
                                           static_cast<double>(ff.move_z[i]) - of.move_z[i]));
    ++a->agent_ticks;
    if (d > kAgreementTolerance) ++a->agent_ticks_differing;
    a->velocity_max_abs = std::max(a->velocity_max_abs, d);
  }
}

Quality MeasureQuality(const World& world) {
  Quality q;
  const WorldTotals& t = world.totals();
  q.ticks = t.ticks;
  q.agent_overlaps = t.agent_overlaps;
  q.vehicle_overlaps = t.vehicle_overlaps;
  q.agents_in_obstacles = t.agents_in_obstacles;
  q.forward_in_obstacles = t.forward_in_obstacles;
  std::copy(std::begin(t.status_count), std::end(t.status_count), q.status_count);
  q.oscillating = t.oscillating;
  q.stalled = t.stalled;
  const AgentSnapshot& a = world.state().agents;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!WalksToGoal(a, i)) continue;
    ++q.agents_with_goals;
    if (AtGoal(a, i)) ++q.agents_at_goal;
  }
  return q;
}

RunFigures Figures(const scenarios::Scenario& scenario, const Lane& lane, const RunOptions& options,
                   const char* mode) {
  RunFigures f;
  f.scenario = scenario.name;
  f.backend = lane.name;
  f.mode = mode;
  f.size = scenario.size;
  f.seed = scenario.seed;
  f.agents = scenario.initial.agents.size();
  f.vehicles = scenario.initial.vehicles.size();
  f.forward = scenario.initial.forward.size();
  f.warmup = options.warmup;
  f.ticks = static_cast<int>(lane.tick_ms.size());
  f.dt = scenario.initial.dt;
  f.tick_ms = Summarise(lane.tick_ms);
  for (int s = 0; s < kStageCount; ++s) f.stage_ms[s] = Summarise(lane.stage_ms[s]);
  for (int k = 0; k < kBackendCallCount; ++k) f.call_ms[k] = Summarise(lane.call_ms[k]);
  f.host_only_ms = Summarise(lane.host_only_ms);
  f.host_only_share = Summarise(lane.host_only_share);
  if (!lane.tick_per_orca.empty()) f.tick_per_orca = Summarise(lane.tick_per_orca);
  f.stage_bytes_to_backend = lane.bytes_to_backend;
  f.stage_bytes_to_host = lane.bytes_to_host;
  const double seconds = std::accumulate(lane.tick_ms.begin(), lane.tick_ms.end(), 0.0) / 1e3;
  const double everyone = static_cast<double>(f.agents + f.vehicles + f.forward);
  if (seconds > 0) f.agents_per_s = everyone * f.ticks / seconds;
  if (f.tick_ms.median > 0) f.agents_per_s_at_median = everyone / (f.tick_ms.median / 1e3);
  f.peak_host_bytes = PeakHostBytes();
  f.device_bytes = lane.device_peak;
  f.device_warmup_bytes = lane.device_warmup;
  f.quality = MeasureQuality(*lane.world);
  return f;
}

// Whether the timed ticks so far have used up the time budget.
bool OverBudget(const Lane& lane, const RunOptions& options) {
  if (options.budget_s <= 0 || lane.tick_ms.size() < 3) return false;
  return std::accumulate(lane.tick_ms.begin(), lane.tick_ms.end(), 0.0) / 1e3 > options.budget_s;
}

}  // namespace

Summary Summarise(std::vector<double> samples) {
  Summary s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  s.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  // Nearest rank: the smallest sample with at least 90% of the samples at or below it.
  s.p90 = samples[static_cast<size_t>(std::ceil(0.9 * n)) - 1];
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  s.min = samples.front();
  s.max = samples.back();
  return s;
}

std::optional<RunFigures> RunSingle(const scenarios::Scenario& scenario, const std::string& backend,
                                    const RunOptions& options, std::vector<Skipped>* skipped) {
  ResetPeakHost();
  const std::unique_ptr<Lane> lane = OpenLane(scenario, backend, skipped);
  if (!lane) return std::nullopt;
  Snapshot snapshot = scenario.initial;
  for (int k = 0; k < options.warmup + options.ticks; ++k) {
    if (k > 0) {
      // The copy is the caller's side of a tick (what a game sends), so it is not timed.
      snapshot = lane->world->state();
      ++snapshot.tick;
    }
    StepLane(*lane, snapshot, k >= options.warmup);
    if (OverBudget(*lane, options)) break;
  }
  return Figures(scenario, *lane, options, "single");
}

std::vector<RunFigures> RunCompare(const scenarios::Scenario& scenario,
                                   const std::vector<std::string>& backends,
                                   const RunOptions& options, std::vector<Skipped>* skipped) {
  ResetPeakHost();
  std::vector<std::unique_ptr<Lane>> lanes;
  for (const std::string& name : backends) {
    if (auto lane = OpenLane(scenario, name, skipped)) lanes.push_back(std::move(lane));
  }
  if (lanes.empty()) return {};
  Snapshot snapshot = scenario.initial;
  for (int k = 0; k < options.warmup + options.ticks; ++k) {
    if (k > 0) {
      snapshot = lanes[0]->world->state();
      ++snapshot.tick;
    }
    const bool timed = k >= options.warmup;
    for (auto& lane : lanes) StepLane(*lane, snapshot, timed);
    if (timed) {
      for (size_t b = 1; b < lanes.size(); ++b) {
        Compare(lanes[0]->result, lanes[b]->result, &lanes[b]->agreement);
      }
    }
    // Every lane has the same number of timed ticks; the slowest sets the pace.
    bool over = false;
    for (const auto& lane : lanes) over = over || OverBudget(*lane, options);
    if (over) break;
  }
  std::vector<RunFigures> figures;
  for (const auto& lane : lanes) {
    RunFigures f = Figures(scenario, *lane, options, "compare");
    f.against = lanes[0]->name;
    if (f.tick_ms.median > 0)
      f.speedup = figures.empty() ? 1.0 : figures[0].tick_ms.median / f.tick_ms.median;
    if (!figures.empty()) f.agreement = lane->agreement;
    figures.push_back(std::move(f));
  }
  return figures;
}

}  // namespace throng::bench
