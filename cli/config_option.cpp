#include "cli/config_option.h"

#include "cli/number_option.h"

#include <nlohmann/json.hpp>

namespace napkin::cli {

HfConfig readConfigOption(const std::string& path) {
    HfConfigResult result = readHfConfigFile(path);
    if (!result.ok())
        throw UsageError("--config: " + result.error);
    return std::move(*result.config);
}

nlohmann::json configJson(const std::string& path, const HfConfig& config) {
    return {{"path", path},
            {"model_type", config.modelType},
            {"keys_used", config.keysUsed},
            {"keys_ignored", config.keysIgnored}};
}

} // namespace napkin::cli
