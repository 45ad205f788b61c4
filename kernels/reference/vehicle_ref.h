// Independent reference for the vehicle follower (docs/VEHICLES.md): the same pipeline in
// double precision on ReferenceSpline (Barry-Goldman pyramid, no arc-length table), for
// equivalence tests against kernels/vehicles/vehicle.cuh.
#pragma once

#include "kernels/reference/spline_ref.h"
#include "kernels/vehicles/follower_types.h"

namespace throng::reference {

// Signed cross-track error, > 0 right of the line (docs/ALGORITHMS.md §2), internal frame.
double CrossTrackError(const P3& p, const P3& road_pos, const P3& tangent);

// One follower tick. `spline_speed_limit` and `world_speed_limit` <= 0 mean none.
// Returns the kernel's fields (rounded to float).
FollowerOutput FollowSpline(const ReferenceSpline& spline, double spline_speed_limit,
                            const VehicleState& v, const FollowerParams& p,
                            double world_speed_limit);

// The bicycle's wheel angle after dt: a first-order lag of time constant `time_constant`
// (<= 0: none) behind the command, steering clamped to [-1, 1] times `max_steer_angle`
// (vehicle_move_ref.cpp; the world's memory turns it so too).
double LaggedWheel(double wheel, double steering, double max_steer_angle, double time_constant,
                   double dt);

}  // namespace throng::reference
