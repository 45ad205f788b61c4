// Braking for what the path check found (the check itself is a backend call:
// Backend::CheckPaths, kernels/vehicles/path_check.cuh).
#pragma once

namespace throng {

// The speed from which braking at `decel` stops `gap` short of something `clear` ahead.
float SpeedToStopWithin(float clear, float gap, float decel);

}  // namespace throng
