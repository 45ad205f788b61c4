// throngd's metrics. Every family and every label child is created here, once, in the
// constructor; recording only follows cached pointers (STYLE.md #13), so a tick costs a
// few atomic adds and one short histogram lock per observation, and no map lookups.
// Label values come from fixed lists: anything unexpected is recorded as "other", so a
// caller can never grow the number of series.
#include "service/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/exposer.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <array>
#include <exception>
#include <stdexcept>
#include <utility>
#include <vector>

#include "service/metric_labels.h"

namespace throng::service {
namespace {

using prometheus::BuildCounter;
using prometheus::BuildGauge;
using prometheus::BuildHistogram;
using prometheus::Counter;
using prometheus::Gauge;
using prometheus::Histogram;
using prometheus::Registry;

// Seconds, 1-2.5-5 steps: a tick stage on a GPU takes tens of microseconds, a 1M-agent
// tick on two CPU cores whole seconds.
const Histogram::BucketBoundaries kTickBuckets = {0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001,
                                                  0.0025,   0.005,   0.01,   0.025,   0.05,   0.1,
                                                  0.25,     0.5,     1,      2.5,     5,      10};
// Seconds: Advance may run thousands of ticks in one call.
const Histogram::BucketBoundaries kRpcBuckets = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                 0.01,   0.025,   0.05,   0.1,   0.25,   0.5,
                                                 1,      2.5,     5,      10,    30,     60};
// Half-planes per agent: max_neighbors is at most 64, obstacles add a few more.
const Histogram::BucketBoundaries kConstraintBuckets = {0,  1,  2,  3,  4,  6,  8,  12,
                                                        16, 24, 32, 48, 64, 96, 128};
// m/s: pedestrians walk at about 1.4 m/s, vehicles reach 14.
const Histogram::BucketBoundaries kDeviationBuckets = {0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                                       1,    2,     4,    8,   16};

constexpr std::array<std::string_view, 3> kCollisionKinds = {"agent_agent", "agent_vehicle",
                                                             "agent_obstacle"};

// The children of one backend label value.
struct EngineSeries {
  Counter* ticks;
  std::array<Counter*, kSolveStatusCount> outcomes;
  Counter* oscillating;
  Counter* stalled;
  Counter* stall_episodes;
  Gauge* longest_stall;
  Counter* jam_steps;
  Counter* reroutes;
  std::array<Counter*, kCollisionKinds.size()> collisions;
  Histogram* constraints_mean;
  Gauge* constraints_max;
  Histogram* deviation_mean;
  Gauge* deviation_max;
  Gauge* stopped;
  Counter* stopped_seconds;
  Counter* candidates;
  Counter* neighbors;
  Counter* audited;
  Counter* false_negatives;
  std::array<Histogram*, kStageCount + 1> stage;  // the last one is "total"
};

// The children of one method label value.
struct RpcSeries {
  std::array<Counter*, kRpcCodes.size()> calls;
  Histogram* duration;
  Counter* unparseable;
};

}  // namespace

struct ServiceMetrics::Impl {
  std::shared_ptr<Registry> registry = std::make_shared<Registry>();
  std::array<EngineSeries, kBackends.size()> engine{};
  std::array<RpcSeries, kRpcMethods.size()> rpc{};
  Gauge* worlds = nullptr;
  Gauge* agents = nullptr;
  Gauge* vehicles = nullptr;
  // Last, so it stops serving before the registry it reads goes away.
  std::unique_ptr<prometheus::Exposer> exposer;

  Impl(int max_worlds, const prometheus::Labels& replica);
};

// `replica`: the labels every family carries (none, or replica="<name>").
ServiceMetrics::Impl::Impl(int max_worlds, const prometheus::Labels& replica) {
  Registry& r = *registry;
  auto& ticks = BuildCounter()
                    .Name("throng_ticks_total")
                    .Help(
                        "World ticks run. The denominator for the per-tick rates below; "
                        "flat while callers are stepping means ticks are not arriving.")
                    .Labels(replica)
                    .Register(r);
  auto& outcomes = BuildCounter()
                       .Name("throng_solver_outcomes_total")
                       .Help(
                           "ORCA solves per agent by outcome. Rising safe_stop or emergency means "
                           "agents found no collision-free velocity: crowding, contradicting "
                           "obstacles or non-cooperative agents; emergency is the unsafe case.")
                       .Labels(replica)
                       .Register(r);
  auto& oscillating =
      BuildCounter()
          .Name("throng_oscillating_agent_ticks_total")
          .Help(
              "Agent-ticks flagged oscillating (avoidance swinging side to side). Rising "
              "means agents dither in corridors or doorways; consider re-planning them.")
          .Labels(replica)
          .Register(r);
  auto& stalled =
      BuildCounter()
          .Name("throng_stalled_agent_ticks_total")
          .Help(
              "Agent-ticks flagged stalled (no progress toward the goal for stall_ticks). "
              "Rising means deadlocks: the caller should re-plan those agents' paths.")
          .Labels(replica)
          .Register(r);
  auto& stall_episodes =
      BuildCounter()
          .Name("throng_stall_episodes_total")
          .Help(
              "Stalls begun: agents whose time without progress reached stall_ticks. "
              "A rise means new jams forming (a door, a counter-flow, a blocked path); "
              "compare with throng_longest_stall_ticks to see whether they clear.")
          .Labels(replica)
          .Register(r);
  auto& reroutes =
      BuildCounter()
          .Name("throng_reroutes_total")
          .Help(
              "Navigating agents that took a new route after stall_ticks without progress "
              "(docs/NAVIGATION.md, \"Re-routing\"). Rising with throng_stall_episodes_total: "
              "crowds are being sent round a clogged exit or passage.")
          .Labels(replica)
          .Register(r);
  auto& jam_steps =
      BuildCounter()
          .Name("throng_jam_steps_total")
          .Help(
              "Agents whose solve was infeasible (safe_stop or emergency) that moved by a "
              "jam step instead of standing (docs/ORCA.md, step 5). Rising with "
              "safe_stop means a dense crowd that still creeps forward; safe_stop rising "
              "without it means agents are standing.")
          .Labels(replica)
          .Register(r);
  auto& longest_stall =
      BuildGauge()
          .Name("throng_longest_stall_ticks")
          .Help(
              "The last tick's longest running stall, in ticks without progress, over the "
              "agents stalled then (0: none). Climbing tick after tick means a frozen "
              "cluster that does not clear by itself: re-plan or move those agents.")
          .Labels(replica)
          .Register(r);
  auto& collisions =
      BuildCounter()
          .Name("throng_collisions_total")
          .Help(
              "Overlapping pairs at the end of each tick, summed over ticks (a pair "
              "overlapping for 3 ticks counts 3). Rising means avoidance failed or the "
              "caller moved agents differently from the velocities returned.")
          .Labels(replica)
          .Register(r);
  auto& constraints_mean =
      BuildHistogram()
          .Name("throng_constraints_per_agent")
          .Help(
              "Per tick, the mean number of ORCA half-planes per solved agent (one "
              "observation per tick). Rising means denser crowds and slower solves.")
          .Labels(replica)
          .Register(r);
  auto& constraints_max =
      BuildGauge()
          .Name("throng_constraints_per_agent_max")
          .Help(
              "The largest number of half-planes any agent had in the latest tick. "
              "Near max_neighbors plus nearby obstacle edges means someone is packed in.")
          .Labels(replica)
          .Register(r);
  auto& deviation_mean =
      BuildHistogram()
          .Name("throng_velocity_deviation_meters_per_second")
          .Help(
              "Per tick, the mean |chosen - preferred velocity| over solved agents (one "
              "observation per tick). Rising means agents are being pushed off their "
              "intended course: congestion.")
          .Labels(replica)
          .Register(r);
  auto& deviation_max =
      BuildGauge()
          .Name("throng_velocity_deviation_max_meters_per_second")
          .Help("The largest |chosen - preferred velocity| of any agent in the latest tick.")
          .Labels(replica)
          .Register(r);
  auto& stopped =
      BuildGauge()
          .Name("throng_agents_stopped")
          .Help(
              "Agents that wanted to move but were given no speed, in the latest tick "
              "(with several worlds, whichever ticked last). Rising means queues or jams.")
          .Labels(replica)
          .Register(r);
  auto& stopped_seconds =
      BuildCounter()
          .Name("throng_agent_stopped_seconds_total")
          .Help(
              "Simulated agent-seconds spent stopped while wanting to move. Its rate "
              "rising means more agents are waiting.")
          .Labels(replica)
          .Register(r);
  auto& candidates =
      BuildCounter()
          .Name("throng_neighbor_candidates_total")
          .Help(
              "Neighbour candidates passing the conservative distance filter, summed "
              "over agents and ticks. Rising per agent means denser crowds: more solver "
              "time, never missed contacts.")
          .Labels(replica)
          .Register(r);
  auto& neighbors =
      BuildCounter()
          .Name("throng_neighbors_total")
          .Help(
              "Neighbours kept for the solve (closest max_neighbors of the candidates). "
              "candidates minus neighbours is the work the filter could not skip.")
          .Labels(replica)
          .Register(r);
  auto& audited = BuildCounter()
                      .Name("throng_audited_agents_total")
                      .Help(
                          "Agents whose neighbour query was checked against brute force "
                          "(WorldConfig.audit_every). Zero means auditing is off.")
                      .Labels(replica)
                      .Register(r);
  auto& false_negatives =
      BuildCounter()
          .Name("throng_audited_false_negatives_total")
          .Help(
              "Neighbours the grid query missed in audited agents. Any rise is a bug: a "
              "missed neighbour is a collision ORCA cannot see.")
          .Labels(replica)
          .Register(r);
  auto& stage = BuildHistogram()
                    .Name("throng_tick_duration_seconds")
                    .Help(
                        "Wall-clock time of one tick by stage (stage=\"total\": the whole "
                        "tick). Rising p99 means ticks are missing the caller's frame "
                        "budget; the stage says where the time goes.")
                    .Labels(replica)
                    .Register(r);

  for (size_t b = 0; b < kBackends.size(); ++b) {
    const std::string backend(kBackends[b]);
    EngineSeries& e = engine[b];
    e.ticks = &ticks.Add({{"backend", backend}});
    for (int s = 0; s < kSolveStatusCount; ++s) {
      e.outcomes[s] = &outcomes.Add({{"backend", backend}, {"case", std::string(kCases[s])}});
    }
    e.oscillating = &oscillating.Add({{"backend", backend}});
    e.stalled = &stalled.Add({{"backend", backend}});
    e.stall_episodes = &stall_episodes.Add({{"backend", backend}});
    e.longest_stall = &longest_stall.Add({{"backend", backend}});
    e.jam_steps = &jam_steps.Add({{"backend", backend}});
    e.reroutes = &reroutes.Add({{"backend", backend}});
    for (size_t k = 0; k < kCollisionKinds.size(); ++k) {
      e.collisions[k] =
          &collisions.Add({{"backend", backend}, {"kind", std::string(kCollisionKinds[k])}});
    }
    e.constraints_mean = &constraints_mean.Add({{"backend", backend}}, kConstraintBuckets);
    e.constraints_max = &constraints_max.Add({{"backend", backend}});
    e.deviation_mean = &deviation_mean.Add({{"backend", backend}}, kDeviationBuckets);
    e.deviation_max = &deviation_max.Add({{"backend", backend}});
    e.stopped = &stopped.Add({{"backend", backend}});
    e.stopped_seconds = &stopped_seconds.Add({{"backend", backend}});
    e.candidates = &candidates.Add({{"backend", backend}});
    e.neighbors = &neighbors.Add({{"backend", backend}});
    e.audited = &audited.Add({{"backend", backend}});
    e.false_negatives = &false_negatives.Add({{"backend", backend}});
    for (int s = 0; s <= kStageCount; ++s) {
      const std::string name(s < kStageCount ? StageName(static_cast<Stage>(s)) : "total");
      e.stage[s] = &stage.Add({{"backend", backend}, {"stage", name}}, kTickBuckets);
    }
  }

  auto& calls = BuildCounter()
                    .Name("throng_rpcs_total")
                    .Help(
                        "Finished RPCs by method and gRPC status code. Rising non-OK codes "
                        "mean callers send bad input (INVALID_ARGUMENT, NOT_FOUND) or "
                        "the server is over its limits (RESOURCE_EXHAUSTED).")
                    .Labels(replica)
                    .Register(r);
  auto& duration = BuildHistogram()
                       .Name("throng_rpc_duration_seconds")
                       .Help(
                           "Server-side RPC latency by method, from request to response "
                           "(a whole stream for StreamSteps). Rising means slow ticks or "
                           "a queue of callers.")
                       .Labels(replica)
                       .Register(r);
  auto& unparseable = BuildCounter()
                          .Name("throng_unparseable_requests_total")
                          .Help(
                              "Requests whose bytes are no valid message of their method, by "
                              "method: gRPC answers them INTERNAL before any handler runs "
                              "(also counted in throng_rpcs_total as INTERNAL). Rising means a "
                              "client with a mismatched or corrupt proto, not a server bug.")
                          .Labels(replica)
                          .Register(r);
  for (size_t m = 0; m < kRpcMethods.size(); ++m) {
    const std::string method(kRpcMethods[m]);
    for (size_t c = 0; c < kRpcCodes.size(); ++c) {
      rpc[m].calls[c] = &calls.Add({{"method", method}, {"code", std::string(kRpcCodes[c])}});
    }
    rpc[m].duration = &duration.Add({{"method", method}}, kRpcBuckets);
    rpc[m].unparseable = &unparseable.Add({{"method", method}});
  }

  worlds = &BuildGauge()
                .Name("throng_worlds")
                .Help(
                    "Live worlds. Near throng_worlds_limit means CreateWorld will soon "
                    "fail with RESOURCE_EXHAUSTED.")
                .Labels(replica)
                .Register(r)
                .Add({});
  BuildGauge()
      .Name("throng_worlds_limit")
      .Help("The --max-worlds setting: the most worlds this server keeps.")
      .Labels(replica)
      .Register(r)
      .Add({})
      .Set(max_worlds);
  agents = &BuildGauge()
                .Name("throng_agents")
                .Help(
                    "Pedestrian agents over every world's current state. Tick latency "
                    "grows with it.")
                .Labels(replica)
                .Register(r)
                .Add({});
  vehicles = &BuildGauge()
                  .Name("throng_vehicles")
                  .Help("Vehicles over every world's current state.")
                  .Labels(replica)
                  .Register(r)
                  .Add({});
}

ServiceMetrics::ServiceMetrics(const std::string& listen, int max_worlds,
                               const std::string& replica)
    : impl_(std::make_unique<Impl>(max_worlds, replica.empty()
                                                   ? prometheus::Labels{}
                                                   : prometheus::Labels{{"replica", replica}})) {
  if (listen.empty()) return;
  try {
    impl_->exposer = std::make_unique<prometheus::Exposer>(listen);
  } catch (const std::exception& e) {
    // civetweb throws its own exception type; callers only need to know the port failed.
    throw std::runtime_error("metrics: cannot listen on " + listen + ": " + e.what());
  }
  impl_->exposer->RegisterCollectable(impl_->registry);
}

ServiceMetrics::~ServiceMetrics() = default;

void ServiceMetrics::RecordTick(std::string_view backend, const TickStats& stats) {
  EngineSeries& e = impl_->engine[BackendIndex(backend)];
  e.ticks->Increment();
  uint64_t solved = 0;
  for (int s = 0; s < kSolveStatusCount; ++s) {
    // Increment(0) is skipped: it still costs a compare-exchange loop on a shared line.
    if (stats.status_count[s]) e.outcomes[s]->Increment(static_cast<double>(stats.status_count[s]));
    solved += stats.status_count[s];
  }
  auto add = [](Counter* c, double v) {
    if (v > 0) c->Increment(v);
  };
  add(e.oscillating, static_cast<double>(stats.oscillating));
  add(e.stalled, static_cast<double>(stats.stalled));
  add(e.stall_episodes, static_cast<double>(stats.stall_episodes));
  e.longest_stall->Set(static_cast<double>(stats.longest_stall_ticks));
  add(e.jam_steps, static_cast<double>(stats.jam_steps));
  add(e.reroutes, static_cast<double>(stats.reroutes));
  add(e.collisions[0], static_cast<double>(stats.agent_overlaps));
  add(e.collisions[1], static_cast<double>(stats.vehicle_overlaps));
  add(e.collisions[2], static_cast<double>(stats.agents_in_obstacles));
  add(e.stopped_seconds, stats.time_stopped_s);
  add(e.candidates, static_cast<double>(stats.candidates));
  add(e.neighbors, static_cast<double>(stats.neighbors));
  add(e.audited, static_cast<double>(stats.audited_agents));
  add(e.false_negatives, static_cast<double>(stats.audited_false_negatives));
  e.stopped->Set(static_cast<double>(stats.stopped));
  // Means over solved agents: a tick without pedestrians has none, and observing its 0
  // would drag the distribution toward "uncrowded".
  if (solved > 0) {
    e.constraints_mean->Observe(stats.constraints_mean);
    e.constraints_max->Set(stats.constraints_max);
    e.deviation_mean->Observe(stats.deviation_mean);
    e.deviation_max->Set(stats.deviation_max);
  }
  for (int s = 0; s < kStageCount; ++s) e.stage[s]->Observe(stats.stage_ms[s] / 1000.0);
  e.stage[kStageCount]->Observe(stats.total_ms() / 1000.0);
}

void ServiceMetrics::RecordRpc(std::string_view method, std::string_view code, double seconds) {
  RpcSeries& s = impl_->rpc[RpcMethodIndex(method)];
  s.calls[RpcCodeIndex(code)]->Increment();
  s.duration->Observe(seconds);
}

void ServiceMetrics::RecordUnparseable(std::string_view method, std::string_view code) {
  RpcSeries& s = impl_->rpc[RpcMethodIndex(method)];
  s.unparseable->Increment();
  s.calls[RpcCodeIndex(code)]->Increment();
}

void ServiceMetrics::SetWorlds(int64_t worlds) { impl_->worlds->Set(static_cast<double>(worlds)); }

void ServiceMetrics::SetPopulation(int64_t agents, int64_t vehicles) {
  impl_->agents->Set(static_cast<double>(agents));
  impl_->vehicles->Set(static_cast<double>(vehicles));
}

std::string ServiceMetrics::Scrape() const {
  return prometheus::TextSerializer().Serialize(impl_->registry->Collect());
}

int ServiceMetrics::Port() const {
  if (!impl_->exposer) return 0;
  const std::vector<int> ports = impl_->exposer->GetListeningPorts();
  return ports.empty() ? 0 : ports.front();
}

}  // namespace throng::service
