#include "kernels/backends/column_staging.h"

#include <cstring>
#include <vector>

namespace throng {
namespace {

constexpr size_t kPiece = 256 * 1024;

struct Piece {
  const uint8_t* from;
  uint8_t* to;
  size_t bytes;
};

void CopyPieces(const std::vector<Piece>& pieces) {
  const auto count = static_cast<long>(pieces.size());
#pragma omp parallel for schedule(static) if (count > 1)
  for (long k = 0; k < count; ++k) std::memcpy(pieces[k].to, pieces[k].from, pieces[k].bytes);
}

void AddPieces(const uint8_t* from, uint8_t* to, size_t bytes, std::vector<Piece>* pieces) {
  for (size_t at = 0; at < bytes; at += kPiece) {
    pieces->push_back({from + at, to + at, bytes - at < kPiece ? bytes - at : kPiece});
  }
}

}  // namespace

size_t LayOutColumns(const size_t* bytes, size_t count, size_t* offsets) {
  size_t at = 0;
  for (size_t k = 0; k < count; ++k) {
    offsets[k] = at;
    at += (bytes[k] + kStagedColumnAlign - 1) / kStagedColumnAlign * kStagedColumnAlign;
  }
  return at;
}

void PackColumns(const HostColumnIn* columns, size_t count, const size_t* offsets,
                 uint8_t* block) {
  std::vector<Piece> pieces;
  for (size_t k = 0; k < count; ++k) {
    AddPieces(static_cast<const uint8_t*>(columns[k].data), block + offsets[k], columns[k].bytes,
              &pieces);
  }
  CopyPieces(pieces);
}

void UnpackColumns(const uint8_t* block, const size_t* offsets, const HostColumnOut* columns,
                   size_t count) {
  std::vector<Piece> pieces;
  for (size_t k = 0; k < count; ++k) {
    AddPieces(block + offsets[k], static_cast<uint8_t*>(columns[k].data), columns[k].bytes,
              &pieces);
  }
  CopyPieces(pieces);
}

}  // namespace throng
