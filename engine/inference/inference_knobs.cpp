// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/inference/inference_knobs.h"

#include <array>
#include <stdexcept>
#include <string>

namespace napkin {

std::span<const NumberKnob<InferenceInput>> inferenceKnobs() {
    using I = InferenceInput;
    static const std::array<NumberKnob<I>, 5> knobs{{
        {"context",
         "--context",
         "tokens in each sequence's KV cache S (default the model's --seq)",
         {1, 1e8, false, "", false, true, "must be a whole number from 1 to 1.00e8"},
         &I::context,
         nullptr,
         {"&Context S:", 1, 0, "Context S: tokens in each sequence's KV cache (prompt plus generated)."}},
        {"batch",
         "--batch",
         "sequences decoded together B (default 1)",
         {1, 1e9, false, "", false, true, "must be a whole number from 1 to 1.00e9"},
         &I::batch,
         nullptr,
         {"&Batch B:", 1, 0, "Batch B: sequences decoded together, one token each per step."}},
        {"group_size",
         "--group-size",
         "int8, int4: weights per fp16 scale G (default the checkpoint's group_size, else 128)",
         {1, 1e6, false, "", false, true, "must be a whole number from 1 to 1.00e6"},
         &I::groupSize,
         nullptr,
         {"Gro&up size:", 1, 0,
          "int8, int4: weights sharing one fp16 scale G (GPTQ/AWQ use 128). Must divide d_model."}},
        {"gpus",
         "--gpus",
         "GPUs, all tensor parallel (default 1)",
         {1, 1e5, false, "", false, true, "must be a whole number from 1 to 100000"},
         &I::gpus,
         nullptr,
         {"GP&Us (tensor parallel):", 1, 0,
          "GPUs N, all tensor parallel: weights, KV cache and work split N ways. Must divide the heads and "
          "the KV heads."}},
        {"price_per_gpu_hour",
         "--price-per-gpu-hour",
         "dollars per GPU-hour; enables the cost per million tokens",
         {0, 1e6, true, " dollars"},
         nullptr,
         &I::pricePerGpuHour,
         {"P&rice:", 0.1, 2, "What one GPU-hour costs you, in dollars (no default).", "$ per GPU-hour", 2.0}},
    }};
    return knobs;
}

const NumberKnob<InferenceInput>& inferenceKnob(std::string_view key) {
    if (const NumberKnob<InferenceInput>* k = findNumberKnob(inferenceKnobs(), key))
        return *k;
    throw std::logic_error("no inference knob " + std::string(key));
}

InputError checkInferenceKnob(const NumberKnob<InferenceInput>& knob, const InferenceInput& in) {
    if (const std::optional<double> v = knob.get(in); v && !knob.range.contains(*v))
        return {std::string(knob.field()), knob.range.requirement() + ", got " + formatNumber(*v)};
    return {};
}

} // namespace napkin
