// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pytorch-eager profile's Llama-style decoder (RMSNorm, SwiGLU MLP, RoPE, grouped-query attention,
// no biases), written as Hugging Face's modeling_llama.py eager path writes it: RMSNorm upcasts to fp32
// (x.float().pow(2).mean(-1), x · rsqrt, weight · x.to(dtype)), RoPE by rotate_half with cos and sin
// computed once per forward, repeat_kv by expand and reshape, softmax in fp32 cast back, the logits
// upcast to fp32 for the loss. Every row is a tensor torch 1.13 saves (tests/validation/ measures it).
// A mixture of experts replaces the SwiGLU MLP with Mixtral's sparse MoE block (pytorch_eager_moe.h).
#include "engine/accounting/activation_ledger.h"

#include <string>
#include <vector>

namespace napkin {

/// RMSNorm, SwiGLU and RoPE together: the blocks this file describes (whatever else refuses them).
bool isLlamaStyle(const ModelSpec& model);

/// Why a Llama-style `model` is outside what the Llama-style ledger describes, or empty.
std::string llamaEagerUnsupported(const ModelSpec& model);

/// One Llama-style layer's saved tensors with recompute none or full.
std::vector<ActivationTensor> llamaEagerLayerLedger(const ModelSpec& model, StorageType activations,
                                                    Recompute recompute);

/// Kept once per step: RoPE's cos and sin, the final RMSNorm's tensors, the fp32 log-softmax and loss.
std::vector<ActivationTensor> llamaEagerHeadLedger(const ModelSpec& model, StorageType activations);

} // namespace napkin
