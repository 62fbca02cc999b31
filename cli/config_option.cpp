// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/config_option.h"

#include "cli/number_option.h"
#include "engine/models/model_zoo.h"
#include "engine/report/json_values.h"

#include <nlohmann/json.hpp>

namespace napkin::cli {

HfConfig readConfigOption(const std::string& path) {
    HfConfigResult result = readHfConfigFile(path);
    if (!result.ok())
        throw UsageError("--config: " + result.error);
    return std::move(*result.config);
}

nlohmann::json configJson(const std::string& path, const HfConfig& config) {
    nlohmann::json doc = {{"path", path},
                          {"model_type", config.modelType},
                          {"read_as", config.family},
                          {"keys_used", config.keysUsed},
                          {"keys_ignored", config.keysIgnored},
                          {"keys_defaulted", config.keysDefaulted},
                          {"notes", config.notes}};
    doc["vision_parameters"] = config.visionParameters ? jsonNumber(*config.visionParameters) : nullptr;
    if (const auto& f = config.checkpointFormat) {
        doc["checkpoint_format"] = {{"weights", std::string(weightFormatName(f->weights))},
                                    {"group_size", hasGroupScales(f->weights) ? jsonNumber(f->groupSize)
                                                                              : nlohmann::json(nullptr)},
                                    {"experts_only", f->expertsOnly},
                                    {"description", f->description}};
    } else {
        doc["checkpoint_format"] = nullptr;
    }
    return doc;
}

std::optional<HfConfig> configOfOptions(const std::string& configPath, const std::string& modelPreset) {
    if (!configPath.empty())
        return readConfigOption(configPath);
    if (const ZooModel* zoo = modelPreset.empty() ? nullptr : findZooModel(modelPreset)) {
        HfConfigResult read = zooModelConfig(*zoo);
        if (read.ok())
            return std::move(*read.config);
    }
    return std::nullopt;
}

} // namespace napkin::cli
