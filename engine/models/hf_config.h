// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A model from its Hugging Face config.json: the keys of the llama, mistral, mixtral, qwen2, qwen2_moe,
// qwen3, qwen3_moe, gemma, gemma2, gemma3 (text), phi3, olmo2, gpt_neox, falcon, gpt2, deepseek_v2,
// deepseek_v3, gpt_oss and llama4 (text) model_types mapped onto ModelSpec; kimi_k2 and any model_type whose
// `architectures` names a class read here through hf_config_aliases.h; a key the file leaves out takes its
// configuration class's default (hf_config_defaults.h). Errors are data: one line naming the file and key.
#include "engine/models/checkpoint_format.h"
#include "engine/models/model_spec.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

struct HfConfig {
    ModelSpec model;                      ///< kind transformer
    std::string modelType;                ///< "llama", "gemma3", ...
    std::vector<std::string> keysUsed;    ///< the keys read, nested ones as "text_config.hidden_size"
    std::vector<std::string> keysIgnored; ///< the keys present that do not change the accounting
    /// The model_type it was read as ("deepseek_v3" for kimi_k2).
    std::string family;
    /// Absent keys that took the configuration class's default.
    std::vector<std::string> keysDefaulted;
    /// What the count is of, in words: the alias used, the language model of a multimodal file, what the
    /// family's own card leaves out (DeepSeek's multi-token-prediction layers).
    std::vector<std::string> notes;
    /// A multimodal file's vision tower and projector (Gemma 3's SigLIP), counted apart from the model;
    /// unset where the file does not describe one Napkin counts.
    std::optional<double> visionParameters;
    /// The weights' number format from quantization_config; unset when the file has none (16-bit) or one
    /// Napkin does not model (a note says which).
    std::optional<CheckpointFormat> checkpointFormat;
};

struct HfConfigResult {
    std::optional<HfConfig> config;
    std::string error; ///< "config.json: hidden_size: expected a number, got a string"; empty when read
    bool ok() const { return config.has_value(); }
};

/// A config.json is a few kilobytes; anything larger is refused before it is read.
constexpr double kMaxHfConfigBytes = 1024 * 1024;
/// Objects and arrays nested deeper than this are refused before parsing (real configs nest 3 deep).
constexpr int kMaxHfConfigDepth = 16;

/// The model_types read, in the order above.
std::span<const std::string_view> hfModelTypes();

/// Reads `path`: refuses a non-regular file or one over kMaxHfConfigBytes before opening it.
HfConfigResult readHfConfigFile(const std::string& path);
/// Parses config text; `source` names it in errors (the file name).
HfConfigResult parseHfConfig(std::string_view text, std::string_view source);

} // namespace napkin
