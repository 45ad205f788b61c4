// The cuda backend's staging lays columns out in one block and packs them in and out of it
// on every core (kernels/backends/column_staging.h): every byte must come back where it
// was, whatever the column sizes and the thread count.
#include "kernels/backends/column_staging.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <vector>

namespace throng {
namespace {

TEST(ColumnStagingTest, ColumnsStartAlignedInOrderAndNeverOverlap) {
  const size_t bytes[] = {0, 1, 255, 256, 257, 4000003};
  size_t offsets[6];
  const size_t total = LayOutColumns(bytes, 6, offsets);
  for (size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(offsets[k] % kStagedColumnAlign, 0u) << k;
    const size_t end = offsets[k] + bytes[k];
    EXPECT_LE(end, k + 1 < 6 ? offsets[k + 1] : total) << k;
  }
  EXPECT_EQ(offsets[0], 0u);
  EXPECT_EQ(offsets[1], 0u);  // an empty column takes no room
  EXPECT_EQ(total, offsets[5] + 4000003u + (256 - 4000003 % 256));
}

TEST(ColumnStagingTest, PackThenUnpackGivesEveryByteBackAtAnyThreadCount) {
  // Sizes around the 256 KiB pieces and the alignment, and an empty column.
  const std::vector<size_t> sizes = {3, 0, 262144, 262145, 1000003, 77};
  const int threads_before = omp_get_max_threads();
  for (int threads : {1, 3}) {
    omp_set_num_threads(threads);
    std::vector<std::vector<uint8_t>> in(sizes.size()), out(sizes.size());
    std::vector<HostColumnIn> in_columns;
    std::vector<HostColumnOut> out_columns;
    uint32_t state = 12345u + static_cast<uint32_t>(threads);
    for (size_t k = 0; k < sizes.size(); ++k) {
      in[k].resize(sizes[k]);
      for (uint8_t& b : in[k]) {
        state = state * 1664525u + 1013904223u;
        b = static_cast<uint8_t>(state >> 24);
      }
      out[k].assign(sizes[k], 0xAB);
      in_columns.push_back({in[k].data(), sizes[k]});
      out_columns.push_back({out[k].data(), sizes[k]});
    }
    std::vector<size_t> offsets(sizes.size());
    const size_t total = LayOutColumns(sizes.data(), sizes.size(), offsets.data());
    std::vector<uint8_t> block(total, 0xCD);
    PackColumns(in_columns.data(), in_columns.size(), offsets.data(), block.data());
    for (size_t k = 0; k < sizes.size(); ++k) {
      for (size_t i = 0; i < sizes[k]; i += 4099) {
        ASSERT_EQ(block[offsets[k] + i], in[k][i]) << "column " << k << " byte " << i;
      }
    }
    UnpackColumns(block.data(), offsets.data(), out_columns.data(), out_columns.size());
    for (size_t k = 0; k < sizes.size(); ++k) EXPECT_EQ(out[k], in[k]) << "column " << k;
  }
  omp_set_num_threads(threads_before);
}

}  // namespace
}  // namespace throng
