// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// --config PATH: a Hugging Face config.json read as the model (engine/models/hf_config.h), and the
// `config` object the JSON reports carry so that a reader sees which keys were used and ignored.
#include "engine/models/hf_config.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace napkin::cli {

/// The config at `path`; throws UsageError "--config: <file>: <problem>" (exit 2, one line).
HfConfig readConfigOption(const std::string& path);

/// {path, model_type, read_as, keys_used, keys_ignored, keys_defaulted, notes, vision_parameters,
/// checkpoint_format} (docs/cli.md).
nlohmann::json configJson(const std::string& path, const HfConfig& config);

/// The config.json behind the model options, if any: --config's file, or a shipped config's
/// (--model-preset naming the model zoo). Throws UsageError as readConfigOption.
std::optional<HfConfig> configOfOptions(const std::string& configPath, const std::string& modelPreset);

} // namespace napkin::cli
