// A world as one export (throng.v1.WorldExport, docs/SERVICE.md "Moving a world"): its
// effective configuration and everything World::Kept holds, serialized as a
// WorldExportPayload of format 1 with zlib's CRC-32 over it.
#pragma once

#include <string>

#include "kernels/world/world.h"
#include "throng/v1/simulation.pb.h"

namespace throng::service {

inline constexpr uint32_t kWorldExportFormat = 1;

void WorldToExport(const std::string& world_id, const v1::WorldConfig& effective_config,
                   const WorldKept& kept, v1::WorldExport* out);

struct ImportedWorld {
  std::string world_id;
  v1::WorldConfig config;
  WorldKept kept;  // to check with World::Restore on a world of `config`
};

// Throws std::invalid_argument when the export is of another format ("world_export.format:
// 2, this throngd reads format 1"), does not match its checksum, does not parse, or has
// columns of different lengths. What the values mean is for World::Restore to check.
ImportedWorld WorldFromExport(const v1::WorldExport& in);

}  // namespace throng::service
