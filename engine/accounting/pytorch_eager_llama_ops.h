// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One training step of a Llama-style decoder (pytorch_eager_llama.h: RMSNorm, SwiGLU, RoPE, grouped-query
// attention with repeat_kv, no biases) under the pytorch-eager profile, allocation by allocation, in the
// order torch 1.13's eager autograd makes them on the CPU with one thread: Hugging Face's modeling_llama.py
// eager path as tests/validation/reference_models.py's Decoder writes it. RMSNorm's pow, mean, rsqrt and
// muls with their 0-d scalars; RoPE's cos and sin tables (kept until layer 1's backward) and its locals
// (freqs and angles, held until the forward returns); rotate_half's neg and cat; repeat_kv's expanded copies
// (their backward a sum over the repeats and four slices); matmul's reshape copies at batch > 1; SwiGLU's
// four saved tensors. In backward each node's saved tensors and incoming gradient are released as it
// finishes, nodes run latest-made first, and two gradients of one tensor are summed out of place
// (pytorch_eager_step_ops.h). docs/memory-timeline.md, "Op by op", lists the sequence.
#include "engine/accounting/pytorch_eager_moe_ops.h"
#include "engine/accounting/pytorch_eager_step_ops.h"

#include <vector>

namespace napkin {

/// Why a Llama-style `model`'s step at `activations` is not followed op by op, or empty: dense blocks, or
/// Mixtral's sparse MoE blocks without shared experts, dense-first layers or a router bias
/// (pytorch_eager_moe_ops.h), in fp32 (the 16-bit steps' casts, RMSNorm's upcast and cast back, the
/// softmax's and the logits', are not compared with torch yet), heads at least two, each an even width.
std::string_view llamaStepOpsUnsupported(const ModelSpec& model, StorageType activations);

/// The runs of a Llama-style `model`'s step at `batch` sequences (eagerStepOps() for these blocks). A
/// mixture of experts routes every layer's token slots as `routing` says (E experts in all; empty:
/// balanced routing, eager::balancedRouting(), the step's assumption).
EagerStepOps llamaStepOps(const ModelSpec& model, double batch, StorageType activations,
                          double gradientBytesPerParameter, std::vector<eager::ExpertShare> routing = {});

} // namespace napkin
