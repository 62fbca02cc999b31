#pragma once
// A model from its Hugging Face config.json: the keys of the llama, mistral, mixtral, qwen2, qwen2_moe,
// qwen3, qwen3_moe, gemma, gemma2, gemma3 (text), phi3, olmo2, gpt_neox, falcon, gpt2, deepseek_v2 and
// deepseek_v3 model_types mapped onto ModelSpec. Errors are data: one line naming the file and the key.
#include "engine/accounting/model_spec.h"

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
