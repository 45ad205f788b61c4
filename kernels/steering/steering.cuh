// Reynolds steering behaviours (docs/ALGORITHMS.md §3): desired velocities, and the
// force-limited step that turns a desired velocity into the agent's preferred velocity
// for ORCA. Float, __host__ __device__, no allocation.
//
// Integration the guarantees below assume (the engine's): semi-implicit Euler, i.e.
//   velocity = ArriveStep(position, velocity, target, params, dt);
//   position = position + velocity * dt;
#pragma once

#include <cmath>

#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

struct ArriveParams {
  float max_speed;       // m/s, > 0
  float max_force;       // N; with unit mass the largest acceleration, m/s^2
  float mass = 1;        // kg, > 0
  float slowing_radius;  // m; inside it the desired speed ramps linearly to 0 (<= 0: none)
};

// Where ArriveStep steers out sideways motion with the full force ((c) below), in slowing
// radii from the target: beyond kArriveTurnInner and within kArriveTurnReach. The reach 2
// brings the town's and the navigating crossing's last walkers home; with the sideways part
// alone, 1 left the town of 1,000's 12.4 s pause and everywhere cost the crossing of 1,000
// 303 of 3,000 arrivals (walkers turned square into the crowd at every step). Within a
// fifth of the slowing radius a walker has arrived and gives way as before: held there
// with the full force, arrived walkers stood as posts in the random crowd of 10,000, which
// brought 309 fewer home over three seeds (docs/PERFORMANCE.md, "Walkers that circle their
// goals").
constexpr float kArriveTurnReach = 2.f;
constexpr float kArriveTurnInner = 0.2f;

// Desired velocity straight at the target, at full speed (zero at the target).
THRONG_HD inline Vec2 Seek(Vec2 position, Vec2 target, float max_speed) {
  return Normalize(target - position) * max_speed;
}

// Desired velocity straight away from the threat, at full speed (zero on top of it).
THRONG_HD inline Vec2 Flee(Vec2 position, Vec2 threat, float max_speed) {
  return Normalize(position - threat) * max_speed;
}

// docs/ALGORITHMS.md §3 as written: full speed outside the slowing radius, speed proportional
// to the distance inside it.
THRONG_HD inline Vec2 ArriveDesired(Vec2 position, Vec2 target, float max_speed,
                                    float slowing_radius) {
  const Vec2 to_target = target - position;
  const float distance = Length(to_target);
  if (!(distance > 0.f)) return {0.f, 0.f};
  const float speed = distance < slowing_radius ? max_speed * distance / slowing_radius : max_speed;
  return to_target * (speed / distance);
}

// Largest speed v such that moving v * dt this step and then braking at `accel` every
// step after it never passes a goal `distance` ahead: v^2 / (2 accel) + v * dt <= distance.
// With v = k * accel * dt the discrete braking run covers accel * dt^2 * k (k + 1) / 2,
// which this bound is never below (for fractional k the "+ v * dt" term, rather than the
// continuous "+ v * dt / 2", is what covers the last partial step). It also implies
// v <= distance / dt: one step never jumps past the goal. Root written without
// cancellation: v = 2 a d / (a dt + sqrt(a^2 dt^2 + 2 a d)).
//
// Written once for F = float and for the cpu's FloatLanes (kernels/math/float_lanes.h),
// several agents at once: each branch on a value of F is a Select of two computed results,
// so a lane equals the scalar call bit for bit (the same operations in the same order).
template <class F>
THRONG_HD inline F StoppingSpeedOf(F distance, float accel, float dt) {
  if (!(accel > 0.f)) return F(0.f);
  const float adt = accel * (dt > 0.f ? dt : 0.f);
  const F twice_ad = 2.f * accel * distance;
  return Select(distance > 0.f, twice_ad / (adt + Sqrt(adt * adt + twice_ad)), F(0.f));
}
THRONG_HD inline float StoppingSpeed(float distance, float accel, float dt) {
  return StoppingSpeedOf(distance, accel, dt);
}

// ClampLength of (x, y) as the lanes' arithmetic (StoppingSpeedOf).
template <class F, class L>
THRONG_HD inline void ClampLengthOf(F x, F y, L max_len, F* out_x, F* out_y) {
  const F len_sq = x * x + y * y;
  const F k = max_len / Sqrt(len_sq);
  const auto over = len_sq > max_len * max_len;
  *out_x = Select(over, x * k, x);
  *out_y = Select(over, y * k, y);
}

// ArriveDesired plus one addition (not in docs/ALGORITHMS.md): the desired speed is also capped
// by StoppingSpeed(distance, max_force / mass, dt). Why: the linear ramp alone overshoots
// when the force limit cannot brake from max_speed within slowing_radius, and jitters
// around the goal when max_speed * dt > slowing_radius (one step jumps past it). With the
// cap, an agent moving along its approach line that could still stop in time never passes
// the goal, and its speed never rises again once it has started slowing down.
// (to_x, to_y): target - position; `distance` its length.
template <class F>
THRONG_HD inline void ArriveDesiredForStepOf(F to_x, F to_y, F distance, F max_speed,
                                             const ArriveParams& p, float dt, F* out_x, F* out_y) {
  F speed = Select(distance < p.slowing_radius, max_speed * distance / p.slowing_radius, max_speed);
  if (p.max_force > 0.f && p.mass > 0.f) {
    speed = MinF(speed, StoppingSpeedOf(distance, p.max_force / p.mass, dt));
  }
  const F scale = speed / distance;
  const auto moving = distance > 0.f;
  *out_x = Select(moving, to_x * scale, F(0.f));
  *out_y = Select(moving, to_y * scale, F(0.f));
}

// The velocity after one step toward `desired` (docs/ALGORITHMS.md §3):
//   steer = clamp_length(desired - velocity, max_force)
//   velocity = clamp_length(velocity + steer / mass * dt, max_speed)
// So the velocity changes by at most max_force / mass * dt and never exceeds max_speed.
THRONG_HD inline Vec2 SteerToward(Vec2 velocity, Vec2 desired, const ArriveParams& p, float dt) {
  const Vec2 steer = ClampLength(desired - velocity, p.max_force);
  return ClampLength(velocity + steer / p.mass * dt, p.max_speed);
}

// Arrive for one step: the preferred velocity handed to ORCA. §3's step toward
// ArriveDesiredForStep, with three additions (not in docs/ALGORITHMS.md; the steering force
// is proportional to desired - velocity, so §3 alone lags its desired velocity by up to
// max_force and cannot brake in time): (a) and (b) make arrival stop without overshoot or
// jitter, (c) keeps a pushed walker by its goal.
// (a) the step never passes the desired velocity (it would when dt > mass: the
//     proportional gain dt / mass above 1 rings);
// (b) if the new speed (before the max_speed limit: an agent handed a velocity above its
//     max speed counts at that speed) would exceed StoppingSpeed for the distance left,
//     the agent brakes with up to the full max_force toward the desired velocity instead
//     (landing on it when that takes less).
// (c) from kArriveTurnInner to kArriveTurnReach slowing radii from the target, the step's
//     part square to the way to the target, and its part along that way while the agent
//     moves away from the target, is the whole of the gap's, not dt / mass of it (the whole
//     step still within max_force / mass * dt). Why: ORCA hands back a velocity a crowd
//     pushed off the preferred one, and the next step starts from it, so with §3's
//     unit-mass share a steady push w settles where the desired velocity leans w * mass / dt
//     against it (ten times the push at 0.1 s): a walker beside its goal circles it or is
//     carried off (docs/PERFORMANCE.md, "Walkers that circle their goals"). Speeding up
//     toward the target keeps §3's share.
// For an agent on its approach line that could still stop in time (in particular one that
// starts farther than slowing_radius + max_speed^2 * mass / max_force), the position never
// passes the target, and once the speed drops inside the slowing radius it never rises.
// The velocity change stays within max_force / mass * dt and the speed within max_speed.
// ArriveStep over the lanes' arithmetic (StoppingSpeedOf): one agent's (F = float) or, on
// the cpu, several agents' at once, each with its own max_speed and p's other fields.
template <class F>
struct ArriveLanes {
  F px, py, vx, vy, tx, ty, max_speed;
};
template <class F>
THRONG_HD inline void ArriveStepOf(const ArriveLanes<F>& a, const ArriveParams& p, float dt,
                                   F* out_x, F* out_y) {
  const F to_x = a.tx - a.px, to_y = a.ty - a.py;
  const F distance = Sqrt(to_x * to_x + to_y * to_y);
  F desired_x, desired_y;
  ArriveDesiredForStepOf(to_x, to_y, distance, a.max_speed, p, dt, &desired_x, &desired_y);
  const F gap_x = desired_x - a.vx, gap_y = desired_y - a.vy;
  F change_x, change_y;
  ClampLengthOf(gap_x, gap_y, p.max_force, &change_x, &change_y);  // docs/ALGORITHMS.md §3
  change_x = change_x / p.mass * dt;
  change_y = change_y / p.mass * dt;
  if (p.max_force > 0.f && p.mass > 0.f) {  // (c)
    const F inv = Select(distance > 0.f, F(1.f) / distance, F(0.f));
    const F ux = to_x * inv, uy = to_y * inv;
    const F along = gap_x * ux + gap_y * uy;
    const float share = dt / p.mass;
    const F along_share = Select(a.vx * ux + a.vy * uy < 0.f, F(1.f), F(share));
    F turn_x, turn_y;
    ClampLengthOf(along * along_share * ux + (gap_x - along * ux),
                  along * along_share * uy + (gap_y - along * uy), p.max_force * share, &turn_x,
                  &turn_y);
    const auto arrived = distance < kArriveTurnInner * p.slowing_radius;
    turn_x = Select(arrived, change_x, turn_x);
    turn_y = Select(arrived, change_y, turn_y);
    const auto near = distance < kArriveTurnReach * p.slowing_radius;
    change_x = Select(near, turn_x, change_x);
    change_y = Select(near, turn_y, change_y);
  }
  const auto past = change_x * change_x + change_y * change_y > gap_x * gap_x + gap_y * gap_y;
  change_x = Select(past, gap_x, change_x);  // (a)
  change_y = Select(past, gap_y, change_y);
  if (p.max_force > 0.f && p.mass > 0.f) {  // (b)
    // The whole speed, not only its component toward the target: an agent that drifted
    // past the goal (float noise, a lateral start) must not coast on at §3's slow rate.
    // At the target (distance 0) the stopping speed is 0: any motion brakes to rest.
    const float accel = p.max_force / p.mass;
    const F next_x = a.vx + change_x, next_y = a.vy + change_y;
    const auto too_fast =
        Sqrt(next_x * next_x + next_y * next_y) > StoppingSpeedOf(distance, accel, dt);
    F brake_x, brake_y;
    ClampLengthOf(gap_x, gap_y, accel * dt, &brake_x, &brake_y);
    change_x = Select(too_fast, brake_x, change_x);
    change_y = Select(too_fast, brake_y, change_y);
  }
  ClampLengthOf(a.vx + change_x, a.vy + change_y, a.max_speed, out_x, out_y);
}

THRONG_HD inline Vec2 ArriveStep(Vec2 position, Vec2 velocity, Vec2 target, const ArriveParams& p,
                                 float dt) {
  const ArriveLanes<float> one{position.x, position.y, velocity.x, velocity.y,
                               target.x,   target.y,   p.max_speed};
  Vec2 v;
  ArriveStepOf(one, p, dt, &v.x, &v.y);
  return v;
}

}  // namespace throng
