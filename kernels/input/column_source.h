// Where a backend call's input columns come from (issue 37, step 2: docs/ARCHITECTURE.md,
// "Columns a tick keeps on the backend"). A tick's calls hand their columns on to each
// other: the solve reads what the pedestrians' preparation wrote, the report what the solve
// read and answered, the move what the report answered; and the next tick's preparation
// reads the state the move wrote. With kThisTick (kLastTick) the caller promises that a
// call's columns are, byte for byte, what the calls before it in the same tick (in the
// last tick the world kept, Backend::KeepPedestrians) left, as each call's documentation
// names them, not changed on the host since (or never brought to it: a call told not to
// copy its outputs to the host leaves them on the backend only).
// A backend with memory of its own (cuda) then reads its own copies and copies nothing from
// the host; one that reads host memory in place (cpu, reference) reads the host's, which
// are the same. The world keeps the promise; tests/world/chain_check_backend.h checks it on
// every call.
#pragma once

#include <cstdint>

namespace throng {

enum class ColumnSource : uint8_t {
  kHost,      // read the host's columns (copy them in, on a backend with its own memory)
  kThisTick,  // the columns the earlier calls of this tick left, unchanged on the host
  kLastTick,  // the columns the kept tick's calls left (Backend::KeepPedestrians)
};

}  // namespace throng
