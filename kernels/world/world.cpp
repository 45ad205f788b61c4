#include "kernels/world/world.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/input/input_limits.h"
#include "kernels/navigation/distance_field.h"
#include "kernels/navigation/nav_costs.h"
#include "kernels/orca/obstacles.h"
#include "kernels/world/tick_stages.h"
#include "kernels/world/world_internals.h"
#include "kernels/world/world_validate.h"

namespace throng {
namespace {

// Obstacles in the internal frame, counter-clockwise whatever the caller's orientation
// (a mirroring frame reverses it; callers may also simply give either).
std::vector<Polygon> InternalObstacles(const WorldConfig& config) {
  std::vector<Polygon> polygons(config.obstacles.size());
  for (size_t p = 0; p < config.obstacles.size(); ++p) {
    auto& vertices = polygons[p].vertices;
    for (Vec3 q : config.obstacles[p]) {
      const Vec3 i = config.frame.ToInternal(q);
      vertices.push_back({i.x, i.y});
    }
    double area2 = 0;
    for (size_t k = 0; k < vertices.size(); ++k) {
      const Vec2 a = vertices[k], b = vertices[(k + 1) % vertices.size()];
      area2 += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
    }
    if (area2 < 0) std::reverse(vertices.begin(), vertices.end());
  }
  return polygons;
}

std::vector<SplineDesc> InternalSplines(const WorldConfig& config) {
  std::vector<SplineDesc> splines = config.splines;
  for (SplineDesc& s : splines) {
    for (Vec3& p : s.points) p = config.frame.ToInternal(p);
  }
  return splines;
}

// Each target's field over the world's obstacles (docs/NAVIGATION.md), once per world.
void BuildNavigation(const WorldConfig& config, World::Internals& w) {
  if (config.navigation_targets.empty()) return;
  std::vector<NavTarget> shared;  // the targets without a region: they share the world's grid
  for (const NavigationTarget& g : config.navigation_targets) {
    NavTarget t{g.id, {}};
    Vec2 sum{0.f, 0.f};
    for (Vec3 q : g.shape) {
      const Vec3 i = config.frame.ToInternal(q);
      t.shape.push_back({i.x, i.y});
      sum = sum + Vec2{i.x, i.y};
    }
    w.nav_keys.push_back({g.id, static_cast<uint32_t>(w.nav_targets.size())});
    w.nav_steer_targets.push_back({sum * (1.f / static_cast<float>(t.shape.size())),
                                   static_cast<uint32_t>(w.nav_rings.size()),
                                   static_cast<uint32_t>(t.shape.size())});
    w.nav_rings.insert(w.nav_rings.end(), t.shape.begin(), t.shape.end());
    if (g.region.empty()) shared.push_back(t);
    w.nav_targets.push_back(std::move(t));
  }
  std::sort(w.nav_keys.begin(), w.nav_keys.end(),
            [](const NavTargetKey& a, const NavTargetKey& b) { return a.id < b.id; });
  // The grids' sizes first: a refused world costs no rasterisation.
  const NavGridSpec world_grid =
      shared.empty() ? NavGridSpec{} : NavGridFor(w.obstacles, shared, config.navigation);
  size_t cells = 0;
  for (size_t k = 0; k < w.nav_targets.size(); ++k) {
    const std::vector<Vec3>& region = config.navigation_targets[k].region;
    if (region.empty()) {
      w.nav_specs.push_back(world_grid);
    } else {
      const Vec3 a = config.frame.ToInternal(region[0]), b = config.frame.ToInternal(region[1]);
      w.nav_specs.push_back(NavGridForRegion({std::min(a.x, b.x), std::min(a.y, b.y)},
                                             {std::max(a.x, b.x), std::max(a.y, b.y)},
                                             config.navigation));
    }
    cells += w.nav_specs.back().cells();
  }
  if (cells > kMaxNavigationFieldCells) {
    throw LimitExceeded("navigation_targets: " + std::to_string(w.nav_targets.size()) +
                        " fields of " + std::to_string(cells) +
                        " cells in all, more than the limit of " +
                        std::to_string(kMaxNavigationFieldCells) +
                        " (fewer targets, smaller regions, a coarser navigation.cell, or a "
                        "smaller world)");
  }
  const NavCosts world_costs =
      shared.empty() ? NavCosts{} : BuildNavCostsOn(world_grid, w.obstacles, config.navigation);
  // One target's field per thread: each march is serial and reads only its costs (a region's
  // rasterised in the same thread).
  w.nav_fields.resize(w.nav_targets.size());
#pragma omp parallel for schedule(dynamic)
  for (size_t k = 0; k < w.nav_targets.size(); ++k) {
    if (NavHasRegion(config, k)) {
      const NavCosts own = BuildNavCostsOn(w.nav_specs[k], w.obstacles, config.navigation);
      w.nav_fields[k] = BuildNavField(own, w.nav_targets[k]);
    } else {
      w.nav_fields[k] = BuildNavField(world_costs, w.nav_targets[k]);  // read, not copied
    }
  }
}

}  // namespace

World::World(WorldConfig config, BackendKind backend)
    : config_(std::move(config)), in_(std::make_unique<Internals>()) {
  ValidateWorldConfig(config_);
  in_->backend = std::make_unique<TimedBackend>(CreateBackend(backend));
  InstallScene();
}

World::World(WorldConfig config, std::unique_ptr<Backend> backend)
    : config_(std::move(config)), in_(std::make_unique<Internals>()) {
  ValidateWorldConfig(config_);
  if (!backend) throw std::invalid_argument("backend: none given");
  in_->backend = std::make_unique<TimedBackend>(std::move(backend));
  InstallScene();
}

// The configuration's lanes, obstacles and navigation fields, on the world's backend.
void World::InstallScene() {
  const std::vector<SplineDesc> splines = InternalSplines(config_);
  // The lanes by id for the vehicles' preparation: lane k is splines[k] on the backend.
  std::vector<std::pair<uint32_t, uint32_t>> by_id;
  for (size_t k = 0; k < splines.size(); ++k)
    by_id.push_back({splines[k].id, static_cast<uint32_t>(k)});
  std::sort(by_id.begin(), by_id.end());
  for (const auto& [id, k] : by_id) {
    in_->lane_ids.push_back(id);
    in_->lane_of_id.push_back(k);
  }
  in_->backend->SetSplines(splines);
  in_->obstacles = InternalObstacles(config_);
  in_->backend->SetObstacles(in_->obstacles);
  in_->backend->SetFanObstacles(InternalFanShapes(config_, in_->obstacles), FanShapesCell(config_));
  BuildNavigation(config_, *in_);
}

World::~World() = default;

BackendKind World::backend() const { return in_->backend->kind(); }
Backend& World::engine_backend() {
  // Whoever asks may call it: what only the backend holds comes home first, and the next
  // tick copies the state and the memory again.
  BringKeptHome(*in_, &state_);
  in_->state_on_backend = in_->memory_on_backend = false;
  return *in_->backend;
}

// The caller's snapshot: its columns go to the backend (ColumnSource::kHost).
void World::Step(const Snapshot& s, const TickOptions& options, TickResult* out) {
  StepAfter(s, options, out, state_.tick, /*next_holds_the_rest=*/false,
            /*snapshot_on_backend=*/false, /*keep_on_backend=*/false);
}

void World::StepAfter(const Snapshot& s, const TickOptions& options, TickResult* out,
                      uint64_t last_tick, bool next_holds_the_rest, bool snapshot_on_backend,
                      bool keep_on_backend) {
  TickContext tick(config_, s, options, *in_, out, has_state_, last_tick);
  tick.next_holds_the_rest = next_holds_the_rest;
  tick.snapshot_on_backend = snapshot_on_backend;
  tick.memory_on_backend = in_->memory_on_backend;
  tick.keep_on_backend = keep_on_backend;
  // A tick on the caller's snapshot replaces the preparation's columns on the backend,
  // whether or not it commits; what the backend kept of the last tick (its move's state,
  // its report's memory) only the next commit replaces.
  if (!snapshot_on_backend) in_->state_on_backend = false;
  RunTickStages(tick);

  // Commit: nothing below can reject the tick.
  Internals& w = *in_;
  w.backend->KeepPedestrians();
  w.backend->KeepVehicles();
  w.backend->KeepForward();
  const uint64_t tick_done = s.tick;  // s may be the kept state, which the swap replaces
  w.memory.Commit(s.agents.id, &w.agent_memory, s.vehicles.id, &w.vehicle_memory);
  if (w.crowd_refreshed) {
    w.crowd = std::move(w.crowd_next);
    w.crowd_refreshed = false;
  }
  std::swap(state_, w.next_state);
  has_state_ = true;
  w.state_on_backend = options.integrate;
  w.memory_on_backend = true;
  w.memory_on_backend_only = tick.memory_left_on_backend;
  w.vehicle_memory_on_backend_only = s.vehicles.size() > 0;  // DriveVehicles left it there
  w.vehicle_state_on_backend_only = options.integrate && tick.vehicle_state_left_on_backend;
  w.forward_state_on_backend_only = options.integrate && tick.forward_state_left_on_backend;
  w.state_on_backend_only = options.integrate && tick.state_left_on_backend;
  out->tick = tick_done;
  out->stats = tick.stats;
  totals_.Add(tick.stats);
  last_stats_ = tick.stats;
}

void World::Advance(int ticks, float dt, TickResult* last, const StopRequested& stop) {
  TickOptions options;
  options.stop = stop;
  Advance(ticks, dt, last, options);
}

void World::Advance(int ticks, float dt, TickResult* last, const TickOptions& asked) {
  if (!has_state_) throw WorldStateError("world has no state yet: Step it once first");
  if (ticks < 1) throw std::invalid_argument("ticks: must be >= 1");
  if (state_.tick > kMaxTick - static_cast<uint64_t>(ticks)) {
    throw std::invalid_argument("ticks: " + std::to_string(ticks) + " more would pass the last " +
                                "tick there is, " + std::to_string(kMaxTick) + " (2^53)");
  }
  ValidateTimeStep(dt);
  TickOptions options = asked;
  options.integrate = true;
  // Ticks that may pass before the pedestrians come home and are checked again (those
  // between stay on the backend): nobody moves farther than kMaxCoordinate in that time,
  // so positions stay within twice the limit before the check that rejects them.
  const auto unchecked =
      std::max<int64_t>(1, static_cast<int64_t>(kMaxCoordinate / (kMaxSpeed * dt)));
  // Each tick steps the kept state itself, its tick and dt moved on (and put back if the
  // tick throws: then nothing changed). The tick writes the moved columns into the spare
  // snapshot and the commit swaps the two; from the second tick on, the spare is the state
  // before last, whose other columns Advance never changed, so nothing is copied
  // (docs/WORLD.md, "One tick").
  for (int k = 0; k < ticks; ++k) {
    const uint64_t last_tick = state_.tick;
    const float last_dt = state_.dt;
    state_.tick = last_tick + 1;
    state_.dt = dt;
    try {
      // The ticks before the last leave their results and next state on the backend,
      // where the next one reads them, unchecked for at most `unchecked` ticks.
      StepAfter(state_, options, last, last_tick, /*next_holds_the_rest=*/k > 0,
                /*snapshot_on_backend=*/in_->state_on_backend,
                /*keep_on_backend=*/k + 1 < ticks && (k + 1) % unchecked != 0);
    } catch (...) {
      state_.tick = last_tick;
      state_.dt = last_dt;
      // The ticks already run stand: what they left on the backend only comes home (the
      // backend keeps it through a tick that fails).
      BringKeptHome(*in_, &state_);
      throw;
    }
  }
}

void BringKeptHome(World::Internals& w, Snapshot* state) {
  if (state != nullptr && w.forward_state_on_backend_only) {
    ForwardSnapshot& f = state->forward;
    w.backend->FetchKeptForward({f.x.data(), f.y.data(), f.z.data(), f.forward_x.data(),
                                 f.forward_y.data(), f.forward_z.data(), f.size()});
    w.forward_state_on_backend_only = false;
  }
  const bool vehicle_state_home = state != nullptr && w.vehicle_state_on_backend_only;
  if (w.vehicle_memory_on_backend_only || vehicle_state_home) {
    KeptVehicleRows rows;
    if (w.vehicle_memory_on_backend_only) {
      rows.memory = w.memory.KeptVehicleRowsToFill();
      rows.memory_rows = w.memory.KeptVehicleCount();
    }
    if (vehicle_state_home) {
      VehicleSnapshot& v = state->vehicles;
      rows.x = v.x.data();
      rows.y = v.y.data();
      rows.z = v.z.data();
      rows.yaw = v.yaw.data();
      rows.speed = v.speed.data();
      rows.progress_hint = v.progress_hint.data();
      rows.state_rows = v.size();
    }
    w.backend->FetchKeptVehicles(rows);
    w.vehicle_memory_on_backend_only = false;
    if (vehicle_state_home) w.vehicle_state_on_backend_only = false;
  }
  const bool state_home = state != nullptr && w.state_on_backend_only;
  if (!state_home && !w.memory_on_backend_only) return;
  KeptPedestrianRows rows;
  if (state_home) {
    AgentSnapshot& a = state->agents;
    rows = {a.x.data(), a.y.data(), a.z.data(), a.vx.data(), a.vy.data(), a.vz.data(), a.size()};
  }
  if (w.memory_on_backend_only) {
    rows.memory = w.memory.KeptAgentRowsToFill();
    rows.memory_rows = w.memory.KeptAgentCount();
  }
  w.backend->FetchKeptPedestrians(rows);
  if (state_home) w.state_on_backend_only = false;
  w.memory_on_backend_only = false;
}

size_t NavTargetIndex(const World::Internals& w, uint32_t target_id) {
  const auto it =
      std::lower_bound(w.nav_keys.begin(), w.nav_keys.end(), target_id,
                       [](const NavTargetKey& key, uint32_t id) { return key.id < id; });
  return it != w.nav_keys.end() && it->id == target_id ? it->index : w.nav_targets.size();
}

NavCosts NavCostsFor(const WorldConfig& config, const World::Internals& w, size_t k) {
  return BuildNavCostsOn(w.nav_specs[k], w.obstacles, config.navigation);
}

const NavField* World::NavigationField(uint32_t target_id) const {
  const size_t k = NavTargetIndex(*in_, target_id);
  return k < in_->nav_fields.size() ? &in_->nav_fields[k] : nullptr;
}

std::optional<NavDistanceGrid> World::NavigationDistances(uint32_t target_id) const {
  const size_t k = NavTargetIndex(*in_, target_id);
  if (k >= in_->nav_fields.size()) return std::nullopt;
  const NavCosts costs = NavCostsFor(config_, *in_, k);
  return NavDistanceGrid{costs.spec, MarchNavDistances(costs, in_->nav_targets[k])};
}

size_t World::NavigationBytes() const {
  size_t bytes = 0;
  for (const NavField& f : in_->nav_fields) bytes += f.heading.capacity();
  for (size_t k = 0; k < in_->crowd_fields.size(); ++k) {
    bytes += in_->crowd_fields[k].heading.capacity();
  }
  return bytes;
}

WorldKept World::Kept() const {
  // The kept memory may be on the backend only: the copy is the host's, not a change.
  BringKeptHome(*in_, nullptr);
  return {has_state_, state_, in_->memory.Kept(), in_->crowd, totals_, last_stats_};
}

void World::Restore(WorldKept kept) {
  if (kept.has_state) {
    ValidateSnapshot(config_, kept.state, /*has_last_tick=*/false, 0);
  } else if (kept.totals.ticks != 0) {
    throw std::invalid_argument("totals.ticks: " + std::to_string(kept.totals.ticks) +
                                " ticks but no state");
  }
  if (!std::isfinite(kept.totals.time_stopped_s) || kept.totals.time_stopped_s < 0) {
    throw std::invalid_argument("totals.time_stopped_s: must be finite and >= 0");
  }
  ValidateNavCrowd(kept.crowd);
  // The first change: it checks the memory (ValidateKeptMemory) before it replaces any.
  in_->memory.Restore(std::move(kept.memory));
  // Nothing below throws. The crowd fields are rebuilt from the restored crowd on demand.
  in_->crowd = std::move(kept.crowd);
  in_->crowd_refreshed = false;
  in_->crowd_field_built.assign(in_->crowd_field_built.size(), 0);
  ++in_->nav_version;
  in_->state_on_backend = in_->memory_on_backend = false;  // the backend's are from before
  in_->state_on_backend_only = in_->memory_on_backend_only = false;
  in_->vehicle_memory_on_backend_only = in_->vehicle_state_on_backend_only = false;
  in_->forward_state_on_backend_only = false;
  has_state_ = kept.has_state;
  state_ = kept.has_state ? std::move(kept.state) : Snapshot{};
  totals_ = kept.totals;
  last_stats_ = kept.last_stats;
}

}  // namespace throng
