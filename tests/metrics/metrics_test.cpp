// ServiceMetrics: counters rise by exactly what a tick reports, histograms count one
// observation per tick, every family has HELP, label values stay inside fixed lists,
// and /metrics is served over HTTP.
#include "service/metrics.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "tests/metrics/scrape_text.h"

namespace throng::service {
namespace {

using scrape::SampleValue;
using scrape::SeriesCount;

// A tick with k emergencies and m oscillations, and a little of everything else.
TickStats CraftedTick(uint64_t k, uint64_t m) {
  TickStats s;
  s.agents = 100;
  s.status_count[static_cast<int>(SolveStatus::kOk)] = 100 - k - 3;
  s.status_count[static_cast<int>(SolveStatus::kSafeStop)] = 3;
  s.status_count[static_cast<int>(SolveStatus::kEmergency)] = k;
  s.oscillating = m;
  s.stalled = 2;
  s.stall_episodes = 1;
  s.longest_stall_ticks = 50 + m;
  s.jam_steps = 2;  // of the 3 safe stops
  s.stopped = 4;
  s.time_stopped_s = 0.4;
  s.constraints_mean = 5.5;
  s.constraints_max = 11;
  s.deviation_mean = 0.2;
  s.deviation_max = 1.25;
  s.candidates = 900;
  s.neighbors = 700;
  s.audited_agents = 10;
  s.audited_false_negatives = 0;
  s.agent_overlaps = 1;
  s.vehicle_overlaps = 2;
  s.agents_in_obstacles = 3;
  s.stage_ms[static_cast<int>(Stage::kOrca)] = 3.0;  // 3 ms: between 2.5 ms and 5 ms
  s.stage_ms[static_cast<int>(Stage::kGrid)] = 0.5;
  return s;
}

TEST(ServiceMetricsTest, counters_rise_by_exactly_the_reported_amounts) {
  ServiceMetrics metrics("", 8);
  metrics.RecordTick("cpu", CraftedTick(7, 5));
  const std::string before = metrics.Scrape();
  metrics.RecordTick("cpu", CraftedTick(7, 5));
  metrics.RecordTick("cpu", CraftedTick(2, 11));
  const std::string after = metrics.Scrape();

  auto delta = [&](const std::string& series) {
    return SampleValue(after, series) - SampleValue(before, series);
  };
  EXPECT_EQ(delta(R"(throng_solver_outcomes_total{backend="cpu",case="emergency"})"), 9);
  EXPECT_EQ(delta(R"(throng_solver_outcomes_total{backend="cpu",case="safe_stop"})"), 6);
  EXPECT_EQ(delta(R"(throng_solver_outcomes_total{backend="cpu",case="ok"})"), 90 + 95);
  EXPECT_EQ(delta(R"(throng_oscillating_agent_ticks_total{backend="cpu"})"), 16);
  EXPECT_EQ(delta(R"(throng_stalled_agent_ticks_total{backend="cpu"})"), 4);
  EXPECT_EQ(delta(R"(throng_stall_episodes_total{backend="cpu"})"), 2);
  EXPECT_EQ(delta(R"(throng_jam_steps_total{backend="cpu"})"), 4);
  // A gauge: the last tick's longest running stall (50 + 11), not a sum.
  EXPECT_EQ(SampleValue(after, R"(throng_longest_stall_ticks{backend="cpu"})"), 61);
  EXPECT_EQ(delta(R"(throng_ticks_total{backend="cpu"})"), 2);
  EXPECT_EQ(delta(R"(throng_collisions_total{backend="cpu",kind="agent_agent"})"), 2);
  EXPECT_EQ(delta(R"(throng_collisions_total{backend="cpu",kind="agent_vehicle"})"), 4);
  EXPECT_EQ(delta(R"(throng_collisions_total{backend="cpu",kind="agent_obstacle"})"), 6);
  EXPECT_EQ(delta(R"(throng_neighbor_candidates_total{backend="cpu"})"), 1800);
  EXPECT_EQ(delta(R"(throng_neighbors_total{backend="cpu"})"), 1400);
  EXPECT_EQ(delta(R"(throng_audited_agents_total{backend="cpu"})"), 20);
  EXPECT_EQ(delta(R"(throng_audited_false_negatives_total{backend="cpu"})"), 0);
  EXPECT_NEAR(delta(R"(throng_agent_stopped_seconds_total{backend="cpu"})"), 0.8, 1e-12);
  EXPECT_EQ(SampleValue(after, R"(throng_agents_stopped{backend="cpu"})"), 4);
  EXPECT_EQ(SampleValue(after, R"(throng_constraints_per_agent_max{backend="cpu"})"), 11);
  // Other backends are untouched.
  EXPECT_EQ(SampleValue(after, R"(throng_solver_outcomes_total{backend="cuda",case="emergency"})"),
            0);
}

TEST(ServiceMetricsTest, histograms_observe_once_per_tick) {
  ServiceMetrics metrics("", 8);
  for (int i = 0; i < 4; ++i) metrics.RecordTick("cuda", CraftedTick(1, 1));
  const std::string text = metrics.Scrape();
  const std::string orca = R"(throng_tick_duration_seconds_count{backend="cuda",stage="orca"})";
  EXPECT_EQ(SampleValue(text, orca), 4);
  EXPECT_NEAR(SampleValue(text, R"(throng_tick_duration_seconds_sum{backend="cuda",stage="orca"})"),
              4 * 0.003, 1e-12);
  // 3 ms lands in le=0.005 but not in le=0.0025.
  EXPECT_EQ(
      SampleValue(
          text, R"(throng_tick_duration_seconds_bucket{backend="cuda",stage="orca",le="0.0025"})"),
      0);
  EXPECT_EQ(
      SampleValue(text,
                  R"(throng_tick_duration_seconds_bucket{backend="cuda",stage="orca",le="0.005"})"),
      4);
  // "total" is the whole tick: 3.5 ms per tick.
  EXPECT_NEAR(
      SampleValue(text, R"(throng_tick_duration_seconds_sum{backend="cuda",stage="total"})"),
      4 * 0.0035, 1e-12);
  EXPECT_EQ(
      SampleValue(text, R"(throng_tick_duration_seconds_count{backend="cuda",stage="validate"})"),
      4);
  EXPECT_EQ(SampleValue(text, R"(throng_constraints_per_agent_count{backend="cuda"})"), 4);
  EXPECT_NEAR(SampleValue(text, R"(throng_constraints_per_agent_sum{backend="cuda"})"), 22, 1e-12);
  EXPECT_EQ(
      SampleValue(text, R"(throng_velocity_deviation_meters_per_second_count{backend="cuda"})"), 4);
}

TEST(ServiceMetricsTest, tick_without_solved_agents_observes_no_means) {
  ServiceMetrics metrics("", 8);
  TickStats vehicles_only;
  vehicles_only.vehicles = 3;
  metrics.RecordTick("cpu", vehicles_only);
  const std::string text = metrics.Scrape();
  EXPECT_EQ(SampleValue(text, R"(throng_ticks_total{backend="cpu"})"), 1);
  EXPECT_EQ(SampleValue(text, R"(throng_constraints_per_agent_count{backend="cpu"})"), 0);
  EXPECT_EQ(
      SampleValue(text, R"(throng_velocity_deviation_meters_per_second_count{backend="cpu"})"), 0);
  EXPECT_EQ(SampleValue(text, R"(throng_tick_duration_seconds_count{backend="cpu",stage="total"})"),
            1);
}

TEST(ServiceMetricsTest, rpcs_count_by_method_and_code) {
  ServiceMetrics metrics("", 8);
  metrics.RecordRpc("Step", "OK", 0.002);
  metrics.RecordRpc("Step", "OK", 0.004);
  metrics.RecordRpc("Step", "INVALID_ARGUMENT", 0.0001);
  metrics.RecordRpc("CreateWorld", "RESOURCE_EXHAUSTED", 0.0001);
  const std::string text = metrics.Scrape();
  EXPECT_EQ(SampleValue(text, R"(throng_rpcs_total{code="OK",method="Step"})"), 2);
  EXPECT_EQ(SampleValue(text, R"(throng_rpcs_total{code="INVALID_ARGUMENT",method="Step"})"), 1);
  EXPECT_EQ(
      SampleValue(text, R"(throng_rpcs_total{code="RESOURCE_EXHAUSTED",method="CreateWorld"})"), 1);
  EXPECT_EQ(SampleValue(text, R"(throng_rpc_duration_seconds_count{method="Step"})"), 3);
  EXPECT_NEAR(SampleValue(text, R"(throng_rpc_duration_seconds_sum{method="Step"})"), 0.0061,
              1e-12);
}

TEST(ServiceMetricsTest, unknown_label_values_become_other_and_add_no_series) {
  ServiceMetrics metrics("", 8);
  const size_t series = SeriesCount(metrics.Scrape());
  metrics.RecordTick("tpu", CraftedTick(1, 1));
  metrics.RecordRpc("grpc.health.v1.Health/Check", "NOT_A_CODE", 0.001);
  metrics.RecordRpc("Step", "SOMETHING", 0.001);
  const std::string text = metrics.Scrape();
  EXPECT_EQ(SeriesCount(text), series);
  EXPECT_EQ(SampleValue(text, R"(throng_solver_outcomes_total{backend="other",case="emergency"})"),
            1);
  EXPECT_EQ(SampleValue(text, R"(throng_rpcs_total{code="other",method="other"})"), 1);
  EXPECT_EQ(SampleValue(text, R"(throng_rpcs_total{code="other",method="Step"})"), 1);
  EXPECT_EQ(text.find("tpu"), std::string::npos);
}

TEST(ServiceMetricsTest, gauges_hold_the_latest_values) {
  ServiceMetrics metrics("", 16);
  metrics.SetWorlds(3);
  metrics.SetPopulation(12000, 40);
  metrics.SetWorlds(2);
  const std::string text = metrics.Scrape();
  EXPECT_EQ(SampleValue(text, "throng_worlds"), 2);
  EXPECT_EQ(SampleValue(text, "throng_worlds_limit"), 16);
  EXPECT_EQ(SampleValue(text, "throng_agents"), 12000);
  EXPECT_EQ(SampleValue(text, "throng_vehicles"), 40);
}

TEST(ServiceMetricsTest, every_family_has_help_and_type) {
  const std::pair<const char*, const char*> families[] = {
      {"throng_ticks_total", "counter"},
      {"throng_solver_outcomes_total", "counter"},
      {"throng_oscillating_agent_ticks_total", "counter"},
      {"throng_stalled_agent_ticks_total", "counter"},
      {"throng_stall_episodes_total", "counter"},
      {"throng_longest_stall_ticks", "gauge"},
      {"throng_jam_steps_total", "counter"},
      {"throng_reroutes_total", "counter"},
      {"throng_collisions_total", "counter"},
      {"throng_constraints_per_agent", "histogram"},
      {"throng_constraints_per_agent_max", "gauge"},
      {"throng_velocity_deviation_meters_per_second", "histogram"},
      {"throng_velocity_deviation_max_meters_per_second", "gauge"},
      {"throng_agents_stopped", "gauge"},
      {"throng_agent_stopped_seconds_total", "counter"},
      {"throng_neighbor_candidates_total", "counter"},
      {"throng_neighbors_total", "counter"},
      {"throng_audited_agents_total", "counter"},
      {"throng_audited_false_negatives_total", "counter"},
      {"throng_tick_duration_seconds", "histogram"},
      {"throng_rpcs_total", "counter"},
      {"throng_rpc_duration_seconds", "histogram"},
      {"throng_worlds", "gauge"},
      {"throng_worlds_limit", "gauge"},
      {"throng_agents", "gauge"},
      {"throng_vehicles", "gauge"},
  };
  const std::string text = ServiceMetrics("", 8).Scrape();
  for (const auto& [name, type] : families) {
    SCOPED_TRACE(name);
    // A HELP line with text after the name, and the expected TYPE.
    const std::string help = std::string("# HELP ") + name + " ";
    const size_t at = text.find(help);
    ASSERT_NE(at, std::string::npos);
    EXPECT_GT(text.find('\n', at) - at, help.size() + 20);
    EXPECT_NE(text.find(std::string("# TYPE ") + name + " " + type + "\n"), std::string::npos);
  }
  // Every stage of StageName has its series, and "total".
  for (int s = 0; s < kStageCount; ++s) {
    const std::string stage(StageName(static_cast<Stage>(s)));
    EXPECT_NE(text.find(R"(stage=")" + stage + "\""), std::string::npos) << stage;
  }
  EXPECT_NE(text.find(R"(stage="total")"), std::string::npos);
}

// A plain HTTP GET over loopback: enough to see what Prometheus would receive.
std::string HttpGet(int port, const std::string& path) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  const timeval timeout{5, 0};  // a server that never answers fails the test, not hangs it
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    throw std::runtime_error("connect failed");
  }
  const std::string request =
      "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    close(fd);
    throw std::runtime_error("write failed");
  }
  std::string response;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) response.append(buf, n);
  close(fd);
  return response;
}

TEST(ServiceMetricsTest, serves_metrics_over_http_on_a_chosen_port) {
  ServiceMetrics metrics("127.0.0.1:0", 8);
  ASSERT_GT(metrics.Port(), 0);
  metrics.RecordTick("cpu", CraftedTick(3, 2));
  const std::string response = HttpGet(metrics.Port(), "/metrics");
  EXPECT_NE(response.find("200 OK"), std::string::npos);
  EXPECT_NE(response.find(R"(throng_solver_outcomes_total{backend="cpu",case="emergency"} 3)"),
            std::string::npos);
  EXPECT_EQ(ServiceMetrics("", 8).Port(), 0);
}

TEST(ServiceMetricsTest, reject_a_port_in_use) {
  ServiceMetrics first("127.0.0.1:0", 8);
  ASSERT_GT(first.Port(), 0);
  EXPECT_THROW(ServiceMetrics("127.0.0.1:" + std::to_string(first.Port()), 8), std::runtime_error);
}

// Behind a proxy (docs/OPERATIONS.md, "Many replicas") each replica names itself: every
// sample of every family then carries replica="<name>", and without --replica none does.
TEST(ServiceMetricsTest, a_replica_labels_every_series) {
  ServiceMetrics named("", 8, "throngd-2"), plain("", 8);
  for (ServiceMetrics* m : {&named, &plain}) {
    m->RecordTick("cpu", CraftedTick(7, 5));
    m->RecordRpc("Step", "OK", 0.002);
    m->SetWorlds(3);
  }
  int samples = 0;
  std::istringstream lines(named.Scrape());
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    ++samples;
    EXPECT_NE(line.find("replica=\"throngd-2\""), std::string::npos) << line;
  }
  EXPECT_GT(samples, 100);
  EXPECT_EQ(plain.Scrape().find("replica="), std::string::npos);
  EXPECT_EQ(SampleValue(named.Scrape(), R"(throng_worlds{replica="throngd-2"})"), 3);
}

}  // namespace
}  // namespace throng::service
