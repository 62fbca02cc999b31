// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_cruncher_plan.h"

#include <stdexcept>
#include <string>

namespace napkin::cuda {

std::size_t elementBytes(ElementType type) {
    switch (type) {
    case ElementType::f64:
        return 8;
    case ElementType::f32:
        return 4;
    case ElementType::f16:
    case ElementType::bf16:
        return 2;
    case ElementType::e4m3:
        return 1;
    }
    return 4;
}

ElementType cruncherWorkingType(const CruncherConfig& config) {
    switch (config.precision) {
    case PrecisionRecipe::fp32:
        return ElementType::f32;
    case PrecisionRecipe::mixedBf16:
        if (!config.tf32Matmuls)
            return ElementType::bf16;
        break;
    case PrecisionRecipe::mixedFp16:
        if (!config.tf32Matmuls)
            return ElementType::f16;
        break;
    case PrecisionRecipe::fp16:
    case PrecisionRecipe::bf16:
    case PrecisionRecipe::fp8Mixed:
        break;
    }
    throw std::invalid_argument("--precision " + trainingRecipeName(config) +
                                ": the cuda Cruncher trainer runs fp32, tf32, mixed-bf16 and mixed-fp16");
}

std::vector<PlannedBuffer> cruncherBufferPlan(const CruncherConfig& config) {
    const ElementType working = cruncherWorkingType(config);
    const auto d = static_cast<std::size_t>(config.dim), b = static_cast<std::size_t>(config.batch);
    const auto layers = static_cast<std::size_t>(config.layers);
    const int states = stateTensorsPerParameter(config.optimizer);
    std::vector<PlannedBuffer> plan;
    // Each parameter role for every layer and then the head (index L, D×1).
    auto perParameter = [&](const char* component, MemoryTag tag, BufferRole role, ElementType type) {
        for (std::size_t l = 0; l <= layers; ++l)
            plan.push_back({component, tag, role, l, l < layers ? d * d : d, type});
    };
    perParameter("parameters", MemoryTag::parameters, BufferRole::weights, working);
    if (working != ElementType::f32)
        perParameter("master_weights", MemoryTag::masterWeights, BufferRole::master, ElementType::f32);
    perParameter("gradients", MemoryTag::gradients, BufferRole::gradient, working);
    if (states > 0)
        perParameter("optimizer_state", MemoryTag::optimizerState, BufferRole::state1, ElementType::f32);
    if (states > 1)
        perParameter("optimizer_state", MemoryTag::optimizerState, BufferRole::state2, ElementType::f32);
    for (std::size_t l = 0; l < layers; ++l)
        plan.push_back({"activations", MemoryTag::activations, BufferRole::output, l, b * d, working});
    plan.push_back({"inputs", MemoryTag::inputs, BufferRole::batch, 0, b * d, working});
    plan.push_back({"inputs", MemoryTag::inputs, BufferRole::targets, 0, b, ElementType::f32});
    plan.push_back({"inputs", MemoryTag::inputs, BufferRole::truth, 0, d, ElementType::f32});
    plan.push_back({"workspace", MemoryTag::workspace, BufferRole::prediction, 0, b, working});
    plan.push_back({"workspace", MemoryTag::workspace, BufferRole::lossGrad, 0, b, working});
    plan.push_back({"workspace", MemoryTag::workspace, BufferRole::upstream, 0, b * d, working});
    plan.push_back({"workspace", MemoryTag::workspace, BufferRole::downstream, 0, b * d, working});
    return plan;
}

} // namespace napkin::cuda
