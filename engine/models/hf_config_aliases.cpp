// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/hf_config_aliases.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace napkin {
namespace {

// model_types that are a family Napkin reads under another name.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kTypeAliases{{
    {"kimi_k2", "deepseek_v3"}, // Kimi K2: "reuses DeepseekV3CausalLM" (moonshotai/Kimi-K2 README)
    {"gemma3_text", "gemma3"},  // Gemma 3 1B, or the language model alone
    {"llama4_text", "llama4"},  // the language model alone
}};

// transformers' modeling classes (config.json "architectures") and the model_type whose reader builds them.
// Only classes with the language-model head: a bare *Model has no output head and another count.
constexpr std::array<std::pair<std::string_view, std::string_view>, 21> kClasses{{
    {"LlamaForCausalLM", "llama"},
    {"MistralForCausalLM", "mistral"},
    {"MixtralForCausalLM", "mixtral"},
    {"Qwen2ForCausalLM", "qwen2"},
    {"Qwen2MoeForCausalLM", "qwen2_moe"},
    {"Qwen3ForCausalLM", "qwen3"},
    {"Qwen3MoeForCausalLM", "qwen3_moe"},
    {"GemmaForCausalLM", "gemma"},
    {"Gemma2ForCausalLM", "gemma2"},
    {"Gemma3ForCausalLM", "gemma3"},
    {"Gemma3ForConditionalGeneration", "gemma3"},
    {"Phi3ForCausalLM", "phi3"},
    {"Olmo2ForCausalLM", "olmo2"},
    {"GPTNeoXForCausalLM", "gpt_neox"},
    {"FalconForCausalLM", "falcon"},
    {"GPT2LMHeadModel", "gpt2"},
    {"DeepseekV2ForCausalLM", "deepseek_v2"},
    {"DeepseekV3ForCausalLM", "deepseek_v3"},
    {"GptOssForCausalLM", "gpt_oss"},
    {"Llama4ForConditionalGeneration", "llama4"},
    {"Llama4ForCausalLM", "llama4"},
}};

bool supported(std::string_view family, std::span<const std::string_view> families) {
    return std::find(families.begin(), families.end(), family) != families.end();
}

std::size_t distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::optional<HfFamilyAlias> hfFamilyAlias(std::string_view modelType,
                                           const std::vector<std::string>& architectures,
                                           std::span<const std::string_view> families) {
    for (const auto& [alias, family] : kTypeAliases)
        if (alias == modelType && supported(family, families)) {
            std::string reason = "model_type " + std::string(alias) + " is read as " + std::string(family);
            if (!architectures.empty())
                reason += " (architectures: " + architectures.front() + ")";
            return HfFamilyAlias{std::string(family), reason};
        }
    for (const std::string& cls : architectures)
        for (const auto& [name, family] : kClasses)
            if (name == cls && supported(family, families))
                return HfFamilyAlias{std::string(family), "model_type " + std::string(modelType) +
                                                              " is read as " + std::string(family) +
                                                              ": its architectures name " + cls};
    return std::nullopt;
}

std::string_view nearestHfFamily(std::string_view modelType, std::span<const std::string_view> families) {
    // Cap what is compared: a model_type 100 kB long is refused as fast as a short one.
    const std::string_view probe = modelType.substr(0, 64);
    std::string_view best;
    std::size_t bestDistance = static_cast<std::size_t>(-1);
    for (std::string_view f : families)
        if (const std::size_t d = distance(probe, f); d < bestDistance) {
            bestDistance = d;
            best = f;
        }
    return best;
}

} // namespace napkin
