// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Published model configurations, one table for napkin-cli's --preset and the app's preset box, and
// the architecture families (GPT-2, Llama, Mixtral) the app's Architecture group offers.
#include "engine/models/model_spec.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace napkin {

struct ModelPreset {
    std::string_view id;     ///< "llama3-8b": what --preset takes
    std::string_view name;   ///< "Llama 3 8B"
    ModelSpec model;         ///< kind transformer, every field set
    std::string_view source; ///< the configuration's source (paper table, config.json)
};

/// gpt2-small, gpt2-medium, gpt2-large, gpt2-xl, gpt3-175b, llama3-8b, llama3-70b, llama3-405b,
/// mixtral-8x7b, in that order.
std::span<const ModelPreset> modelPresets();
/// By id, case-insensitively; nullptr when unknown.
const ModelPreset* findModelPreset(std::string_view id);
/// "gpt2-small, gpt2-medium, ..." for help texts and error messages.
std::string modelPresetIds();

/// The design choices a family shares, whatever its size.
enum class ArchitectureFamily {
    gpt2,   ///< GELU, LayerNorm with biases, learned positions, tied embeddings, MHA, dropout, eager
    llama,  ///< SwiGLU, RMSNorm, no biases, RoPE, untied, no dropout, flash attention (GQA via kv-heads)
    mixtral ///< llama with 8 experts, 2 active per token
};
std::string_view architectureFamilyName(ArchitectureFamily family);
std::optional<ArchitectureFamily> architectureFamilyFromName(std::string_view name);
std::span<const ArchitectureFamily> allArchitectureFamilies();

/// `model` with the family's design choices; sizes (d, L, heads, kv-heads, vocab, seq, MLP width) kept.
ModelSpec withArchitectureFamily(ModelSpec model, ArchitectureFamily family);
/// The family whose choices `model` has exactly, or nullopt for a mix.
std::optional<ArchitectureFamily> architectureFamilyOf(const ModelSpec& model);

} // namespace napkin
