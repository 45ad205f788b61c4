// A decorator over the cpu backend that checks the world's ColumnSource promises
// (kernels/input/column_source.h): on a call marked kThisTick (kLastTick), each column it
// reads must be, byte for byte, what the earlier calls of the tick (of the last tick) left,
// as the call's documentation names them. The cuda backend reads its own copies of those columns
// instead of the host's; a broken promise would go unseen here (the cpu reads the host's) and give
// the GPU different answers. Copies of what each call left are kept as it returns; a broken promise
// throws std::logic_error naming the call and the column.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/orca/orca_validate.h"
#include "tests/backends/cpu_forwarding_backend.h"

namespace throng::testing {

class ChainCheckBackend : public CpuForwardingBackend {
 public:
  // How many calls came marked kThisTick, each checked.
  int checked_calls() const { return checked_calls_; }
  // How many times the world brought home what was kept on the backend only.
  int fetches() const { return fetches_; }

  uint64_t PreparePedestrians(const PedestrianPrepareParams& params,
                              const PedestrianPrepareScene& scene,
                              const PedestrianPrepareOutput& out) override {
    const size_t n = scene.count;
    const float* const moved[6] = {scene.x, scene.y, scene.z, scene.vx, scene.vy, scene.vz};
    const void* const rest[10] = {scene.radius,  scene.max_speed, scene.flags,  scene.behavior,
                                  scene.goal_x,  scene.goal_y,    scene.goal_z, scene.pref_vx,
                                  scene.pref_vy, scene.pref_vz};
    const size_t rest_size[10] = {4, 4, 1, 1, 4, 4, 4, 4, 4, 4};
    if (params.columns == ColumnSource::kLastTick && n > 0) {  // no rows: nothing to read
      ++checked_calls_;
      for (int k = 0; k < 6; ++k) {
        if (moved[k] == nullptr) throw std::logic_error("prepare: a moved column is absent");
        Check("prepare", kKeptState[k], moved[k], n, /*whole=*/true);
      }
      for (int k = 0; k < 10; ++k) {
        const std::string name = "prepare.in." + std::to_string(k);
        if ((rest[k] != nullptr) != (kept_.count(name) > 0)) {
          throw std::logic_error("prepare: column " + std::to_string(6 + k) +
                                 " is present where the last preparation's was not, or not");
        }
        if (rest[k] != nullptr) {
          Check("prepare", name, static_cast<const uint8_t*>(rest[k]), n * rest_size[k], true);
        }
      }
    }
    // A device reads the kept tick's moved columns where it kept them (the host's may be
    // stale: an Advance tick before its last leaves them there).
    PedestrianPrepareScene device = scene;
    if (params.columns == ColumnSource::kLastTick && n > 0) {
      float const** const device_moved[6] = {&device.x,  &device.y,  &device.z,
                                             &device.vx, &device.vy, &device.vz};
      for (int k = 0; k < 6; ++k) *device_moved[k] = Kept<float>(kKeptState[k]);
    }
    reported_ = moved_ = false;  // a new tick
    const uint64_t refused = cpu_.PreparePedestrians(params, device, out);
    for (int k = 0; k < 10; ++k) {
      const std::string name = "prepare.in." + std::to_string(k);
      if (rest[k] == nullptr) {
        kept_.erase(name);
      } else {
        Keep(name, static_cast<const uint8_t*>(rest[k]), n * rest_size[k]);
      }
    }
    KeepAgents("prepare", out.agents, n);
    Keep("prepare.z", out.z, n);
    Keep("prepare.vz", out.vz, n);
    Keep("prepare.goal", out.goal, n);
    Keep("prepare.has_goal", out.has_goal, n);
    Keep("prepare.navigates", out.navigates, n);
    if (!params.outputs_to_host) {
      PoisonAgents("prepare", out.agents, n);
      Poison("prepare.z", out.z, n);
      Poison("prepare.vz", out.vz, n);
      Poison("prepare.goal", out.goal, n);
      Poison("prepare.has_goal", out.has_goal, n);
      Poison("prepare.navigates", out.navigates, n);
    }
    return refused;
  }
  // Reads the preparation's columns where it left them (its goal columns too, as a device
  // does), the last call's targets and the kept memory where promised; writes the
  // preferred velocities over the preparation's own, and to the host only when asked.
  uint64_t SteerNavigating(const NavSteerParams& params, const NavSteerWorld& world,
                           const NavSteerScene& scene, const NavSteerOutput& out) override {
    const size_t n = scene.count;
    if (n == 0) return 0;
    const NavSteerScene device = NavigationAsADeviceReadsIt("navigate", params, scene);
    std::vector<float> vx(n), vy(n);
    CopyKept("prepare.pref_vx", vx.data(), n);
    CopyKept("prepare.pref_vy", vy.data(), n);
    const uint64_t refused = cpu_.SteerNavigating(params, world, device, {vx.data(), vy.data()});
    if (params.targets != ColumnSource::kLastTick) Keep("navigate.target", scene.target, n);
    Keep("prepare.pref_vx", vx.data(), n);
    Keep("prepare.pref_vy", vy.data(), n);
    if (params.outputs_to_host) {
      std::memcpy(out.pref_vx, vx.data(), n * sizeof(float));
      std::memcpy(out.pref_vy, vy.data(), n * sizeof(float));
    } else {
      Poison("prepare.pref_vx", out.pref_vx, n);
      Poison("prepare.pref_vy", out.pref_vy, n);
    }
    return refused;
  }
  // Reads as SteerNavigating does; the positions are the preparation's, as it left them.
  uint64_t NavigationRoutes(const NavSteerParams& params, const NavSteerWorld& world,
                            const NavSteerScene& scene, const NavRoutesOutput& out) override {
    const size_t n = scene.count;
    if (n == 0) return cpu_.NavigationRoutes(params, world, scene, out);
    const NavSteerScene device = NavigationAsADeviceReadsIt("routes", params, scene);
    const uint64_t rerouted = cpu_.NavigationRoutes(params, world, device, out);
    if (params.targets != ColumnSource::kLastTick) Keep("navigate.target", scene.target, n);
    return rerouted;
  }

  uint64_t PrepareVehicles(const VehiclePrepareParams& params, const VehiclePrepareScene& scene,
                           const VehiclePrepareOutput& out) override {
    const size_t m = scene.count;
    // Last tick's memory, as the kept tick's follower completed it: a device reads it where
    // it kept it.
    VehiclePrepareScene device = scene;
    if (params.memory == ColumnSource::kLastTick && m > 0) {
      ++checked_calls_;
      Check("vready", "kept.vmemory", scene.memory, m, /*whole=*/true);
      device.memory = Fed("kept.vmemory", scene.memory);
    }
    // Last tick's state: its move's next state, and the other columns as its preparation
    // read them (a device reads both where they are).
    const float** const moved[6] = {&device.x,   &device.y,     &device.z,
                                    &device.yaw, &device.speed, &device.progress_hint};
    if (params.columns == ColumnSource::kLastTick && m > 0) {
      ++checked_calls_;
      for (int k = 0; k < 6; ++k) {
        if (*moved[k] == nullptr) throw std::logic_error("vready: a moved column is absent");
        Check("vready", kVehicleKeptState[k], *moved[k], m, /*whole=*/true);
        *moved[k] = Fed(kVehicleKeptState[k], *moved[k]);
      }
      ForEachVehicleInput(scene, [&](const std::string& name, const auto* c, size_t rows) {
        if ((c != nullptr) != (kept_.count(name) > 0)) {
          throw std::logic_error("vready: " + name +
                                 " is present where the last preparation's was not, or not");
        }
        if (c != nullptr) Check("vready", name, c, rows, /*whole=*/true);
      });
    }
    ForEachVehicleInput(scene, [&](const std::string& name, const auto* c, size_t rows) {
      if (c == nullptr) {
        kept_.erase(name);
      } else {
        Keep(name, c, rows);
      }
    });
    completed_ = vehicles_moved_ = false;  // a new tick
    const uint64_t refused = cpu_.PrepareVehicles(params, device, out);
    ForEachReadyColumn(out, [&](const char* name, auto* c) {
      if (c != nullptr) {
        Keep(name, c, m);
      } else {
        kept_.erase(name);
      }
    });
    Keep("vready.id", out.id, m);
    Keep("vready.lane", out.lane, m);
    Keep("vready.bodies", out.bodies, m);
    Keep("vready.memory", out.memory, m);
    if (!params.memory_to_host) Poison("vready.memory", out.memory, m);
    if (!params.outputs_to_host) {  // as a device leaves them: all stay there
      ForEachReadyColumn(out, [&](const char* name, auto* c) {
        if (c != nullptr) Poison(name, c, m);
      });
      Poison("vready.lane", out.lane, m);
      Poison("vready.id", out.id, m);
      Poison("vready.bodies", out.bodies, m);
    }
    // A new tick: what the later vehicle calls of the last one left is no longer this tick's.
    for (const char* name : kFollowed) kept_.erase(name);
    kept_.erase("paths.clear");
    kept_.erase("vmove.bodies");
    return refused;
  }

  // The follower's vehicles are the preparation's columns (a device reads them there, the
  // lane for the spline id); its debug columns stay there unless asked for.
  void FollowSplines(const FollowerParams& params, float world_speed_limit, const VehicleColumns& v,
                     const FollowRunOptions& options, FollowerResults* out) override {
    const size_t m = v.size();
    if (options.vehicles == ColumnSource::kThisTick) {
      ++checked_calls_;
      // The columns as the follower reads them (VehicleColumns), from the preparation's
      // output of the same name.
      VehiclePrepareOutput read{};
      read.spline_id = const_cast<uint32_t*>(v.spline_id.data());
      read.px = const_cast<float*>(v.px.data());
      read.py = const_cast<float*>(v.py.data());
      read.pz = const_cast<float*>(v.pz.data());
      read.yaw = const_cast<float*>(v.yaw.data());
      read.speed = const_cast<float*>(v.speed.data());
      read.progress_hint = const_cast<float*>(v.progress_hint.data());
      read.max_speed = const_cast<float*>(v.max_speed.data());
      read.wheel_angle = v.wheel_angle.empty() ? nullptr : const_cast<float*>(v.wheel_angle.data());
      read.turn_before_move =
          v.turn_before_move.empty() ? nullptr : const_cast<float*>(v.turn_before_move.data());
      read.profile = v.profile.empty() ? nullptr : const_cast<uint16_t*>(v.profile.data());
      ForEachReadyColumn(read, [&](const char* name, auto* c) {
        if (c != nullptr) Check("follow", name, c, m, /*whole=*/true);
      });
    }
    // A device reads the preparation's columns where it left them.
    VehicleColumns device;
    const bool fed = options.vehicles == ColumnSource::kThisTick && m > 0;
    if (fed) {
      device = v;
      FeedWhole("vready.id", &device.id);
      FeedWhole("vready.spline_id", &device.spline_id);
      FeedWhole("vready.px", &device.px);
      FeedWhole("vready.py", &device.py);
      FeedWhole("vready.pz", &device.pz);
      FeedWhole("vready.yaw", &device.yaw);
      FeedWhole("vready.speed", &device.speed);
      FeedWhole("vready.progress_hint", &device.progress_hint);
      FeedWhole("vready.max_speed", &device.max_speed);
      if (!device.wheel_angle.empty()) FeedWhole("vready.wheel_angle", &device.wheel_angle);
      if (!device.turn_before_move.empty()) {
        FeedWhole("vready.turn_before_move", &device.turn_before_move);
      }
      if (!device.profile.empty()) FeedWhole("vready.profile", &device.profile);
      // The memory the preparation wrote, which a device completes where it left it and
      // brings home whole.
      if (options.memory != nullptr) {
        Check("follow", "vready.memory", options.memory, m, /*whole=*/true);
        CopyWhole("vready.memory", options.memory, m);
      }
    }
    cpu_.FollowSplines(params, world_speed_limit, fed ? device : v, options, out);
    if (options.memory != nullptr) {
      Keep("vfollow.memory", options.memory, m);
      if (!options.memory_to_host) Poison("vfollow.memory", options.memory, m);
      completed_ = true;
    }
    std::vector<float>* const followed[5] = {&out->steering, &out->throttle, &out->brake,
                                             &out->target_speed, &out->progress};
    for (int k = 0; k < 5; ++k) Keep(kFollowed[k], followed[k]->data(), followed[k]->size());
    if (options.braking_follows) {  // as a device leaves them: the braking brings them home
      for (int k = 1; k < 4; ++k) Poison(kFollowed[k], followed[k]->data(), followed[k]->size());
    }
    if (!options.answers_to_host) {  // as a device leaves them: steering, cte and progress
      Poison(kFollowed[0], out->steering.data(), m);
      Poison(kFollowed[4], out->progress.data(), m);
      Poison("vfollow.cte", out->cte.data(), m);
    }
    if (!options.debug_to_host) {  // as a device leaves them: not written
      for (std::vector<float>* c :
           {&out->position_delta, &out->heading_delta, &out->look_ahead, &out->target_x,
            &out->target_y, &out->target_z, &out->progress_x, &out->progress_y, &out->progress_z,
            &out->tangent_x, &out->tangent_y, &out->tangent_z}) {
        Poison("follow.debug", c->data(), c->size());
      }
    }
  }

  // With kThisTick, the bodies and speeds are the preparation's (a device reads them there).
  void WriteVehicleDiscs(const VehicleDiscScene& scene, const VehicleDiscOutput& out) override {
    if (scene.columns == ColumnSource::kThisTick && scene.count > 0) {
      ++checked_calls_;
      Check("discs", "vready.bodies", scene.bodies, scene.count, /*whole=*/true);
      Check("discs", "vready.speed", scene.speed, scene.count, true);
    }
    VehicleDiscScene device = scene;
    if (scene.columns == ColumnSource::kThisTick && scene.count > 0) {
      device.bodies = Fed("vready.bodies", scene.bodies);
      // The layout the caller made without the bodies must be theirs: each writes its own
      // disc count from its start.
      for (size_t v = 0; v < scene.count; ++v) {
        if (scene.disc_start[v + 1] - scene.disc_start[v] !=
            static_cast<uint32_t>(device.bodies[v].DiscCount())) {
          throw std::logic_error("discs: vehicle " + std::to_string(v) +
                                 " is laid out with another disc count than its body has");
        }
      }
      device.speed = Fed("vready.speed", scene.speed);
    }
    cpu_.WriteVehicleDiscs(device, out);
    const size_t discs = scene.count > 0 ? scene.disc_start[scene.count] : 0;
    KeepAgents("discs", out.agents, discs);
    if (!out.to_host) PoisonAgents("discs", out.agents, discs);
    discs_from_ = out.first_id;
  }

  void SolveOrca(const OrcaParams& params, const AgentColumns& a, const OrcaRunOptions& options,
                 OrcaResult* out) override {
    if (options.agents == ColumnSource::kThisTick) {
      ++checked_calls_;
      const auto prepared = kept_.find("prepare.px");
      const size_t k = prepared == kept_.end() ? 0 : prepared->second.size() / sizeof(float);
      if (prepared == kept_.end() || a.size() < k) {
        throw std::logic_error("solve: " + std::to_string(a.size()) +
                               " agents promised from a preparation of " + std::to_string(k));
      }
      CheckAgentRows("solve", a, 0, k, "prepare");
      if (a.size() > k) {
        if (discs_from_ != k) {
          throw std::logic_error("solve: the discs were written from row " +
                                 std::to_string(discs_from_) + ", the pedestrians end at " +
                                 std::to_string(k));
        }
        CheckAgentRows("solve", a, k, a.size() - k, "discs");
      }
    }
    // A device reads its own copies: rows [0, k) as the preparation left them, the discs'
    // rows as they did.
    const AgentColumns* solved = &a;
    AgentColumns device;
    if (options.agents == ColumnSource::kThisTick) {
      device = a;
      const size_t k = kept_.at("prepare.px").size() / sizeof(float);
      ForEachAgentColumn("prepare", device.Out(0),
                         [&](const std::string& name, auto* c) { CopyKept(name, c, k); });
      ForEachAgentColumn("discs", device.Out(k), [&](const std::string& name, auto* c) {
        CopyKept(name, c, a.size() - k);
      });
      // What a device would read must be sane: the backends no longer check the world's own
      // agents, and NaN rows far from everyone would change no result.
      ValidateAgents(device);
      solved = &device;
    }
    cpu_.SolveOrca(params, *solved, options, out);
    const AgentColumns& a_kept = *solved;
    const size_t n = a.size();
    Keep("solve.px", a_kept.px.data(), n);
    Keep("solve.py", a_kept.py.data(), n);
    Keep("solve.vx", a_kept.vx.data(), n);
    Keep("solve.vy", a_kept.vy.data(), n);
    Keep("solve.radius", a_kept.radius.data(), n);
    Keep("solve.pref_vx", a_kept.pref_vx.data(), n);
    Keep("solve.pref_vy", a_kept.pref_vy.data(), n);
    Keep("solve.flags", a_kept.flags.data(), n);
    if (solved == &device &&
        (on_backend_only_.count("prepare.px") > 0 || on_backend_only_.count("discs.px") > 0)) {
      // Read from the preparation's and the discs' device copies: the host's rows are as
      // stale as those.
      for (const char* c : {"px", "py", "vx", "vy", "radius", "pref_vx", "pref_vy", "flags"}) {
        on_backend_only_.insert(std::string("solve.") + c);
      }
    }
    ForEachSolvedColumn(out, [&](const char* name, auto* c) { Keep(name, c, n); });
    if (!options.results_to_host) {  // as a device leaves them: not written, no counts
      ForEachSolvedColumn(out, [&](const char* name, auto* c) { Poison(name, c, n); });
      for (uint64_t& c : out->status_count) c = 0;
      out->shortened_horizon = out->revalidated = out->revalidation_adopted = out->jam_steps = 0;
    }
  }

  PedestrianSums ReportPedestrians(const PedestrianReportParams& params,
                                   const PedestrianReportScene& s,
                                   const PedestrianReportOutput& out) override {
    const size_t n = s.count;
    if (params.columns == ColumnSource::kThisTick) {
      ++checked_calls_;
      Check("report", "solve.px", s.px, n);
      Check("report", "solve.py", s.py, n);
      Check("report", "solve.pref_vx", s.pref_vx, n);
      Check("report", "solve.pref_vy", s.pref_vy, n);
      Check("report", "solve.flags", s.flags, n);
      Check("report", "solved.vx", s.vx, n);
      Check("report", "solved.vy", s.vy, n);
      Check("report", "solved.status", s.status, n);
      Check("report", "solved.constraints", s.constraints, n);
      Check("report", "solved.solve_flags", s.solve_flags, n);
      Check("report", "solved.candidates", s.candidates, n);
      Check("report", "solved.neighbors", s.neighbors, n);
      Check("report", "prepare.vz", s.vz, n, /*whole=*/true);
      Check("report", "prepare.goal", s.goal, n, true);
      Check("report", "prepare.has_goal", s.has_goal, n, true);
      Check("report", "prepare.navigates", s.navigates, n, true);
    }
    if (params.memory == ColumnSource::kLastTick && n > 0) {
      ++checked_calls_;
      Check("report", "kept.memory", s.memory, n, /*whole=*/true);
    }
    // A device reads its own copies: so does the cpu here, which sees no column that
    // stayed on the backend.
    PedestrianReportScene device = s;
    if (params.columns == ColumnSource::kThisTick && n > 0) {
      device.px = Kept<float>("solve.px");
      device.py = Kept<float>("solve.py");
      device.pref_vx = Kept<float>("solve.pref_vx");
      device.pref_vy = Kept<float>("solve.pref_vy");
      device.flags = Kept<uint8_t>("solve.flags");
      device.vx = Kept<float>("solved.vx");
      device.vy = Kept<float>("solved.vy");
      device.status = Kept<uint8_t>("solved.status");
      device.constraints = Kept<uint16_t>("solved.constraints");
      device.solve_flags = Kept<uint8_t>("solved.solve_flags");
      device.candidates = Kept<uint16_t>("solved.candidates");
      device.neighbors = Kept<uint16_t>("solved.neighbors");
      device.vz = Kept<float>("prepare.vz");
      device.goal = Kept<Vec2>("prepare.goal");
      device.has_goal = Kept<uint8_t>("prepare.has_goal");
      device.navigates = Kept<uint8_t>("prepare.navigates");
    }
    if (params.memory == ColumnSource::kLastTick && n > 0) {
      device.memory = Kept<AgentMemory>("kept.memory");
    }
    const PedestrianSums sums = cpu_.ReportPedestrians(params, device, out);
    Keep("report.memory", out.memory, n);
    Keep("report.vx", out.vx, n);
    Keep("report.vy", out.vy, n);
    Keep("report.vz", out.vz, n);
    if (!params.results_to_host) {  // as a device leaves them: not written
      Poison("report.vx", out.vx, n);
      Poison("report.vy", out.vy, n);
      Poison("report.vz", out.vz, n);
      for (float* local : {out.pref_vx, out.pref_vy, out.pref_vz}) {
        if (local != nullptr) Poison("report.local", local, n);
      }
      if (out.constraints != nullptr) Poison("report.local", out.constraints, n);
      Poison("report.status", out.status, n);
      Poison("report.flags", out.flags, n);
    }
    if (!params.memory_to_host) Poison("report.memory", out.memory, n);
    reported_ = true;
    return sums;
  }

  void MovePedestrians(const PedestrianMoveParams& params, const PedestrianMoveScene& s,
                       const PedestrianMoveOutput& out) override {
    const size_t n = s.count;
    if (params.columns == ColumnSource::kThisTick) {
      ++checked_calls_;
      Check("move", "solve.px", out.px, n);
      Check("move", "solve.py", out.py, n);
      Check("move", "prepare.z", out.pz, n, true);
      Check("move", "solved.vx", s.vx, n);
      Check("move", "solved.vy", s.vy, n);
      Check("move", "prepare.vz", s.vz, n, true);
      Check("move", "report.vx", s.result_vx, n, true);
      Check("move", "report.vy", s.result_vy, n, true);
      Check("move", "report.vz", s.result_vz, n, true);
    }
    PedestrianMoveScene device = s;
    PedestrianMoveOutput device_out = out;
    std::vector<float> px, py, pz;  // the positions a device moves in its own memory
    if (params.columns == ColumnSource::kThisTick && n > 0) {
      device.vx = Kept<float>("solved.vx");
      device.vy = Kept<float>("solved.vy");
      device.vz = Kept<float>("prepare.vz");
      device.result_vx = Kept<float>("report.vx");
      device.result_vy = Kept<float>("report.vy");
      device.result_vz = Kept<float>("report.vz");
      px.assign(Kept<float>("solve.px"), Kept<float>("solve.px") + n);
      py.assign(Kept<float>("solve.py"), Kept<float>("solve.py") + n);
      pz.assign(Kept<float>("prepare.z"), Kept<float>("prepare.z") + n);
      device_out.px = px.data();
      device_out.py = py.data();
      device_out.pz = pz.data();
    }
    cpu_.MovePedestrians(params, device, device_out);
    Keep("move.px", device_out.px, n);
    Keep("move.py", device_out.py, n);
    if (!params.positions_to_host) {  // as a device leaves them: where they were
      Poison("move.px", out.px, n);
      Poison("move.py", out.py, n);
      Poison("move.pz", out.pz, n);
    } else if (device_out.px != out.px && n > 0) {  // brought back
      std::memcpy(out.px, px.data(), n * sizeof(float));
      std::memcpy(out.py, py.data(), n * sizeof(float));
      std::memcpy(out.pz, pz.data(), n * sizeof(float));
    }
    float* const next[6] = {out.x, out.y, out.z, out.next_vx, out.next_vy, out.next_vz};
    for (int k = 0; k < 6; ++k) {
      Keep(kMovedState[k], next[k], n);
      if (!params.next_state_to_host) Poison(kMovedState[k], next[k], n);
    }
    moved_ = true;
  }

  // What this tick's report and move left becomes what kLastTick promises name.
  void KeepPedestrians() override {
    if (reported_) KeepAs("report.memory", "kept.memory");
    for (int k = 0; k < 6 && moved_; ++k) KeepAs(kMovedState[k], kKeptState[k]);
    reported_ = moved_ = false;
    cpu_.KeepPedestrians();
  }

  // What this tick's follower completed becomes the memory kLastTick names (none: no
  // vehicles this tick).
  // And the next state this tick's move wrote, as the pedestrians'.
  void KeepVehicles() override {
    if (completed_) {
      KeepAs("vfollow.memory", "kept.vmemory");
    } else {
      kept_["kept.vmemory"].clear();
      on_backend_only_.erase("kept.vmemory");
    }
    for (int k = 0; k < 6 && vehicles_moved_; ++k) {
      KeepAs(kVehicleMovedState[k], kVehicleKeptState[k]);
    }
    completed_ = vehicles_moved_ = false;
    cpu_.KeepVehicles();
  }
  void FetchKeptVehicles(const KeptVehicleRows& out) override {
    ++fetches_;
    if (out.memory != nullptr) CopyWhole("kept.vmemory", out.memory, out.memory_rows);
    if (out.x != nullptr) {
      float* const to[6] = {out.x, out.y, out.z, out.yaw, out.speed, out.progress_hint};
      for (int k = 0; k < 6; ++k) CopyWhole(kVehicleKeptState[k], to[k], out.state_rows);
    }
  }

  // The kept copies, as a device brings them back.
  void FetchKeptPedestrians(const KeptPedestrianRows& out) override {
    ++fetches_;
    if (out.x != nullptr) {
      float* const to[6] = {out.x, out.y, out.z, out.vx, out.vy, out.vz};
      for (int k = 0; k < 6; ++k) CopyWhole(kKeptState[k], to[k], out.state_rows);
    }
    if (out.memory != nullptr) CopyWhole("kept.memory", out.memory, out.memory_rows);
  }

  // The path check's points are the last solve's (points_were_last_solve): a device reads
  // them where the solve left them.
  void CheckPaths(const PathCheckParams& params, float max_brake_decel, const PathCheckScene& s,
                  const StopRequested& stop, std::vector<float>* clear) override {
    PathCheckScene device = s;
    if (s.points_were_last_solve && s.agents > 0 && kept_.count("solve.px") > 0) {
      ++checked_calls_;
      Check("paths", "solve.px", s.agent_x, s.agents);
      Check("paths", "solve.py", s.agent_y, s.agents);
      Check("paths", "solve.vx", s.agent_vx, s.agents);
      Check("paths", "solve.vy", s.agent_vy, s.agents);
      Check("paths", "solve.radius", s.agent_radius, s.agents);
      device.agent_x = Kept<float>("solve.px");
      device.agent_y = Kept<float>("solve.py");
      device.agent_vx = Kept<float>("solve.vx");
      device.agent_vy = Kept<float>("solve.vy");
      device.agent_radius = Kept<float>("solve.radius");
    }
    if (s.vehicle_columns == ColumnSource::kThisTick && s.vehicles > 0) {
      ++checked_calls_;
      Check("paths", "vready.bodies", s.bodies, s.vehicles, /*whole=*/true);
      Check("paths", "vready.lane", s.spline, s.vehicles, true);
      Check("paths", "vready.speed", s.speed, s.vehicles, true);
      Check("paths", "vfollow.progress", s.progress, s.vehicles, true);
      device.bodies = Fed("vready.bodies", s.bodies);
      device.spline = Fed("vready.lane", s.spline);
      device.speed = Fed("vready.speed", s.speed);
      device.progress = Fed("vfollow.progress", s.progress);
    }
    cpu_.CheckPaths(params, max_brake_decel, device, stop, clear);
    Keep("paths.clear", clear->data(), clear->size());
    if (!s.clear_to_host) Poison("paths.clear", clear->data(), clear->size());
  }

  // With kThisTick, the braking reads the path check's answer and the preparation's
  // columns, and caps the follower's answers where a device left them.
  uint64_t BrakeForPaths(const PathBrakingScene& s, const PathBrakingOutput& out) override {
    const size_t m = s.count;
    // The follower's answers it caps, and the names they are kept under.
    float* const answers[3] = {out.target_speed, out.throttle, out.brake};
    const char* const names[3] = {"vfollow.target_speed", "vfollow.throttle", "vfollow.brake"};
    if (s.columns == ColumnSource::kThisTick && m > 0) {
      ++checked_calls_;
      Check("brake", "paths.clear", s.clear, m, /*whole=*/true);
      Check("brake", "vready.speed", s.speed, m, true);
      if (s.profile != nullptr) Check("brake", "vready.profile", s.profile, m, true);
      for (int k = 0; k < 3; ++k) Check("brake", names[k], answers[k], m, true);
    }
    PathBrakingScene device = s;
    if (s.columns == ColumnSource::kThisTick && m > 0) {
      device.clear = Fed("paths.clear", s.clear);
      device.speed = Fed("vready.speed", s.speed);
      if (s.profile != nullptr) device.profile = Fed("vready.profile", s.profile);
      // A device caps its own copies of the follower's answers.
      for (int k = 0; k < 3; ++k) {
        if (on_backend_only_.count(names[k]) > 0) CopyWhole(names[k], answers[k], m);
      }
    }
    const uint64_t slowed = cpu_.BrakeForPaths(device, out);
    for (int k = 0; k < 3; ++k) {
      Keep(names[k], answers[k], m);
      // Capped where they lie, unless they come home.
      if (s.columns == ColumnSource::kThisTick && !s.answers_to_host) {
        Poison(names[k], answers[k], m);
      }
    }
    return slowed;
  }

  // With kThisTick, the vehicles move from the preparation's pose and body under the
  // follower's controls as the braking capped them.
  void MoveVehicles(const VehicleMoveParams& params, const VehicleMoveScene& s,
                    const VehicleMoveOutput& out) override {
    const size_t m = s.count;
    if (params.columns == ColumnSource::kThisTick && m > 0) {
      ++checked_calls_;
      Check("vmove", "vready.px", s.px, m, /*whole=*/true);
      Check("vmove", "vready.py", s.py, m, true);
      Check("vmove", "vready.pz", s.pz, m, true);
      Check("vmove", "vready.yaw", s.yaw, m, true);
      Check("vmove", "vready.speed", s.speed, m, true);
      Check("vmove", "vready.wheel_angle", s.wheel_angle, m, true);
      Check("vmove", "vready.bodies", out.bodies, m, true);
      Check("vmove", "vfollow.steering", s.steering, m, true);
      Check("vmove", "vfollow.throttle", s.throttle, m, true);
      Check("vmove", "vfollow.brake", s.brake, m, true);
      Check("vmove", "vfollow.progress", s.progress, m, true);
    }
    VehicleMoveScene device = s;
    if (params.columns == ColumnSource::kThisTick && m > 0) {
      device.px = Fed("vready.px", s.px);
      device.py = Fed("vready.py", s.py);
      device.pz = Fed("vready.pz", s.pz);
      device.yaw = Fed("vready.yaw", s.yaw);
      device.speed = Fed("vready.speed", s.speed);
      device.wheel_angle = Fed("vready.wheel_angle", s.wheel_angle);
      device.steering = Fed("vfollow.steering", s.steering);
      device.throttle = Fed("vfollow.throttle", s.throttle);
      device.brake = Fed("vfollow.brake", s.brake);
      device.progress = Fed("vfollow.progress", s.progress);
      // The bodies move in place: a device moves its copy of the prepared ones.
      if (on_backend_only_.count("vready.bodies") > 0) CopyWhole("vready.bodies", out.bodies, m);
    }
    cpu_.MoveVehicles(params, device, out);
    Keep("vmove.bodies", out.bodies, m);
    if (!params.bodies_to_host) Poison("vmove.bodies", out.bodies, m);
    float* const next[6] = {out.x, out.y, out.z, out.yaw, out.speed, out.progress_hint};
    for (int k = 0; k < 6; ++k) {
      Keep(kVehicleMovedState[k], next[k], m);
      if (!params.next_state_to_host) Poison(kVehicleMovedState[k], next[k], m);
    }
    if (!params.next_state_to_host) Poison("vmove.wheel_angle", out.wheel_angle, m);
    vehicles_moved_ = true;
  }

  // The fan's bodies: the pedestrians and the vehicles as this tick's preparations left
  // them.
  // The kept state's moved columns where the kept tick's move left them (kLastTick), and
  // the fans' bodies: the pedestrians and the vehicles as this tick's preparations left
  // them.
  uint64_t PrepareForwardScene(const ForwardPrepareParams& params,
                               const ForwardPrepareScene& scene) override {
    ForwardPrepareScene device = scene;
    const size_t k = scene.count;
    const float* const moved[6] = {scene.x,         scene.y,         scene.z,
                                   scene.forward_x, scene.forward_y, scene.forward_z};
    const void* const rest[9] = {scene.speed,      scene.radius,       scene.goal_x,
                                 scene.goal_y,     scene.goal_z,       scene.probes,
                                 scene.half_angle, scene.probe_length, scene.turn_speed};
    if (params.columns == ColumnSource::kLastTick && k > 0) {
      ++checked_calls_;
      for (int j = 0; j < 6; ++j) {
        if (moved[j] == nullptr) throw std::logic_error("fprepare: a moved column is absent");
        Check("fprepare", kForwardKeptState[j], moved[j], k, /*whole=*/true);
      }
      for (int j = 0; j < 9; ++j) {
        const std::string name = "fprepare.in." + std::to_string(j);
        if ((rest[j] != nullptr) != (kept_.count(name) > 0)) {
          throw std::logic_error("fprepare: column " + std::to_string(6 + j) +
                                 " is present where the last preparation's was not, or not");
        }
        if (rest[j] != nullptr) {
          Check("fprepare", name, static_cast<const uint8_t*>(rest[j]), k * 4, /*whole=*/true);
        }
      }
      float const** const device_moved[6] = {
          &device.x, &device.y, &device.z, &device.forward_x, &device.forward_y, &device.forward_z};
      for (int j = 0; j < 6; ++j) *device_moved[j] = Kept<float>(kForwardKeptState[j]);
    }
    forward_moved_ = false;  // a new tick for the forward agents
    forward_prepared_ = k;
    const size_t n = scene.pedestrians, m = scene.vehicles;
    if (params.pedestrians == ColumnSource::kThisTick && n > 0) {
      ++checked_calls_;
      Check("fprepare", "prepare.px", scene.pedestrian_x, n, /*whole=*/true);
      Check("fprepare", "prepare.py", scene.pedestrian_y, n, true);
      Check("fprepare", "prepare.radius", scene.pedestrian_radius, n, true);
      Check("fprepare", "prepare.z", scene.pedestrian_z, n, true);
      device.pedestrian_x = Fed("prepare.px", scene.pedestrian_x);
      device.pedestrian_y = Fed("prepare.py", scene.pedestrian_y);
      device.pedestrian_radius = Fed("prepare.radius", scene.pedestrian_radius);
      device.pedestrian_z = Fed("prepare.z", scene.pedestrian_z);
    }
    if (params.vehicles == ColumnSource::kThisTick && m > 0) {
      ++checked_calls_;
      Check("fprepare", "vready.bodies", scene.vehicle_bodies, m, /*whole=*/true);
      Check("fprepare", "vready.pz", scene.vehicle_z, m, true);
      device.vehicle_bodies = Fed("vready.bodies", scene.vehicle_bodies);
      device.vehicle_z = Fed("vready.pz", scene.vehicle_z);
    }
    const uint64_t refused = cpu_.PrepareForwardScene(params, device);
    for (int j = 0; j < 9; ++j) {
      const std::string name = "fprepare.in." + std::to_string(j);
      if (rest[j] == nullptr) {
        kept_.erase(name);
      } else {
        Keep(name, static_cast<const uint8_t*>(rest[j]), k * 4);
      }
    }
    return refused;
  }
  // The answers a device leaves there when the host does not ask for them.
  ForwardSums SteerForwardScene(const ForwardSteerParams& params, const StopRequested& stop,
                                const ForwardSteerOutput& out) override {
    const ForwardSums sums = cpu_.SteerForwardScene(params, stop, out);
    if (!params.results_to_host) {
      const size_t k = forward_prepared_;
      Poison("fsteer.move_x", out.move_x, k);
      Poison("fsteer.move_y", out.move_y, k);
      Poison("fsteer.move_z", out.move_z, k);
      Poison("fsteer.probe", out.probe, k);
      Poison("fsteer.hit_distance", out.hit_distance, k);
      Poison("fsteer.all_blocked", out.all_blocked, k);
    }
    return sums;
  }
  void MoveForwardAgents(const ForwardMoveParams& params, const ForwardMoveScene& scene,
                         const ForwardMoveOutput& out) override {
    cpu_.MoveForwardAgents(params, scene, out);
    float* const next[6] = {out.x, out.y, out.z, out.forward_x, out.forward_y, out.forward_z};
    for (int j = 0; j < 6; ++j) {
      Keep(kForwardMovedState[j], next[j], scene.count);
      if (!params.next_state_to_host) Poison(kForwardMovedState[j], next[j], scene.count);
    }
    forward_moved_ = true;
  }
  void KeepForward() override {
    for (int j = 0; j < 6; ++j) {
      if (forward_moved_) {
        KeepAs(kForwardMovedState[j], kForwardKeptState[j]);
      } else {
        kept_.erase(kForwardKeptState[j]);
        on_backend_only_.erase(kForwardKeptState[j]);
      }
    }
    forward_moved_ = false;
    cpu_.KeepForward();
  }
  void FetchKeptForward(const KeptForwardRows& out) override {
    ++fetches_;
    float* const to[6] = {out.x, out.y, out.z, out.forward_x, out.forward_y, out.forward_z};
    for (int j = 0; j < 6; ++j) CopyWhole(kForwardKeptState[j], to[j], out.rows);
  }

  CollisionCounts CountContacts(const ContactScene& s, const StopRequested& stop) override {
    if (s.columns == ColumnSource::kThisTick) {
      ++checked_calls_;
      Check("contacts", s.moved ? "move.px" : "solve.px", s.x, s.count, s.moved);
      Check("contacts", s.moved ? "move.py" : "solve.py", s.y, s.count, s.moved);
      Check("contacts", "solve.radius", s.radius, s.count);
    }
    if (s.bodies_columns == ColumnSource::kThisTick && s.body_count > 0) {
      ++checked_calls_;
      Check("contacts", s.moved ? "vmove.bodies" : "vready.bodies", s.bodies, s.body_count,
            /*whole=*/true);
    }
    ContactScene device = s;
    if (s.bodies_columns == ColumnSource::kThisTick && s.body_count > 0) {
      device.bodies = Fed(s.moved ? "vmove.bodies" : "vready.bodies", s.bodies);
    }
    if (s.columns == ColumnSource::kThisTick && s.count > 0) {
      device.x = Kept<float>(s.moved ? "move.px" : "solve.px");
      device.y = Kept<float>(s.moved ? "move.py" : "solve.py");
      device.radius = Kept<float>("solve.radius");
    }
    return cpu_.CountContacts(device, stop);
  }

 private:
  template <class T>
  void Keep(const std::string& name, const T* data, size_t rows) {
    std::vector<uint8_t>& kept = kept_[name];
    kept.resize(rows * sizeof(T));
    if (rows > 0) std::memcpy(kept.data(), data, rows * sizeof(T));
    on_backend_only_.erase(name);
  }
  // A column the call kept on the backend (not brought back to the host): its host rows are
  // overwritten with all bits set (NaN floats), so that a host stage reading them anyway
  // changes the results; the calls after it read the copy, and their promise about it is
  // not checked against the host.
  template <class T>
  void Poison(const std::string& name, T* data, size_t rows) {
    if (rows > 0) std::memset(static_cast<void*>(data), 0xff, rows * sizeof(T));
    on_backend_only_.insert(name);
  }
  // What a device reads for a column promised from `name`: its copy where the column stayed
  // there (the host's rows are poisoned), else the host's (equal: Check).
  template <class T>
  const T* Fed(const std::string& name, const T* host) const {
    return on_backend_only_.count(name) > 0 ? Kept<T>(name) : host;
  }
  template <class T>
  void FeedWhole(const std::string& name, std::vector<T>* column) const {
    const std::vector<uint8_t>& kept = kept_.at(name);
    column->resize(kept.size() / sizeof(T));
    if (!kept.empty()) std::memcpy(column->data(), kept.data(), kept.size());
  }
  // The move's next state columns, and the names they are kept under.
  static constexpr const char* kMovedState[6] = {"move.x",       "move.y",       "move.z",
                                                 "move.next_vx", "move.next_vy", "move.next_vz"};
  // The follower's answers the vehicle calls after it read (the braking caps three).
  static constexpr const char* kFollowed[5] = {"vfollow.steering", "vfollow.throttle",
                                               "vfollow.brake", "vfollow.target_speed",
                                               "vfollow.progress"};
  static constexpr const char* kKeptState[6] = {"kept.x",  "kept.y",  "kept.z",
                                                "kept.vx", "kept.vy", "kept.vz"};
  // The vehicles' move's next state, and the names it is kept under.
  static constexpr const char* kVehicleMovedState[6] = {
      "vmove.x", "vmove.y", "vmove.z", "vmove.yaw", "vmove.speed", "vmove.progress_hint"};
  // The forward agents' move's next state, and the names it is kept under.
  static constexpr const char* kForwardMovedState[6] = {
      "fmove.x", "fmove.y", "fmove.z", "fmove.forward_x", "fmove.forward_y", "fmove.forward_z"};
  static constexpr const char* kForwardKeptState[6] = {
      "fkept.x", "fkept.y", "fkept.z", "fkept.forward_x", "fkept.forward_y", "fkept.forward_z"};
  static constexpr const char* kVehicleKeptState[6] = {
      "vkept.x", "vkept.y", "vkept.z", "vkept.yaw", "vkept.speed", "vkept.progress_hint"};
  // Calls f(name, column, rows) for the preparation's inputs that its move does not write,
  // named vready.in.column (a null column: absent).
  template <class F>
  static void ForEachVehicleInput(const VehiclePrepareScene& s, F&& f) {
    f("vready.in.id", s.id, s.count);
    f("vready.in.spline_id", s.spline_id, s.count);
    f("vready.in.length", s.length, s.count);
    f("vready.in.width", s.width, s.count);
    f("vready.in.max_speed", s.max_speed, s.count);
    f("vready.in.profile", s.profile, s.count);
    f("vready.in.lane_ids", s.lanes.ids, s.lanes.count);
    f("vready.in.lane_index", s.lanes.index, s.lanes.count);
  }
  void KeepAs(const std::string& from, const std::string& to) {
    kept_[to] = kept_.at(from);
    if (on_backend_only_.count(from) > 0) {
      on_backend_only_.insert(to);
    } else {
      on_backend_only_.erase(to);
    }
  }
  // All of what `name` kept, which must be `rows` rows.
  template <class T>
  void CopyWhole(const std::string& name, T* to, size_t rows) const {
    const auto it = kept_.find(name);
    if (it == kept_.end() || it->second.size() != rows * sizeof(T)) {
      throw std::logic_error("fetch: " + std::to_string(rows) + " rows asked for from " + name);
    }
    if (rows > 0) std::memcpy(static_cast<void*>(to), it->second.data(), rows * sizeof(T));
  }
  template <class T>
  void CopyKept(const std::string& name, T* to, size_t rows) const {
    if (rows > 0) std::memcpy(to, kept_.at(name).data(), rows * sizeof(T));
  }
  // Calls f(name, column) for the ten agent columns, named `call`.column.
  template <class F>
  static void ForEachAgentColumn(const std::string& call, const AgentColumnsOut& a, F&& f) {
    f(call + ".id", a.id);
    f(call + ".px", a.px);
    f(call + ".py", a.py);
    f(call + ".vx", a.vx);
    f(call + ".vy", a.vy);
    f(call + ".radius", a.radius);
    f(call + ".max_speed", a.max_speed);
    f(call + ".pref_vx", a.pref_vx);
    f(call + ".pref_vy", a.pref_vy);
    f(call + ".flags", a.flags);
  }
  // Calls f(name, column) for the solve's seven per-agent results, named solved.column.
  template <class F>
  static void ForEachSolvedColumn(OrcaResult* out, F&& f) {
    f("solved.vx", out->vx.data());
    f("solved.vy", out->vy.data());
    f("solved.status", out->status.data());
    f("solved.constraints", out->constraints.data());
    f("solved.solve_flags", out->solve_flags.data());
    f("solved.candidates", out->candidates.data());
    f("solved.neighbors", out->neighbors.data());
  }
  // Calls f(name, column) for the columns the vehicles' preparation writes that the follower
  // reads, named vready.column (a null column: absent).
  template <class F>
  static void ForEachReadyColumn(const VehiclePrepareOutput& out, F&& f) {
    f("vready.spline_id", out.spline_id);
    f("vready.px", out.px);
    f("vready.py", out.py);
    f("vready.pz", out.pz);
    f("vready.yaw", out.yaw);
    f("vready.speed", out.speed);
    f("vready.progress_hint", out.progress_hint);
    f("vready.max_speed", out.max_speed);
    f("vready.wheel_angle", out.wheel_angle);
    f("vready.turn_before_move", out.turn_before_move);
    f("vready.profile", out.profile);
  }
  void PoisonAgents(const std::string& call, const AgentColumnsOut& a, size_t rows) {
    ForEachAgentColumn(call, a, [&](const std::string& name, auto* c) { Poison(name, c, rows); });
  }
  template <class T>
  const T* Kept(const std::string& name) const {
    return reinterpret_cast<const T*>(kept_.at(name).data());
  }
  // The navigation's scene as a device reads it (`call` names the caller): the prepared
  // columns and the goals where the preparation left them, the target column and the
  // memory where promised, each promise checked.
  NavSteerScene NavigationAsADeviceReadsIt(const std::string& call, const NavSteerParams& params,
                                           const NavSteerScene& scene) {
    const size_t n = scene.count;
    ++checked_calls_;
    Check(call, "prepare.px", scene.px, n, /*whole=*/true);
    Check(call, "prepare.py", scene.py, n, true);
    Check(call, "prepare.vx", scene.vx, n, true);
    Check(call, "prepare.vy", scene.vy, n, true);
    Check(call, "prepare.max_speed", scene.max_speed, n, true);
    Check(call, "prepare.navigates", scene.navigates, n, true);
    NavSteerScene device = scene;
    device.px = Kept<float>("prepare.px");
    device.py = Kept<float>("prepare.py");
    device.vx = Kept<float>("prepare.vx");
    device.vy = Kept<float>("prepare.vy");
    device.max_speed = Kept<float>("prepare.max_speed");
    device.navigates = Kept<uint8_t>("prepare.navigates");
    const float** const goals[3] = {&device.goal_x, &device.goal_y, &device.goal_z};
    for (int k = 0; k < 3; ++k) {  // the preparation's input columns 4, 5, 6 after the moved six
      const std::string name = "prepare.in." + std::to_string(4 + k);
      if ((*goals[k] != nullptr) != (kept_.count(name) > 0)) {
        throw std::logic_error(call +
                               ": a goal column is present where the preparation's "
                               "was not, or not");
      }
      if (*goals[k] != nullptr) {
        Check(call, name, *goals[k], n, true);
        *goals[k] = Kept<float>(name);
      }
    }
    if (params.targets == ColumnSource::kLastTick) {
      Check(call, "navigate.target", scene.target, n, true);
      device.target = Kept<uint32_t>("navigate.target");
    }
    if (params.memory == ColumnSource::kLastTick && scene.memory != nullptr) {
      Check(call, "kept.memory", scene.memory, n, true);
      device.memory = Kept<AgentMemory>("kept.memory");
    }
    return device;
  }
  void KeepAgents(const std::string& call, const AgentColumnsOut& a, size_t rows) {
    ForEachAgentColumn(call, a, [&](const std::string& name, auto* c) { Keep(name, c, rows); });
  }
  // `rows` rows at `data` must equal the first rows of what `name` kept; with `whole`, all
  // of it (the call left exactly that many rows).
  template <class T>
  void Check(const std::string& call, const std::string& name, const T* data, size_t rows,
             bool whole = false) const {
    const auto it = kept_.find(name);
    const size_t bytes = rows * sizeof(T);
    const bool on_host = on_backend_only_.count(name) == 0;
    if (it == kept_.end() || it->second.size() < bytes || (whole && it->second.size() != bytes)) {
      throw std::logic_error(call + ": " + std::to_string(rows) + " rows promised from " + name +
                             ", which left " +
                             (it == kept_.end() ? std::string("nothing")
                                                : std::to_string(it->second.size() / sizeof(T))));
    }
    if (on_host && bytes > 0 && std::memcmp(it->second.data(), data, bytes) != 0) {
      throw std::logic_error(call + ": its column from " + name +
                             " was changed on the host since that call");
    }
  }
  template <class T>
  void CheckRows(const std::string& call, const std::string& from, const char* column,
                 const std::vector<T>& rows, size_t first, size_t count) const {
    Check(call, from + "." + column, rows.data() + first, count, /*whole=*/true);
  }
  void CheckAgentRows(const std::string& call, const AgentColumns& a, size_t first, size_t count,
                      const std::string& from) const {
    CheckRows(call, from, "id", a.id, first, count);
    CheckRows(call, from, "px", a.px, first, count);
    CheckRows(call, from, "py", a.py, first, count);
    CheckRows(call, from, "vx", a.vx, first, count);
    CheckRows(call, from, "vy", a.vy, first, count);
    CheckRows(call, from, "radius", a.radius, first, count);
    CheckRows(call, from, "max_speed", a.max_speed, first, count);
    CheckRows(call, from, "pref_vx", a.pref_vx, first, count);
    CheckRows(call, from, "pref_vy", a.pref_vy, first, count);
    CheckRows(call, from, "flags", a.flags, first, count);
  }

  std::map<std::string, std::vector<uint8_t>> kept_;
  std::set<std::string> on_backend_only_;
  uint32_t discs_from_ = 0;
  int checked_calls_ = 0;
  int fetches_ = 0;
  bool reported_ = false, moved_ = false;  // this tick's report and move ran
  bool completed_ = false;                 // this tick's follower completed the vehicles' memory
  bool vehicles_moved_ = false;            // this tick's vehicles' move ran
  bool forward_moved_ = false;             // this tick's forward agents' move ran
  size_t forward_prepared_ = 0;            // the forward agents the last preparation made
};

}  // namespace throng::testing
