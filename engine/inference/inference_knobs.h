// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The serving setup's numeric knobs, declared once (number_knob.h): context, batch, group size, GPUs and
// the price of a GPU-hour, each with its scenario key, napkin-cli infer's flag and help, the range
// validateInference() accepts (in its words) and the Inference page's label and tooltip. The prompt is not
// here: its upper bound is the context, and the scenario keeps it beside "prompt_is_context".
#include "engine/accounting/number_knob.h"
#include "engine/inference/inference_accounting.h"

#include <span>
#include <string_view>

namespace napkin {

/// In napkin-cli infer's order: context, batch, group_size, gpus, price_per_gpu_hour.
std::span<const NumberKnob<InferenceInput>> inferenceKnobs();

/// The knob under scenario key `key`; throws std::logic_error for a key the table does not have.
const NumberKnob<InferenceInput>& inferenceKnob(std::string_view key);

/// The knob's refusal where `in`'s value is outside its range ("must be a whole number from 1 to 1.00e9,
/// got 0", named by the flag less "--"), else an empty error.
InputError checkInferenceKnob(const NumberKnob<InferenceInput>& knob, const InferenceInput& in);

} // namespace napkin
