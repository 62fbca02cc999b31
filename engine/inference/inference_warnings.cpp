// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/inference/inference_warnings.h"

#include "engine/hardware/gpu_capabilities.h"
#include "engine/numerics/quantity_format.h"

namespace napkin {

std::vector<std::string> capabilityWarnings(const InferenceInput& in, const GpuSpec& gpu) {
    std::vector<std::string> warnings;
    const EffectivePeak peak = effectiveDensePeak(gpu, weightComputeType(in.weights));
    if (!peak.refused && !peak.reason.empty())
        warnings.push_back(peak.reason);
    return warnings;
}

std::optional<std::string> contextPastModelWarning(const InferenceInput& in) {
    const ModelSpec& m = in.model;
    if (m.kind != ModelKind::transformer || m.position == PositionKind::learned || !(in.context > m.seq))
        return std::nullopt;
    return "context " + formatExact(in.context) + " tokens is past the model's " + formatExact(m.seq) +
           " positions (its max_position_embeddings, or the preset's context): the KV cache is counted as "
           "asked, but the model was not trained to attend that far (a rope_scaling such as YaRN may extend "
           "it; Napkin does not read one)";
}

std::vector<std::string> inferenceWarnings(const InferenceInput& in, const GpuSpec& gpu) {
    std::vector<std::string> warnings = capabilityWarnings(in, gpu);
    if (std::optional<std::string> past = contextPastModelWarning(in))
        warnings.push_back(std::move(*past));
    return warnings;
}

} // namespace napkin
