// throng-bench-lanes: closed-loop lane keeping on courses the follower was and was not
// tuned on, Throng's follower beside pure pursuit and Stanley on the same kinematic
// bicycle and the same speed loop (issue 18). Prints RMS and max |cte| side by side and
// the ratios against the better baseline; no timed assertions.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/lanes/lane_drive.h"
#include "bench/lanes/lane_search.h"
#include "kernels/scenarios/scenario_json_fields.h"

namespace {

using namespace throng;
using namespace throng::lanes;

// --set name=value on FollowerParams, by the scenario JSON's field names.
struct SetField {
  std::string key, value;
  bool found = false;
  template <class T>
  void operator()(const char* k, T& field, scenarios::json_fields::Need) {
    if (key != k) return;
    found = true;
    if constexpr (std::is_same_v<T, bool>) {
      field = value == "true" || value == "1";
    } else {
      field = static_cast<T>(std::stod(value));
    }
  }
};

FollowerParams ParseOverrides(const std::vector<std::string>& sets, FollowerParams p = {}) {
  for (const std::string& s : sets) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("--set wants name=value: " + s);
    SetField v{s.substr(0, eq), s.substr(eq + 1)};
    scenarios::json_fields::VisitFields(v, p);
    if (!v.found) throw std::invalid_argument("no follower parameter '" + v.key + "'");
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lane keeping: Throng's follower against pure pursuit and Stanley"};
  std::vector<std::string> course_names;
  std::vector<float> speeds{5, 10, 15, 25, 35};
  std::vector<float> lags{0.f, 0.3f};
  std::vector<std::string> sets, speed_sets;
  bool plain_speed = false;
  std::string starts = "both", json_path, speed_control = "follower";
  bool quiet = false, untold = false, assume_turn_first = false;
  std::string integration = "turn-first";
  int search = 0;
  float dt = 1.f / 60.f, min_yaw = 0.1f, target_ratio = 0.5f;
  float offset = 3.f, angle_deg = 15.f;
  std::vector<float> rates;
  app.add_option("--courses", course_names,
                 "hairpin, chicane, big_loop, hill, s_bends, hairpin_turn, lane_change, "
                 "random_1..random_5 (default all)")
      ->delimiter(',');
  app.add_option("--speed-control", speed_control,
                 "follower (its throttle and brake), constant or ramp (the caller's loop, "
                 "which ignores curves: bench/lanes/lane_drive.h)");
  app.add_option("--rates", rates, "tick rates, Hz (default: one, 1 / --dt)")->delimiter(',');
  app.add_option("--offset", offset, "off-line start: metres right of the line (default 3)");
  app.add_option("--angle", angle_deg, "off-line start: degrees turned away (default 15)");
  app.add_option("--target-ratio", target_ratio,
                 "summary: on-line RMS target against the better baseline (default 0.5)");
  app.add_option("--speeds", speeds, "set speeds, m/s")->delimiter(',');
  app.add_option("--lags", lags, "steering lags, s")->delimiter(',');
  app.add_option("--starts", starts, "on, off or both");
  app.add_option("--set", sets, "follower parameter for Throng, name=value (repeatable)");
  app.add_option("--speed-set", speed_sets,
                 "speed-loop parameter for all three controllers, name=value (repeatable)");
  app.add_flag(
      "--plain-speed", plain_speed,
      "the shared speed loop starts from docs/ALGORITHMS.md §1's rule (PlainFollowerParams)");
  app.add_flag("--untold", untold,
               "Throng keeps its default steering_lag and control_period instead of being told "
               "the vehicle's and the tick (a caller who calls the follower directly)");
  app.add_option("--integration", integration,
                 "how the vehicle moves in a tick: turn-first (Throng's bicycle: turn, then "
                 "move along the new heading), exact-arc or move-first (a caller's own "
                 "integration, with the bicycle's turn and speed)")
      ->check(CLI::IsMember({"turn-first", "exact-arc", "move-first"}));
  app.add_flag("--assume-turn-first", assume_turn_first,
               "Throng is not told how the vehicle's motion splits each tick between turning "
               "and moving, and assumes its bicycle's (turn first) as before issue 34");
  app.add_option("--json", json_path, "write every cell as JSON to this file");
  app.add_flag("--quiet", quiet, "print only the summary");
  app.add_option("--dt", dt, "seconds per tick (default 1/60)");
  app.add_option("--search-min-yaw", min_yaw, "--search: smallest max_yaw_delta tried, rad");
  app.add_option("--search", search,
                 "random-search this many steering settings on the tuning courses first");
  CLI11_PARSE(app, argc, argv);
  const Integration integration_kind = integration == "exact-arc"    ? Integration::kExactArc
                                       : integration == "move-first" ? Integration::kMoveFirst
                                                                     : Integration::kTurnFirst;

  SpeedControl control;
  if (speed_control == "follower") {
    control = SpeedControl::kFollower;
  } else if (speed_control == "constant") {
    control = SpeedControl::kImposedConstant;
  } else if (speed_control == "ramp") {
    control = SpeedControl::kImposedRamp;
  } else {
    std::fprintf(stderr, "--speed-control: follower, constant or ramp, not '%s'\n",
                 speed_control.c_str());
    return 2;
  }
  if (rates.empty()) rates.push_back(1.f / dt);
  FollowerParams params = ParseOverrides(sets);
  const FollowerParams speed_loop =
      ParseOverrides(speed_sets, plain_speed ? PlainFollowerParams() : FollowerParams{});
  const BicycleParams bike;
  if (search > 0) {
    SearchSetup ss;
    for (const Course& c : AllCourses()) {
      if (c.tuning) ss.courses.push_back(&c);
    }
    ss.speeds = speeds;
    ss.lags = lags;
    ss.trials = search;
    ss.dt = dt;
    ss.min_max_yaw_delta = min_yaw;
    params = SearchFollower(params, ss);
  }
  const auto pp = MakePurePursuit({}, bike);
  const auto stanley = MakeStanley({}, bike);
  std::vector<const Course*> courses;
  if (course_names.empty()) {
    for (const Course& c : AllCourses()) courses.push_back(&c);
  } else {
    for (const std::string& n : course_names) courses.push_back(&CourseNamed(n));
  }

  std::string json = "{\n  \"benchmark\": \"lane_keeping\",\n  \"cells\": [";
  bool first = true;
  int on_cells = 0, on_rms_ok = 0, on_max_ok = 0, on_worse = 0, off_cells = 0, off_ok = 0;
  int off_sooner = 0;
  int lost = 0;
  float worst_ratio = 0.f, max_lat = 0.f, max_lat_pp = 0.f, max_lat_stanley = 0.f;
  std::string worst_cell;
  if (!quiet) {
    std::printf("%-12s %3s %4s %5s %4s %6s %4s | %7s %7s | %7s %7s | %7s %7s | %6s %5s\n", "course",
                "Hz", "lag", "set", "strt", "driven", "fast", "T_rms", "T_max", "PP_rms", "PP_max",
                "St_rms", "St_max", "ratio", "max<");
  }
  for (const Course* course : courses) {
    const SplineSet set = BuildSplineSet({course->lane});
    for (float rate : rates) {
      const float tick = 1.f / rate;
      for (float lag : lags) {
        for (float speed : speeds) {
          for (int off = 0; off < 2; ++off) {
            if ((starts == "on" && off) || (starts == "off" && !off)) continue;
            DriveSetup setup{speed, lag, off == 1, tick, speed_loop, control};
            setup.off_line_offset = offset;
            setup.off_line_angle = angle_deg * kPi / 180.f;
            setup.integration = integration_kind;
            setup.read_turn_before_move = !assume_turn_first;
            // Throng is told the vehicle's steering lag and the tick, as a world tells it its
            // bicycle's and its dt (docs/VEHICLES.md); the baselines have no use for them.
            FollowerParams told = params;
            if (!untold) {
              told.steering_lag = lag;
              told.control_period = tick;
            }
            const DriveResult t = DriveLap(*course, set.View(), *MakeThrong(told, "throng"), setup);
            const DriveResult a = DriveLap(*course, set.View(), *pp, setup);
            const DriveResult b = DriveLap(*course, set.View(), *stanley, setup);
            const char* start = off ? "off" : "on";
            if (!t.completed) ++lost;
            if (!off) {
              max_lat = std::max(max_lat, t.max_lateral_accel);
              if (a.completed) max_lat_pp = std::max(max_lat_pp, a.max_lateral_accel);
              if (b.completed) max_lat_stanley = std::max(max_lat_stanley, b.max_lateral_accel);
            }
            // A baseline that left the road counts as infinitely bad.
            auto rms = [](const DriveResult& r) { return r.completed ? r.rms_cte : 1e9f; };
            auto mx = [](const DriveResult& r) { return r.completed ? r.max_cte : 1e9f; };
            const float best_rms = std::min(rms(a), rms(b));
            const float ratio = t.completed ? t.rms_cte / best_rms : 1e9f;
            bool ok;
            if (!off) {
              ++on_cells;
              on_rms_ok += ratio <= target_ratio;
              on_worse += ratio > 1.f;
              ok = t.completed && t.max_cte < std::min(mx(a), mx(b));
              on_max_ok += ok;
              char cell[128];
              std::snprintf(cell, sizeof cell, "%s %.0f Hz lag %.1f speed %.1f",
                            course->name.c_str(), rate, lag, speed);
              if (ratio > worst_ratio) {
                worst_ratio = ratio;
                worst_cell = cell;
              }
            } else {
              ++off_cells;
              auto time = [](const DriveResult& r) {
                return r.completed && r.time_to_line >= 0.f ? r.time_to_line : 1e9f;
              };
              auto over = [](const DriveResult& r) { return r.completed ? r.overshoot : 1e9f; };
              const bool sooner = time(t) < std::min(time(a), time(b));
              ok = sooner && over(t) <= OvershootAllowance(std::min(over(a), over(b)));
              off_ok += ok;
              off_sooner += sooner;
            }
            if (!quiet) {
              if (!off) {
                std::printf(
                    "%-12s %3.0f %4.1f %5.1f %4s %6.2f %3.0f%% | %7.3f %7.3f | %7.3f %7.3f | %7.3f "
                    "%7.3f | %6.2f %5s\n",
                    course->name.c_str(), rate, lag, speed, start, t.mean_speed,
                    100.f * t.above_safe_share, rms(t), mx(t), rms(a), mx(a), rms(b), mx(b), ratio,
                    ok ? "yes" : "NO");
              } else {
                std::printf(
                    "%-12s %3.0f %4.1f %5.1f %4s %6.2f %3.0f%% | t %5.2fs o %5.2f | t %5.2fs o "
                    "%5.2f "
                    "| t %5.2fs o %5.2f | %12s\n",
                    course->name.c_str(), rate, lag, speed, start, t.mean_speed,
                    100.f * t.above_safe_share, t.time_to_line, t.overshoot, a.time_to_line,
                    a.overshoot, b.time_to_line, b.overshoot, ok ? "beats both" : "NOT BEST");
              }
            }
            auto cell = [](const char* who, const DriveResult& r) {
              char buf[360];
              std::snprintf(buf, sizeof buf,
                            "\"%s\": {\"completed\": %s, \"rms\": %.5f, \"max\": %.5f, "
                            "\"mean_speed\": %.3f, \"max_speed\": %.3f, \"max_lateral_accel\": "
                            "%.3f, \"time_to_line\": %.3f, \"overshoot\": %.4f, "
                            "\"above_safe_share\": %.3f}",
                            who, r.completed ? "true" : "false", r.rms_cte, r.max_cte, r.mean_speed,
                            r.max_speed, r.max_lateral_accel, r.time_to_line, r.overshoot,
                            r.above_safe_share);
              return std::string(buf);
            };
            char head[256];
            std::snprintf(head, sizeof head,
                          "\n    {\"course\": \"%s\", \"tuning\": %s, \"rate_hz\": %.1f, "
                          "\"speed_control\": \"%s\", \"integration\": \"%s\", "
                          "\"told_turn_before_move\": %s, \"lag\": %.2f, \"set_speed\": %.3f, "
                          "\"start\": \"%s\", ",
                          course->name.c_str(), course->tuning ? "true" : "false", rate,
                          speed_control.c_str(), integration.c_str(),
                          assume_turn_first ? "false" : "true", lag, speed, start);
            json += std::string(first ? "" : ",") + head + cell("throng", t) + ", " +
                    cell("pure_pursuit", a) + ", " + cell("stanley", b) + "}";
            first = false;
          }
        }
      }
    }
  }
  json += "\n  ]\n}\n";
  if (!json_path.empty()) std::ofstream(json_path) << json;
  std::printf(
      "\nsummary (%s speed): on-line cells %d: rms <= %.2fx the better baseline in %d, above "
      "1.0x in %d, max below both in %d; worst ratio %.3f (%s)\n",
      speed_control.c_str(), on_cells, target_ratio, on_rms_ok, on_worse, on_max_ok, worst_ratio,
      worst_cell.c_str());
  std::printf(
      "off-line cells %d: settled within 0.2 m sooner than both in %d, and overshooting no more "
      "than the smaller (under 2 cm counts as none) in %d\n",
      off_cells, off_sooner, off_ok);
  std::printf(
      "throng laps lost: %d; max lateral acceleration on the on-line laps %.2f m/s^2 (limit "
      "%.1f; pure pursuit %.2f, Stanley %.2f on the same speed loop)\n",
      lost, max_lat, speed_loop.max_lateral_accel, max_lat_pp, max_lat_stanley);
  return 0;
}
