// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pytorch-eager profile under LoRA: what torch 1.13's autograd saves when the base is frozen and
// rank-r adapters (PEFT's lora.Linear: base(x) + B(A(x)) · alpha/r, lora_dropout 0) sit beside the
// targeted projections. Autograd saves a tensor only for a gradient something trainable needs: a frozen
// matmul keeps no input (its weight, a parameter, is all dL/dx needs), a frozen norm keeps its
// statistics but not its normalised x, and in layer 1, whose input (the frozen embeddings) needs no
// gradient, nothing is kept before the first adapter. tests/cli/lora_torch_check.py measures every row.
#include "engine/accounting/activation_memory.h"
#include "engine/accounting/fine_tuning.h"

#include <string>
#include <vector>

namespace napkin {

/// Why `fineTuning` with adapters is outside what the pytorch-eager LoRA rows describe, or empty.
std::string pytorchEagerLoraUnsupported(const ModelSpec& model, const FineTuning& fineTuning);

/// One layer's saved tensors under LoRA. `inputNeedsGradient`: false for layer 1 without recompute (the
/// frozen embeddings' output), true for every later layer. recompute full: the layer input alone, which
/// torch.utils.checkpoint keeps once the embeddings' output requires grad (PEFT's
/// enable_input_require_grads(); the reentrant checkpoint gives layer 1's adapters no gradient without it).
std::vector<ActivationTensor> pytorchEagerLoraLayerLedger(const ModelSpec& model,
                                                          const FineTuning& fineTuning,
                                                          StorageType activations, Recompute recompute,
                                                          bool inputNeedsGradient);

/// Kept once: the final norm's input and statistics (not its output: the head is frozen), the loss's
/// tensors; Llama-style: RoPE's cos and sin when some layer's q or k needs a gradient (or the checkpoint
/// keeps them); GPT-2-style: no position ids (the frozen position embedding needs no gradient).
std::vector<ActivationTensor> pytorchEagerLoraHeadLedger(const ModelSpec& model, const FineTuning& fineTuning,
                                                         StorageType activations, Recompute recompute);

/// The whole step on one GPU: layer 1's rows, kept by every layer (per layer); the rows layers 2 … L keep
/// beyond those, summed over the L − 1 layers (once rows named "layers 2–L: …"); the head's.
ActivationMemory pytorchEagerLoraActivations(const ModelSpec& model, const FineTuning& fineTuning,
                                             double batch, StorageType activations, Recompute recompute);

/// One micro-batch's bytes for the memory timeline: the head's, layer 1's and a later layer's as kept, and
/// as a recompute re-creates them (torch.utils.checkpoint's layer 1 runs with its input requiring grad).
struct EagerLoraStepBytes {
    double head = 0, firstLayer = 0, laterLayer = 0, firstLayerRecomputed = 0, laterLayerRecomputed = 0;
};
EagerLoraStepBytes pytorchEagerLoraStepBytes(const ModelSpec& model, const FineTuning& fineTuning,
                                             double batch, StorageType activations, Recompute recompute);

} // namespace napkin
