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
    {"blocks", "cpu", 0x2521ab551be3ea89ull},
    {"blocks", "reference", 0xac6044dd82592755ull},
    {"bottleneck_1m", "cpu", 0x0bbdee632d302e15ull},
    {"bottleneck_1m", "reference", 0x22896e2b7a618c06ull},
    {"bottleneck_2m", "cpu", 0x0eb8da74c8772c01ull},
    {"bottleneck_2m", "reference", 0x68ed96a60559b37aull},
    {"circle", "cpu", 0x737fe56fff758ebaull},
    {"circle", "reference", 0x737fe56fff758ebaull},
    {"corridor", "cpu", 0xba97d1f9e3446c0bull},
    {"corridor", "reference", 0x31f04dc856bc8366ull},
    {"crossing", "cpu", 0x390bab44cdce560bull},
    {"crossing", "reference", 0x494332507e4c8781ull},
    {"drones", "cpu", 0xf838a68b06baa37aull},
    {"drones", "reference", 0xca260c0e96eb591dull},
    {"flock", "cpu", 0xdcef5470a48ceb32ull},
    {"flock", "reference", 0xe35d8e2e653a35daull},
    {"random", "cpu", 0x1a5731c9c26663f8ull},
    {"random", "reference", 0xd588e34d82c0922aull},
    {"rimea_6", "cpu", 0x74f13cfe13bd22dfull},
    {"rimea_6", "reference", 0xe612939020b21c0dull},
    {"rimea_9", "cpu", 0x79fb3855a7b2042dull},
    {"rimea_9", "reference", 0xd17cde30b4ee922full},
    {"rimea_9_two_exits", "cpu", 0x93fcb40ff56d4200ull},
    {"rimea_9_two_exits", "reference", 0x1db3a968c9e26996ull},
    {"town", "cpu", 0xd1a475f6a80c8a11ull},
    {"town", "reference", 0x22ecb84b410ef643ull},
    {"two_exits", "cpu", 0xc85eb008845163a8ull},
    {"two_exits", "reference", 0x50f971e7223aea1aull},
    {"u_trap", "cpu", 0x79897c6950c2120eull},
    {"u_trap", "reference", 0x4f7ed26e4edce463ull},
};

}  // namespace throng
