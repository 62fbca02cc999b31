// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a serving setup should be told beside its answers: what the GPU cannot do with the weight format
// (as capability_rules.h says it for training), and a context past the model's own. Nothing here changes a number; the page shows
// the lines above its answers and `napkin-cli infer` in its JSON's warnings[] (on stderr in text mode).
#include "engine/inference/inference_accounting.h"
#include "engine/hardware/gpu_catalog.h"

#include <optional>
#include <string>
#include <vector>

namespace napkin {

/// The weight format's arithmetic on the part: a rate other than its own peak (bf16 emulated at the fp32
/// rate before Ampere), said once.
std::vector<std::string> capabilityWarnings(const InferenceInput& input, const GpuSpec& gpu);

/// A context longer than the model's (its config.json's max_position_embeddings, or a preset's
/// context) with rotary positions, which nothing stops: the KV cache is counted as asked, but the model
/// was not trained to attend that far. Learned positions are refused by validateInference() instead.
std::optional<std::string> contextPastModelWarning(const InferenceInput& input);

/// capabilityWarnings() and contextPastModelWarning(), in that order.
std::vector<std::string> inferenceWarnings(const InferenceInput& input, const GpuSpec& gpu);

} // namespace napkin
