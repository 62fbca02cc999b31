#pragma once
// --config PATH: a Hugging Face config.json read as the model (engine/accounting/hf_config.h), and the
// `config` object the JSON reports carry so that a reader sees which keys were used and ignored.
#include "engine/accounting/hf_config.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace napkin::cli {

/// The config at `path`; throws UsageError "--config: <file>: <problem>" (exit 2, one line).
HfConfig readConfigOption(const std::string& path);

/// {path, model_type, keys_used, keys_ignored}.
nlohmann::json configJson(const std::string& path, const HfConfig& config);

} // namespace napkin::cli
