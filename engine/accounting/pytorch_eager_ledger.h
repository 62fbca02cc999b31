// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What PyTorch eager autograd keeps for backward in a nanoGPT-style GPT-2 (pre-LayerNorm, GELU MLP,
// multi-head attention written as q @ kᵀ · scale, masked_fill, softmax, @ v; cross-entropy on the
// logits), tensor by tensor: the `pytorch-eager` activation profile. tests/validation/ builds that model
// in torch.nn and matches every tensor autograd saves (deduplicated by storage, parameters and inputs
// excluded) against these rows. Where the CUDA kernels keep another dtype than the CPU ones the test
// runs, the rows follow CUDA and docs/validation.md says so: dropout masks are torch.bool
// (native_dropout; on the CPU dropout keeps a scaled mask in the activations' dtype) and LayerNorm's mean
// and 1/σ are fp32 (the accumulation type; the CPU keeps bf16 for bf16 input). Llama-style decoders
// (RMSNorm, SwiGLU, RoPE, GQA) are pytorch_eager_llama.h's rows; the functions below dispatch to them.
#include "engine/accounting/activation_ledger.h"
#include "engine/accounting/fine_tuning.h"
#include "engine/models/input_error.h"
#include "engine/accounting/parallel_layout.h"

#include <string>
#include <vector>

namespace napkin {

/// Why `model` is outside what the profile describes (and tests/validation/ checks), or empty.
std::string pytorchEagerUnsupported(const ModelSpec& model);

/// Refuses pytorch-eager where it is not what it describes: selective recompute (no eager equivalent),
/// tensor, pipeline or context parallelism (one GPU's eager PyTorch), QLoRA (pytorch_eager_lora.h
/// describes LoRA), and architectures pytorchEagerUnsupported() names. Field "activations-of".
InputError validateActivationProfile(const ModelSpec& model, Recompute recompute,
                                     const ParallelLayout& layout, const FineTuning& fineTuning);

/// One layer's saved tensors with recompute none or full (torch.utils.checkpoint keeps the layer input).
std::vector<ActivationTensor> pytorchEagerLayerLedger(const ModelSpec& model, StorageType activations,
                                                      Recompute recompute);

/// Kept once per step: the embedding dropout's mask, the position ids, the final norm's input, statistics
/// and output, the log-softmax output and the loss's 0-d total weight.
std::vector<ActivationTensor> pytorchEagerHeadLedger(const ModelSpec& model, StorageType activations);

} // namespace napkin
