#include "kernels/scenarios/scenario.h"

#include <stdexcept>

#include "kernels/scenarios/scenario_layout.h"

namespace throng::scenarios {

std::vector<std::string> ScenarioNames() {
  return {"circle",         "random",  "corridor",      "crossing",          "town",
          "flock",          "drones",  "bottleneck_1m", "bottleneck_2m",     "blocks",
          "u_trap",         "rimea_6", "rimea_9",       "rimea_9_two_exits", "two_exits",
          "blocks_navigate", "crossing_navigate"};
}

Scenario MakeScenario(std::string_view name, size_t size, uint32_t seed) {
  if (size == 0) throw std::invalid_argument("scenario size: must be > 0");
  if (name == "circle") return detail::MakeCircle(size, seed);
  if (name == "random") return detail::MakeRandom(size, seed);
  if (name == "blocks") return detail::MakeBlocks(size, seed);
  if (name == "corridor") return detail::MakeCorridor(size, seed);
  if (name == "crossing") return detail::MakeCrossing(size, seed);
  if (name == "town") return detail::MakeTown(size, seed);
  if (name == "flock") return detail::MakeFlock(size, seed);
  if (name == "drones") return detail::MakeDrones(size, seed);
  if (name == "u_trap") return detail::MakeUTrap(size, seed);
  if (name == "blocks_navigate") return detail::MakeBlocksNavigate(size, seed);
  if (name == "crossing_navigate") return detail::MakeCrossingNavigate(size, seed);
  if (name == "rimea_6") return detail::MakeRimea6(size, seed);
  if (name == "rimea_9" || name == "rimea_9_two_exits" || name == "two_exits") {
    return detail::MakeEvacuation(name, size, seed);
  }
  if (const float door = BottleneckDoor(name); door > 0.f) {
    return detail::MakeBottleneck(name, door, size, seed);
  }
  std::string names;
  for (const std::string& n : ScenarioNames()) names += (names.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown scenario \"" + std::string(name) + "\"; valid: " + names);
}

}  // namespace throng::scenarios
