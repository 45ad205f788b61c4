// The committed determinism hashes (tests/world/determinism_hash_test.cpp), written by
// scripts/update_determinism_hashes. A change that alters results on purpose changes
// them in the same commit, and its message says why.
#pragma once

#include <cstdint>

namespace throng {

struct DeterminismHash {
  const char* scenario;
  const char* backend;
  uint64_t hash;
};

// No cuda rows until a GPU run writes them: the cuda instances then fail with the hash
// to commit.
inline constexpr DeterminismHash kDeterminismHashes[] = {
    {"blocks", "cpu", 0x516f70ffa8605b89ull},
    {"blocks", "reference", 0x3dc4327162341035ull},
    {"bottleneck_1m", "cpu", 0xb67fc4b9b7d2ccd5ull},
    {"bottleneck_1m", "reference", 0x66612b4ec79ca306ull},
    {"bottleneck_2m", "cpu", 0x6805deb312e22fc1ull},
    {"bottleneck_2m", "reference", 0x05b99dfa641b8d3aull},
    {"circle", "cpu", 0x4ea847e1aa6e1c1aull},
    {"circle", "reference", 0x4ea847e1aa6e1c1aull},
    {"corridor", "cpu", 0xd6efd3b35335638bull},
    {"corridor", "reference", 0x700728104924ce86ull},
    {"crossing", "cpu", 0x6f4f1a080689ea2bull},
    {"crossing", "reference", 0xa9d0bc3ad3370f01ull},
    {"drones", "cpu", 0x6eae0db1102729baull},
    {"drones", "reference", 0x15446c6220edc9ddull},
    {"flock", "cpu", 0x5c81935d7f506332ull},
    {"flock", "reference", 0xb7d3507f0f10b69aull},
    {"random", "cpu", 0xd2b9cd4fd7bb14d8ull},
    {"random", "reference", 0x47ef95a3f6076b6aull},
    {"town", "cpu", 0x8dfdd2520058a351ull},
    {"town", "reference", 0xd93d319b91a9b703ull},
};

}  // namespace throng
