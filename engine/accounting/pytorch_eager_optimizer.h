// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pytorch-eager profile's optimizer step: the temporaries torch.optim's update holds at its high-water
// mark, as AccountingInput::optimizerImplementation runs it. foreach (torch ≥ 2.0's default on a GPU):
// lists as large as all the parameters (optimizer_implementation.h, measured on an H100); fused: none.
// single-tensor (foreach off, the CPU's default), read from torch 1.13 and the same in torch 2.11 on an
// H100: it updates one parameter
// at a time in model.parameters() order; Adam/AdamW's `denom = (exp_avg_sq.sqrt() / c).add_(eps)`
// holds the sqrt and the quotient of this parameter while `denom` still holds the previous one's, so the
// step peaks above the fused in-place update the Megatron profile models. Each figure below was read
// op by op from torch.profiler(profile_memory=True) (docs/memory-timeline.md, "The optimizer step").
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"

#include <string>
#include <vector>

namespace napkin {

struct ParameterTensor {
    std::string name; ///< "layer 2–32 expert 2–8 down.weight": layer 2 stands for every later layer
    double elements = 0;
};

/// `model`'s parameter tensors in model.parameters() order as tests/validation/reference_models.py builds
/// them: nanoGPT's GPT-2 (tied head listed once, as the token embedding) or the Llama/Mixtral-style
/// Decoder (norms first in a layer, then q, k, v, o, then the router and each expert's up, gate, down).
/// Two layers and two experts at most: they hold every pair of neighbours the whole list has. Empty for a
/// model the pytorch-eager profile does not describe.
std::vector<ParameterTensor> pytorchEagerParameterTensors(const ModelSpec& model);

struct OptimizerTemporaries {
    double bytes = 0;
    std::string formula; ///< "AdamW: 2 × 25,600 + 25,600 + 12 = 76,812 B (...)"; empty when not modelled
};

/// The bytes the update holds above parameters, gradients and state at its high-water mark, for
/// `input` under pytorch-eager on data parallelism alone, full training, no master weights (fp32, bf16).
/// Zero with an empty formula elsewhere (Megatron: fused and in place; LoRA and mixed precision: not
/// measured yet).
OptimizerTemporaries pytorchEagerOptimizerTemporaries(const AccountingInput& input,
                                                      const AccountingResult& result, TrainingStep step);

} // namespace napkin
