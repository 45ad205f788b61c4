// What Backend::WriteVehicleDiscs reads and writes: each vehicle's body as the discs that
// pedestrians avoid in the ORCA solve (docs/WORLD.md, "Vehicles and pedestrians together"), written
// into the solve's agent columns after the pedestrians: non-cooperative, moving with the
// vehicle. The rule the parallel backends run: vehicle_discs.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/input/column_source.h"
#include "kernels/orca/orca_types.h"
#include "kernels/vehicles/vehicle_body.h"

namespace throng {

// Per vehicle: its body (internal frame) and speed along its heading, and where its discs
// go: rows disc_start[v] .. disc_start[v + 1] of the output, as many as
// VehicleBody::DiscCount says (the caller lays them out, so that it can size the columns).
struct VehicleDiscScene {
  const VehicleBody* bodies;
  const float* speed;
  const uint32_t* disc_start;  // count + 1 entries, from 0
  size_t count;
  // kThisTick: bodies and speed are the last PrepareVehicles' bodies and speed (a device
  // reads its own copies).
  ColumnSource columns = ColumnSource::kHost;
};

// The solve's agent columns (AgentColumns), from the first disc's row on. Each disc's id is
// its row in the whole table: first_id + its row here.
struct VehicleDiscOutput {
  uint32_t first_id;
  AgentColumnsOut agents;
  // false: the discs stay on the backend, for the solve that reads them there
  // (OrcaRunOptions::agents kThisTick); a backend with memory of its own leaves the host's
  // rows as they were (the cpu and the reference write them anyway).
  bool to_host = true;
};

}  // namespace throng
