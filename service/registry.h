// The worlds a throngd serves, by id. Thread-safe: the map is guarded by its own mutex,
// and each world by one more, held for a whole tick (or Advance), so that a world is
// never stepped by two calls at once while different worlds run in parallel.
#pragma once

#include <atomic>
#include <cstdint>
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
  explicit WorldRegistry(int max_worlds) : max_worlds_(max_worlds) {}

  // Takes one of --max-worlds places before a world is built (false: none left). Give it
  // back with Release, or fill it with Insert.
  bool Reserve();
  void Release();
  // Gives `entry` a fresh id ("w-1", "w-2", ..) and publishes it.
  std::shared_ptr<WorldEntry> Insert(std::unique_ptr<WorldEntry> entry);

  // Null when unknown.
  std::shared_ptr<WorldEntry> Find(const std::string& id) const;
  // Removes the world; the caller marks it deleted under its mutex. Null when unknown.
  std::shared_ptr<WorldEntry> Remove(const std::string& id);
  // Every live world, in creation order.
  std::vector<std::shared_ptr<WorldEntry>> List() const;
  int64_t size() const;

  // Population over every world: call with a world's counts before and after a change.
  void UpdatePopulation(int64_t agents_delta, int64_t vehicles_delta);
  int64_t agents() const { return agents_.load(); }
  int64_t vehicles() const { return vehicles_.load(); }

 private:
  const int max_worlds_;
  mutable std::mutex mu_;
  int reserved_ = 0;  // places taken, published or being built
  uint64_t next_id_ = 1;
  std::unordered_map<std::string, std::shared_ptr<WorldEntry>> worlds_;
  std::vector<std::string> order_;  // ids in creation order
  std::atomic<int64_t> agents_{0}, vehicles_{0};
};

}  // namespace throng::service
