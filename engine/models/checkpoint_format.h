// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The number format a checkpoint's weights ship in, read from its config.json's quantization_config:
// fp8 with 128×128 block scales (DeepSeek-V3/R1, Kimi K2), MXFP4 experts (gpt-oss), bitsandbytes NF4 with
// double quantization, GPTQ/AWQ int4 or int8 with a group size. `napkin-cli infer --config` and the
// Inference page price the weights in it unless the user picks another.
#include "engine/models/weight_format.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace napkin {

struct CheckpointFormat {
    WeightFormat weights = WeightFormat::bf16;
    double groupSize = 128; ///< int8, int4: weights per fp16 scale (GPTQ/AWQ group_size)
    bool expertsOnly =
        false; ///< only the routed experts' matrices (gpt-oss: attention, router, embeddings unconverted)
    std::string description; ///< "fp8 (e4m3) with one fp32 scale per 128×128 block (quantization_config ...)"
    bool operator==(const CheckpointFormat&) const = default;
};

struct CheckpointFormatRead {
    std::optional<CheckpointFormat> format; ///< unset: no quantization_config, or one Napkin does not model
    std::string note;                       ///< what was not modelled, in words; empty otherwise
};

/// What training and fine-tuning accounting assume about a checkpoint stored in `format`, in words: full
/// training and LoRA hold the weights in the precision recipe's dtype (the checkpoint dequantized once at
/// load, as a bf16 fine-tune of an fp8 DeepSeek checkpoint is); QLoRA re-quantizes the frozen base to NF4.
std::string trainingAssumption(const CheckpointFormat& format, bool qlora);

/// Reads `quantization` (the file's quantization_config). Throws HfConfigKeyError (hf_config_keys.h) for a
/// key of the wrong type; a method Napkin does not model is not an error: its note says so and the weights
/// stay 16-bit unless the user picks a format.
CheckpointFormatRead readCheckpointFormat(const nlohmann::json& quantization);

} // namespace napkin
