// The worlds a throngd serves, by id. Thread-safe: the map is guarded by its own mutex,
// and each world by one more, held for a whole tick (or Advance), so that a world is
// never stepped by two calls at once while different worlds run in parallel.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernels/world/world.h"
#include "throng/v1/simulation.pb.h"

namespace throng::service {

// One world and the buffers its ticks reuse. `id` and `name` are fixed once published;
// `info` is guarded by `info_mu` (so ListWorlds never waits for a running tick); every
// other field by `mu`.
struct WorldEntry {
  std::string id;
  std::string name;
  std::mutex info_mu;
  ::throng::v1::WorldInfo info;  // the summary ListWorlds shows, refreshed after each tick
  std::mutex mu;
  bool deleted = false;  // removed from the registry while a caller waited for `mu`
  std::unique_ptr<World> world;
  std::string backend;                         // the backend that runs it ("cpu", ..)
  ::throng::v1::WorldConfig effective_config;  // every default filled in, for GetWorld
  Snapshot snapshot;                  // the request converted; capacity kept from tick to tick
  TickResult result;                  // the engine's answer; capacity kept likewise
  uint64_t agents = 0, vehicles = 0;  // in the current state
};

class WorldRegistry {
 public:
  // Gauges: called with the new totals whenever they change, in the order they change.
  using WorldsGauge = std::function<void(int64_t worlds)>;
  using PopulationGauge = std::function<void(int64_t agents, int64_t vehicles)>;

  WorldRegistry(int max_worlds, WorldsGauge worlds_gauge, PopulationGauge population_gauge)
      : max_worlds_(max_worlds),
        worlds_gauge_(std::move(worlds_gauge)),
        population_gauge_(std::move(population_gauge)) {}

  // Takes one of --max-worlds places before a world is built (false: none left). Give it
  // back with Release, or fill it with Insert.
  bool Reserve();
  void Release();
  // A fresh world id: "w-1", "w-2", .., never reused, and never one a world imported
  // under its own id holds.
  std::string NewId();
  // Publishes `entry` under its id, in a place taken by Reserve. When a live world has
  // that id (an imported one may take a NewId before it is published): null, and `entry`
  // is left with the caller.
  std::shared_ptr<WorldEntry> Insert(std::unique_ptr<WorldEntry>&& entry);

  // Null when unknown.
  std::shared_ptr<WorldEntry> Find(const std::string& id) const;
  // Removes the world; the caller marks it deleted under its mutex. Null when unknown.
  std::shared_ptr<WorldEntry> Remove(const std::string& id);
  // Every live world, in creation order.
  std::vector<std::shared_ptr<WorldEntry>> List() const;
  int64_t size() const;

  // Population over every world: a world's change in agents and vehicles.
  void UpdatePopulation(int64_t agents_delta, int64_t vehicles_delta);

 private:
  const int max_worlds_;
  const WorldsGauge worlds_gauge_;
  const PopulationGauge population_gauge_;
  mutable std::mutex mu_;
  int reserved_ = 0;  // places taken, published or being built
  uint64_t next_id_ = 1;
  std::unordered_map<std::string, std::shared_ptr<WorldEntry>> worlds_;
  std::vector<std::string> order_;  // ids in creation order
  std::mutex population_mu_;
  int64_t agents_ = 0, vehicles_ = 0;  // guarded by population_mu_
};

}  // namespace throng::service
