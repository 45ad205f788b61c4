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
THRONG_HD inline float StoppingSpeed(float distance, float accel, float dt) {
  if (!(distance > 0.f) || !(accel > 0.f)) return 0.f;
  const float adt = accel * (dt > 0.f ? dt : 0.f);
  return 2.f * accel * distance / (adt + sqrtf(adt * adt + 2.f * accel * distance));
}

// ArriveDesired plus one addition (not in docs/ALGORITHMS.md): the desired speed is also capped
// by StoppingSpeed(distance, max_force / mass, dt). Why: the linear ramp alone overshoots
// when the force limit cannot brake from max_speed within slowing_radius, and jitters
// around the goal when max_speed * dt > slowing_radius (one step jumps past it). With the
// cap, an agent moving along its approach line that could still stop in time never passes
// the goal, and its speed never rises again once it has started slowing down.
THRONG_HD inline Vec2 ArriveDesiredForStep(Vec2 position, Vec2 target, const ArriveParams& p,
                                           float dt) {
  const Vec2 to_target = target - position;
  const float distance = Length(to_target);
  if (!(distance > 0.f)) return {0.f, 0.f};
  float speed =
      distance < p.slowing_radius ? p.max_speed * distance / p.slowing_radius : p.max_speed;
  if (p.max_force > 0.f && p.mass > 0.f) {
    speed = MinF(speed, StoppingSpeed(distance, p.max_force / p.mass, dt));
  }
  return to_target * (speed / distance);
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
// ArriveDesiredForStep, with two additions that make arrival stop without overshoot or
// jitter (not in docs/ALGORITHMS.md; the steering force is proportional to desired - velocity,
// so §3 alone lags its desired velocity by up to max_force and cannot brake in time):
// (a) the step never passes the desired velocity (it would when dt > mass: the
//     proportional gain dt / mass above 1 rings);
// (b) if the new speed (before the max_speed limit: an agent handed a velocity above its
//     max speed counts at that speed) would exceed StoppingSpeed for the distance left,
//     the agent brakes with up to the full max_force toward the desired velocity instead
//     (landing on it when that takes less).
// For an agent on its approach line that could still stop in time (in particular one that
// starts farther than slowing_radius + max_speed^2 * mass / max_force), the position never
// passes the target, and once the speed drops inside the slowing radius it never rises.
// The velocity change stays within max_force / mass * dt and the speed within max_speed.
THRONG_HD inline Vec2 ArriveStep(Vec2 position, Vec2 velocity, Vec2 target, const ArriveParams& p,
                                 float dt) {
  const Vec2 desired = ArriveDesiredForStep(position, target, p, dt);
  const Vec2 gap = desired - velocity;
  Vec2 change = ClampLength(gap, p.max_force) / p.mass * dt;  // docs/ALGORITHMS.md §3
  if (LengthSq(change) > LengthSq(gap)) change = gap;         // (a)
  const Vec2 to_target = target - position;
  const float distance = Length(to_target);
  if (p.max_force > 0.f && p.mass > 0.f) {  // (b)
    // The whole speed, not only its component toward the target: an agent that drifted
    // past the goal (float noise, a lateral start) must not coast on at §3's slow rate.
    // At the target (distance 0) the stopping speed is 0: any motion brakes to rest.
    const float accel = p.max_force / p.mass;
    if (Length(velocity + change) > StoppingSpeed(distance, accel, dt)) {
      change = ClampLength(gap, accel * dt);
    }
  }
  return ClampLength(velocity + change, p.max_speed);
}

}  // namespace throng
