#include "bench/lanes/lane_search.h"

#include <algorithm>
#include <cstdio>
#include <random>

#include "bench/lanes/lane_drive.h"

namespace throng::lanes {
namespace {

struct Cell {
  const Course* course;
  const SplineSet* set;
  DriveSetup setup;
  float best_rms, best_max;    // on-line: the better baseline's
  float best_time, best_over;  // off-line: the better baseline's
};

float Score(const FollowerParams& p, const std::vector<Cell>& cells) {
  float worst = 0.f;
  for (const Cell& c : cells) {
    FollowerParams q = p;
    q.steering_lag = c.setup.steering_lag;  // the vehicle's, as a world passes its bicycle's
    q.control_period = c.setup.dt;
    const auto throng = MakeThrong(q, "throng");
    const DriveResult r = DriveLap(*c.course, c.set->View(), *throng, c.setup);
    if (!r.completed) return 1e9f;
    if (!c.setup.off_line) {
      worst = std::max({worst, r.rms_cte / c.best_rms, 0.5f * r.max_cte / c.best_max});
    } else {
      if (r.time_to_line < 0.f) return 1e9f;
      worst = std::max({worst, 0.5f * r.time_to_line / c.best_time,
                        0.5f * r.overshoot / OvershootAllowance(c.best_over)});
    }
  }
  return worst;
}

}  // namespace

FollowerParams SearchFollower(const FollowerParams& start, const SearchSetup& s) {
  const BicycleParams bike;
  const auto pp = MakePurePursuit({}, bike);
  const auto stanley = MakeStanley({}, bike);
  std::vector<SplineSet> sets;
  sets.reserve(s.courses.size());
  for (const Course* c : s.courses) sets.push_back(BuildSplineSet({c->lane}));
  std::vector<Cell> cells;
  for (size_t i = 0; i < s.courses.size(); ++i) {
    for (float lag : s.lags) {
      for (float speed : s.speeds) {
        for (bool off : {false, true}) {
          const DriveSetup setup{speed, lag, off, s.dt};
          const DriveResult a = DriveLap(*s.courses[i], sets[i].View(), *pp, setup);
          const DriveResult b = DriveLap(*s.courses[i], sets[i].View(), *stanley, setup);
          auto rms = [](const DriveResult& r) { return r.completed ? r.rms_cte : 1e9f; };
          auto mx = [](const DriveResult& r) { return r.completed ? r.max_cte : 1e9f; };
          auto time = [](const DriveResult& r) {
            return r.completed && r.time_to_line >= 0.f ? r.time_to_line : 1e9f;
          };
          auto over = [](const DriveResult& r) { return r.completed ? r.overshoot : 1e9f; };
          cells.push_back({s.courses[i], &sets[i], setup, std::min(rms(a), rms(b)),
                           std::min(mx(a), mx(b)), std::min(time(a), time(b)),
                           std::min(over(a), over(b))});
        }
      }
    }
  }
  std::mt19937 rng(s.seed);
  FollowerParams best = start;
  float best_score = Score(best, cells);
  std::printf("start: score %.3f\n", best_score);
  for (int t = 0; t < s.trials; ++t) {
    // Half the trials perturb the best, half sample the whole box.
    const bool local = t % 2 == 1;
    auto pick = [&](float cur, float lo, float hi) {
      if (!local) return std::uniform_real_distribution<float>(lo, hi)(rng);
      const float span = 0.15f * (hi - lo);
      return std::clamp(cur + std::uniform_real_distribution<float>(-span, span)(rng), lo, hi);
    };
    FollowerParams q = best;
    q.look_ahead_base = pick(best.look_ahead_base, 0.5f, 6.f);
    q.look_ahead_speed_factor = pick(best.look_ahead_speed_factor, 0.f, 0.5f);
    q.heading_weight = pick(best.heading_weight, 0.f, 1.f);
    q.max_yaw_delta = pick(best.max_yaw_delta, s.min_max_yaw_delta, 1.f);
    q.crosstrack_gain = pick(best.crosstrack_gain, 0.f, 10.f);
    if (best.lag_compensation > 0.f) q.lag_compensation = pick(best.lag_compensation, 0.3f, 1.5f);
    if (best.approach_curvature_share > 0.f) {
      q.approach_curvature_share = pick(best.approach_curvature_share, 0.05f, 1.f);
    }
    const float score = Score(q, cells);
    if (score < best_score) {
      best_score = score;
      best = q;
      std::printf(
          "trial %d: score %.3f  look_ahead_base=%.3f look_ahead_speed_factor=%.3f "
          "heading_weight=%.3f max_yaw_delta=%.3f crosstrack_gain=%.3f lag_compensation=%.3f "
          "approach_curvature_share=%.3f\n",
          t, score, q.look_ahead_base, q.look_ahead_speed_factor, q.heading_weight, q.max_yaw_delta,
          q.crosstrack_gain, q.lag_compensation, q.approach_curvature_share);
      std::fflush(stdout);
    }
  }
  return best;
}

}  // namespace throng::lanes
