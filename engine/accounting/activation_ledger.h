// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The tensors one transformer layer keeps for its backward pass, one row each, per token: the count
// Korthikanti et al. 2022 (section 4.1) make to reach 34·s·b·h + 5·a·s²·b, generalised to GQA, SwiGLU,
// mixtures of experts, flash attention and dropout off.
#include "engine/models/model_spec.h"
#include "engine/numerics/storage_type.h"

#include <string>
#include <vector>

namespace napkin {

/// Where a saved tensor sits relative to tensor parallelism (Korthikanti et al. 2022, section 4.2).
enum class ActivationSplit {
    tensorParallel, ///< inside the attention or MLP (heads, MLP width, vocabulary): split by t
    sequence ///< on the residual path (norm inputs, dropout masks): split by t only with sequence parallel
};

struct ActivationTensor {
    std::string name;            ///< "softmax output"
    std::string savedFor;        ///< the backward operation(s) that read it
    double elementsPerToken = 0; ///< in one layer, per token of the micro-batch, before any split
    double bytesPerElement = 0;  ///< see dropoutMaskBytes() for masks; fp32 for the log-sum-exp and router
    std::string dtype;           ///< "bf16", "fp32", "mask"
    ActivationSplit split = ActivationSplit::tensorParallel;
    bool attentionScores = false; ///< one of the a·s-per-token score tensors selective recompute drops
    double fixedElements = 0;     ///< elements whatever the tokens and the batch (a causal mask: s²)
    /// pytorch-eager: one tensor per expert a token chose, elementsPerToken counting each token's K routed
    /// slots; how the b·s·K slots split over the experts follows the data, their sum does not.
    bool routed = false;
};

/// Bytes per dropout-mask element: 1 in every precision. PyTorch keeps the mask as torch.bool (and
/// Korthikanti et al. count 1 byte), whatever the activations' dtype.
double dropoutMaskBytes(StorageType activations);

/// The tensors one layer of `model` (a transformer) keeps for backward with activations in
/// `activations`. recompute full keeps only the layer's input; selective drops the attention scores.
/// A tensor two operations save (the norm output both QKV and the router read, flash attention's
/// output that the output projection also saves) is one row, counted once.
std::vector<ActivationTensor> layerActivationLedger(const ModelSpec& model, StorageType activations,
                                                    Recompute recompute);

/// The fp32 logits the cross-entropy keeps: V per token, split over the vocabulary by tensor parallelism.
ActivationTensor logitsActivation(const ModelSpec& model);

/// What the last stage keeps once, after the layers: Megatron's fp32 logits alone, or for pytorch-eager
/// the final norm's tensors and the loss's (pytorch_eager_ledger.h).
std::vector<ActivationTensor> headActivationLedger(const ModelSpec& model, StorageType activations);

} // namespace napkin
