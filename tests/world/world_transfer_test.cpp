// TickStats::stage_bytes_*: each tick stage books the bytes its backend calls copy between
// host and backend memory. A decorator over the cpu backend counts what a device backend
// would copy for each call (its inputs in, unless they are what the tick's earlier calls
// left on the backend: ColumnSource::kThisTick; its answers out), and the world must book
// them under the stage that made the call. TickStats::backend_ms and orca_solve_ms: the time a
// tick spent inside its backend's calls, with calls the decorator makes take a known time.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <numeric>
#include <thread>

#include "kernels/scenarios/scenario.h"
#include "kernels/world/world.h"
#include "tests/backends/cpu_forwarding_backend.h"
#include "tests/world/stop_in_tick.h"

namespace throng {
namespace {

class CopyCountingBackend : public testing::CpuForwardingBackend {
 public:
  TransferredBytes transferred() const override { return copied_; }

  void SolveOrca(const OrcaParams& params, const AgentColumns& agents,
                 const OrcaRunOptions& options, OrcaResult* out) override {
    std::this_thread::sleep_for(orca_delay);
    cpu_.SolveOrca(params, agents, options, out);
    if (options.agents == ColumnSource::kHost) copied_.to_backend += agents.size() * kOrcaBytesIn;
    if (options.results_to_host) copied_.to_host += agents.size() * kOrcaBytesOut;
    solved_rows = agents.size();
  }
  // A device copies the columns the snapshot has (a null column takes nothing) in, and
  // every prepared column out; none in when they are the last tick's (kLastTick) and the
  // last preparation had the same columns.
  uint64_t PreparePedestrians(const PedestrianPrepareParams& params,
                              const PedestrianPrepareScene& scene,
                              const PedestrianPrepareOutput& out) override {
    const void* floats[] = {scene.x,       scene.y,      scene.z,      scene.vx,
                            scene.vy,      scene.vz,     scene.radius, scene.max_speed,
                            scene.goal_x,  scene.goal_y, scene.goal_z, scene.pref_vx,
                            scene.pref_vy, scene.pref_vz};
    uint32_t present = 0, bit = 1;
    for (const void* column : floats) {
      present |= column != nullptr ? bit : 0;
      bit <<= 1;
    }
    for (const void* column : {scene.flags, scene.behavior}) {
      present |= column != nullptr ? bit : 0;
      bit <<= 1;
    }
    const bool last_tick =
        params.columns == ColumnSource::kLastTick && present == last_prepare_present_;
    last_prepare_present_ = present;
    for (const void* column : floats) {
      if (column != nullptr && !last_tick) copied_.to_backend += scene.count * sizeof(float);
    }
    for (const void* column : {scene.flags, scene.behavior}) {
      if (column != nullptr && !last_tick) copied_.to_backend += scene.count;
    }
    if (params.outputs_to_host) copied_.to_host += scene.count * kPrepareBytesOut;
    return cpu_.PreparePedestrians(params, scene, out);
  }
  // A device copies the world's targets and fields when their version is new, the target
  // column unless it is the last call's, the memory unless it is the kept report's, and
  // the preferred velocities out only when asked.
  uint64_t SteerNavigating(const NavSteerParams& params, const NavSteerWorld& world,
                           const NavSteerScene& scene, const NavSteerOutput& out) override {
    CopyNavigationIn(params, world, scene);
    Copy(0, sizeof(uint64_t));  // the count of unknown targets
    if (params.outputs_to_host) Copy(0, scene.count * 2 * sizeof(float));
    return cpu_.SteerNavigating(params, world, scene, out);
  }
  // The same copies in; out, a byte per target and the count, and the positions when asked.
  uint64_t NavigationRoutes(const NavSteerParams& params, const NavSteerWorld& world,
                            const NavSteerScene& scene, const NavRoutesOutput& out) override {
    CopyNavigationIn(params, world, scene);
    Copy(0, world.target_count + sizeof(uint64_t) +
                (out.x != nullptr ? scene.count * 2 * sizeof(float) : 0));
    ++nav_routes_calls;
    return cpu_.NavigationRoutes(params, world, scene, out);
  }
  void CopyNavigationIn(const NavSteerParams& params, const NavSteerWorld& world,
                        const NavSteerScene& scene) {
    const size_t n = scene.count;
    if (!nav_copied_ || world.version != nav_version_) {
      uint64_t bytes = world.target_count * (sizeof(NavSteerTarget) + sizeof(NavTargetKey) +
                                             2 * sizeof(NavFieldView)) +
                       world.ring_points * sizeof(Vec2) + 256 * sizeof(Vec2);
      for (size_t k = 0; k < world.target_count; ++k) {
        for (const NavFieldView& f : {world.fields[k], world.crowd_fields[k]}) {
          if (f.heading != nullptr) bytes += f.spec.cells();
        }
      }
      Copy(bytes, 0);
      nav_copied_ = true;
      nav_version_ = world.version;
      ++nav_world_copies;
    }
    if (params.targets != ColumnSource::kLastTick) Copy(n * sizeof(uint32_t), 0);
    if (params.memory != ColumnSource::kLastTick && scene.memory != nullptr) {
      Copy(n * sizeof(AgentMemory), 0);
    }
  }
  int nav_world_copies = 0, nav_routes_calls = 0;
  void MovePedestrians(const PedestrianMoveParams& params, const PedestrianMoveScene& scene,
                       const PedestrianMoveOutput& out) override {
    if (params.columns == ColumnSource::kHost) Copy(scene.count * kMoveBytesIn, 0);
    if (params.positions_to_host) Copy(0, scene.count * kMovedPositionBytes);
    if (params.next_state_to_host) Copy(0, scene.count * kNextStateBytes);
    cpu_.MovePedestrians(params, scene, out);
  }
  PedestrianSums ReportPedestrians(const PedestrianReportParams& params,
                                   const PedestrianReportScene& scene,
                                   const PedestrianReportOutput& out) override {
    if (params.columns == ColumnSource::kHost) Copy(scene.count * kReportBytesIn, 0);
    if (params.memory == ColumnSource::kHost) Copy(scene.count * sizeof(AgentMemory), 0);
    if (params.results_to_host) {
      Copy(0, scene.count * (kReportBytesOut +
                             (out.pref_vx != nullptr ? kReportLocalBytesOut : uint64_t{0})));
    }
    if (params.memory_to_host) Copy(0, scene.count * sizeof(AgentMemory));
    return cpu_.ReportPedestrians(params, scene, out);
  }
  void FetchKeptPedestrians(const KeptPedestrianRows& out) override {
    if (out.x != nullptr) Copy(0, out.state_rows * kNextStateBytes);
    if (out.memory != nullptr) Copy(0, out.memory_rows * sizeof(AgentMemory));
    cpu_.FetchKeptPedestrians(out);
  }
  // As the pedestrians': the columns the snapshot has, the lanes by id and the memory in;
  // every prepared column out and the memory, each when asked for.
  uint64_t PrepareVehicles(const VehiclePrepareParams& params, const VehiclePrepareScene& scene,
                           const VehiclePrepareOutput& out) override {
    const uint64_t refused = cpu_.PrepareVehicles(params, scene, out);
    if (scene.count == 0) return refused;  // nothing to copy
    // Last tick's columns where it left them, when the same ones are present (a caller's
    // first snapshot may lack some the move writes).
    uint32_t present = 0, bit = 1;
    const void* const optional[6] = {scene.z,     scene.progress_hint, scene.length,
                                     scene.width, scene.max_speed,     scene.profile};
    for (const void* column : optional) {
      if (column != nullptr) present |= bit;
      bit <<= 1;
    }
    const bool last_tick =
        params.columns == ColumnSource::kLastTick && present == last_vehicle_present_;
    last_vehicle_present_ = present;
    if (!last_tick) {
      for (const void* column :
           {scene.z, scene.progress_hint, scene.length, scene.width, scene.max_speed}) {
        if (column != nullptr) copied_.to_backend += scene.count * sizeof(float);
      }
      if (scene.profile != nullptr) copied_.to_backend += scene.count * sizeof(uint32_t);
      copied_.to_backend += scene.count * kReadyBytesIn + scene.lanes.count * 2 * sizeof(uint32_t);
    }
    if (params.memory == ColumnSource::kHost) CopyVehicleMemory(scene.count, 0);
    if (params.outputs_to_host) {
      ready_rows_home += scene.count;
      copied_.to_host += scene.count * kReadyBytesOut;
      if (scene.profile != nullptr) copied_.to_host += scene.count * sizeof(uint16_t);
    }
    if (params.memory_to_host) CopyVehicleMemory(0, scene.count);
    return refused;
  }
  // With kThisTick, nothing goes in: the preparation's, follower's and braking's columns.
  void MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& scene,
                    const VehicleMoveOutput& out) override {
    if (params.columns == ColumnSource::kHost) copied_.to_backend += scene.count * kDriveBytesIn;
    if (params.next_state_to_host) CopyVehicleState(scene.count);
    if (params.bodies_to_host) copied_.to_host += scene.count * sizeof(VehicleBody);
    cpu_.MoveVehicles(params, scene, out);
  }
  // The profiles' table when it is not the one the backend holds; the columns only from the
  // host; the capped answers when asked for.
  uint64_t BrakeForPaths(const PathBrakingScene& scene, const PathBrakingOutput& out) override {
    const std::vector<BrakingProfile> table(scene.profiles, scene.profiles + scene.profile_count);
    const auto same = [](const BrakingProfile& a, const BrakingProfile& b) {
      return a.max_brake_decel == b.max_brake_decel && a.speed_gain == b.speed_gain;
    };
    const bool held = scene.columns == ColumnSource::kThisTick && table_held_ &&
                      std::equal(table.begin(), table.end(), table_.begin(), table_.end(), same);
    if (!held) copied_.to_backend += scene.profile_count * sizeof(BrakingProfile);
    table_ = table;
    table_held_ = true;
    if (scene.columns == ColumnSource::kHost) {
      copied_.to_backend += scene.count * (kBrakeBytesIn + (scene.profile != nullptr ? 2 : 0));
    }
    if (scene.columns == ColumnSource::kHost || scene.answers_to_host) {
      CopyVehicleAnswers(scene.count * kBrakeBytesOut);
    }
    return cpu_.BrakeForPaths(scene, out);
  }
  // The bodies, speeds and layout from the host; nothing from this tick's preparation (the
  // layout is made from its bodies).
  void WriteVehicleDiscs(const VehicleDiscScene& scene, const VehicleDiscOutput& out) override {
    if (scene.columns == ColumnSource::kHost) {
      copied_.to_backend += scene.count * kDiscBytesIn + (scene.count + 1) * sizeof(uint32_t);
    }
    if (out.to_host) copied_.to_host += scene.disc_start[scene.count] * kDiscBytesOut;
    cpu_.WriteVehicleDiscs(scene, out);
  }
  void FollowSplines(const FollowerParams& params, float world_speed_limit,
                     const VehicleColumns& vehicles, const FollowRunOptions& options,
                     FollowerResults* out) override {
    cpu_.FollowSplines(params, world_speed_limit, vehicles, options, out);
    if (options.vehicles == ColumnSource::kHost) {
      copied_.to_backend += vehicles.size() * (kFollowBytesIn + (vehicles.profile.empty() ? 0 : 2));
    }
    // Three of the six answers come back from the braking when it follows; the others when
    // asked for.
    if (!options.braking_follows) CopyVehicleAnswers(vehicles.size() * kFollowResultBytesOut / 2);
    if (options.answers_to_host) CopyVehicleAnswers(vehicles.size() * kFollowResultBytesOut / 2);
    if (options.debug_to_host) copied_.to_host += vehicles.size() * kFollowDebugBytesOut;
    // The memory it completes: up from the host unless the preparation left it, home
    // when asked for.
    if (options.memory != nullptr) {
      if (options.vehicles == ColumnSource::kHost) CopyVehicleMemory(vehicles.size(), 0);
      if (options.memory_to_host) CopyVehicleMemory(0, vehicles.size());
    }
  }
  // What the world kept of the vehicles: the memory the follower completed.
  void KeepVehicles() override { cpu_.KeepVehicles(); }
  void FetchKeptVehicles(const KeptVehicleRows& out) override {
    if (out.memory != nullptr) CopyVehicleMemory(0, out.memory_rows);
    if (out.x != nullptr) CopyVehicleState(out.state_rows);
    cpu_.FetchKeptVehicles(out);
  }
  // The snapshot's forward columns in (those it has); the pedestrians' and the vehicles'
  // bodies only from the host; the answers and the next state out, when asked for.
  uint64_t PrepareForwardScene(const ForwardPrepareParams& params,
                               const ForwardPrepareScene& scene) override {
    const void* const columns[15] = {
        scene.x,         scene.y,      scene.z,          scene.forward_x,    scene.forward_y,
        scene.forward_z, scene.speed,  scene.radius,     scene.goal_x,       scene.goal_y,
        scene.goal_z,    scene.probes, scene.half_angle, scene.probe_length, scene.turn_speed};
    // None of them when they are the kept tick's (kLastTick) and the last preparation had
    // the same columns: the moved ones are where the kept move left them.
    uint32_t present = 0;
    for (int k = 0; k < 15; ++k) present |= columns[k] != nullptr ? 1u << k : 0u;
    const bool last_tick =
        params.columns == ColumnSource::kLastTick && present == last_forward_present_;
    last_forward_present_ = present;
    for (const void* column : columns) {
      if (column != nullptr && !last_tick) {
        copied_.to_backend += scene.count * sizeof(float);
        forward_up += scene.count * sizeof(float);
      }
    }
    if (params.pedestrians == ColumnSource::kHost) {
      copied_.to_backend += scene.pedestrians * kFanPedestrianBytesIn;
    }
    if (params.vehicles == ColumnSource::kHost) {
      copied_.to_backend += scene.vehicles * (sizeof(VehicleBody) + sizeof(float));
    }
    const uint64_t refused = cpu_.PrepareForwardScene(params, scene);
    forward_prepared_ = scene.count;
    return refused;
  }
  ForwardSums SteerForwardScene(const ForwardSteerParams& params, const StopRequested& stop,
                                const ForwardSteerOutput& out) override {
    if (params.results_to_host) {
      copied_.to_host += forward_prepared_ * kFanAnswerBytesOut;
      forward_answer_rows_home += forward_prepared_;
    }
    return cpu_.SteerForwardScene(params, stop, out);
  }
  void MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                         const ForwardMoveOutput& out) override {
    if (params.columns == ColumnSource::kHost) {
      copied_.to_backend += scene.count * kFlyBytesIn;
      forward_up += scene.count * kFlyBytesIn;
    }
    if (params.next_state_to_host) CopyForwardState(scene.count);
    cpu_.MoveForwardAgents(params, scene, out);
  }
  void FetchKeptForward(const KeptForwardRows& out) override {
    CopyForwardState(out.rows);
    cpu_.FetchKeptForward(out);
  }
  CollisionCounts CountContacts(const ContactScene& scene, const StopRequested& stop) override {
    if (scene.columns == ColumnSource::kHost) copied_.to_backend += scene.count * kContactBytesIn;
    if (scene.bodies_columns == ColumnSource::kHost) {
      copied_.to_backend += scene.body_count * sizeof(VehicleBody);
    }
    std::this_thread::sleep_for(contacts_delay);
    return cpu_.CountContacts(scene, stop);
  }
  void CheckPaths(const PathCheckParams& params, float max_brake_decel, const PathCheckScene& scene,
                  const StopRequested& stop, std::vector<float>* clear) override {
    cpu_.CheckPaths(params, max_brake_decel, scene, stop, clear);
    if (scene.vehicle_columns == ColumnSource::kHost) {
      copied_.to_backend += scene.vehicles * kPathBytesIn;
    }
    if (scene.clear_to_host) CopyVehicleAnswers(clear->size() * sizeof(float));
  }

  static constexpr uint64_t kOrcaBytesIn = 37, kOrcaBytesOut = 11;
  // The follower's lane index, seven floats, wheel angle and turn share in (a profile
  // besides); six results and twelve debug columns out.
  static constexpr uint64_t kFollowBytesIn = 40, kFollowResultBytesOut = 24,
                            kFollowDebugBytesOut = 48;
  static constexpr uint64_t kContactBytesIn = 12;
  // The report's sixteen columns in (the memory besides), its results and the memory out;
  // the local columns (three floats and a count) come back only when asked for.
  static constexpr uint64_t kReportBytesIn = 47, kReportBytesOut = 14, kReportLocalBytesOut = 14;
  static constexpr uint64_t kMoveBytesIn = 36, kMovedPositionBytes = 12, kNextStateBytes = 24;
  // Body, pose, speed, wheel angle, controls and progress in; the wheel angle and the next
  // state out, when asked for (the moved body likewise).
  static constexpr uint64_t kDriveBytesIn = 64, kDriveBytesOut = 28;
  // The path check's body, lane, progress and speed.
  static constexpr uint64_t kPathBytesIn = sizeof(VehicleBody) + 12;
  // Id, spline id, x, y, yaw, speed in; 11 columns, lane and body out (the memory besides,
  // each way).
  static constexpr uint64_t kReadyBytesIn = 24;
  static constexpr uint64_t kReadyBytesOut = 48 + sizeof(VehicleBody);
  // Body and speed in (beyond the layout); the ten agent columns out.
  static constexpr uint64_t kDiscBytesIn = 28, kDiscBytesOut = 37;
  // Three answers, the clear distance and the speed in (a profile besides); three out.
  static constexpr uint64_t kBrakeBytesIn = 20, kBrakeBytesOut = 12;
  static constexpr uint64_t kPrepareBytesOut = 55;
  bool nav_copied_ = false;
  uint64_t nav_version_ = 0;
  // A pedestrian's x, y, radius and height for the fans; three floats, a probe, a float and
  // a flag out; position, direction and speed in, the next position and heading out.
  static constexpr uint64_t kFanPedestrianBytesIn = 16, kFanAnswerBytesOut = 19;
  static constexpr uint64_t kFlyBytesIn = 28, kFlyBytesOut = 24;
  size_t solved_rows = 0;  // the last solve's: the pedestrians and the vehicles' discs
  uint64_t ready_rows_home = 0;  // the vehicles' prepared rows that came home
  // The forward agents' bytes copied up, and their answers' and next state's rows home.
  uint64_t forward_up = 0, forward_answer_rows_home = 0, forward_state_rows_home = 0;
  // What the pedestrians' report, move and fetch copied, of copied_.
  TransferredBytes pedestrians;
  // The vehicles' memory copied, of copied_ (rows, each way), and their next state's rows
  // that came home.
  TransferredBytes vehicle_memory_rows;
  uint64_t vehicle_state_rows_home = 0;
  // The vehicles' answers that came home (the follower's, the braking's, the clear
  // distances), bytes.
  uint64_t vehicle_answers_home = 0;
  // Added to the ORCA solve's and the contact count's time (TickStats::backend_ms).
  std::chrono::milliseconds orca_delay{0}, contacts_delay{0};

 private:
  void Copy(uint64_t to_backend, uint64_t to_host) {
    copied_.to_backend += to_backend;
    copied_.to_host += to_host;
    pedestrians.to_backend += to_backend;
    pedestrians.to_host += to_host;
  }
  void CopyVehicleAnswers(uint64_t bytes) {
    copied_.to_host += bytes;
    vehicle_answers_home += bytes;
  }
  void CopyForwardState(uint64_t rows) {
    copied_.to_host += rows * kFlyBytesOut;
    forward_state_rows_home += rows;
  }
  void CopyVehicleState(uint64_t rows) {
    copied_.to_host += rows * kDriveBytesOut;
    vehicle_state_rows_home += rows;
  }
  void CopyVehicleMemory(uint64_t rows_to_backend, uint64_t rows_to_host) {
    copied_.to_backend += rows_to_backend * sizeof(VehicleMemory);
    copied_.to_host += rows_to_host * sizeof(VehicleMemory);
    vehicle_memory_rows.to_backend += rows_to_backend;
    vehicle_memory_rows.to_host += rows_to_host;
  }
  TransferredBytes copied_;
  size_t forward_prepared_ = 0;
  uint32_t last_prepare_present_ = 0, last_vehicle_present_ = 0, last_forward_present_ = 0;
  std::vector<BrakingProfile> table_;  // the braking profiles the backend holds
  bool table_held_ = false;
};

uint64_t Sum(const std::array<uint64_t, kStageCount>& bytes) {
  return std::accumulate(bytes.begin(), bytes.end(), uint64_t{0});
}

// What the pedestrians' preparation reads per agent: the columns the state has, of those it
// reads (AgentSnapshot's order).
uint64_t PrepareBytesIn(const AgentSnapshot& a) {
  uint64_t bytes = 0;
  for (const std::vector<float>* column :
       {&a.x, &a.y, &a.z, &a.vx, &a.vy, &a.vz, &a.radius, &a.max_speed, &a.goal_x, &a.goal_y,
        &a.goal_z, &a.pref_vx, &a.pref_vy, &a.pref_vz}) {
    if (!column->empty()) bytes += sizeof(float);
  }
  if (!a.flags.empty()) ++bytes;
  if (!a.behavior.empty()) ++bytes;
  return bytes;
}

// What the vehicles' preparation copies per vehicle beyond its fixed columns: the optional
// columns the state has, in and out.
uint64_t ReadyOptionalBytesIn(const VehicleSnapshot& v) {
  uint64_t bytes = 0;
  for (const std::vector<float>* column :
       {&v.z, &v.progress_hint, &v.length, &v.width, &v.max_speed}) {
    if (!column->empty()) bytes += sizeof(float);
  }
  if (!v.profile.empty()) bytes += sizeof(uint32_t);
  return bytes;
}

// The world's first tick, integrated (the state Advance then steps).
TickResult FirstTick(World& world, const Snapshot& initial) {
  TickOptions options;
  options.integrate = true;
  TickResult result;
  world.Step(initial, options, &result);
  return result;
}

TEST(WorldTransferTest, EachStageBooksTheBytesItsBackendCallsCopy) {
  const scenarios::Scenario s = scenarios::MakeScenario("town", 300, 3);
  const size_t n = s.initial.agents.size(), m = s.initial.vehicles.size();
  ASSERT_GT(m, 0u);
  auto owned = std::make_unique<CopyCountingBackend>();
  const CopyCountingBackend& backend = *owned;
  World world(s.config, std::move(owned));
  TickResult result = FirstTick(world, s.initial);
  for (int tick = 0; tick < 3; ++tick) {
    const TransferredBytes before = backend.transferred();
    const uint64_t prepare_in = PrepareBytesIn(world.state().agents);
    const uint64_t ready_in =
        CopyCountingBackend::kReadyBytesIn + ReadyOptionalBytesIn(world.state().vehicles);
    // The prepared columns stay on the backend, and the memory stays there from tick to tick: the
    // preparation reads what the last tick's follower completed, and nothing comes home.
    const uint64_t ready_out = 0;
    const uint64_t lanes = s.config.splines.size();
    ASSERT_GT(prepare_in, 8u);  // positions, and more
    world.Advance(1, s.initial.dt, &result);
    const TransferredBytes after = backend.transferred();
    const TickStats& t = result.stats;
    SCOPED_TRACE(::testing::Message() << "tick " << tick);
    // Every byte the backend copied is booked, once, to some stage.
    EXPECT_EQ(Sum(t.stage_bytes_to_backend), after.to_backend - before.to_backend);
    EXPECT_EQ(Sum(t.stage_bytes_to_host), after.to_host - before.to_host);
    // The pedestrians made ready for the solve, on the backend: the preferred stage's. The
    // state each Advance steps is the one the last tick left there (ColumnSource::
    // kLastTick), so nothing goes in, unless the first snapshot lacked a column the move
    // writes (then the first Advance copies the state once).
    const AgentSnapshot& first = s.initial.agents;
    const bool first_had_moved_columns =
        !first.z.empty() && !first.vx.empty() && !first.vy.empty() && !first.vz.empty();
    EXPECT_EQ(t.stage_bytes_to_backend[static_cast<size_t>(Stage::kPreferred)],
              tick > 0 || first_had_moved_columns ? 0 : n * prepare_in);
    // The prepared columns stay there too (the town has no navigation targets, whose host
    // stage would read them).
    EXPECT_EQ(t.stage_bytes_to_host[static_cast<size_t>(Stage::kPreferred)], 0u);
    // ORCA's agents are the pedestrians and the vehicles' discs, all of them where the
    // preparation and the discs left them; the results stay for the report and the move.
    EXPECT_EQ(t.stage_bytes_to_backend[static_cast<size_t>(Stage::kOrca)], 0u);
    EXPECT_EQ(t.stage_bytes_to_host[static_cast<size_t>(Stage::kOrca)], 0u);
    const uint64_t solved = backend.solved_rows;
    EXPECT_GT(solved, n);
    // The preparation, the follower, the discs, the path check and the braking are the
    // vehicles' stage. The state they start from is the one the last tick left on the
    // backend, so nothing goes in for them, unless the first snapshot lacked a column their
    // move writes; the calls after the preparation read the vehicles where it left them, and
    // the braking the profiles' table the backend holds since the first tick. Each of the
    // follower's six answers comes back once (three from the follower, three capped from
    // the braking; no debug columns: TickOptions::debug is off), with the clear distance,
    // and the discs stay for the solve.
    const VehicleSnapshot& first_vehicles = s.initial.vehicles;
    const bool first_had_moved_vehicle_columns =
        !first_vehicles.z.empty() && !first_vehicles.progress_hint.empty();
    EXPECT_EQ(t.stage_bytes_to_backend[static_cast<size_t>(Stage::kVehicles)],
              tick > 0 || first_had_moved_vehicle_columns
                  ? 0
                  : m * ready_in + lanes * 2 * sizeof(uint32_t));
    EXPECT_EQ(t.stage_bytes_to_host[static_cast<size_t>(Stage::kVehicles)],
              m * (ready_out + CopyCountingBackend::kFollowResultBytesOut / 2 + sizeof(float) +
                   CopyCountingBackend::kBrakeBytesOut));
    // The pedestrians' and the vehicles' moves are the integrate stage's; they read the
    // columns the tick's earlier calls left, and copy nothing in.
    EXPECT_EQ(t.stage_bytes_to_backend[static_cast<size_t>(Stage::kIntegrate)], 0u);
    // The moved internal positions and bodies stay for the contact count; the next state
    // comes back (the Advance's last tick).
    EXPECT_EQ(t.stage_bytes_to_host[static_cast<size_t>(Stage::kIntegrate)],
              n * CopyCountingBackend::kNextStateBytes + m * CopyCountingBackend::kDriveBytesOut);
    // The pedestrians' report (results, detectors, sums) and the contact count after the
    // move are the stats stage's: nothing goes in (the memory is what the kept tick's
    // report left, the same pedestrians in the same order; the bodies what the move
    // moved), and only the results come back (the memory stays there until the host asks
    // for it).
    EXPECT_EQ(t.stage_bytes_to_backend[static_cast<size_t>(Stage::kStats)], 0u);
    EXPECT_EQ(t.stage_bytes_to_host[static_cast<size_t>(Stage::kStats)],
              n * CopyCountingBackend::kReportBytesOut);
  }
}

// A world with navigation targets steers its navigating pedestrians on the backend: after
// the Step that brings the targets, each tick's navigation copies nothing in (the targets
// and the memory are the last tick's there, the fields copied once) and the prepared and
// steered columns stay for the solve. The re-routing asks the backend which crowd fields
// its re-routed pedestrians need: a byte per target and a count come back, and the
// steering's count of unknown targets; the pedestrians' memory, results and state stay (an
// Advance's tick before its last).
TEST(WorldTransferTest, TheNavigationSteersWhereThePreparationLeftThePedestrians) {
  const scenarios::Scenario s = scenarios::MakeScenario("u_trap", 60, 3);
  ASSERT_FALSE(s.config.navigation_targets.empty());
  auto owned = std::make_unique<CopyCountingBackend>();
  const CopyCountingBackend& backend = *owned;
  World world(s.config, std::move(owned));
  TickResult result = FirstTick(world, s.initial);
  ASSERT_GT(s.config.navigation.reroute_every, 0);
  const size_t n = s.initial.agents.size(), targets = s.config.navigation_targets.size();
  for (int tick = 0; tick < 5; ++tick) {
    world.Advance(1, s.initial.dt, &result);
    const TickStats& t = result.stats;
    EXPECT_GT(t.backend_call_ms[static_cast<size_t>(BackendCall::kSteerNavigating)], 0.0);
    // The first Advance prepares the state once from the host: the scene's first snapshot
    // has no heights or velocities, columns the move writes (as in the town above).
    if (tick > 0) {
      EXPECT_EQ(t.stage_bytes_to_backend[static_cast<size_t>(Stage::kPreferred)], 0u) << tick;
    }
    EXPECT_EQ(t.stage_bytes_to_host[static_cast<size_t>(Stage::kPreferred)],
              targets + 2 * sizeof(uint64_t))
        << tick;
    EXPECT_EQ(t.stage_bytes_to_backend[static_cast<size_t>(Stage::kOrca)], 0u) << tick;
  }
  EXPECT_EQ(backend.nav_world_copies, 1);  // nobody re-routed: the static fields, once
  EXPECT_EQ(backend.nav_routes_calls, 6);  // the Step's and each Advance's
  // An Advance of several ticks: the memory stays on the backend, and the results and the
  // state come home once, after its last tick.
  const TransferredBytes before = backend.pedestrians;
  world.Advance(5, s.initial.dt, &result);
  const uint64_t routes_out = 5 * (targets + 2 * sizeof(uint64_t));
  EXPECT_EQ(backend.pedestrians.to_backend - before.to_backend, 0u);
  EXPECT_EQ(backend.pedestrians.to_host - before.to_host,
            routes_out +
                n * (CopyCountingBackend::kReportBytesOut + CopyCountingBackend::kNextStateBytes));
}

// An Advance of several ticks: the pedestrians' columns never go in, and come back once,
// after its last tick (its results and the next state); the memory stays on the backend
// until the host asks for it (Kept), and comes home once. The vehicles' next state comes
// back once too.
TEST(WorldTransferTest, AnAdvanceBringsThePedestriansHomeOnceAtItsEnd) {
  const scenarios::Scenario s = scenarios::MakeScenario("town", 300, 3);
  const size_t n = s.initial.agents.size();
  auto owned = std::make_unique<CopyCountingBackend>();
  const CopyCountingBackend& backend = *owned;
  World world(s.config, std::move(owned));
  TickResult result = FirstTick(world, s.initial);
  world.Advance(1, s.initial.dt, &result);  // the state on the backend from here on
  const TransferredBytes before = backend.pedestrians;
  const uint64_t vehicle_rows_before = backend.vehicle_state_rows_home;
  const uint64_t vehicle_answers_before = backend.vehicle_answers_home;
  world.Advance(5, s.initial.dt, &result);
  // The vehicles' next state likewise, and their answers (the follower's six and the
  // clear distance): once, after the last tick.
  const uint64_t m = s.initial.vehicles.size();
  EXPECT_EQ(backend.vehicle_state_rows_home - vehicle_rows_before, m);
  EXPECT_EQ(backend.vehicle_answers_home - vehicle_answers_before,
            m * (CopyCountingBackend::kFollowResultBytesOut + sizeof(float)));
  EXPECT_EQ(backend.pedestrians.to_backend, before.to_backend);
  EXPECT_EQ(backend.pedestrians.to_host - before.to_host,
            n * (CopyCountingBackend::kReportBytesOut + CopyCountingBackend::kNextStateBytes));
  const KeptMemory kept = world.Kept().memory;
  EXPECT_EQ(kept.agents.size(), n);
  EXPECT_EQ(backend.pedestrians.to_host - before.to_host,
            n * (CopyCountingBackend::kReportBytesOut + CopyCountingBackend::kNextStateBytes +
                 sizeof(AgentMemory)));
  world.Kept();  // home already: nothing more
  EXPECT_EQ(backend.pedestrians.to_host - before.to_host,
            n * (CopyCountingBackend::kReportBytesOut + CopyCountingBackend::kNextStateBytes +
                 sizeof(AgentMemory)));
}

// The vehicles' memory goes up with the first tick and then stays on the backend, Step
// after Step and Advance after Advance, while the ids are the kept ones; it comes home once
// when the host asks for it (Kept), or when new ids are gathered from it on the host.
TEST(WorldTransferTest, TheVehiclesMemoryStaysOnTheBackendWhileTheirIdsDo) {
  const scenarios::Scenario s = scenarios::MakeScenario("town", 300, 3);
  const size_t m = s.initial.vehicles.size();
  ASSERT_GT(m, 2u);
  auto owned = std::make_unique<CopyCountingBackend>();
  const CopyCountingBackend& backend = *owned;
  World world(s.config, std::move(owned));
  const TransferredBytes& rows = backend.vehicle_memory_rows;
  TickResult result = FirstTick(world, s.initial);
  EXPECT_EQ(rows.to_backend, m);
  EXPECT_EQ(rows.to_host, 0u);
  TickOptions options;
  options.integrate = true;
  for (int tick = 0; tick < 2; ++tick) {  // the caller's snapshots, the same vehicles
    Snapshot next = world.state();
    ++next.tick;
    world.Step(next, options, &result);
  }
  world.Advance(3, s.initial.dt, &result);
  EXPECT_EQ(rows.to_backend, m);
  EXPECT_EQ(rows.to_host, 0u);
  EXPECT_EQ(world.Kept().memory.vehicles.size(), m);
  EXPECT_EQ(rows.to_host, m);
  world.Kept();  // home already: nothing more
  EXPECT_EQ(rows.to_host, m);
  // Without the first vehicle: the kept rows are gathered on the host and go up.
  const auto without_the_first = [](const auto&, auto& column) {
    if (!column.empty()) column.erase(column.begin());
  };
  Snapshot next = world.state();
  ++next.tick;
  VisitVehicleColumns(next.vehicles, without_the_first);
  world.Step(next, options, &result);
  EXPECT_EQ(rows.to_backend, m + (m - 1));
  EXPECT_EQ(rows.to_host, m);
  // Once more, with the memory on the backend only: it comes home first.
  next = world.state();
  ++next.tick;
  VisitVehicleColumns(next.vehicles, without_the_first);
  world.Step(next, options, &result);
  EXPECT_EQ(rows.to_host, m + (m - 1));
  EXPECT_EQ(rows.to_backend, m + (m - 1) + (m - 2));
}

// Forward agents among the town's pedestrians and vehicles: their fans meet the bodies the
// preparations left on the backend, so nothing of those comes home for them and no body goes
// up; the fans' stage copies the forward agents' columns in, and their answers and next
// state out, once each.
TEST(WorldTransferTest, TheFansMeetTheBodiesThePreparationsLeftOnTheBackend) {
  scenarios::Scenario s = scenarios::MakeScenario("town", 300, 3);
  const scenarios::Scenario flock = scenarios::MakeScenario("flock", 40, 3);
  s.config.forward = flock.config.forward;
  s.initial.forward = flock.initial.forward;
  const size_t k = s.initial.forward.size();
  ASSERT_GT(k, 0u);
  ASSERT_GT(s.initial.agents.size(), 0u);
  ASSERT_GT(s.initial.vehicles.size(), 0u);
  auto owned = std::make_unique<CopyCountingBackend>();
  const CopyCountingBackend& backend = *owned;
  World world(s.config, std::move(owned));
  TickResult result = FirstTick(world, s.initial);
  EXPECT_EQ(result.stats.forward_agents, k);
  for (int tick = 0; tick < 3; ++tick) {
    SCOPED_TRACE(::testing::Message() << "tick " << tick);
    // The forward columns the preparation reads that the state has.
    const ForwardSnapshot& f = world.state().forward;
    uint64_t columns = 0;
    for (const std::vector<float>* column :
         {&f.x, &f.y, &f.z, &f.forward_x, &f.forward_y, &f.forward_z, &f.speed, &f.radius,
          &f.goal_x, &f.goal_y, &f.goal_z, &f.half_angle, &f.probe_length, &f.turn_speed}) {
      if (!column->empty()) ++columns;
    }
    if (!f.probes.empty()) ++columns;
    const TransferredBytes before = backend.transferred();
    world.Advance(1, s.initial.dt, &result);
    const TransferredBytes after = backend.transferred();
    const TickStats& t = result.stats;
    EXPECT_EQ(Sum(t.stage_bytes_to_backend), after.to_backend - before.to_backend);
    // The pedestrians' and vehicles' prepared columns stay on the backend.
    EXPECT_EQ(t.stage_bytes_to_host[static_cast<size_t>(Stage::kPreferred)], 0u);
    EXPECT_EQ(backend.ready_rows_home, 0u);
    // The fans' stage: no body goes up, and no forward column either (the state each
    // Advance steps is the one the last tick's move left there); the answers come out.
    const auto fan = static_cast<size_t>(Stage::kForward);
    EXPECT_EQ(t.stage_bytes_to_backend[fan], 0u);
    EXPECT_EQ(t.stage_bytes_to_host[fan], k * CopyCountingBackend::kFanAnswerBytesOut);
    if (tick < 2) continue;
    // A Step on the caller's snapshot sends its forward columns, once.
    Snapshot next = world.state();
    ++next.tick;
    TickOptions options;
    options.integrate = true;
    world.Step(next, options, &result);
    EXPECT_EQ(result.stats.stage_bytes_to_backend[fan], k * columns * sizeof(float));
    EXPECT_GE(columns, 6u);
    EXPECT_EQ(backend.ready_rows_home, 0u);
  }
}

// An Advance keeps its forward agents on the backend between its ticks: the state the last
// tick's move left is the next preparation's (nothing goes up), and the answers and the
// next state come home once, at its end; a failed Advance brings the state of the ticks
// that stood home.
TEST(WorldTransferTest, AnAdvanceKeepsItsForwardAgentsOnTheBackend) {
  const scenarios::Scenario s = scenarios::MakeScenario("flock", 60, 3);
  const size_t k = s.initial.forward.size();
  ASSERT_GT(k, 0u);
  auto owned = std::make_unique<CopyCountingBackend>();
  const CopyCountingBackend& backend = *owned;
  World world(s.config, std::move(owned));
  TickResult result = FirstTick(world, s.initial);
  world.Advance(1, s.initial.dt, &result);  // the state's columns, as the move writes them
  const uint64_t up = backend.forward_up, answers = backend.forward_answer_rows_home,
                 states = backend.forward_state_rows_home;
  world.Advance(5, s.initial.dt, &result);
  EXPECT_EQ(backend.forward_up, up);
  EXPECT_EQ(backend.forward_answer_rows_home - answers, k);
  EXPECT_EQ(backend.forward_state_rows_home - states, k);
  EXPECT_EQ(result.forward.move_x.size(), k);
  // Stopped after the move of its third tick: the two before stand, their state comes home.
  const TickOptions stopped = testing::StopAtTheEndOfTick(world, s.initial.dt, 3, {}, &result);
  const uint64_t before = backend.forward_state_rows_home;
  const uint64_t tick = world.state().tick;
  EXPECT_THROW(world.Advance(4, s.initial.dt, &result, stopped), TickCancelled);
  EXPECT_EQ(world.state().tick, tick + 2);
  EXPECT_EQ(backend.forward_state_rows_home - before, k);
  // The fetched state is the one a world without the stop reaches in two ticks.
  World plain(s.config, std::make_unique<CpuBackend>());
  TickResult plain_result = FirstTick(plain, s.initial);
  plain.Advance(9, s.initial.dt, &plain_result);
  EXPECT_EQ(plain.state().tick, world.state().tick);
  EXPECT_EQ(plain.state().forward.x, world.state().forward.x);
  EXPECT_EQ(plain.state().forward.forward_y, world.state().forward.forward_y);
}

TEST(WorldTransferTest, EachTickBooksTheTimeInsideItsBackendCalls) {
  const scenarios::Scenario s = scenarios::MakeScenario("town", 300, 3);
  auto owned = std::make_unique<CopyCountingBackend>();
  owned->orca_delay = std::chrono::milliseconds(30);
  owned->contacts_delay = std::chrono::milliseconds(10);
  World world(s.config, std::move(owned));
  TickResult result = FirstTick(world, s.initial);
  for (int tick = 0; tick < 3; ++tick) {
    SCOPED_TRACE(::testing::Message() << "tick " << tick);
    if (tick > 0) world.Advance(1, s.initial.dt, &result);
    const TickStats& t = result.stats;
    // The solve's own time, and the contact count's outside it.
    EXPECT_GE(t.orca_solve_ms, 30.0);
    EXPECT_GE(t.backend_ms - t.orca_solve_ms, 10.0);
    // Inside the stages' time (the stages book every call's time and more: the host's).
    EXPECT_LT(t.backend_ms, t.total_ms());
    EXPECT_GT(t.total_ms() - t.backend_ms, 0.0);
    // Call by call: the delays where they were made, every call of a town tick timed, and
    // the calls adding up to the backend's time.
    const auto call = [&](BackendCall c) { return t.backend_call_ms[static_cast<size_t>(c)]; };
    EXPECT_EQ(call(BackendCall::kSolveOrca), t.orca_solve_ms);
    EXPECT_GE(call(BackendCall::kCountContacts), 10.0);
    EXPECT_LT(call(BackendCall::kCountContacts), t.backend_ms - t.orca_solve_ms + 1e-9);
    for (BackendCall c :
         {BackendCall::kPreparePedestrians, BackendCall::kReportPedestrians,
          BackendCall::kMovePedestrians, BackendCall::kPrepareVehicles, BackendCall::kMoveVehicles,
          BackendCall::kWriteVehicleDiscs, BackendCall::kFollowSplines, BackendCall::kCheckPaths,
          BackendCall::kBrakeForPaths}) {
      EXPECT_GT(call(c), 0.0) << BackendCallName(c);
    }
    double sum = 0;
    for (double ms : t.backend_call_ms) sum += ms;
    EXPECT_NEAR(sum, t.backend_ms, 1e-6 * t.backend_ms + 1e-9);
  }
}

TEST(WorldTransferTest, TheCpuBackendCopiesNothing) {
  const scenarios::Scenario s = scenarios::MakeScenario("town", 300, 3);
  World world(s.config, BackendKind::kCpu);
  const TickResult result = FirstTick(world, s.initial);
  EXPECT_EQ(Sum(result.stats.stage_bytes_to_backend), 0u);
  EXPECT_EQ(Sum(result.stats.stage_bytes_to_host), 0u);
}

TEST(WorldTransferTest, AWorldNeedsABackend) {
  const scenarios::Scenario s = scenarios::MakeScenario("town", 30, 3);
  EXPECT_THROW(World(s.config, std::unique_ptr<Backend>()), std::invalid_argument);
}

}  // namespace
}  // namespace throng
