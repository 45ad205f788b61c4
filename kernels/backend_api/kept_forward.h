// Where Backend::FetchKeptForward copies what a backend kept of the forward agents of the
// tick the world committed (docs/ARCHITECTURE.md, "Columns a tick keeps on the backend"): the
// host's copy of the next state an Advance tick left on the backend only.
#pragma once

#include <cstddef>

namespace throng {

struct KeptForwardRows {
  // The next state's moved columns (the caller's frame), as the kept tick's
  // MoveForwardAgents wrote them (ForwardMoveOutput's x to forward_z).
  float* x = nullptr;
  float* y = nullptr;
  float* z = nullptr;
  float* forward_x = nullptr;
  float* forward_y = nullptr;
  float* forward_z = nullptr;
  size_t rows = 0;
};

}  // namespace throng
