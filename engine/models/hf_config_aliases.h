// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which family reads a config.json whose model_type Napkin does not know by that name: a model_type that
// is another's architecture under a new name (Kimi K2's kimi_k2 is DeepSeek-V3's), or one whose
// `architectures` names a modeling class Napkin reads; and, for a refusal, the nearest family's name.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

struct HfFamilyAlias {
    std::string family; ///< the model_type Napkin reads it as ("deepseek_v3")
    std::string
        reason; ///< "model_type kimi_k2 is DeepSeek-V3's architecture (architectures: DeepseekV3ForCausalLM)"
};

/// The family for `modelType` when it is not one of `families`: from the alias table, then from the
/// first class in `architectures` that Napkin reads. nullopt when neither names one.
std::optional<HfFamilyAlias> hfFamilyAlias(std::string_view modelType,
                                           const std::vector<std::string>& architectures,
                                           std::span<const std::string_view> families);

/// The family in `families` whose name is nearest `modelType` (Levenshtein distance, case-insensitive).
std::string_view nearestHfFamily(std::string_view modelType, std::span<const std::string_view> families);

} // namespace napkin
