#include "engine/accounting/precision_recipe.h"

#include <array>

namespace napkin {
namespace {
constexpr std::array<PrecisionRecipe, 6> kRecipes{PrecisionRecipe::fp32,      PrecisionRecipe::fp16,
                                                  PrecisionRecipe::bf16,      PrecisionRecipe::mixedFp16,
                                                  PrecisionRecipe::mixedBf16, PrecisionRecipe::fp8Mixed};
}

PrecisionLedger ledgerFor(PrecisionRecipe recipe, bool fp32Gradients) {
    PrecisionLedger ledger;
    switch (recipe) {
    case PrecisionRecipe::fp32:
        break;
    case PrecisionRecipe::fp16:
    case PrecisionRecipe::bf16: {
        const StorageType half = recipe == PrecisionRecipe::fp16 ? StorageType::fp16 : StorageType::bf16;
        ledger = {half, half, StorageType::none, half, half,
                  recipe == PrecisionRecipe::fp16 ? ComputeType::fp16 : ComputeType::bf16};
        break;
    }
    case PrecisionRecipe::mixedFp16:
    case PrecisionRecipe::mixedBf16: {
        const StorageType half =
            recipe == PrecisionRecipe::mixedFp16 ? StorageType::fp16 : StorageType::bf16;
        ledger = {half, half, StorageType::fp32, StorageType::fp32, half,
                  recipe == PrecisionRecipe::mixedFp16 ? ComputeType::fp16 : ComputeType::bf16};
        break;
    }
    case PrecisionRecipe::fp8Mixed:
        ledger = {StorageType::bf16, StorageType::bf16, StorageType::fp32, StorageType::fp32,
                  StorageType::bf16, ComputeType::fp8};
        break;
    }
    if (fp32Gradients)
        ledger.gradients = StorageType::fp32;
    return ledger;
}

std::string_view precisionRecipeName(PrecisionRecipe recipe) {
    switch (recipe) {
    case PrecisionRecipe::fp32: return "fp32";
    case PrecisionRecipe::fp16: return "fp16";
    case PrecisionRecipe::bf16: return "bf16";
    case PrecisionRecipe::mixedFp16: return "mixed-fp16";
    case PrecisionRecipe::mixedBf16: return "mixed-bf16";
    case PrecisionRecipe::fp8Mixed: return "fp8-mixed";
    }
    return "fp32";
}

std::optional<PrecisionRecipe> precisionRecipeFromName(std::string_view name) {
    for (PrecisionRecipe r : kRecipes)
        if (precisionRecipeName(r) == name)
            return r;
    return std::nullopt;
}

std::span<const PrecisionRecipe> allPrecisionRecipes() { return kRecipes; }

} // namespace napkin
