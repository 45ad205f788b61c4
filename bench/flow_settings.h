// throng-bench-flow's --set keys: one solve or detection parameter of a scenario's world
// changed by name, for ablation rows (one rule off at a time) on the same scene.
#pragma once

#include <string>
#include <vector>

#include "kernels/world/world_types.h"

namespace throng::bench {

// Every key ApplySetting takes, sorted.
std::vector<std::string> FlowSettingKeys();

// "key=value"; throws std::invalid_argument for an unknown key or an unreadable value.
void ApplySetting(const std::string& key_value, WorldConfig* config);

}  // namespace throng::bench
