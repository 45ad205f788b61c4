// How a vehicle's physics splits a tick between turning and moving, read from the vehicle's
// own motion (docs/VEHICLES.md, "Imposed speed"): the share of the tick's turn made
// before the move. Throng's bicycle turns first (1); a caller's physics may move along the
// exact arc (0.5) or move first (0, explicit Euler). The follower counts the heading a
// vehicle driving a curve has under that integration as track (TickHeadingLag).
#pragma once

#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/vec.cuh"

namespace throng {

// Throng's bicycle, and every vehicle until its motion says otherwise.
constexpr float kTurnBeforeMoveDefault = 1.f;

// Turns smaller than this (rad per tick) say nothing: the chord's direction is then as
// uncertain as the turn (a 14 cm chord at 100 m from the origin, float positions: 5e-5
// rad), and the heading lag they would correct is as small.
constexpr float kMinMeasuredTurn = 1e-3f;
// Chords shorter than this (1 cm) or longer than twice the tick's travel (a vehicle the
// caller moved, not drove) are not a tick's motion.
constexpr float kMinMeasuredChord = 1e-2f;
// One tick of motion: from (from, yaw_from) to (to, yaw_to), internal frame, yaw
// counter-clockwise, `travel` the most the vehicle can have moved (m). Returns this tick's
// share, or `estimate` (the last one) when the motion says nothing. Not smoothed: the
// first ticks into a bend are where the share matters, and averaged in over two ticks it
// left 5 exact-arc cells above pure pursuit at 10 Hz instead of 3 (throng-bench-lanes).
THRONG_HD inline float UpdateTurnBeforeMove(float estimate, Vec2 from, float yaw_from, Vec2 to,
                                            float yaw_to, float travel) {
  const float turn = WrapAngle(yaw_to - yaw_from);
  const Vec2 chord = to - from;
  const float length = Length(chord);
  if (!(fabsf(turn) >= kMinMeasuredTurn) || !(length >= kMinMeasuredChord) ||
      !(length <= 2.f * travel))
    return estimate;
  // The chord's direction is the heading at the move: yaw_from plus the share turned.
  const float share = WrapAngle(YawOf(chord) - yaw_from) / turn;
  // Far outside [0, 1] is not an integration (a reposition, a spin): ignored.
  if (!(share >= -0.5f && share <= 1.5f)) return estimate;
  return Clamp(share, 0.f, 1.f);
}

}  // namespace throng
