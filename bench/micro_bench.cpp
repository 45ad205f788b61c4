// throng-bench-micro: Google Benchmark units of the engine, one backend call each, on the
// scenes of the scenario library: ORCA step (grid build, candidate search, solve as
// counters from the step's own stage times), spline following, cast fans, a whole world
// tick. cpu at 1k/10k/100k, reference at 1k, cuda at 100k/1M when a device is present.
// And building a navigation field (host code) over 100 m and 250 m worlds.
//
//   throng-bench-micro --benchmark_min_time=0.05 [--benchmark_filter=Orca]
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/backends/backend.h"
#include "kernels/navigation/distance_field.h"
#include "kernels/navigation/nav_costs.h"
#include "kernels/scenarios/crowd.h"
#include "kernels/scenarios/flock.h"
#include "kernels/scenarios/roads.h"
#include "kernels/scenarios/scenario.h"
#include "kernels/world/world.h"
#include "kernels/world/world_validate.h"

namespace {

using namespace throng;

// Scenes and backends are built once and shared: generating 100k agents costs more
// than the calls measured on them.
template <class T, class Make>
const T& Cached(std::map<size_t, T>& cache, size_t n, Make make) {
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, make(n)).first;
  return it->second;
}

const scenarios::CrowdScenario& Crowd(size_t n) {
  static std::map<size_t, scenarios::CrowdScenario> cache;
  return Cached(cache, n, [](size_t k) { return scenarios::Random(k, 1); });
}

const std::vector<SplineDesc>& Roads() {
  static const std::vector<SplineDesc> roads = scenarios::RingRoads(64, 7);
  return roads;
}

const VehicleColumns& Fleet(size_t n) {
  static std::map<size_t, VehicleColumns> cache;
  return Cached(cache, n, [](size_t k) { return scenarios::VehiclesOn(Roads(), k, 11); });
}

const scenarios::Flock& FlockOf(size_t n) {
  static std::map<size_t, scenarios::Flock> cache;
  return Cached(cache, n, [](size_t k) { return scenarios::RandomFlock(5, k); });
}

Backend& BackendOf(BackendKind kind) {
  static std::map<BackendKind, std::unique_ptr<Backend>> cache;
  auto& backend = cache[kind];
  if (!backend) backend = CreateBackend(kind);
  return *backend;
}

// One untimed call first on the parallel backends (buffers grow on first use, threads and
// the device wake up). The reference has nothing to warm and takes seconds per call.
bool Warm(BackendKind kind) { return kind != BackendKind::kReference; }

// One ORCA solve of the random crowd (RVO2's benchmark), its own stage times as counters.
void BM_Orca_Step(benchmark::State& state, BackendKind kind) {
  const auto& crowd = Crowd(static_cast<size_t>(state.range(0)));
  Backend& backend = BackendOf(kind);
  backend.SetObstacles(crowd.scene.obstacles);
  OrcaResult result;
  OrcaStageTimes sum;
  if (Warm(kind)) backend.SolveOrca(crowd.scene.params, crowd.scene.agents, {}, &result);
  for (auto _ : state) {
    backend.SolveOrca(crowd.scene.params, crowd.scene.agents, {}, &result);
    sum.grid_ms += result.times.grid_ms;
    sum.neighbors_ms += result.times.neighbors_ms;
    sum.solve_ms += result.times.solve_ms + result.times.revalidate_ms;
    sum.upload_ms += result.times.upload_ms + result.times.download_ms;
  }
  const auto avg = benchmark::Counter::kAvgIterations;
  state.counters["grid_ms"] = benchmark::Counter(sum.grid_ms, avg);
  state.counters["candidates_ms"] = benchmark::Counter(sum.neighbors_ms, avg);
  state.counters["solve_ms"] = benchmark::Counter(sum.solve_ms, avg);
  state.counters["transfer_ms"] = benchmark::Counter(sum.upload_ms, avg);
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Three-factor spline following for a fleet on 64 ring roads.
void BM_Spline_Follow(benchmark::State& state, BackendKind kind) {
  const VehicleColumns& fleet = Fleet(static_cast<size_t>(state.range(0)));
  Backend& backend = BackendOf(kind);
  backend.SetSplines(Roads());
  FollowerResults out;
  if (Warm(kind)) backend.FollowSplines({}, 0.f, fleet, {}, &out);
  for (auto _ : state) backend.FollowSplines({}, 0.f, fleet, {}, &out);
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Cast fans (9 probes of 10 m) against 40 obstacles.
void BM_Cast_Fan(benchmark::State& state, BackendKind kind) {
  const scenarios::Flock& flock = FlockOf(static_cast<size_t>(state.range(0)));
  Backend& backend = BackendOf(kind);
  backend.SetObstacles(flock.obstacles);
  FanResults out;
  if (Warm(kind)) backend.SteerForward(FanParams{}, 0.1f, flock.agents, &out);
  for (auto _ : state) backend.SteerForward(FanParams{}, 0.1f, flock.agents, &out);
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// A world of the random scenario with range(0) agents, stepped once on its initial
// snapshot (integrated), so that timing starts with every buffer touched.
std::unique_ptr<World> StartedRandomWorld(const benchmark::State& state, BackendKind kind,
                                          float* dt) {
  static std::map<size_t, scenarios::Scenario> cache;
  const scenarios::Scenario& scenario =
      Cached(cache, static_cast<size_t>(state.range(0)),
             [](size_t k) { return scenarios::MakeScenario("random", k, 1); });
  auto world = std::make_unique<World>(scenario.config, kind);
  TickOptions options;
  options.integrate = true;
  TickResult result;
  world->Step(scenario.initial, options, &result);
  *dt = scenario.initial.dt;
  return world;
}

// One integrated world tick of the random scenario, each stepping the world's own state.
// Manual time: the snapshot copy before each Step is the caller's side, not the engine's.
void BM_World_Tick(benchmark::State& state, BackendKind kind) {
  float dt = 0.f;
  const std::unique_ptr<World> world = StartedRandomWorld(state, kind, &dt);
  TickOptions options;
  options.integrate = true;
  TickResult result;
  for (auto _ : state) {
    Snapshot next = world->state();
    ++next.tick;
    const auto t0 = std::chrono::steady_clock::now();
    world->Step(next, options, &result);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Ten integrated ticks of the random scenario in one World::Advance (the service's Advance
// call): the world steps its own state, with nothing copied in by a caller. Items are
// agent-ticks, so the rate is comparable with BM_World_Tick's.
void BM_World_Advance(benchmark::State& state, BackendKind kind) {
  float dt = 0.f;
  const std::unique_ptr<World> world = StartedRandomWorld(state, kind, &dt);
  TickResult result;
  constexpr int kTicks = 10;
  double integrate_ms = 0, validate_ms = 0;
  for (auto _ : state) {
    world->Advance(kTicks, dt, &result);
    // The last tick's: Advance's later ticks copy nothing in (integrate: the moved columns
    // only; validate: the kept state, checked as every snapshot is).
    integrate_ms += result.stats.stage_ms[static_cast<size_t>(Stage::kIntegrate)];
    validate_ms += result.stats.stage_ms[static_cast<size_t>(Stage::kValidate)];
  }
  using benchmark::Counter;
  state.counters["integrate_ms"] = Counter(integrate_ms, Counter::kAvgIterations);
  state.counters["validate_ms"] = Counter(validate_ms, Counter::kAvgIterations);
  state.SetItemsProcessed(state.iterations() * kTicks * state.range(0));
}

// Navigation fields (docs/NAVIGATION.md; issue 35's figure): a square world `range(0)` m
// wide at 0.25 m cells (1,000 x 1,000 cells at 250 m, with the grid's 4 m margin a little
// more) holding 1,000 boxes of 0.5-3 m, and a point target in its middle. Costs (the
// rasterisation) and the field (fast marching and directions) are timed apart.
// 1,000 boxes of 0.5-3 m at random in a square `side` m wide.
std::vector<Polygon> NavBoxes(float side) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> at(0.f, side), size(0.5f, 3.f);
  std::vector<Polygon> boxes;
  for (int k = 0; k < 1000; ++k) {
    const float x = at(rng), y = at(rng), w = size(rng), h = size(rng);
    boxes.push_back({{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}});
  }
  return boxes;
}

void BM_Nav_Field(benchmark::State& state) {
  const float side = static_cast<float>(state.range(0));
  const std::vector<Polygon> boxes = NavBoxes(side);
  const NavTarget target{1, {{0.5f * side + 0.1f, 0.5f * side + 0.1f}}};
  double costs_ms = 0, field_ms = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const NavCosts costs = BuildNavCosts(boxes, {target}, NavFieldParams{});
    const auto t1 = std::chrono::steady_clock::now();
    const NavField field = BuildNavField(costs, target);
    const auto t2 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(field.heading.data());
    costs_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
    field_ms += std::chrono::duration<double, std::milli>(t2 - t1).count();
    state.counters["cells"] = static_cast<double>(costs.spec.cells());
  }
  state.counters["costs_ms"] = costs_ms / static_cast<double>(state.iterations());
  state.counters["field_ms"] = field_ms / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Nav_Field)->Arg(100)->Arg(250)->Unit(benchmark::kMillisecond);

// The per-agent field lookup of BEHAVIOR_NAVIGATE (issue 35's "under 5% of a 100k-agent
// tick"; compare with BM_World_Tick/cpu/100000 in the same run): `range(0)` agents at
// random places on the 250 m field above, each reading the field's way there
// (NavDirectionAt) and turning it toward a goal of its own (NavTurnTowardGoal), in
// parallel over the agents as the world's preferred-velocity stage runs.
void BM_Nav_Lookup(benchmark::State& state) {
  constexpr float kSide = 250.f;
  const NavTarget target{1, {{0.5f * kSide + 0.1f, 0.5f * kSide + 0.1f}}};
  const NavField field =
      BuildNavField(BuildNavCosts(NavBoxes(kSide), {target}, NavFieldParams{}), target);
  std::mt19937 rng(10);
  std::uniform_real_distribution<float> at(0.f, kSide);
  const auto n = static_cast<size_t>(state.range(0));
  std::vector<Vec2> where(n), goal(n), way(n);
  for (size_t i = 0; i < n; ++i) {
    where[i] = {at(rng), at(rng)};
    goal[i] = {at(rng), at(rng)};
  }
  const NavGoalCone cone(NavFieldParams{}.goal_cone);
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; ++i) {
      way[i] = NavTurnTowardGoal(NavDirectionAt(field, where[i], NavRidge::kPickSide), where[i],
                                 &goal[i], cone);
    }
    benchmark::DoNotOptimize(way.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Nav_Lookup)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();

const scenarios::Scenario& Town(size_t n) {
  static std::map<size_t, scenarios::Scenario> cache;
  return Cached(cache, n, [](size_t k) { return scenarios::MakeScenario("town", k, 1); });
}

// The checks of a town's snapshot on the host: every check (range(1) = 0), or those the
// world keeps there when the pedestrians' preparation checks their values (1: lengths,
// ids, vehicles).
void BM_Validate_Snapshot(benchmark::State& state) {
  const scenarios::Scenario& town = Town(static_cast<size_t>(state.range(0)));
  // range(1): bit 0 the pedestrians' values left to their preparation, bit 1 the vehicles'.
  const bool values_on_backend = (state.range(1) & 1) != 0;
  const bool vehicle_values_on_backend = (state.range(1) & 2) != 0;
  for (auto _ : state) {
    ValidateSnapshot(town.config, town.initial, false, 0, false, false, false, values_on_backend,
                     vehicle_values_on_backend);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Validate_Snapshot)
    ->Args({100000, 0})
    ->Args({100000, 1})
    ->Args({100000, 3})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The town's pedestrians made ready on the cpu, without (range(1) = 0) and with the checks
// of their values: beside BM_Validate_Snapshot, what moving the checks into the
// preparation saves or costs.
void BM_Prepare_Pedestrians(benchmark::State& state) {
  const scenarios::Scenario& town = Town(static_cast<size_t>(state.range(0)));
  const AgentSnapshot& a = town.initial.agents;
  const size_t n = a.size();
  const PedestrianPrepareScene scene = PedestrianSceneOf(a);
  AgentColumns agents;
  agents.Resize(n);
  std::vector<float> z(n), vz(n);
  std::vector<Vec2> goal(n);
  std::vector<uint8_t> has_goal(n), navigates(n);
  const PedestrianPrepareOutput out{agents.Out(0), z.data(),        vz.data(),
                                    goal.data(),   has_goal.data(), navigates.data()};
  PedestrianPrepareParams params;
  params.frame = town.config.frame;
  params.defaults = town.config.agent_defaults;
  params.dt = town.initial.dt;
  if (state.range(1) != 0) params.checks = AgentChecksForPreparation();
  Backend& backend = BackendOf(BackendKind::kCpu);
  if (backend.PreparePedestrians(params, scene, out) != 0) state.SkipWithError("refused");
  for (auto _ : state) benchmark::DoNotOptimize(backend.PreparePedestrians(params, scene, out));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Prepare_Pedestrians)
    ->Args({100000, 0})
    ->Args({100000, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void RegisterFor(BackendKind kind, const std::vector<int64_t>& sizes) {
  const std::string name(BackendName(kind));
  for (int64_t n : sizes) {
    // Wall clock decides the iteration counts: the work runs on other threads or the GPU.
    auto add = [&](const char* unit, void (*fn)(benchmark::State&, BackendKind)) {
      return benchmark::RegisterBenchmark((std::string(unit) + "/" + name).c_str(), fn, kind)
          ->Arg(n)
          ->Unit(benchmark::kMillisecond);
    };
    add("BM_Orca_Step", BM_Orca_Step)->UseRealTime();
    add("BM_Spline_Follow", BM_Spline_Follow)->UseRealTime();
    add("BM_Cast_Fan", BM_Cast_Fan)->UseRealTime();
    add("BM_World_Tick", BM_World_Tick)->UseManualTime();
    add("BM_World_Advance", BM_World_Advance)->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("note", "times are wall clock; counters are ms per iteration");
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  benchmark::AddCustomContext("OMP_WAIT_POLICY", policy ? policy : "default");
  RegisterFor(BackendKind::kReference, {1000});
  RegisterFor(BackendKind::kCpu, {1000, 10000, 100000});
  if (CudaDeviceAvailable()) {
    RegisterFor(BackendKind::kCuda, {100000, 1000000});
  } else {
    std::fprintf(stderr, "cuda benchmarks skipped: no CUDA device or no CUDA build\n");
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
