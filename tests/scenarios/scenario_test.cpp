// The world scenario library (kernels/scenarios/scenario.h): sizes, seeds, a clean start
// (no overlaps, nobody in a wall, vehicles on their lanes) and bit-exact JSON round trips.
#include "kernels/scenarios/scenario.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "kernels/scenarios/blocks.h"
#include "kernels/scenarios/crowd.h"
#include "kernels/vehicles/spline.h"

namespace throng::scenarios {
namespace {

using Json = nlohmann::json;

std::vector<std::string> Names() { return ScenarioNames(); }
// Scenarios of forward agents rather than pedestrians.
bool IsForward(const std::string& name) { return name == "flock" || name == "drones"; }
// Evacuation scenes have no goals: people leave the room (EvacuationRoom) and are taken off.
bool IsEvacuation(const std::string& name) {
  return name == "rimea_9" || name == "rimea_9_two_exits" || name == "two_exits";
}

// The columns MeasureOverlaps reads, with the world's default radius where the snapshot
// leaves it out.
AgentColumns Columns(const Scenario& s) {
  const AgentSnapshot& a = s.initial.agents;
  AgentColumns c;
  c.Resize(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    c.id[i] = a.id[i];
    c.px[i] = a.x[i];
    c.py[i] = a.y[i];
    c.radius[i] = a.radius.empty() ? s.config.agent_defaults.radius : a.radius[i];
    c.max_speed[i] = a.max_speed.empty() ? s.config.agent_defaults.max_speed : a.max_speed[i];
  }
  return c;
}

float SegmentDistance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const float t = std::clamp(Dot(p - a, ab) / LengthSq(ab), 0.f, 1.f);
  return Length(p - (a + ab * t));
}

bool InsidePolygon(Vec2 p, const std::vector<Vec2>& poly) {
  bool inside = false;
  for (size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const Vec2 a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
      inside = !inside;
    }
  }
  return inside;
}

std::vector<Vec2> Ground(const std::vector<Vec3>& points) {
  std::vector<Vec2> out;
  for (const Vec3& p : points) out.push_back({p.x, p.y});
  return out;
}

// Distance from p to the obstacle's edges, negative when inside a polygon.
float ObstacleClearance(Vec2 p, const std::vector<Vec3>& obstacle) {
  const std::vector<Vec2> poly = Ground(obstacle);
  float d = std::numeric_limits<float>::max();
  const size_t edges = poly.size() == 2 ? 1 : poly.size();
  for (size_t k = 0; k < edges; ++k)
    d = std::min(d, SegmentDistance(p, poly[k], poly[(k + 1) % poly.size()]));
  return poly.size() > 2 && InsidePolygon(p, poly) ? -d : d;
}

template <class T>
void ExpectSameBits(const std::vector<T>& a, const std::vector<T>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  if (!a.empty()) {
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(T)), 0) << what;
  }
}

void ExpectSameSnapshot(const Snapshot& a, const Snapshot& b) {
  EXPECT_EQ(a.tick, b.tick);
  EXPECT_EQ(std::bit_cast<uint32_t>(a.dt), std::bit_cast<uint32_t>(b.dt));
  const AgentSnapshot &p = a.agents, &q = b.agents;
  ExpectSameBits(p.id, q.id, "agents.id");
  ExpectSameBits(p.x, q.x, "agents.x");
  ExpectSameBits(p.y, q.y, "agents.y");
  ExpectSameBits(p.z, q.z, "agents.z");
  ExpectSameBits(p.vx, q.vx, "agents.vx");
  ExpectSameBits(p.vy, q.vy, "agents.vy");
  ExpectSameBits(p.vz, q.vz, "agents.vz");
  ExpectSameBits(p.radius, q.radius, "agents.radius");
  ExpectSameBits(p.max_speed, q.max_speed, "agents.max_speed");
  ExpectSameBits(p.goal_x, q.goal_x, "agents.goal_x");
  ExpectSameBits(p.goal_y, q.goal_y, "agents.goal_y");
  ExpectSameBits(p.goal_z, q.goal_z, "agents.goal_z");
  ExpectSameBits(p.pref_vx, q.pref_vx, "agents.pref_vx");
  ExpectSameBits(p.pref_vy, q.pref_vy, "agents.pref_vy");
  ExpectSameBits(p.pref_vz, q.pref_vz, "agents.pref_vz");
  ExpectSameBits(p.flags, q.flags, "agents.flags");
  ExpectSameBits(p.behavior, q.behavior, "agents.behavior");
  const VehicleSnapshot &v = a.vehicles, &w = b.vehicles;
  ExpectSameBits(v.id, w.id, "vehicles.id");
  ExpectSameBits(v.x, w.x, "vehicles.x");
  ExpectSameBits(v.y, w.y, "vehicles.y");
  ExpectSameBits(v.z, w.z, "vehicles.z");
  ExpectSameBits(v.yaw, w.yaw, "vehicles.yaw");
  ExpectSameBits(v.speed, w.speed, "vehicles.speed");
  ExpectSameBits(v.spline_id, w.spline_id, "vehicles.spline_id");
  ExpectSameBits(v.progress_hint, w.progress_hint, "vehicles.progress_hint");
  ExpectSameBits(v.length, w.length, "vehicles.length");
  ExpectSameBits(v.width, w.width, "vehicles.width");
  ExpectSameBits(v.max_speed, w.max_speed, "vehicles.max_speed");
  ExpectSameBits(v.profile, w.profile, "vehicles.profile");
  const ForwardSnapshot &f = a.forward, &g = b.forward;
  ExpectSameBits(f.id, g.id, "forward.id");
  ExpectSameBits(f.x, g.x, "forward.x");
  ExpectSameBits(f.y, g.y, "forward.y");
  ExpectSameBits(f.z, g.z, "forward.z");
  ExpectSameBits(f.forward_x, g.forward_x, "forward.forward_x");
  ExpectSameBits(f.forward_y, g.forward_y, "forward.forward_y");
  ExpectSameBits(f.forward_z, g.forward_z, "forward.forward_z");
  ExpectSameBits(f.speed, g.speed, "forward.speed");
  ExpectSameBits(f.radius, g.radius, "forward.radius");
  ExpectSameBits(f.goal_x, g.goal_x, "forward.goal_x");
  ExpectSameBits(f.goal_y, g.goal_y, "forward.goal_y");
  ExpectSameBits(f.goal_z, g.goal_z, "forward.goal_z");
  ExpectSameBits(f.probes, g.probes, "forward.probes");
  ExpectSameBits(f.half_angle, g.half_angle, "forward.half_angle");
  ExpectSameBits(f.probe_length, g.probe_length, "forward.probe_length");
  ExpectSameBits(f.turn_speed, g.turn_speed, "forward.turn_speed");
}

#define EXPECT_SAME_FLOAT(a, b) \
  EXPECT_EQ(std::bit_cast<uint32_t>(a), std::bit_cast<uint32_t>(b)) << #a

void ExpectSameFollower(const FollowerParams& f, const FollowerParams& g) {
  EXPECT_SAME_FLOAT(f.look_ahead_base, g.look_ahead_base);
  EXPECT_SAME_FLOAT(f.look_ahead_speed_factor, g.look_ahead_speed_factor);
  EXPECT_SAME_FLOAT(f.heading_weight, g.heading_weight);
  EXPECT_SAME_FLOAT(f.max_yaw_delta, g.max_yaw_delta);
  EXPECT_SAME_FLOAT(f.crosstrack_gain, g.crosstrack_gain);
  EXPECT_SAME_FLOAT(f.projection_window, g.projection_window);
  EXPECT_SAME_FLOAT(f.max_lateral_accel, g.max_lateral_accel);
  EXPECT_SAME_FLOAT(f.max_brake_decel, g.max_brake_decel);
  EXPECT_SAME_FLOAT(f.curvature_feedforward, g.curvature_feedforward);
  EXPECT_SAME_FLOAT(f.lag_compensation, g.lag_compensation);
  EXPECT_SAME_FLOAT(f.wheelbase, g.wheelbase);
  EXPECT_SAME_FLOAT(f.max_steer_angle, g.max_steer_angle);
  EXPECT_SAME_FLOAT(f.steering_lag, g.steering_lag);
  EXPECT_SAME_FLOAT(f.approach_curvature_share, g.approach_curvature_share);
  EXPECT_SAME_FLOAT(f.control_period, g.control_period);
  EXPECT_SAME_FLOAT(f.speed_gain, g.speed_gain);
  EXPECT_EQ(f.adaptive_look_ahead, g.adaptive_look_ahead);
  EXPECT_SAME_FLOAT(f.wheel_response_time, g.wheel_response_time);
  EXPECT_EQ(f.peak_curvature_speed, g.peak_curvature_speed);
}

// Field by field, written out independently of the library's field list, so a field that
// list forgets fails here.
void ExpectSameConfig(const WorldConfig& a, const WorldConfig& b) {
  EXPECT_EQ(a.frame.up, b.frame.up);
  EXPECT_EQ(a.frame.handedness, b.frame.handedness);
  ASSERT_EQ(a.splines.size(), b.splines.size());
  for (size_t i = 0; i < a.splines.size(); ++i) {
    EXPECT_EQ(a.splines[i].id, b.splines[i].id);
    EXPECT_EQ(a.splines[i].closed, b.splines[i].closed);
    EXPECT_SAME_FLOAT(a.splines[i].speed_limit, b.splines[i].speed_limit);
    ExpectSameBits(a.splines[i].points, b.splines[i].points, "spline points");
  }
  ASSERT_EQ(a.obstacles.size(), b.obstacles.size());
  for (size_t i = 0; i < a.obstacles.size(); ++i)
    ExpectSameBits(a.obstacles[i], b.obstacles[i], "obstacle");
  ASSERT_EQ(a.obstacle_heights.size(), b.obstacle_heights.size());
  for (size_t i = 0; i < a.obstacle_heights.size(); ++i) {
    EXPECT_EQ(a.obstacle_heights[i].bounded, b.obstacle_heights[i].bounded);
    EXPECT_SAME_FLOAT(a.obstacle_heights[i].base, b.obstacle_heights[i].base);
    EXPECT_SAME_FLOAT(a.obstacle_heights[i].top, b.obstacle_heights[i].top);
  }
  ASSERT_EQ(a.spheres.size(), b.spheres.size());
  for (size_t i = 0; i < a.spheres.size(); ++i) {
    EXPECT_SAME_FLOAT(a.spheres[i].center.x, b.spheres[i].center.x);
    EXPECT_SAME_FLOAT(a.spheres[i].center.y, b.spheres[i].center.y);
    EXPECT_SAME_FLOAT(a.spheres[i].center.z, b.spheres[i].center.z);
    EXPECT_SAME_FLOAT(a.spheres[i].radius, b.spheres[i].radius);
  }
  EXPECT_EQ(a.forward.mode, b.forward.mode);
  EXPECT_EQ(a.forward.probes, b.forward.probes);
  EXPECT_SAME_FLOAT(a.forward.half_angle, b.forward.half_angle);
  EXPECT_SAME_FLOAT(a.forward.probe_length, b.forward.probe_length);
  EXPECT_SAME_FLOAT(a.forward.turn_speed, b.forward.turn_speed);
  EXPECT_SAME_FLOAT(a.forward.radius, b.forward.radius);
  const OrcaParams &o = a.orca, &p = b.orca;
  EXPECT_SAME_FLOAT(o.time_step, p.time_step);
  EXPECT_SAME_FLOAT(o.time_horizon, p.time_horizon);
  EXPECT_SAME_FLOAT(o.time_horizon_obst, p.time_horizon_obst);
  EXPECT_SAME_FLOAT(o.neighbor_dist, p.neighbor_dist);
  EXPECT_EQ(o.max_neighbors, p.max_neighbors);
  EXPECT_SAME_FLOAT(o.side_bias, p.side_bias);
  EXPECT_SAME_FLOAT(o.side_bias_fade, p.side_bias_fade);
  EXPECT_SAME_FLOAT(o.follower_weight, p.follower_weight);
  EXPECT_SAME_FLOAT(o.contact_margin_ratio, p.contact_margin_ratio);
  EXPECT_EQ(o.shorten_horizon, p.shorten_horizon);
  EXPECT_EQ(o.overlap_is_hard, p.overlap_is_hard);
  EXPECT_EQ(o.revalidate, p.revalidate);
  EXPECT_EQ(o.revalidate_passes, p.revalidate_passes);
  EXPECT_EQ(o.revalidate_fallback, p.revalidate_fallback);
  EXPECT_EQ(o.density_speed, p.density_speed);
  EXPECT_EQ(o.headway_speed, p.headway_speed);
  EXPECT_SAME_FLOAT(o.headway_time, p.headway_time);
  EXPECT_SAME_FLOAT(o.headway_anticipation, p.headway_anticipation);
  EXPECT_EQ(o.jam_step, p.jam_step);
  EXPECT_SAME_FLOAT(o.jam_step_depth, p.jam_step_depth);
  EXPECT_EQ(o.right_of_way, p.right_of_way);
  EXPECT_EQ(o.standing_detour, p.standing_detour);
  EXPECT_EQ(o.corner_lines, p.corner_lines);
  EXPECT_EQ(o.squeeze_step, p.squeeze_step);
  EXPECT_EQ(o.rvo2_fallback, p.rvo2_fallback);
  ExpectSameFollower(a.follower, b.follower);
  ASSERT_EQ(a.vehicle_profiles.size(), b.vehicle_profiles.size());
  for (size_t k = 0; k < a.vehicle_profiles.size(); ++k) {
    ExpectSameFollower(a.vehicle_profiles[k], b.vehicle_profiles[k]);
  }
  EXPECT_SAME_FLOAT(a.world_speed_limit, b.world_speed_limit);
  EXPECT_SAME_FLOAT(a.agent_defaults.radius, b.agent_defaults.radius);
  EXPECT_SAME_FLOAT(a.agent_defaults.max_speed, b.agent_defaults.max_speed);
  EXPECT_SAME_FLOAT(a.agent_defaults.max_accel, b.agent_defaults.max_accel);
  EXPECT_SAME_FLOAT(a.agent_defaults.slowing_radius, b.agent_defaults.slowing_radius);
  EXPECT_EQ(a.agent_defaults.behavior, b.agent_defaults.behavior);
  const VehicleDefaults &v = a.vehicle_defaults, &w = b.vehicle_defaults;
  EXPECT_SAME_FLOAT(v.length, w.length);
  EXPECT_SAME_FLOAT(v.width, w.width);
  EXPECT_SAME_FLOAT(v.max_speed, w.max_speed);
  EXPECT_SAME_FLOAT(v.bicycle.wheelbase, w.bicycle.wheelbase);
  EXPECT_SAME_FLOAT(v.bicycle.max_steer_angle, w.bicycle.max_steer_angle);
  EXPECT_SAME_FLOAT(v.bicycle.max_accel, w.bicycle.max_accel);
  EXPECT_SAME_FLOAT(v.bicycle.max_brake, w.bicycle.max_brake);
  EXPECT_SAME_FLOAT(v.bicycle.steering_time_constant, w.bicycle.steering_time_constant);
  const DetectionParams &d = a.detection, &e = b.detection;
  EXPECT_EQ(d.oscillation_window, e.oscillation_window);
  EXPECT_EQ(d.oscillation_flips, e.oscillation_flips);
  EXPECT_SAME_FLOAT(d.oscillation_min_lateral, e.oscillation_min_lateral);
  EXPECT_EQ(d.stall_ticks, e.stall_ticks);
  EXPECT_SAME_FLOAT(d.stall_min_progress, e.stall_min_progress);
  EXPECT_SAME_FLOAT(d.stop_speed, e.stop_speed);
  EXPECT_SAME_FLOAT(d.goal_tolerance, e.goal_tolerance);
  const PathCheckParams &c = a.path_check, &k = b.path_check;
  EXPECT_SAME_FLOAT(c.gap, k.gap);
  EXPECT_SAME_FLOAT(c.reaction_time, k.reaction_time);
  EXPECT_SAME_FLOAT(c.min_length, k.min_length);
  EXPECT_SAME_FLOAT(c.lateral_margin, k.lateral_margin);
  EXPECT_EQ(a.audit_every, b.audit_every);
}

void ExpectSameScenario(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.size, b.size);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.suggested_ticks, b.suggested_ticks);
  ExpectSameConfig(a.config, b.config);
  ExpectSameSnapshot(a.initial, b.initial);
}

TEST(ScenarioTest, names_are_the_seventeen_scenarios) {
  EXPECT_EQ(Names(), (std::vector<std::string>{
                         "circle", "random", "corridor", "crossing", "town", "flock", "drones",
                         "bottleneck_1m", "bottleneck_2m", "blocks", "u_trap", "rimea_6", "rimea_9",
                         "rimea_9_two_exits", "two_exits", "blocks_navigate", "crossing_navigate"}));
}

// RVO2's Blocks tile as blocks.h builds it, each agent sent to its start mirrored through
// the tile's centre; partial tiles keep Blocks.cc's order, which takes the groups in turn.
TEST(ScenarioTest, blocks_is_rvo2s_blocks_with_mirrored_goals) {
  const Scenario one = MakeScenario("blocks", 100, 1);
  const CrowdScenario tile = Blocks(1, 1);
  const AgentSnapshot& a = one.initial.agents;
  ASSERT_EQ(a.size(), 100u);
  EXPECT_EQ(a.x, tile.scene.agents.px);
  EXPECT_EQ(a.y, tile.scene.agents.py);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a.goal_x[i], -a.x[i]);
    EXPECT_EQ(a.goal_y[i], -a.y[i]);
    // Near the corner Blocks.cc sends the group to (within its 20 m "reached" radius,
    // or the lattice's far corner, 28 m off).
    EXPECT_LT(std::hypot(a.goal_x[i] - tile.goals[i].x, a.goal_y[i] - tile.goals[i].y), 28.3f);
  }
  ASSERT_EQ(one.config.obstacles.size(), 4u);
  EXPECT_EQ(one.config.orca.time_horizon, 5.f);
  EXPECT_EQ(one.config.agent_defaults.radius, 2.f);
  // 10,000: the issue's 10 x 10 tiling; 250: three tiles, the third holding 50.
  EXPECT_EQ(MakeScenario("blocks", 10000, 1).config.obstacles.size(), 400u);
  const Scenario part = MakeScenario("blocks", 250, 1);
  EXPECT_EQ(part.config.obstacles.size(), 12u);
  const AgentSnapshot& p = part.initial.agents;
  // The third tile's 50 by quadrant about its centre: the four groups, 12 or 13 each.
  int quadrant[4] = {0, 0, 0, 0};
  for (size_t i = 200; i < p.size(); ++i) {
    const float dx = p.x[i] - 200.f * std::round(p.x[i] / 200.f);
    const float dy = p.y[i] - 200.f * std::round(p.y[i] / 200.f);
    ++quadrant[(dx > 0.f ? 1 : 0) + (dy > 0.f ? 2 : 0)];
  }
  for (int q : quadrant) {
    EXPECT_GE(q, 12);
    EXPECT_LE(q, 13);
  }
}

TEST(ScenarioTest, unknown_name_or_size_zero_is_rejected) {
  try {
    MakeScenario("plaza", 10, 1);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    for (const std::string& name : Names())
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos);
  }
  EXPECT_THROW(MakeScenario("circle", 0, 1), std::invalid_argument);
}

TEST(ScenarioTest, every_scenario_has_the_asked_size_and_columns) {
  for (const std::string& name : Names()) {
    for (size_t size : {1u, 2u, 7u, 100u, 1001u}) {
      SCOPED_TRACE(name + " " + std::to_string(size));
      const Scenario s = MakeScenario(name, size, 3);
      EXPECT_EQ(s.name, name);
      EXPECT_EQ(s.size, size);
      EXPECT_EQ(s.seed, 3u);
      EXPECT_GT(s.suggested_ticks, 0);
      EXPECT_GT(s.initial.dt, 0.f);
      EXPECT_EQ(s.initial.dt, s.config.orca.time_step);
      if (IsForward(name)) {
        const ForwardSnapshot& f = s.initial.forward;
        ASSERT_EQ(f.size(), size);
        EXPECT_TRUE(s.initial.agents.id.empty());
        for (size_t i = 0; i < size; ++i) ASSERT_EQ(f.id[i], i);
        for (const auto* column :
             {&f.x, &f.y, &f.z, &f.forward_x, &f.forward_y, &f.forward_z, &f.speed}) {
          EXPECT_EQ(column->size(), size);
          for (float value : *column) ASSERT_TRUE(std::isfinite(value));
        }
        EXPECT_EQ(f.goal_x.size(), name == "drones" ? size : 0u);
        continue;
      }
      const AgentSnapshot& a = s.initial.agents;
      ASSERT_EQ(a.size(), size);
      for (size_t i = 0; i < size; ++i) ASSERT_EQ(a.id[i], i);
      EXPECT_EQ(a.x.size(), size);
      EXPECT_EQ(a.y.size(), size);
      const size_t goals = IsEvacuation(name) ? 0 : size;
      EXPECT_EQ(a.goal_x.size(), goals);
      EXPECT_EQ(a.goal_y.size(), goals);
      const VehicleSnapshot& v = s.initial.vehicles;
      const size_t vehicles = name == "town" ? TownVehicles(size) : 0;
      ASSERT_EQ(v.size(), vehicles);
      for (size_t i = 0; i < vehicles; ++i) ASSERT_EQ(v.id[i], i);
      for (const auto* column : {&v.x, &v.y, &v.yaw, &v.speed, &v.progress_hint}) {
        EXPECT_EQ(column->size(), vehicles);
      }
      EXPECT_EQ(v.spline_id.size(), vehicles);
      for (float value : a.x) ASSERT_TRUE(std::isfinite(value));
      for (float value : a.goal_y) ASSERT_TRUE(std::isfinite(value));
    }
  }
}

TEST(ScenarioTest, a_seed_gives_one_scenario_and_another_seed_another) {
  for (const std::string& name : Names()) {
    SCOPED_TRACE(name);
    const Scenario a = MakeScenario(name, 500, 11), b = MakeScenario(name, 500, 11);
    const Scenario c = MakeScenario(name, 500, 12);
    ExpectSameScenario(a, b);
    // RVO2's scenes too (circle, blocks navigating or not): seeds other than
    // kRvo2ExactSeed nudge their starts.
    const bool moved = a.initial.agents.x != c.initial.agents.x ||
                       a.initial.agents.goal_x != c.initial.agents.goal_x ||
                       a.initial.forward.x != c.initial.forward.x;
    EXPECT_TRUE(moved);
  }
}

// RVO2's circle and Blocks are exact with kRvo2ExactSeed and nudged by at most
// kRvo2SceneNudge on each axis with any other seed, goals unchanged: a crowd in them is
// chaotic, and three seeds must be three samples, not one run three times.
TEST(ScenarioTest, rvo2_scenes_are_exact_with_seed_one_and_nudged_with_others) {
  for (const std::string name : {"circle", "blocks", "blocks_navigate"}) {
    SCOPED_TRACE(name);
    const Scenario exact = MakeScenario(name, 300, kRvo2ExactSeed);
    const CrowdScenario rvo2 = name == "circle" ? Circle(300) : Blocks(2, 2);
    const AgentSnapshot& e = exact.initial.agents;
    ASSERT_EQ(e.size(), 300u);
    for (size_t i = 0; i < e.size(); ++i) {
      ASSERT_EQ(e.x[i], rvo2.scene.agents.px[i]);
      ASSERT_EQ(e.y[i], rvo2.scene.agents.py[i]);
    }
    for (uint32_t seed : {2u, 3u}) {
      const AgentSnapshot& n = MakeScenario(name, 300, seed).initial.agents;
      ASSERT_EQ(n.size(), e.size());
      EXPECT_EQ(n.goal_x, e.goal_x);
      EXPECT_EQ(n.goal_y, e.goal_y);
      float largest = 0.f;
      size_t moved = 0;
      for (size_t i = 0; i < n.size(); ++i) {
        const float dx = std::fabs(n.x[i] - e.x[i]), dy = std::fabs(n.y[i] - e.y[i]);
        largest = std::max({largest, dx, dy});
        moved += dx > 0.f || dy > 0.f;
      }
      // Plus the rounding of a coordinate a few hundred metres out (an ulp is 3e-5 m there).
      EXPECT_LE(largest, kRvo2SceneNudge + 1e-4f);
      EXPECT_GT(largest, 0.5f * kRvo2SceneNudge);
      EXPECT_EQ(moved, n.size());
    }
  }
}

TEST(ScenarioTest, json_round_trip_is_bit_identical) {
  for (const std::string& name : Names()) {
    SCOPED_TRACE(name);
    const Scenario s = MakeScenario(name, 700, 5);
    const std::string json = ScenarioToJson(s);
    const Scenario back = ScenarioFromJson(json);
    ExpectSameScenario(s, back);
    EXPECT_EQ(ScenarioToJson(back), json);
  }
}

// Every field away from its default, every column present, and floats that are hard to
// print: signed zero, subnormals, the extremes, and random bit patterns.
Scenario Everything() {
  Scenario s;
  s.name = "hand-made";
  s.size = 5000;
  s.seed = 0xfedcba98u;
  s.suggested_ticks = 1234;
  WorldConfig& c = s.config;
  c.frame = {UpAxis::kY, Handedness::kLeft};
  c.splines = {{7, {{0, 0, 0}, {10, 0.1f, -2}, {20, 5, 1e-3f}}, false, 8.5f},
               {9, {{1, 1, 1}, {-1, 2, 3}, {4, -5, 6}, {0.3f, 0.7f, 1.1f}}, true, 0.f}};
  c.obstacles = {{{0, 0, 0}, {1, 0, 0}}, {{2, 2, 0}, {3, 2, 0.5f}, {3, 3, -0.5f}}};
  c.orca = {0.05f, 3.5f, 1.25f, 7.f, 17, 0.2f, 2e-3f, false, false, false, true};
  c.orca.density_speed = true;
  c.orca.headway_speed = true;
  c.orca.headway_time = 0.75f;
  c.orca.headway_anticipation = 0.125f;
  c.orca.jam_step = false;
  c.orca.jam_step_depth = 0.02f;
  c.orca.right_of_way = true;
  c.orca.standing_detour = true;
  c.orca.corner_lines = false;
  c.orca.squeeze_step = false;
  c.follower = {2.5f, 0.3f, 0.6f, 0.45f, 0.2f, 7.f, 2.5f, 5.f, 0.4f, false};
  c.vehicle_profiles = {c.follower, FollowerParams{}};
  c.vehicle_profiles[0].max_lateral_accel = 1.25f;
  c.vehicle_profiles[1].peak_curvature_speed = false;
  c.world_speed_limit = 11.1f;
  c.agent_defaults = {0.35f, 1.3f, 2.5f, 1.1f, AgentBehavior::kFlee};
  c.obstacle_heights = {{}, {true, -0.5f, 7.25f}};
  c.spheres = {{{1, 2, 3}, 0.75f}, {{-4e5f, 1e-3f, 7.f}, 1234.5f}};
  c.forward = {FanMode::kCone, 17, 0.9f, 11.5f, 0.f, 0.45f};
  c.vehicle_defaults = {5.1f, 2.1f, 12.f, {3.1f, 0.55f, 2.5f, 7.f, 0.25f}};
  c.detection = {16, 3, 0.15f, 40, 0.3f, 0.04f, 0.2f};
  c.path_check = {2.5f, 1.2f, 7.f, 0.35f};
  c.audit_every = 13;
  s.initial.tick = 0xffffffffffull + 3;
  s.initial.dt = 1.f / 60.f;

  uint32_t state = 12345;
  auto awkward = [&state](size_t i) {
    static const float special[] = {0.f,           -0.f,       0.1f,    1.f / 3.f,
                                    FLT_MAX,       -FLT_MAX,   FLT_MIN, FLT_TRUE_MIN,
                                    -FLT_TRUE_MIN, 16777217.f, 1e-30f};
    if (i < std::size(special)) return special[i];
    for (;;) {  // a random finite bit pattern
      state = state * 1664525u + 1013904223u;
      const float f = std::bit_cast<float>(state);
      if (std::isfinite(f)) return f;
    }
  };
  const size_t n = 3000, m = 40;
  AgentSnapshot& a = s.initial.agents;
  for (auto* column : {&a.x, &a.y, &a.z, &a.vx, &a.vy, &a.vz, &a.radius, &a.max_speed, &a.goal_x,
                       &a.goal_y, &a.goal_z, &a.pref_vx, &a.pref_vy, &a.pref_vz}) {
    for (size_t i = 0; i < n; ++i) column->push_back(awkward(i));
  }
  for (size_t i = 0; i < n; ++i) {
    a.id.push_back(static_cast<uint32_t>(n - i) * 977u);
    a.flags.push_back(static_cast<uint8_t>(i));
    a.behavior.push_back(static_cast<uint8_t>(i % kAgentBehaviorCount));
  }
  ForwardSnapshot& f = s.initial.forward;
  for (auto* column :
       {&f.x, &f.y, &f.z, &f.forward_x, &f.forward_y, &f.forward_z, &f.speed, &f.radius, &f.goal_x,
        &f.goal_y, &f.goal_z, &f.half_angle, &f.probe_length, &f.turn_speed}) {
    for (size_t i = 0; i < 30; ++i) column->push_back(awkward(i + 3));
  }
  for (size_t i = 0; i < 30; ++i) {
    f.id.push_back(static_cast<uint32_t>(i) * 3u);
    f.probes.push_back(static_cast<uint32_t>(i % 70));
  }
  VehicleSnapshot& v = s.initial.vehicles;
  for (auto* column :
       {&v.x, &v.y, &v.z, &v.yaw, &v.speed, &v.progress_hint, &v.length, &v.width, &v.max_speed}) {
    for (size_t i = 0; i < m; ++i) column->push_back(awkward(i + 7));
  }
  for (size_t i = 0; i < m; ++i) {
    v.id.push_back(static_cast<uint32_t>(i) + 4000000000u);
    v.spline_id.push_back(i % 2 ? 7 : 9);
    v.profile.push_back(static_cast<uint32_t>(i % 3));
  }
  return s;
}

TEST(ScenarioTest, json_round_trip_keeps_every_field_and_every_float) {
  const Scenario s = Everything();
  const Scenario back = ScenarioFromJson(ScenarioToJson(s));
  ExpectSameScenario(s, back);
  // Defaults elsewhere must not leak in: a default-built scenario round-trips too.
  ExpectSameScenario(Scenario{}, ScenarioFromJson(ScenarioToJson(Scenario{})));
}

TEST(ScenarioTest, floats_are_written_short) {
  Scenario s;
  s.initial.agents = {};
  s.initial.agents.id = {0};
  s.initial.agents.x = {0.1f};
  s.initial.agents.y = {-2.5f};
  const std::string json = ScenarioToJson(s);
  EXPECT_NE(json.find("\"x\":[0.1]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"y\":[-2.5]"), std::string::npos) << json;
}

// A field the list above does not know: the struct grew, so the JSON field list
// (kernels/scenarios/scenario_json_fields.h) and ExpectSameConfig need the new field.
TEST(ScenarioTest, config_structs_have_the_fields_the_json_knows) {
  EXPECT_EQ(sizeof(Frame), 2u);
  EXPECT_EQ(sizeof(OrcaParams), 72u);
  EXPECT_EQ(sizeof(FollowerParams), 76u);
  EXPECT_EQ(sizeof(AgentDefaults), 20u);
  EXPECT_EQ(sizeof(ForwardDefaults), 24u);
  EXPECT_EQ(sizeof(HeightRange), 12u);
  EXPECT_EQ(sizeof(SphereObstacle), 16u);
  EXPECT_EQ(sizeof(BicycleParams), 20u);
  EXPECT_EQ(sizeof(VehicleDefaults), 32u);
  EXPECT_EQ(sizeof(DetectionParams), 28u);
  EXPECT_EQ(sizeof(PathCheckParams), 16u);
  EXPECT_EQ(sizeof(SplineDesc), 40u);
}

// Applies `edit` to a valid scenario's JSON and expects the load to fail naming `message`.
void ExpectError(const std::function<void(Json&)>& edit, const std::string& message) {
  Json j = Json::parse(ScenarioToJson(MakeScenario("town", 60, 1)));
  edit(j);
  try {
    ScenarioFromJson(j.dump());
    ADD_FAILURE() << "no error; expected " << message;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos)
        << "got: " << e.what() << "\nexpected: " << message;
  }
}

TEST(ScenarioTest, json_errors_name_the_path) {
  ExpectError([](Json& j) { j["config"]["orca"]["time_horizon"] = "long"; },
              "config.orca.time_horizon: expected a number");
  ExpectError([](Json& j) { j["config"]["orca"]["max_neighbors"] = 2.5; },
              "config.orca.max_neighbors: expected an integer");
  ExpectError([](Json& j) { j["config"]["vehicle_defaults"]["bicycle"]["wheelbase"] = true; },
              "config.vehicle_defaults.bicycle.wheelbase: expected a number");
  ExpectError([](Json& j) { j["config"]["frame"]["up"] = "x"; },
              "config.frame.up: expected \"z\" or \"y\"");
  ExpectError(
      [](Json& j) {
        j["config"]["splines"][1]["points"][3] = {1, 2, 3, 4};
      },
      "config.splines[1].points[3]: expected [x, y, z]");
  ExpectError([](Json& j) { j["config"]["splines"][0].erase("id"); },
              "config.splines[0].id: missing");
  ExpectError([](Json& j) { j["config"]["obstacles"][2][1][0] = nullptr; },
              "config.obstacles[2][1][0]: expected a number");
  ExpectError([](Json& j) { j["config"]["audit_every"] = -1; },
              "config.audit_every: out of range 0 .. 4294967295");
  ExpectError([](Json& j) { j["config"]["detection"]["stall_tick"] = 3; },
              "config.detection.stall_tick: unknown field");
  ExpectError([](Json& j) { j["initial"]["agents"]["x"][7] = "a"; },
              "initial.agents.x[7]: expected a number");
  ExpectError([](Json& j) { j["initial"]["agents"]["goal_y"].erase(0); },
              "initial.agents.goal_y: 59 values, expected 60 (one per id)");
  ExpectError([](Json& j) { j["initial"]["agents"].erase("y"); }, "initial.agents.y: missing");
  ExpectError([](Json& j) { j["initial"]["vehicles"]["spline_id"][0] = 1e10; },
              "initial.vehicles.spline_id[0]: expected an integer");
  ExpectError([](Json& j) { j["initial"]["vehicles"]["yaw"][0] = 1e300; },
              "initial.vehicles.yaw[0]: out of the float range");
  ExpectError([](Json& j) { j["initial"].erase("dt"); }, "initial.dt: missing");
  ExpectError([](Json& j) { j.erase("initial"); }, "initial: missing");
  ExpectError([](Json& j) { j["seed"] = 1ull << 32; }, "seed: out of range 0 .. 4294967295");
  ExpectError([](Json& j) { j["version"] = 2; }, "version: unsupported 2");
  ExpectError([](Json& j) { j["config"] = 3; }, "config: expected an object");
  EXPECT_THROW(ScenarioFromJson("{\"name\": "), std::invalid_argument);
  EXPECT_THROW(ScenarioFromJson("[]"), std::invalid_argument);
}

TEST(ScenarioTest, optional_fields_take_their_defaults) {
  const Scenario s = ScenarioFromJson(R"({"name": "tiny", "size": 1, "seed": 0,
      "initial": {"dt": 0.05, "agents": {"id": [4], "x": [1], "y": [2]}}})");
  EXPECT_EQ(s.initial.agents.id, std::vector<uint32_t>{4});
  EXPECT_EQ(s.initial.agents.y, std::vector<float>{2.f});
  EXPECT_TRUE(s.initial.agents.goal_x.empty());
  EXPECT_EQ(s.initial.vehicles.size(), 0u);
  EXPECT_EQ(s.initial.dt, 0.05f);
  ExpectSameConfig(s.config, WorldConfig{});
}

// The example in docs/SCENARIOS.md, verbatim.
TEST(ScenarioTest, documented_example_loads) {
  const Scenario s = ScenarioFromJson(R"({
  "version": 1, "name": "tiny", "size": 2, "seed": 7, "suggested_ticks": 100,
  "config": {
    "frame": {"up": "z", "handedness": "right"},
    "splines": [{"id": 0, "points": [[0, 0, 0], [50, 0, 0], [50, 30, 0]],
                 "closed": true, "speed_limit": 10}],
    "obstacles": [[[10, 10, 0], [14, 10, 0], [14, 12, 0], [10, 12, 0]],
                  [[-5, -5, 0], [-5, 5, 0]]],
    "orca": {"time_step": 0.1, "time_horizon": 2},
    "agent_defaults": {"radius": 0.3, "max_speed": 1.4}
  },
  "initial": {
    "tick": 0, "dt": 0.1,
    "agents": {"id": [0, 1], "x": [1, 3], "y": [0, 0], "goal_x": [20, -20], "goal_y": [0, 0]},
    "vehicles": {"id": [0], "x": [25], "y": [0], "yaw": [0], "speed": [5],
                 "spline_id": [0], "progress_hint": [25]}
  }
})");
  EXPECT_EQ(s.name, "tiny");
  EXPECT_EQ(s.suggested_ticks, 100);
  ASSERT_EQ(s.config.splines.size(), 1u);
  EXPECT_TRUE(s.config.splines[0].closed);
  EXPECT_EQ(s.config.obstacles.size(), 2u);
  EXPECT_EQ(s.config.orca.time_horizon, 2.f);
  EXPECT_EQ(s.config.orca.max_neighbors, OrcaParams{}.max_neighbors);
  EXPECT_EQ(s.initial.agents.goal_x, (std::vector<float>{20.f, -20.f}));
  EXPECT_EQ(s.initial.vehicles.progress_hint, std::vector<float>{25.f});
}

TEST(ScenarioTest, save_and_load_a_file) {
  const Scenario s = MakeScenario("crossing", 300, 8);
  const std::string path = testing::TempDir() + "scenario_test_crossing.json";
  SaveScenario(s, path);
  ExpectSameScenario(s, LoadScenario(path));
  std::remove(path.c_str());
  try {
    LoadScenario(path);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
  EXPECT_THROW(SaveScenario(s, testing::TempDir() + "no/such/dir/x.json"), std::runtime_error);
}

TEST(ScenarioTest, nobody_overlaps_at_tick_zero) {
  for (const std::string& name : Names()) {
    for (size_t size : {2u, 333u, 4000u}) {
      SCOPED_TRACE(name + " " + std::to_string(size));
      const OverlapStats stats = MeasureOverlaps(Columns(MakeScenario(name, size, 21)), 0.f);
      EXPECT_EQ(stats.pairs, 0u);
    }
  }
}

// Each goal is a place of its own: two goals closer than a body would leave one of their
// agents short of home, or standing in the other (the town's walkers once did: 31 to 55
// such pairs among 1,000 people).
TEST(ScenarioTest, no_two_goals_closer_than_a_body) {
  for (const std::string& name : Names()) {
    for (size_t size : {333u, 4000u}) {
      SCOPED_TRACE(name + " " + std::to_string(size));
      Scenario s = MakeScenario(name, size, 21);
      AgentSnapshot& a = s.initial.agents;
      if (!a.has_goals()) continue;
      a.x = a.goal_x;
      a.y = a.goal_y;
      const OverlapStats stats = MeasureOverlaps(Columns(s), 0.f);
      EXPECT_EQ(stats.pairs, 0u);
    }
  }
}

TEST(ScenarioTest, nobody_starts_or_ends_in_an_obstacle) {
  for (const std::string& name : Names()) {
    SCOPED_TRACE(name);
    const Scenario s = MakeScenario(name, 3000, 4);
    const AgentSnapshot& a = s.initial.agents;
    const float radius = s.config.agent_defaults.radius;
    float start = 1e9f, goal = 1e9f;
    ASSERT_EQ(a.has_goals(), !IsEvacuation(name) && !IsForward(name));
    for (const auto& obstacle : s.config.obstacles) {
      for (size_t i = 0; i < a.size(); ++i) {
        start = std::min(start, ObstacleClearance({a.x[i], a.y[i]}, obstacle));
        if (a.has_goals()) {
          goal = std::min(goal, ObstacleClearance({a.goal_x[i], a.goal_y[i]}, obstacle));
        }
      }
    }
    EXPECT_GE(start, radius);
    EXPECT_GE(goal, radius);
  }
}

// The people leave into open ground: each navigates to the one target, the open side past
// the door, and stops on a goal of its own there. Goals lie inside the target, a lattice
// pitch apart; the nearest to the door get the farthest goals (the first out never stop in
// the way of those behind); the target starts past the door wall's face and a body.
TEST(ScenarioTest, bottleneck_people_navigate_to_the_open_side_and_the_first_out_walk_deepest) {
  for (const std::string name : {"bottleneck_1m", "bottleneck_2m"}) {
    for (size_t size : {1u, 200u, 2000u}) {
      SCOPED_TRACE(name + " " + std::to_string(size));
      const Scenario s = MakeScenario(name, size, 3);
      const AgentSnapshot& a = s.initial.agents;
      ASSERT_EQ(s.config.navigation_targets.size(), 1u);
      const NavigationTarget& target = s.config.navigation_targets[0];
      ASSERT_EQ(target.shape.size(), 4u);
      std::vector<Vec2> shape;
      float x_min = 1e9f;
      for (const Vec3& v : target.shape) {
        shape.push_back({v.x, v.y});
        x_min = std::min(x_min, v.x);
      }
      EXPECT_GE(x_min, 0.15f + s.config.agent_defaults.radius);  // the wall's face, a body
      EXPECT_EQ(s.config.navigation.clearance, s.config.agent_defaults.radius);
      ASSERT_EQ(a.target.size(), a.size());
      ASSERT_EQ(a.behavior.size(), a.size());
      std::vector<size_t> order(a.size());
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_LT(a.x[i], 0.f);
        EXPECT_EQ(a.target[i], target.id);
        EXPECT_EQ(a.behavior[i], static_cast<uint8_t>(AgentBehavior::kNavigate));
        EXPECT_GE(a.goal_x[i], 3.f);
        EXPECT_TRUE(InsidePolygon({a.goal_x[i], a.goal_y[i]}, shape));
        order[i] = i;
      }
      // Nearer the door, a goal no nearer to it.
      std::sort(order.begin(), order.end(), [&](size_t p, size_t q) {
        return a.x[p] * a.x[p] + a.y[p] * a.y[p] < a.x[q] * a.x[q] + a.y[q] * a.y[q];
      });
      auto goal_sq = [&](size_t i) {
        return a.goal_x[i] * a.goal_x[i] + a.goal_y[i] * a.goal_y[i];
      };
      for (size_t k = 1; k < order.size(); ++k) EXPECT_GE(goal_sq(order[k - 1]), goal_sq(order[k]));
      // Goals a lattice pitch (1 m) apart: arrived people stand clear of each other.
      for (size_t i = 0; i < a.size(); i += 7) {
        for (size_t j = 0; j < a.size(); ++j) {
          if (j == i) continue;
          EXPECT_GE(std::hypot(a.goal_x[i] - a.goal_x[j], a.goal_y[i] - a.goal_y[j]), 0.999f);
        }
      }
    }
  }
}

// 300,000 people bring 6,000 vehicles, more than one loop carries within kMaxLaneLength:
// that town has two districts, each its own pair of lanes.
TEST(ScenarioTest, town_vehicles_sit_on_their_lanes_and_apart) {
  for (size_t size : {1u, 499u, 10000u, 300000u}) {
    SCOPED_TRACE(size);
    const Scenario s = MakeScenario("town", size, 6);
    const size_t lanes = size < 300000 ? 2 : 4;
    ASSERT_EQ(s.config.splines.size(), lanes);
    const SplineSet set = BuildSplineSet(s.config.splines);
    for (uint32_t lane = 0; lane < lanes; ++lane) {
      EXPECT_EQ(s.config.splines[lane].id, lane);
      EXPECT_LE(set.headers[lane].length, kMaxLaneLength);
    }
    const VehicleSnapshot& v = s.initial.vehicles;
    ASSERT_EQ(v.size(), TownVehicles(size));
    std::vector<std::vector<float>> progress(lanes);
    for (size_t i = 0; i < v.size(); ++i) {
      const uint32_t lane = v.spline_id[i];
      ASSERT_LT(lane, lanes);
      const Vec3 p{v.x[i], v.y[i], 0.f};
      const float s_at = ProjectOnSpline(set.View(), lane, p, v.progress_hint[i], 6.f);
      EXPECT_LT(Length(LocationAt(set.View(), lane, s_at) - p), 0.5f);
      EXPECT_NEAR(s_at, v.progress_hint[i], 0.5f);
      const Vec3 t = DirectionAt(set.View(), lane, s_at);
      EXPECT_LT(std::fabs(ShortestSignedAngle(v.yaw[i], std::atan2(t.y, t.x))), 0.05f);
      EXPECT_GT(v.speed[i], 0.f);
      progress[lane].push_back(v.progress_hint[i]);
    }
    if (lanes == 2) {
      EXPECT_EQ(progress[0].size(), (v.size() + 1) / 2);
    }
    for (uint32_t lane = 0; lane < lanes; ++lane) {
      std::vector<float>& p = progress[lane];
      std::sort(p.begin(), p.end());
      for (size_t k = 1; k < p.size(); ++k) EXPECT_GE(p[k] - p[k - 1], 15.f);
      if (p.size() > 1) {
        EXPECT_GE(p.front() + set.headers[lane].length - p.back(), 15.f);
      }
    }
  }
}

// Districts stand apart: every pedestrian and building of one lies outside the other's
// outer lane.
TEST(ScenarioTest, a_town_of_two_districts_keeps_them_apart) {
  const Scenario s = MakeScenario("town", 300000, 3);
  ASSERT_EQ(s.config.splines.size(), 4u);
  const std::vector<Vec2> outer[2] = {Ground(s.config.splines[0].points),
                                      Ground(s.config.splines[2].points)};
  const AgentSnapshot& a = s.initial.agents;
  ASSERT_EQ(a.size(), 300000u);
  size_t in_both = 0, in_first = 0;
  for (size_t i = 0; i < a.size(); i += 7) {
    const bool first = InsidePolygon({a.x[i], a.y[i]}, outer[0]);
    in_both += first && InsidePolygon({a.x[i], a.y[i]}, outer[1]);
    in_first += first;
  }
  EXPECT_EQ(in_both, 0u);
  EXPECT_GT(in_first, 0u);
  for (const auto& building : s.config.obstacles) {
    const Vec2 c{building[0].x, building[0].y};
    EXPECT_NE(InsidePolygon(c, outer[0]), InsidePolygon(c, outer[1]));
  }
}

// The lanes run in opposite directions: the outer one counter-clockwise (right-hand traffic).
TEST(ScenarioTest, town_lanes_run_both_ways) {
  const Scenario s = MakeScenario("town", 1000, 2);
  auto signed_area = [](const std::vector<Vec3>& p) {
    double area = 0;
    for (size_t i = 0, j = p.size() - 1; i < p.size(); j = i++)
      area += double(p[j].x) * p[i].y - double(p[i].x) * p[j].y;
    return area / 2;
  };
  EXPECT_GT(signed_area(s.config.splines[0].points), 0.);
  EXPECT_LT(signed_area(s.config.splines[1].points), 0.);
  EXPECT_TRUE(s.config.splines[0].closed && s.config.splines[1].closed);
  EXPECT_EQ(s.config.splines[0].speed_limit, 10.f);
}

TEST(ScenarioTest, town_pedestrians_start_clear_of_lanes_and_vehicles_and_half_cross) {
  for (size_t size : {3u, 2000u, 10000u}) {
    SCOPED_TRACE(size);
    const Scenario s = MakeScenario("town", size, 9);
    const SplineSet set = BuildSplineSet(s.config.splines);
    std::vector<Vec2> lane_points[2];
    for (uint32_t lane = 0; lane < 2; ++lane) {
      for (float at = 0.f; at < set.headers[lane].length; at += 0.5f) {
        const Vec3 p = LocationAt(set.View(), lane, at);
        lane_points[lane].push_back({p.x, p.y});
      }
    }
    const AgentSnapshot& a = s.initial.agents;
    const VehicleSnapshot& v = s.initial.vehicles;
    const float lane_half_width = 1.75f, radius = s.config.agent_defaults.radius;
    const float length = s.config.vehicle_defaults.length, width = s.config.vehicle_defaults.width;
    float to_lane = 1e9f, to_body = 1e9f;
    size_t crossing = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      const Vec2 p{a.x[i], a.y[i]};
      for (const auto& points : lane_points) {
        for (const Vec2& q : points) to_lane = std::min(to_lane, Length(p - q));
      }
      for (size_t k = 0; k < v.size(); ++k) {
        // The body runs from 1 m behind the rear axle to length - 1 m ahead of it.
        const Vec2 heading{std::cos(v.yaw[k]), std::sin(v.yaw[k])};
        const Vec2 rel = p - Vec2{v.x[k], v.y[k]};
        const float along = Dot(rel, heading), across = Det(heading, rel);
        const float dx = std::max({-1.f - along, along - (length - 1.f), 0.f});
        const float dy = std::max(std::fabs(across) - 0.5f * width, 0.f);
        to_body = std::min(to_body, std::hypot(dx, dy) - radius);
      }
      const bool starts_inside = InsidePolygon(p, lane_points[0]);
      crossing += starts_inside != InsidePolygon({a.goal_x[i], a.goal_y[i]}, lane_points[0]);
    }
    EXPECT_GE(to_lane, lane_half_width + 2.f);  // 2 m from the nearer lane's edge
    EXPECT_GE(to_body, 1.f);
    EXPECT_EQ(crossing, (size + 1) / 2);
    EXPECT_GE(s.suggested_ticks, 500);
    EXPECT_LE(s.suggested_ticks, 700);
  }
}

TEST(ScenarioTest, town_buildings_stand_inside_the_loop) {
  const Scenario s = MakeScenario("town", 10000, 1);
  const std::vector<Vec2> inner = Ground(s.config.splines[1].points);
  EXPECT_GE(s.config.obstacles.size(), 4u);
  EXPECT_LE(s.config.obstacles.size(), 48u);
  for (const auto& building : s.config.obstacles) {
    for (const Vec3& corner : building) EXPECT_TRUE(InsidePolygon({corner.x, corner.y}, inner));
  }
}

}  // namespace
}  // namespace throng::scenarios
