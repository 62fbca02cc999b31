// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The presets as the app's preset boxes offer them, grouped by family: the lecture's questions, then
// GPT-2 and GPT-3, GPT-NeoX, Falcon, Llama, Mistral and Mixtral, Phi, Qwen, Gemma, OLMo, DeepSeek. One
// table, so that both pages group the same ids (those --preset and --model-preset take) the same way.
#include "engine/models/model_spec.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace napkin {

/// What an entry names: a whole setup (setup_presets.h, `--preset`), a published model
/// (model_presets.h, `--model-preset`) or a shipped config.json (model_zoo.h, `--model-preset`).
enum class PresetSource { setup, published, zoo };

struct PresetEntry {
    std::string_view id;   ///< "llama3-8b", "deepseek-v3"
    std::string_view name; ///< "Llama 3 8B", "DeepSeek-V3 (without MTP)"
    PresetSource source;
};

struct PresetGroup {
    std::string_view family; ///< "Lecture questions", "GPT-2 / GPT-3", "Llama", ...
    std::vector<PresetEntry> entries;
};

/// The families, in the order the boxes show them (an entry of none of them is shown last, under "Other").
std::span<const std::string_view> presetFamilies();

/// The whole setups and the shipped configs, by family (empty families left out): the Accounting
/// page's preset box.
std::vector<PresetGroup> accountingPresetGroups();
/// The published models and the shipped configs, by family: the Inference page's model box.
std::vector<PresetGroup> inferencePresetGroups();

/// The model `--model-preset ID` names: a published model's, or a shipped config.json read through the
/// config reader; nullopt for an id that is neither.
std::optional<ModelSpec> namedModel(std::string_view id);

} // namespace napkin
