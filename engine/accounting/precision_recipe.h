// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A precision recipe says which dtype each part of training state is kept in. Making it a ledger
// (rather than one "bytes per parameter" constant) is what shows where 16, 18 or 20 B/param come from.
#include "engine/numerics/storage_type.h"

#include <optional>
#include <span>
#include <string_view>

namespace napkin {

enum class PrecisionRecipe { fp32, fp16, bf16, mixedFp16, mixedBf16, fp8Mixed };

struct PrecisionLedger {
    StorageType parameters = StorageType::fp32;
    StorageType gradients = StorageType::fp32;
    StorageType masterWeights = StorageType::none;  ///< fp32 copy kept by mixed-precision recipes
    StorageType optimizerState = StorageType::fp32; ///< per state tensor (Adam has two)
    StorageType activations = StorageType::fp32;
    ComputeType compute = ComputeType::fp32; ///< selects the GPU's dense peak
};

/// The ledger of a recipe. fp32: everything fp32. fp16/bf16: everything 16-bit, no master copy.
/// mixed-*: 16-bit params, grads, activations + fp32 master weights and state (Micikevicius et al.
/// 2018). fp8-mixed: fp8 matmuls (Transformer Engine style) with bf16 params/grads/activations, fp32
/// master and state. fp32Gradients keeps gradients in fp32 (the 18 B/param AdamW convention).
PrecisionLedger ledgerFor(PrecisionRecipe recipe, bool fp32Gradients = false);

std::string_view precisionRecipeName(PrecisionRecipe recipe);
std::optional<PrecisionRecipe> precisionRecipeFromName(std::string_view name);
std::span<const PrecisionRecipe> allPrecisionRecipes();

} // namespace napkin
