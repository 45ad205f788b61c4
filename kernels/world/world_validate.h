// Everything a world checks before it changes anything: its configuration once, each
// snapshot every tick. Errors are std::invalid_argument naming field and index.
#pragma once

#include <cstdint>

#include "kernels/world/world_types.h"

namespace throng {

// "detection.oscillation_window: 40 is outside [1, 32]", "obstacles[2].vertices[1].x: not
// finite", and the spline, ORCA and follower checks of their own modules.
void ValidateWorldConfig(const WorldConfig& config);

// A tick's dt: within [kMinSeconds, 10] s ("dt: must be within [0.001, 10] s").
void ValidateTimeStep(float dt);

// Column lengths, finite values within the limits of kernels/input/input_limits.h, ranges, unique
// ids, known spline ids and flag bits, a tick after `last_tick` when the world has ticked
// and at most kMaxTick, and ValidateTimeStep. `agents_checked`: the pedestrians are the
// world's own state (an Advance tick: checked when they came in, then moved by the world,
// ColumnSource::kLastTick), and are not checked again; `vehicles_checked` and
// `forward_checked` likewise for the vehicles and the forward agents.
void ValidateSnapshot(const WorldConfig& config, const Snapshot& snapshot, bool has_last_tick,
                      uint64_t last_tick, bool agents_checked = false,
                      bool vehicles_checked = false, bool forward_checked = false);

}  // namespace throng
