// Prints a scrape of ServiceMetrics after a few ticks and RPCs, so that checks written
// outside C++ (promtool check metrics, the dashboard's metric names) read the exact text
// throngd serves, with every family and label present.
#include <cstdio>

#include "service/metrics.h"

int main() {
  throng::service::ServiceMetrics metrics("", 8);
  throng::TickStats stats;
  stats.agents = 10;
  stats.status_count[0] = 8;
  stats.status_count[1] = 1;
  stats.status_count[2] = 1;
  stats.oscillating = 1;
  stats.constraints_mean = 4;
  stats.deviation_mean = 0.1;
  for (int s = 0; s < throng::kStageCount; ++s) stats.stage_ms[s] = 0.1 * (s + 1);
  metrics.RecordTick("cpu", stats);
  metrics.RecordRpc("Step", "OK", 0.003);
  metrics.RecordRpc("Step", "INVALID_ARGUMENT", 0.0002);
  metrics.SetWorlds(1);
  metrics.SetPopulation(10, 0);
  std::fputs(metrics.Scrape().c_str(), stdout);
  return 0;
}
