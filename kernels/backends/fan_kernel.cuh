// The cast-fan step for forward-only agents, written once for every parallel backend:
// one thread per agent, probes against every obstacle segment.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/steering/cast_fan.cuh"
#include "kernels/steering/forward_batch.h"
#include "kernels/math/hd.cuh"

namespace throng {

struct FanFunctor {
  const float* __restrict__ px;
  const float* __restrict__ py;
  const float* __restrict__ fx;
  const float* __restrict__ fy;
  const float* __restrict__ radius;
  const Vec2* __restrict__ segments;  // 2 per segment
  int segment_count;
  FanParams params;
  float dt;
  float* __restrict__ move_x;
  float* __restrict__ move_y;
  float* __restrict__ chosen_x;
  float* __restrict__ chosen_y;
  int16_t* __restrict__ probe;
  float* __restrict__ hit_distance;
  uint8_t* __restrict__ all_blocked;

  THRONG_HD void operator()(size_t i) const {
    const Vec2 forward = Normalize(Vec2{fx[i], fy[i]});
    const Vec2 eye = Vec2{px[i], py[i]} + forward * radius[i];
    const FanChoice c = ChooseFanDirection2D(forward, eye, radius[i], params.max_distance,
                                             params.fov, params.probes, segments, segment_count);
    const Vec2 chosen{c.direction.x, c.direction.y};
    const Vec2 move = TurnToward(forward, chosen, dt, params.turn_speed);
    move_x[i] = move.x;
    move_y[i] = move.y;
    chosen_x[i] = chosen.x;
    chosen_y[i] = chosen.y;
    probe[i] = static_cast<int16_t>(c.probe);
    hit_distance[i] = c.hit_distance;
    all_blocked[i] = c.all_blocked ? 1 : 0;
  }
};

}  // namespace throng
