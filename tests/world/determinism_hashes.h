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

// The cuda rows come from a GPU run (bench/gpu_check.sh on an H200, 2026-12-04, at
// 94a1112): this machine cannot renew them. A change that alters results on purpose
// without a GPU leaves them stale and says so in its message; the next GPU run fails
// with the hashes to commit.
inline constexpr DeterminismHash kDeterminismHashes[] = {
    {"blocks", "cpu", 0x2521ab551be3ea89ull},
    {"blocks", "cuda", 0x0b4a734fa4373216ull},
    {"blocks", "reference", 0xac6044dd82592755ull},
    {"blocks_navigate", "cpu", 0xae639e00ce14fefaull},
    {"blocks_navigate", "cuda", 0xa7491222bd2666e0ull},
    {"blocks_navigate", "reference", 0x3f8f447a42cb9d8cull},
    {"bottleneck_1m", "cpu", 0x0bbdee632d302e15ull},
    {"bottleneck_1m", "cuda", 0x47f036f33c8fd03full},
    {"bottleneck_1m", "reference", 0x22896e2b7a618c06ull},
    {"bottleneck_2m", "cpu", 0x0eb8da74c8772c01ull},
    {"bottleneck_2m", "cuda", 0x990bd8e96d079db0ull},
    {"bottleneck_2m", "reference", 0x68ed96a60559b37aull},
    {"circle", "cpu", 0x737fe56fff758ebaull},
    {"circle", "cuda", 0x737fe56fff758ebaull},
    {"circle", "reference", 0x737fe56fff758ebaull},
    {"corridor", "cpu", 0xba97d1f9e3446c0bull},
    {"corridor", "cuda", 0x80641c6b0a00cc91ull},
    {"corridor", "reference", 0x31f04dc856bc8366ull},
    {"crossing", "cpu", 0x390bab44cdce560bull},
    {"crossing", "cuda", 0x96570b62ed6c7e58ull},
    {"crossing", "reference", 0x494332507e4c8781ull},
    {"drones", "cpu", 0xf838a68b06baa37aull},
    {"drones", "cuda", 0xf838a68b06baa37aull},
    {"drones", "reference", 0xca260c0e96eb591dull},
    {"flock", "cpu", 0xdcef5470a48ceb32ull},
    {"flock", "cuda", 0x5d2a9c11933d0071ull},
    {"flock", "reference", 0xe35d8e2e653a35daull},
    {"random", "cpu", 0x1a5731c9c26663f8ull},
    {"random", "cuda", 0x233a817f6c183983ull},
    {"random", "reference", 0xd588e34d82c0922aull},
    {"rimea_6", "cpu", 0xea93c24be91cf34full},
    {"rimea_6", "cuda", 0x32292dde9dac6069ull},
    {"rimea_6", "reference", 0xe1159c4d7e60b139ull},
    {"rimea_9", "cpu", 0x63caa819d4e17019ull},
    {"rimea_9", "cuda", 0x9b926c1e83cfc3b8ull},
    {"rimea_9", "reference", 0x832fed61ab3c2667ull},
    {"rimea_9_two_exits", "cpu", 0x5e932b0649719b20ull},
    {"rimea_9_two_exits", "cuda", 0x99875eca6e1456faull},
    {"rimea_9_two_exits", "reference", 0x8425abf2cd7408c8ull},
    {"town", "cpu", 0xd1a475f6a80c8a11ull},
    {"town", "cuda", 0xeaceb65cb37bf3d3ull},
    {"town", "reference", 0x22ecb84b410ef643ull},
    {"two_exits", "cpu", 0x3c6cad8a7f16722full},
    {"two_exits", "cuda", 0x863c86b7c502fe0dull},
    {"two_exits", "reference", 0xc72de0046dc2b492ull},
    {"u_trap", "cpu", 0x3973a5e8b5a57111ull},
    {"u_trap", "cuda", 0x72f2b6cf6eac5fe1ull},
    {"u_trap", "reference", 0x0b31e994e94e157cull},
};

}  // namespace throng
