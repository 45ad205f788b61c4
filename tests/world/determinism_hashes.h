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
    {"bottleneck_1m", "cpu", 0xe1d405bd8ffc4636ull},
    {"bottleneck_1m", "reference", 0x24872609af5dc49aull},
    {"bottleneck_2m", "cpu", 0xdc1a7ad9d27913d6ull},
    {"bottleneck_2m", "reference", 0x4ffba2961a5a9fbeull},
    {"circle", "cpu", 0x0648cc2d8ad13e3aull},
    {"circle", "reference", 0x0648cc2d8ad13e3aull},
    {"corridor", "cpu", 0x5ceb92d6d118608bull},
    {"corridor", "reference", 0xbd73c914ac5b7da6ull},
    {"crossing", "cpu", 0xb5b09f66a67de2cbull},
    {"crossing", "reference", 0xebbb4642779f5f01ull},
    {"drones", "cpu", 0x003e292daea4acbaull},
    {"drones", "reference", 0xbc2ff42d845843ddull},
    {"flock", "cpu", 0xa8aa3434568e1fd2ull},
    {"flock", "reference", 0xa110387d267bd6faull},
    {"random", "cpu", 0x9fd657bc148396b4ull},
    {"random", "reference", 0x80a2d08837dda718ull},
    {"town", "cpu", 0x6ae2adedddbc0a6full},
    {"town", "reference", 0x9e2298296f093352ull},
};

}  // namespace throng
