// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cruncher_config.h"

#include "engine/accounting/frozen_layers.h"

#include <algorithm>
#include <optional>

namespace napkin {

double defaultLearningRate(OptimizerKind kind, long dim) {
    const double widthScale = std::min(1.0, 32.0 / static_cast<double>(std::max(1L, dim)));
    switch (kind) {
    case OptimizerKind::sgd:
        return 0.02;
    case OptimizerKind::momentum:
        return 0.005;
    case OptimizerKind::adagrad:
        return 0.05 * widthScale;
    case OptimizerKind::rmsprop:
        return 0.002 * widthScale;
    case OptimizerKind::adam:
    case OptimizerKind::adamw:
        return 0.005 * widthScale;
    }
    return 0.01;
}

std::string trainingRecipeName(const CruncherConfig& c) {
    if (c.tf32Matmuls && c.precision == PrecisionRecipe::fp32)
        return "tf32";
    return std::string(precisionRecipeName(c.precision)) + (c.tf32Matmuls ? "+tf32" : "");
}

bool setTrainingRecipe(CruncherConfig& c, std::string_view name) {
    if (name == "tf32") {
        c.precision = PrecisionRecipe::fp32;
        c.tf32Matmuls = true;
        return true;
    }
    const std::optional<PrecisionRecipe> recipe = precisionRecipeFromName(name);
    if (!recipe)
        return false;
    c.precision = *recipe;
    c.tf32Matmuls = false;
    return true;
}

std::string trainingComputeDtype(const CruncherConfig& c) {
    switch (c.precision) {
    case PrecisionRecipe::fp32:
        return c.tf32Matmuls ? "tf32" : "fp32";
    case PrecisionRecipe::bf16:
    case PrecisionRecipe::mixedBf16:
        return "bf16";
    case PrecisionRecipe::fp16:
    case PrecisionRecipe::mixedFp16:
        return "fp16";
    case PrecisionRecipe::fp8Mixed:
        return "fp8-e4m3";
    }
    return "fp32";
}

double cruncherParameters(const CruncherConfig& c) {
    const double d = static_cast<double>(c.dim);
    return static_cast<double>(c.layers) * d * d + d;
}

double cruncherTrainableParameters(const CruncherConfig& c) {
    const double d = static_cast<double>(c.dim);
    return cruncherParameters(c) - static_cast<double>(c.frozenLayers.size()) * d * d;
}

double cruncherCountedFlopsPerStep(const CruncherConfig& c) {
    const double b = static_cast<double>(c.batch), d = static_cast<double>(c.dim);
    if (c.frozenLayers.empty())
        return 6.0 * b * cruncherParameters(c) - 2.0 * b * d * d;
    const long lowest = lowestTrainingLayer(c.frozenLayers, c.layers);
    double backward = 2.0 * b * d; // the head's dw
    for (long l = lowest; l <= c.layers + 1; ++l) {
        const bool head = l == c.layers + 1;
        const double gemm = head ? 2.0 * b * d : 2.0 * b * d * d;
        if (!head && layerTrains(c.frozenLayers, l))
            backward += gemm; // dW_l
        if (l > lowest)
            backward += gemm; // dL/dh_{l−1}
    }
    return 2.0 * b * cruncherParameters(c) + backward;
}

} // namespace napkin
