// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/precision_recipe.h"

#include "engine/text/name_table.h"

namespace napkin {
namespace {
constexpr NameTable<PrecisionRecipe, 6> kRecipeNames{{{PrecisionRecipe::fp32, "fp32"},
                                                      {PrecisionRecipe::fp16, "fp16"},
                                                      {PrecisionRecipe::bf16, "bf16"},
                                                      {PrecisionRecipe::mixedFp16, "mixed-fp16"},
                                                      {PrecisionRecipe::mixedBf16, "mixed-bf16"},
                                                      {PrecisionRecipe::fp8Mixed, "fp8-mixed"}}};
constexpr auto kRecipes = valuesIn(kRecipeNames);
} // namespace

PrecisionLedger ledgerFor(PrecisionRecipe recipe, bool fp32Gradients) {
    PrecisionLedger ledger;
    switch (recipe) {
    case PrecisionRecipe::fp32:
        break;
    case PrecisionRecipe::fp16:
    case PrecisionRecipe::bf16: {
        const StorageType half = recipe == PrecisionRecipe::fp16 ? StorageType::fp16 : StorageType::bf16;
        ledger = {half, half, StorageType::none,
                  half, half, recipe == PrecisionRecipe::fp16 ? ComputeType::fp16 : ComputeType::bf16};
        break;
    }
    case PrecisionRecipe::mixedFp16:
    case PrecisionRecipe::mixedBf16: {
        const StorageType half = recipe == PrecisionRecipe::mixedFp16 ? StorageType::fp16 : StorageType::bf16;
        ledger = {half,
                  half,
                  StorageType::fp32,
                  StorageType::fp32,
                  half,
                  recipe == PrecisionRecipe::mixedFp16 ? ComputeType::fp16 : ComputeType::bf16};
        break;
    }
    case PrecisionRecipe::fp8Mixed:
        ledger = {StorageType::bf16, StorageType::bf16, StorageType::fp32,
                  StorageType::fp32, StorageType::bf16, ComputeType::fp8};
        break;
    }
    if (fp32Gradients)
        ledger.gradients = StorageType::fp32;
    return ledger;
}

std::string_view precisionRecipeName(PrecisionRecipe recipe) {
    return nameIn(kRecipeNames, recipe);
}

std::optional<PrecisionRecipe> precisionRecipeFromName(std::string_view name) {
    return valueIn(kRecipeNames, name);
}

std::span<const PrecisionRecipe> allPrecisionRecipes() {
    return kRecipes;
}

} // namespace napkin
